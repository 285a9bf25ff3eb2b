// Module and function structure of the lowering: symbols, data layout,
// registers, frames, labels. Instructions are in lower_insn.cpp.
#include "semantics/interp/lower.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <unordered_set>
#include <variant>

#include "parser/expr.hpp"
#include "semantics/interp/lower_ctx.hpp"
#include "semantics/interp/mma.hpp"

namespace ptxcheck::interp {

using table::Mod;

uint32_t decl_size(const ast::VarDecl& d) {
  uint64_t n = table::is_type(d.type) ? std::max(1u, table::type_bits(d.type) / 8) : 8;
  if (d.type == Mod::pred) n = 1;
  if (d.vec) n *= d.vec;
  for (const auto& dim : d.dims) n *= dim.value_or(0);
  if (n > (1u << 30)) n = 1u << 30;
  return static_cast<uint32_t>(n);
}

uint32_t decl_align(const ast::VarDecl& d) {
  if (d.align) return *d.align;
  uint32_t e = table::is_type(d.type) ? std::max(1u, table::type_bits(d.type) / 8) : 8;
  return d.vec ? e * d.vec : e;
}

namespace {

constexpr uint64_t kNoAddr = ~0ull;

// Evaluates a scalar initializer operand to bits of `type` (PTX ISA 5.4.4).
uint64_t init_scalar(LowerCtx& ctx, const ast::Operand& o, Mod type) {
  unsigned bits = table::type_bits(type);
  bool isf = table::type_kind(type) == table::TypeKind::F;
  if (auto* i = std::get_if<ast::IntImm>(&o.v)) {
    if (!isf) return i->value;
    double d = static_cast<double>(static_cast<int64_t>(i->value));
    if (bits == 32) {
      float f = static_cast<float>(d);
      uint32_t u;
      std::memcpy(&u, &f, 4);
      return u;
    }
    uint64_t u;
    std::memcpy(&u, &d, 8);
    return u;
  }
  if (auto* f = std::get_if<ast::FloatImm>(&o.v)) {
    if (f->form == ast::FloatForm::Hex32) {
      if (bits == 64) {
        float x;
        uint32_t u = static_cast<uint32_t>(f->bits);
        std::memcpy(&x, &u, 4);
        double d = x;
        uint64_t r;
        std::memcpy(&r, &d, 8);
        return r;
      }
      return f->bits;
    }
    if (bits == 32) {
      double d;
      std::memcpy(&d, &f->bits, 8);
      float x = static_cast<float>(d);
      uint32_t u;
      std::memcpy(&u, &x, 4);
      return u;
    }
    return f->bits;
  }
  if (auto* s = std::get_if<ast::Symbol>(&o.v)) {
    auto it = ctx.msyms.find(s->name);
    if (it == ctx.msyms.end() && is_warp_sz(s->name)) return kWarpSz;  // PTX ISA 4.5.1
    if (it == ctx.msyms.end()) ctx.fail(o.pos, "unknown symbol '" + s->name + "' in initializer");
    if (it->second.kind == ModSym::Global) return ctx.prog.globals[it->second.index].addr;
    if (it->second.kind == ModSym::Func) return kFuncAddrBase + 16 * it->second.index;
    return Memory::to_generic(it->second.kind == ModSym::Const ? Space::Const : Space::Shared, it->second.addr);
  }
  if (auto* e = std::get_if<ast::Expr>(&o.v)) {
    if (e->op == ast::ExprOp::Generic && e->args.size() == 1) return init_scalar(ctx, e->args[0], Mod::u64);
    std::vector<uint64_t> a;
    for (const auto& x : e->args) a.push_back(init_scalar(ctx, x, Mod::u64));
    switch (e->op) {
      case ast::ExprOp::Add: return a.at(0) + a.at(1);
      case ast::ExprOp::Sub: return a.at(0) - a.at(1);
      case ast::ExprOp::Mul: return a.at(0) * a.at(1);
      case ast::ExprOp::Neg: return -a.at(0);
      case ast::ExprOp::Plus: return a.at(0);
      case ast::ExprOp::BitNot: return ~a.at(0);
      case ast::ExprOp::Shl: return a.at(1) < 64 ? a.at(0) << a.at(1) : 0;
      case ast::ExprOp::BitAnd: return a.at(0) & a.at(1);
      case ast::ExprOp::BitOr: return a.at(0) | a.at(1);
      case ast::ExprOp::BitXor: return a.at(0) ^ a.at(1);
      case ast::ExprOp::CastS64:
      case ast::ExprOp::CastU64: return a.at(0);
      default: ctx.fail(o.pos, "unsupported constant expression in initializer");
    }
  }
  ctx.fail(o.pos, "unsupported initializer");
}

void init_bytes(LowerCtx& ctx, const ast::Init& in, Mod type, std::vector<uint8_t>& out, size_t& pos) {
  if (in.is_list) {
    for (const auto& e : in.elems) init_bytes(ctx, e, type, out, pos);
    return;
  }
  unsigned n = std::max(1u, table::type_bits(type) / 8);
  uint64_t v = init_scalar(ctx, *in.value, type);
  if (pos + n <= out.size()) std::memcpy(&out[pos], &v, n);
  pos += n;
}

std::vector<uint8_t> data_of(LowerCtx& ctx, const ast::VarDecl& d) {
  std::vector<uint8_t> bytes(decl_size(d), 0);
  if (d.init) {
    size_t pos = 0;
    init_bytes(ctx, *d.init, d.type, bytes, pos);
  }
  return bytes;
}

void declare_module_var(LowerCtx& ctx, const ast::VarDecl& d) {
  ModSym s;
  if (d.space == Mod::global) {
    Program::GlobalVar g;
    g.name = d.name;
    g.bytes = data_of(ctx, d);
    s.kind = ModSym::Global;
    s.index = static_cast<uint32_t>(ctx.prog.globals.size());
    // Same placement rule as Memory::add_global; module globals come first.
    uint64_t next = ctx.prog.global_base;
    for (const auto& o : ctx.prog.globals) next = o.addr + ((o.bytes.size() + 255) / 256 + 1) * 256;
    g.addr = next;
    ctx.prog.globals.push_back(std::move(g));
  } else if (d.space == Mod::const_) {
    auto bytes = data_of(ctx, d);
    uint32_t a = decl_align(d);
    size_t off = (ctx.prog.const_bytes.size() + a - 1) / a * a;
    ctx.prog.const_bytes.resize(off + bytes.size());
    std::memcpy(ctx.prog.const_bytes.data() + off, bytes.data(), bytes.size());
    s.kind = ModSym::Const;
    s.addr = off;
  } else if ((d.space == Mod::shared || d.space == Mod::shared_cta) && d.linkage == table::Linkage::extern_ &&
             !d.dims.empty() && !d.dims.back()) {
    // An unsized .extern .shared array names the dynamic shared memory,
    // which follows the kernel's static shared memory (CUDA programming
    // guide, "Shared Memory": every such array starts at the same address).
    s.kind = ModSym::Shared;
    s.addr = ctx.dyn_shared_base >= 0 ? static_cast<uint64_t>(ctx.dyn_shared_base) : 0;
    ctx.dyn_align = std::max(ctx.dyn_align, decl_align(d));
  } else if (d.space == Mod::shared || d.space == Mod::shared_cta) {
    s.kind = ModSym::Shared;
    s.addr = ctx.reached(d.name) ? ctx.shared_alloc(decl_size(d), decl_align(d)) : 0;
  } else {
    return;  // .tex etc. and module .local (PTX 3.0-) are not modelled
  }
  ctx.msyms[d.name] = s;
}

void declare_local(LowerCtx& ctx, const ast::VarDecl& d) {
  auto& scope = ctx.scopes.back();
  if (d.space == Mod::reg) {
    uint32_t w = table::is_type(d.type) ? table::type_bits(d.type) : 64;
    if (d.vec) w *= d.vec;
    if (w > 64 && !(w == 128 && !d.vec)) w = 64;
    // A .b128 register (PTX ISA 9.2 5.2.2, sm_90) is two consecutive 64-bit
    // slots, low half first (ir.hpp: reg_slot_hi).
    auto slot = [&] {
      uint32_t s0 = ctx.new_slot(w);
      if (w == 128) ctx.new_slot(64);
      return s0;
    };
    if (d.range) {
      for (uint32_t i = 0; i < *d.range; ++i) {
        LocalSym s{LocalSym::Reg, slot(), 0, w};
        scope[d.name + std::to_string(i)] = s;
      }
    } else {
      scope[d.name] = LocalSym{LocalSym::Reg, slot(), 0, w};
    }
    return;
  }
  if (d.space == Mod::local || d.space == Mod::param) {
    scope[d.name] = LocalSym{LocalSym::Frame, 0, ctx.frame_alloc(decl_size(d), decl_align(d)), 64, decl_size(d)};
    return;
  }
  if (d.space == Mod::shared || d.space == Mod::shared_cta) {
    // A function-scope .shared variable is still per CTA (PTX ISA 5.1.7).
    ModSym s{ModSym::Shared, ctx.reached(d.name) ? ctx.shared_alloc(decl_size(d), decl_align(d)) : 0, 0};
    ctx.msyms[d.name] = s;  // visible by name; PTX forbids clashes
    return;
  }
  if (d.space == Mod::global || d.space == Mod::const_) {
    declare_module_var(ctx, d);
    return;
  }
}

// A `.loc file line col [, function_name L, inlined_at file line col]`
// (PTX ISA 11.5.2) becomes the position of the instructions after it; an
// inlined position also keeps the outermost call site it is inlined at.
void add_loc(LowerCtx& ctx, const ast::LocDir& d) {
  SourceLoc l{d.file, d.line, d.file, d.line};
  auto at = d.tail.find("inlined_at");
  if (at != std::string::npos) {
    unsigned f = 0, ln = 0;
    if (std::sscanf(d.tail.c_str() + at + 10, "%u %u", &f, &ln) == 2) {
      // The call site itself may be inlined: follow it to the outermost.
      for (const SourceLoc& o : ctx.prog.locs)
        if (o.file == f && o.line == ln) {
          f = o.outer_file;
          ln = o.outer_line;
          break;
        }
      l.outer_file = f;
      l.outer_line = ln;
    }
  }
  ctx.prog.locs.push_back(l);
  ctx.cur_loc = static_cast<uint32_t>(ctx.prog.locs.size());
}

void lower_body(LowerCtx& ctx, const std::vector<ast::Statement>& body) {
  // The block's labels first so that forward branches resolve; scopes follow
  // nesting (LowerCtx::label_scopes). Two labels of one name in one block are
  // an error, as ptxas makes them ("Duplicate definition of label").
  std::unordered_map<std::string, uint32_t> here;
  for (const auto& st : body)
    if (auto* l = std::get_if<ast::Label>(&st.v)) {
      if (here.count(l->name)) ctx.fail(st.pos, "duplicate label '" + l->name + "' in one block");
      here[l->name] = static_cast<uint32_t>(ctx.label_pc.size());
      ctx.label_pc.push_back(LowerCtx::kNoLabel);
    }
  ctx.label_scopes.push_back(std::move(here));
  const std::string* last_label = nullptr;  // a label directly before a .branchtargets names it
  for (const auto& st : body) {
    const std::string* label = nullptr;
    if (auto* v = std::get_if<ast::VarDecl>(&st.v)) {
      declare_local(ctx, *v);
    } else if (auto* l = std::get_if<ast::Label>(&st.v)) {
      ctx.label_pc[ctx.label_scopes.back().at(l->name)] = static_cast<uint32_t>(ctx.prog.code.size());
      label = &l->name;
    } else if (auto* d = std::get_if<ast::Directive>(&st.v)) {
      auto* tl = std::get_if<ast::TargetListDir>(&d->v);
      if (tl && !tl->calls && last_label) {
        auto& list = ctx.branch_lists[*last_label];
        list.clear();
        for (const auto& name : tl->names) list.emplace_back(name, ctx.find_label(name));
      }
      if (auto* loc = std::get_if<ast::LocDir>(&d->v)) add_loc(ctx, *loc);
    } else if (auto* in = std::get_if<ast::Instruction>(&st.v)) {
      lower_instruction(ctx, *in, st.pos);
      ctx.prog.src_loc.resize(ctx.prog.code.size(), ctx.cur_loc);
    } else if (auto* b = std::get_if<ast::Block>(&st.v)) {
      ctx.scopes.emplace_back();
      lower_body(ctx, b->body);
      ctx.scopes.pop_back();
    }
    last_label = label;
  }
  ctx.label_scopes.pop_back();
}

// The accumulator and A-fragment registers of a wgmma.mma_async may not be
// accessed while it is in flight, and a wgmma.fence must separate other
// accesses to them from the next wgmma.mma_async (PTX ISA 9.7.15.7.1,
// 9.7.15.7.3). Instructions of the function that touch one of them are
// marked (Inst::wg_reg) so that the executor checks only those.
void mark_wgmma_registers(LowerCtx& ctx, uint32_t from) {
  std::vector<bool> used(ctx.fn->nregs, false);
  bool any = false;
  auto& code = ctx.prog.code;
  auto wg_site = [&](const Inst& in) -> const MmaSite* {
    if (in.op != IrOp::Mma) return nullptr;
    const MmaSite* s = ctx.prog.mma[in.target].get();
    return s->op == MatOp::Wgmma || s->op == MatOp::WgFence || s->op == MatOp::WgCommit || s->op == MatOp::WgWait
               ? s
               : nullptr;
  };
  for (size_t pc = from; pc < code.size(); ++pc)
    if (const MmaSite* s = wg_site(code[pc]); s && s->op == MatOp::Wgmma) {
      for (const Opnd& o : s->rd) used[o.slot] = any = true;
      for (const Opnd& o : s->ra)
        if (o.kind == Opnd::Reg) used[o.slot] = any = true;
    }
  if (!any) return;
  auto hit = [&](const Opnd& o) { return o.kind == Opnd::Reg && o.slot < used.size() && used[o.slot]; };
  for (size_t pc = from; pc < code.size(); ++pc) {
    Inst& in = code[pc];
    if (wg_site(in)) continue;
    bool h = in.guarded && in.guard < used.size() && used[in.guard];
    for (unsigned k = 0; k < 4; ++k) h = h || hit(in.dst[k]) || hit(in.src[k]);
    if (in.addr.base == Addr::Reg && in.addr.slot < used.size() && used[in.addr.slot]) h = true;
    if (in.addr2.base == Addr::Reg && in.addr2.slot < used.size() && used[in.addr2.slot]) h = true;
    in.wg_reg = h;
  }
}

Formal formal_of(LowerCtx& ctx, const ast::VarDecl& d) {
  Formal f;
  f.size = decl_size(d);
  if (d.space == Mod::reg) {
    f.is_reg = true;
    f.width = table::is_type(d.type) ? table::type_bits(d.type) : 64u;
    if (f.width > 64 && !(f.width == 128 && !d.vec)) f.width = 64;
    f.slot = ctx.new_slot(f.width);
    if (f.width == 128) ctx.new_slot(64);  // the high half of a .b128 register
    ctx.scopes.back()[d.name] = LocalSym{LocalSym::Reg, f.slot, 0, f.width};
  } else {
    f.frame_off = ctx.frame_alloc(f.size, decl_align(d));
    ctx.scopes.back()[d.name] = LocalSym{LocalSym::Frame, 0, f.frame_off, 64, f.size};
  }
  return f;
}

void lower_function(LowerCtx& ctx, const ast::Function& af, uint32_t index) {
  Function& f = ctx.prog.funcs[index];
  ctx.fn = &f;
  ctx.scopes.clear();
  ctx.scopes.emplace_back();
  ctx.label_scopes.clear();
  ctx.label_pc.clear();
  ctx.fixups.clear();
  ctx.branch_lists.clear();
  ctx.table_fixups.clear();
  f.entry_pc = static_cast<uint32_t>(ctx.prog.code.size());
  ctx.cc_slot = ctx.new_slot(1);
  if (af.is_entry) {
    // Kernel parameters live in the read-only param space (PTX ISA 5.1.6.1).
    uint32_t off = 0;
    bool is_kernel = index == ctx.prog.kernel;
    for (const auto& p : af.params) {
      uint32_t a = decl_align(p), sz = decl_size(p);
      off = (off + a - 1) / a * a;
      ctx.scopes.back()[p.name] = LocalSym{LocalSym::KParam, 0, off, 64};
      if (is_kernel) ctx.prog.kparams.push_back(KernelParam{p.name, off, sz, a});
      off += sz;
    }
    if (is_kernel) ctx.prog.kparam_bytes = off;
  } else {
    for (const auto& r : af.rets) f.rets.push_back(formal_of(ctx, r));
    for (const auto& p : af.params) f.params.push_back(formal_of(ctx, p));
  }
  lower_body(ctx, af.body);
  mark_wgmma_registers(ctx, f.entry_pc);
  // Falling off the end returns (PTX requires ret/exit; be lenient).
  Inst end;
  end.op = af.is_entry ? IrOp::Exit : IrOp::Ret;
  end.line = af.pos.line;
  end.col = af.pos.col;
  ctx.prog.code.push_back(end);
  for (const auto& [pc, id] : ctx.fixups) ctx.prog.code[pc].target = ctx.label_pc[id];
  // brx.idx tables: every entry a label of this function (PTX ISA 9.7.12.4 brx.idx).
  for (const auto& [pc, tab] : ctx.table_fixups) {
    auto it = ctx.branch_lists.find(tab.first);
    if (it == ctx.branch_lists.end()) ctx.fail(tab.second, "unknown .branchtargets list '" + tab.first + "'");
    std::vector<uint32_t> targets;
    for (const auto& [name, id] : it->second) {
      if (id == LowerCtx::kNoLabel)
        ctx.fail(tab.second, "unknown label '" + name + "' in .branchtargets '" + tab.first + "'");
      targets.push_back(ctx.label_pc[id]);
    }
    ctx.prog.code[pc].target = static_cast<uint32_t>(ctx.prog.branch_tables.size());
    ctx.prog.branch_tables.push_back(std::move(targets));
  }
}

}  // namespace

namespace {

// PTX ISA 9.7.12.5 call: a direct call to a defined function passes as many
// arguments and takes as many return values as the callee declares, and a
// register passed for (or receiving) a formal has the formal's size (ptxas
// refuses the call otherwise: "Prototype doesn't match"). An indirect call's
// callee is known only when it runs.
void check_calls(const LowerCtx& ctx, const Program& prog) {
  for (const Function& caller : prog.funcs) {
    if (!caller.defined) continue;
    uint32_t end = static_cast<uint32_t>(prog.code.size());
    for (const Function& g : prog.funcs)
      if (g.defined && g.entry_pc > caller.entry_pc) end = std::min(end, g.entry_pc);
    for (uint32_t pc = caller.entry_pc; pc < end; ++pc) {
      const Inst& in = prog.code[pc];
      if (in.op != IrOp::Call) continue;
      const CallSite& cs = prog.calls[in.target];
      if (cs.callee == ~0u || !prog.funcs[cs.callee].defined) continue;
      const Function& f = prog.funcs[cs.callee];
      const SourcePos at{in.line, in.col};
      if (cs.args.size() != f.params.size())
        ctx.fail(at, "call to '" + f.name + "' with " + std::to_string(cs.args.size()) + " argument(s); it takes " +
                         std::to_string(f.params.size()) + " (PTX ISA 9.7.12.5 call)");
      if (cs.rets.size() != f.rets.size())
        ctx.fail(at, "call to '" + f.name + "' with " + std::to_string(cs.rets.size()) +
                         " return value(s); it returns " + std::to_string(f.rets.size()) + " (PTX ISA 9.7.12.5 call)");
      auto size = [&](const CallArg& a, const Formal& fm, size_t k, const char* what) {
        if (a.in_frame || a.value.kind != Opnd::Reg) return;
        const unsigned w = caller.reg_width[a.value.slot];
        const unsigned fw = fm.is_reg ? fm.width : fm.size * 8;
        if (w != fw && (fm.is_reg || fm.size <= 8))
          ctx.fail(at, "call to '" + f.name + "': " + what + " " + std::to_string(k + 1) + " is a " +
                           std::to_string(w) + "-bit register, the formal has " + std::to_string(fw) +
                           " bits (PTX ISA 9.7.12.5 call)");
      };
      for (size_t k = 0; k < cs.args.size(); ++k) size(cs.args[k], f.params[k], k, "argument");
      for (size_t k = 0; k < cs.rets.size(); ++k) size(cs.rets[k], f.rets[k], k, "return value");
    }
  }
}

// The names mentioned by an operand (symbols, address bases, plain
// identifiers; not %-registers).
void names_in(const ast::Operand& o, std::vector<std::string>& out) {
  std::visit(
      [&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, ast::Symbol>) {
          out.push_back(x.name);
        } else if constexpr (std::is_same_v<T, ast::Reg>) {
          if (!x.name.starts_with('%')) out.push_back(x.name);
        } else if constexpr (std::is_same_v<T, ast::Address>) {
          if (x.sym) out.push_back(*x.sym);
          if (x.reg && !x.reg->name.starts_with('%')) out.push_back(x.reg->name);
          for (const auto& e : x.extra) names_in(e, out);
        } else if constexpr (std::is_same_v<T, ast::Expr>) {
          for (const auto& e : x.args) names_in(e, out);
        } else if constexpr (std::is_same_v<T, ast::VectorOp> || std::is_same_v<T, ast::ArgList>) {
          for (const auto& e : x.elems) names_in(e, out);
        }
      },
      o.v);
}

void names_in(const ast::Init& in, std::vector<std::string>& out) {
  if (in.value) names_in(*in.value, out);
  for (const auto& e : in.elems) names_in(e, out);
}

void names_in(const std::vector<ast::Statement>& body, std::vector<std::string>& out) {
  for (const auto& st : body) {
    if (const auto* in = std::get_if<ast::Instruction>(&st.v)) {
      for (const auto& o : in->operands) names_in(o, out);
    } else if (const auto* d = std::get_if<ast::VarDecl>(&st.v)) {
      out.push_back(d->name);  // the function's own (.shared) variables
      if (d->init) names_in(*d->init, out);
    } else if (const auto* b = std::get_if<ast::Block>(&st.v)) {
      names_in(b->body, out);
    } else if (const auto* dir = std::get_if<ast::Directive>(&st.v)) {
      if (const auto* t = std::get_if<ast::TargetListDir>(&dir->v))
        for (const auto& n : t->names) out.push_back(n);
    }
  }
}

// What a kernel reaches: from its name, the functions named (called, or
// their address taken) by reachable functions and by module variables'
// initializers (function-pointer tables), through `.alias`, with every name
// those mention.
std::unordered_set<std::string> kernel_reach(const ast::Module& m, const std::string& kernel) {
  std::unordered_map<std::string, const ast::Function*> bodies;
  std::unordered_map<std::string, std::string> alias;
  std::vector<std::string> work{kernel};
  for (const auto& it : m.items) {
    if (const auto* f = std::get_if<ast::Function>(&it.v)) {
      if (f->has_body) bodies[f->name] = f;
    } else if (const auto* v = std::get_if<ast::VarDecl>(&it.v)) {
      if (v->init) names_in(*v->init, work);
    } else if (const auto* d = std::get_if<ast::Directive>(&it.v)) {
      if (const auto* a = std::get_if<ast::AliasDir>(&d->v)) alias[a->alias] = a->aliasee;
    }
  }
  std::unordered_set<std::string> reach;
  while (!work.empty()) {
    std::string n = std::move(work.back());
    work.pop_back();
    if (!reach.insert(n).second) continue;
    if (auto a = alias.find(n); a != alias.end()) work.push_back(a->second);
    if (auto f = bodies.find(n); f != bodies.end()) names_in(f->second->body, work);
  }
  return reach;
}

// One lowering pass; `dyn_base` places the dynamic shared memory (-1: not
// known yet); `dyn_align` returns the alignment it needs (0: the module
// declares none).
Program lower_pass(const ast::Module& m, const std::string& kernel, SourcePos kpos, const std::string& spec_file,
                   uint64_t global_base, int64_t dyn_base, uint32_t& dyn_align,
                   const std::unordered_set<std::string>& reach) {
  Program prog;
  prog.file = m.file;
  prog.global_base = global_base;
  LowerCtx ctx{m, prog, m.file, {}, nullptr, {}, {}, {}, {}, 0, {}, {}};
  ctx.dyn_shared_base = dyn_base;
  ctx.reach = &reach;
  std::vector<const ast::Function*> afs;
  bool found = false;
  for (const auto& it : m.items) {
    if (auto* f = std::get_if<ast::Function>(&it.v)) {
      uint32_t idx = static_cast<uint32_t>(prog.funcs.size());
      auto old = ctx.msyms.find(f->name);
      if (old != ctx.msyms.end() && old->second.kind == ModSym::Func) {
        // A declaration followed by the definition: keep one index.
        idx = old->second.index;
        if (f->has_body) afs[idx] = f;
      } else {
        Function fn;
        fn.name = f->name;
        fn.is_entry = f->is_entry;
        prog.funcs.push_back(fn);
        afs.push_back(f);
        ctx.msyms[f->name] = ModSym{ModSym::Func, 0, idx};
      }
      if (f->is_entry && f->name == kernel) {
        prog.kernel = idx;
        found = true;
        for (const auto& pd : f->perf) {
          std::array<uint32_t, 3> d{1, 1, 1};
          for (size_t k = 0; k < pd.values.size() && k < 3; ++k) d[k] = static_cast<uint32_t>(pd.values[k]);
          if (pd.kind == table::Perf::reqntid) prog.reqntid = d;
          if (pd.kind == table::Perf::maxntid) prog.maxntid = d;
          if (pd.kind == table::Perf::reqnctapercluster) prog.reqnctapercluster = d;
          if (pd.kind == table::Perf::explicitcluster) prog.explicitcluster = true;
        }
      }
    } else if (auto* v = std::get_if<ast::VarDecl>(&it.v)) {
      declare_module_var(ctx, *v);
    } else if (auto* d = std::get_if<ast::Directive>(&it.v)) {
      if (auto* f = std::get_if<ast::FileDir>(&d->v)) prog.src_files.emplace_back(f->index, f->path);
    }
  }
  if (!found) {
    std::string names;
    for (const auto& f : prog.funcs)
      if (f.is_entry) names += (names.empty() ? "" : ", ") + f.name;
    throw InputError(
        spec_file, kpos,
        "no kernel (.entry) named '" + kernel + "' in " + m.file + (names.empty() ? "" : " (kernels: " + names + ")"));
  }
  for (uint32_t i = 0; i < afs.size(); ++i) {
    prog.funcs[i].defined = afs[i]->has_body;
    if (afs[i]->has_body) lower_function(ctx, *afs[i], i);
  }
  check_calls(ctx, prog);
  prog.src_loc.resize(prog.code.size(), 0);
  dyn_align = ctx.dyn_align;
  return prog;
}

}  // namespace

