// Litmus threads as PTX functions lowered to the interpreter's IR (see
// to_ir.hpp).
#include "semantics/litmus/to_ir.hpp"

#include <algorithm>
#include <map>

#include "parser/litmus/instr_names.hpp"
#include "parser/parse.hpp"
#include "semantics/interp/lower.hpp"
#include "semantics/litmus/program.hpp"

namespace ptxcheck::litmus {

namespace {

using table::Mod;
using table::Opcode;

std::string reg_name(const std::string& r) { return !r.empty() && r[0] == '%' ? r : "%" + r; }

std::string imm(uint64_t v) { return std::to_string(static_cast<int64_t>(v)); }

// A thread's instruction written as PTX text (for instructions without a
// parsed statement: Dat3M's, and those made by transforms). Order and scope
// are set on the IR afterwards (to_ir), so the text names the plainest form
// that lowers to the same operation. Throws InputError for what PTX cannot
// express.
class Writer {
 public:
  explicit Writer(const Test& t) : t_(t) {}
  std::vector<std::string> temps;  // registers the text introduces
  std::vector<char> temp_pred;     // per temp: a predicate

  std::string text(const Instr& in) {
    const std::string ty = in.type.empty() ? "s" + std::to_string(in.size * 8) : in.type;
    const std::string sem = in.order == mm::Order::Weak ? "" : ".relaxed.sys";
    switch (in.kind) {
      case InstrKind::Load: return "ld" + sem + ".global." + ty + " " + reg_name(in.dst) + ", [" + in.loc + "];";
      case InstrKind::Store: return "st" + sem + ".global." + ty + " [" + in.loc + "], " + op(in.args.at(0)) + ";";
      case InstrKind::Rmw:
      case InstrKind::Red: return rmw(in);
      case InstrKind::Fence: return "fence.sc.sys;";
      // fence.proxy.async{.global,.shared::cta}: the lowering keeps the kind
      // and state space (PTX ISA 9.7.13.4); other kinds are set afterwards.
      case InstrKind::ProxyFence:
        if (in.pfence == mm::ProxyFenceKind::Async)
          return in.fspace == mm::StateSpace::Global   ? "fence.proxy.async.global;"
                 : in.fspace == mm::StateSpace::Shared ? "fence.proxy.async.shared::cta;"
                                                       : "fence.proxy.async;";
        return "fence.proxy.alias;";
      case InstrKind::Barrier: return barrier(in);
      case InstrKind::Alu: return alu(in);
      case InstrKind::Branch: {
        std::string p = temp(true);
        return std::string("setp.") + ptx_name(in.cmp) + ".s" + std::to_string(in.size * 8) + " " + p + ", " + op(in.args.at(0)) +
               ", " + op(in.args.at(1)) + "; @" + p + " bra " + in.target + ";";
      }
      case InstrKind::Jump: return "bra " + in.target + ";";
      case InstrKind::Ptx:
        if (!in.ptx_text.empty()) return in.ptx_text;
        break;
      case InstrKind::Label: break;
    }
    return in.text;
  }

 private:
  [[noreturn]] void no(const Instr& in, const std::string& what) const { throw InputError(t_.file, in.pos, what); }

  std::string op(const Operand& o) const { return o.is_reg ? reg_name(o.reg) : imm(o.imm); }

  std::string temp(bool pred) {
    std::string n = std::string(pred ? "%__p" : "%__t") + std::to_string(temps.size());
    temps.push_back(n);
    temp_pred.push_back(pred);
    return n;
  }

  std::string rmw(const Instr& in) {
    const bool is_atom = in.kind == InstrKind::Rmw;
    const unsigned bits = in.size * 8;
    std::string name = to_string(in.op), ty = in.type, pre;
    std::vector<std::string> args;
    for (const auto& a : in.args) args.push_back(op(a));
    switch (in.op) {
      case AluOp::Sub: {  // Dat3M's sub: add of the negation (same bits)
        std::string n = temp(false);
        pre = "neg.s" + std::to_string(bits) + " " + n + ", " + args.at(0) + "; ";
        args[0] = n;
        name = "add";
        break;
      }
      case AluOp::Mul:
      case AluOp::Div: no(in, std::string(is_atom ? "atom." : "red.") + name + " is not a PTX atomic operation");
      case AluOp::Inc:
      case AluOp::Dec:
        if (args.empty()) args.push_back(imm(bits >= 64 ? ~0ull : (1ull << bits) - 1));  // wraps at the maximum
        break;
      default: break;
    }
    if (ty.empty()) {
      auto aop = atom_of(in.op == AluOp::Sub ? AluOp::Add : in.op);
      bool bitwise = aop && (*aop == arith::AtomOp::And || *aop == arith::AtomOp::Or || *aop == arith::AtomOp::Xor ||
                             *aop == arith::AtomOp::Exch || *aop == arith::AtomOp::Cas);
      bool inc = aop && (*aop == arith::AtomOp::Inc || *aop == arith::AtomOp::Dec);
      ty = (bitwise ? "b" : inc ? "u" : "s") + std::to_string(bits);
    }
    std::string s = pre + (is_atom ? "atom" : "red") + std::string(".relaxed.sys.global.") + name + "." + ty + " ";
    if (is_atom) s += reg_name(in.dst) + ", ";
    s += "[" + in.loc + "]";
    for (const auto& a : args) s += ", " + a;
    return s + ";";
  }

  std::string barrier(const Instr& in) {
    // Dat3M's two-operand form names one logical barrier by both operands.
    std::string pre, id = op(in.args.at(0));
    if (in.args.size() > 1) {
      const Operand &a = in.args[0], &b = in.args[1];
      if (!a.is_reg && !b.is_reg) {
        id = imm((a.imm << 16) | (b.imm & 0xffff));
      } else {
        std::string h = temp(false), l = temp(false);
        pre = "shl.b32 " + h + ", " + op(a) + ", 16; and.b32 " + l + ", " + op(b) + ", 65535; or.b32 " + h + ", " + h +
              ", " + l + "; ";
        id = h;
      }
    }
    std::string s = pre + (in.bar == mm::BarrierOp::Arrive ? "bar.arrive " : "bar.sync ") + id;
    if (in.bar_count >= 0) s += ", " + std::to_string(in.bar_count);
    return s + ";";
  }

  std::string alu(const Instr& in) {
    const std::string b = std::to_string(in.size * 8);
    const std::string d = reg_name(in.dst);
    auto two = [&](const std::string& m) {
      return m + " " + d + ", " + op(in.args.at(0)) + ", " + op(in.args.at(1)) + ";";
    };
    switch (in.op) {
      case AluOp::Mov: return "mov.b" + b + " " + d + ", " + op(in.args.at(0)) + ";";
      case AluOp::Add: return two("add.s" + b);
      case AluOp::Sub: return two("sub.s" + b);
      case AluOp::Mul: return two("mul.lo.s" + b);
      case AluOp::Div: return two("div.s" + b);
      case AluOp::And: return two("and.b" + b);
      case AluOp::Or: return two("or.b" + b);
      case AluOp::Xor: return two("xor.b" + b);
      case AluOp::Min: return two("min.s" + b);
      case AluOp::Max: return two("max.s" + b);
      case AluOp::Setp: {
        std::string p = temp(true);
        return std::string("setp.") + ptx_name(in.cmp) + ".s" + b + " " + p + ", " + op(in.args.at(0)) + ", " +
               op(in.args.at(1)) + "; selp.b" + b + " " + d + ", 1, 0, " + p + ";";
      }
      default: no(in, std::string("'") + to_string(in.op) + "' is not a register operation");
    }
  }