// Function-scope .shared variables (nvcc's "demoted" __shared__ variables)
// are laid out while their function is lowered, so the static size is known
// only after a pass; a module with dynamic shared memory is lowered again with
// its base at the end of the static part, aligned. The static size then
// includes the padding. Only the shared variables the kernel reaches take
// space (kernel_reach): two kernels of one module do not add up.
Program lower(const ast::Module& m, const std::string& kernel, SourcePos kpos, const std::string& spec_file,
              uint64_t global_base) {
  uint32_t dyn_align = 0;
  const auto reach = kernel_reach(m, kernel);
  Program prog = lower_pass(m, kernel, kpos, spec_file, global_base, -1, dyn_align, reach);
  if (!dyn_align || !prog.static_shared_bytes) return prog;
  const uint32_t a = std::max(16u, dyn_align);
  const uint32_t base = (prog.static_shared_bytes + a - 1) / a * a;
  uint32_t again = 0;
  prog = lower_pass(m, kernel, kpos, spec_file, global_base, base, again, reach);
  prog.static_shared_bytes = base;
  return prog;
}

std::string Program::source_of(uint32_t pc) const {
  if (pc >= src_loc.size() || !src_loc[pc]) return "";
  const SourceLoc& l = locs[src_loc[pc] - 1];
  auto name = [&](uint32_t f, uint32_t line) {
    std::string n = std::to_string(f);
    for (const auto& [i, path] : src_files)
      if (i == f) n = path.substr(path.find_last_of('/') + 1);
    return n + ":" + std::to_string(line);
  };
  std::string s = name(l.file, l.line);
  if (l.outer_file != l.file || l.outer_line != l.line) s += " (inlined at " + name(l.outer_file, l.outer_line) + ")";
  return s;
}

}  // namespace ptxcheck::interp