  const Test& t_;
};

// The width of a register that a formal parameter takes or returns: its
// type's bits (a .param's whole size, at most 64; 1 for .pred).
unsigned formal_bits(const ast::VarDecl& d) {
  if (d.type == Mod::pred) return 1;
  uint64_t b = table::is_type(d.type) ? table::type_bits(d.type) : 64;
  b *= d.vec ? d.vec : 1;
  for (const auto& n : d.dims) b *= n.value_or(1);
  return static_cast<unsigned>(std::min<uint64_t>(b, 64));
}

// Registers an instruction names, and the width of the ones it writes.
struct RegUse {
  const std::vector<ast::Function>* funcs = nullptr;  // the prelude's (call)
  std::map<std::string, unsigned> width;  // 0: no typed write seen; 1: predicate
  std::vector<std::string> order;         // first appearance
  void see(const std::string& n, unsigned w) {
    if (special_reg(n)) return;  // read by the instruction (PTX ISA 10), not declared
    auto [it, fresh] = width.emplace(n, w);
    if (fresh) order.push_back(n);
    else if (w > 1 && it->second < w) it->second = w;
    else if (w == 1 && it->second == 0) it->second = 1;
  }
  void operand(const ast::Operand& o, unsigned w) {
    if (auto* r = std::get_if<ast::Reg>(&o.v)) see(r->name, w);
    else if (auto* p = std::get_if<ast::RegPair>(&o.v)) see(p->first.name, w), see(p->second.name, w);
    else if (auto* v = std::get_if<ast::VectorOp>(&o.v))
      for (const auto& e : v->elems) operand(e, w);
    else if (auto* a = std::get_if<ast::Address>(&o.v)) {
      if (a->reg) see(a->reg->name, 0);
    }
  }
  // call: a register in its argument or return list has the width of the
  // callee's formal there (the prelude's last declaration of that name).
  void call(const ast::Instruction& in) {
    const ast::Function* f = nullptr;
    for (const auto& o : in.operands)
      if (auto* sym = std::get_if<ast::Symbol>(&o.v); sym && funcs)
        for (const auto& g : *funcs)
          if (g.name == sym->name) f = &g;
    bool rets = true;
    for (const auto& o : in.operands) {
      auto* l = std::get_if<ast::ArgList>(&o.v);
      if (!l) {
        if (std::holds_alternative<ast::Reg>(o.v)) operand(o, 0);  // an indirect call's address
        rets = false;
        continue;
      }
      const std::vector<ast::VarDecl>* formals = f ? (rets ? &f->rets : &f->params) : nullptr;
      for (size_t k = 0; k < l->elems.size(); ++k)
        operand(l->elems[k], formals && k < formals->size() ? formal_bits((*formals)[k]) : 0);
      rets = false;
    }
  }
  void instruction(const ast::Instruction& in) {
    if (in.op == Opcode::call) {
      if (in.guard) see(in.guard->reg, 1);
      call(in);
      return;
    }
    if (in.guard) see(in.guard->reg, 1);
    bool writes = true;
    switch (in.op) {
      case Opcode::st: case Opcode::red: case Opcode::bar: case Opcode::barrier: case Opcode::bra:
      case Opcode::fence: case Opcode::membar: case Opcode::ret: case Opcode::exit: case Opcode::trap:
      case Opcode::cp_async: case Opcode::cp_async_bulk: case Opcode::cp_async_bulk_commit_group:
      case Opcode::cp_async_bulk_wait_group: case Opcode::cp_async_commit_group: case Opcode::cp_async_wait_group:
      case Opcode::cp_async_wait_all:
        writes = false;
        break;
      default: break;
    }
    unsigned w = 64;
    for (const auto& m : in.mods)
      if (table::is_type(m.id)) {
        w = table::type_bits(m.id);
        break;
      }
    if (in.has(Mod::wide)) w *= 2;
    if (in.op == Opcode::setp || in.op == Opcode::mbarrier_try_wait || in.op == Opcode::mbarrier_test_wait) w = 1;
    if (w > 64) w = 64;
    for (size_t k = 0; k < in.operands.size(); ++k) operand(in.operands[k], writes && k == 0 ? w : 0);
  }
};

// Thread statements are lowered with line kThreadLine + their Instr's
// index (then given their Instr's position back); prelude functions keep
// their own positions, which are lines of the file, far below.
constexpr uint32_t kThreadLine = 1u << 30;

ast::Instruction relined(ast::Instruction in, uint32_t line) {
  in.pos.line = line;
  for (auto& o : in.operands) o.pos.line = line;
  if (in.guard) in.guard->pos.line = line;
  return in;
}

}  // namespace

TestIr to_ir(const Test& t, const Program& p) {
  TestIr out;
  ast::Module m;
  m.file = t.file;
  for (const mm::Location& l : p.locations) {
    ast::VarDecl d;
    d.space = Mod::global;
    d.type = l.size == 1 ? Mod::b8 : l.size == 2 ? Mod::b16 : l.size == 8 ? Mod::b64 : Mod::b32;
    d.name = l.name;
    ast::Init init;
    ast::Operand v;
    ast::IntImm x;
    x.value = l.init;
    v.v = x;
    init.value = v;
    d.init = init;
    m.items.push_back(ast::TopLevel{{}, d});
  }
  for (const ast::Function& f : t.funcs) m.items.push_back(ast::TopLevel{f.pos, f});
  const size_t nglob = m.items.size();
  std::map<std::pair<uint32_t, uint32_t>, int> func_stmt;
  for (size_t k = 0; k < t.func_stmts.size(); ++k)
    func_stmt.emplace(std::make_pair(t.func_stmts[k].pos.line, t.func_stmts[k].pos.col), static_cast<int>(k));
  for (size_t ti = 0; ti < t.threads.size(); ++ti) {
    const Thread& th = t.threads[ti];
    const LThread& lt = p.threads[ti];
    Writer w(t);
    std::vector<ast::Statement> body;
    RegUse regs;
    regs.funcs = &t.funcs;
    for (const std::string& r : lt.regs) regs.see(reg_name(r), 0);
    for (size_t j = 0; j < th.code.size(); ++j) {
      const Instr& in = th.code[j];
      const uint32_t line = kThreadLine + static_cast<uint32_t>(j);
      if (in.kind == InstrKind::Label) {
        ast::Statement s;
        s.pos.line = line;
        s.v = ast::Label{s.pos, in.target};
        body.push_back(std::move(s));
        continue;
      }
      std::vector<ast::Statement> sts;
      if (in.ptx) {
        ast::Statement s;
        s.pos.line = line;
        s.v = relined(*in.ptx, line);
        sts.push_back(std::move(s));
      } else {
        sts = parse_statements(w.text(in), t.file, SourcePos{line, 1});
      }
      for (auto& s : sts) {
        if (auto* i = std::get_if<ast::Instruction>(&s.v)) regs.instruction(*i);
        body.push_back(std::move(s));
      }
    }
    for (size_t k = 0; k < w.temps.size(); ++k) regs.see(w.temps[k], w.temp_pred[k] ? 1 : 32);
    // Declarations first: slot 0 is the lowering's carry flag, then one slot
    // per register in this order.
    std::vector<ast::Statement> decls;
    for (const std::string& n : regs.order) {
      unsigned wd = regs.width[n];
      ast::VarDecl d;
      d.space = Mod::reg;
      d.type = wd == 1 ? Mod::pred : wd == 8 ? Mod::b8 : wd == 16 ? Mod::b16 : wd == 32 ? Mod::b32 : Mod::b64;
      d.name = n;
      ast::Statement s;
      s.v = d;
      decls.push_back(std::move(s));
    }
    // The thread's .param/.local variables (a call sequence's).
    for (const ast::VarDecl& d : th.decls) {
      ast::Statement s;
      s.pos = d.pos;
      s.v = d;
      decls.push_back(std::move(s));
    }
    body.insert(body.begin(), decls.begin(), decls.end());
    ast::Function f;
    f.is_entry = true;
    f.name = "__litmus_P" + std::to_string(ti);
    f.has_body = true;
    f.body = std::move(body);
    m.items.resize(nglob);
    m.items.push_back(ast::TopLevel{{}, std::move(f)});
    ThreadIr ir;
    try {
      ir.prog = interp::lower(m, "__litmus_P" + std::to_string(ti), {}, t.file);
    } catch (const InputError& e) {
      const uint32_t l = e.pos().line;
      SourcePos at = l >= kThreadLine && l - kThreadLine < th.code.size() ? th.code[l - kThreadLine].pos
                     : l >= 1 && l < kThreadLine                          ? e.pos()
                                                                          : th.pos;
      throw InputError(t.file, at, e.what());
    }
    ir.prog.file = t.file;
    const interp::Function& fn = ir.prog.funcs[ir.prog.kernel];
    if (fn.nregs != regs.order.size() + 1) throw std::logic_error("litmus registers: unexpected slot layout");
    std::map<std::string, uint32_t> slot;
    for (size_t k = 0; k < regs.order.size(); ++k) slot[regs.order[k]] = static_cast<uint32_t>(k + 1);
    for (const std::string& r : lt.regs) ir.slot_of.push_back(slot.at(reg_name(r)));
    ir.instr_of_pc.assign(ir.prog.code.size(), -1);
    ir.func_stmt_of_pc.assign(ir.prog.code.size(), -1);
    for (size_t pc = 0; pc < ir.prog.code.size(); ++pc) {
      interp::Inst& in = ir.prog.code[pc];
      if (pc < fn.entry_pc) {
        auto it = func_stmt.find({in.line, in.col});
        if (it != func_stmt.end()) ir.func_stmt_of_pc[pc] = it->second;
        continue;
      }
      if (in.line < kThreadLine || in.line - kThreadLine >= th.code.size()) {
        in.line = th.pos.line;
        in.col = th.pos.col;
        continue;
      }
      const size_t j = in.line - kThreadLine;
      const Instr& src = th.code[j];
      in.line = src.pos.line;
      in.col = src.pos.col;
      if (in.op == interp::IrOp::Exit) continue;
      ir.instr_of_pc[pc] = static_cast<int>(j);
      bool mem = in.op == interp::IrOp::Ld || in.op == interp::IrOp::St || in.op == interp::IrOp::Atom ||
                 in.op == interp::IrOp::Red || in.op == interp::IrOp::Fence;
      bool decoded = src.kind == InstrKind::Load || src.kind == InstrKind::Store || src.kind == InstrKind::Rmw ||
                     src.kind == InstrKind::Red || src.kind == InstrKind::Fence;
      if (mem && decoded) {
        in.order = src.order;
        in.scope = src.scope;
      }
    }
    out.threads.push_back(std::move(ir));
  }
  if (!out.threads.empty()) {
    const auto& globals = out.threads.front().prog.globals;
    for (size_t l = 0; l < p.locations.size(); ++l) {
      out.loc_addr.push_back(globals.at(l).addr);
      out.loc_size.push_back(p.locations[l].size);
    }
  }
  return out;
}

}  // namespace ptxcheck::litmus
