// Printers for both litmus dialects (print.hpp). Each printer refuses what
// its dialect cannot say rather than printing an approximation, so a round
// trip never changes a test's meaning silently.
#include "parser/litmus/print.hpp"

#include <algorithm>
#include <cctype>

#include "parser/litmus/cursor.hpp"
#include "parser/litmus/instr_names.hpp"

namespace ptxcheck::litmus {

namespace {

[[noreturn]] void cannot(const Test& t, const std::string& dialect, const std::string& what) {
  throw InputError(t.file, {}, "test '" + t.name + "': " + dialect + " cannot express " + what);
}

// fence.proxy.async's state space (PTX ISA 9.7.13.4).
std::string fspace_suffix(const Instr& in) {
  switch (in.fspace) {
    case mm::StateSpace::Global: return ".global";
    case mm::StateSpace::Shared: return ".shared::cta";
    default: return "";
  }
}

// fence.proxy.<kind>'s name; nullptr for an event that is not a proxy fence.
const char* pfence_name(mm::ProxyFenceKind k) { return k == mm::ProxyFenceKind::None ? nullptr : mm::to_string(k); }

const char* cmp_suffix(CmpOp c) {
  switch (c) {
    case CmpOp::Eq: return "eq";
    case CmpOp::Ne: return "ne";
    case CmpOp::Lt: return "lt";
    case CmpOp::Le: return "le";
    case CmpOp::Gt: return "gt";
    case CmpOp::Ge: return "ge";
  }
  return "?";
}

const LocDecl* decl_of(const Test& t, const std::string& name) {
  for (const auto& d : t.locs)
    if (d.name == name) return &d;
  return nullptr;
}

std::string num(uint64_t v) { return std::to_string(v); }

std::string trimmed(const std::string& s) {
  size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::string cond_value(const CondValue& v, bool native) {
  switch (v.kind) {
    case CondValue::Reg:
      return (native ? "T" : "P") + std::to_string(v.thread) + ":" + (native ? "%" : "") + canonical_reg(v.name);
    case CondValue::Loc: return v.name;
    case CondValue::Const: return std::to_string(static_cast<int64_t>(v.value));
  }
  return "?";
}

// The nesting depth that cursor.cpp counts when it parses cond_text(c): a
// negation prints as `~(` (two levels), a compound as `(` (one).
int printed_depth(const Cond& c) {
  int kid = 0;
  for (const Cond& k : c.kids) kid = std::max(kid, printed_depth(k));
  switch (c.kind) {
    case Cond::Not: return kid + 2;
    case Cond::And:
    case Cond::Or:
    case Cond::Implies: return kid + 1;
    default: return kid;
  }
}

// Mirrors the condition grammar of cursor.cpp: every compound is parenthesised.
std::string cond_text(const Cond& c, bool native) {
  auto join = [&](const char* sep) {
    std::string s = "(";
    for (size_t i = 0; i < c.kids.size(); ++i) s += (i ? sep : "") + cond_text(c.kids[i], native);
    return s + ")";
  };
  switch (c.kind) {
    case Cond::True: return "true";
    case Cond::Cmp: return cond_value(c.lhs, native) + " " + to_string(c.cmp) + " " + cond_value(c.rhs, native);
    case Cond::And: return join(" /\\ ");
    case Cond::Or: return join(" \\/ ");
    case Cond::Not: return "~(" + cond_text(c.kids[0], native) + ")";
    case Cond::Implies: return join(" => ");
  }
  return "?";
}

// ---- native -----------------------------------------------------------------

struct Native {
  const Test& t;
  [[noreturn]] void no(const std::string& what) const { cannot(t, "the native format", what); }

  std::string type(uint32_t size, char kind) const {
    if (size != 1 && size != 2 && size != 4 && size != 8) no("an access size of " + num(size) + " bytes");
    return std::string(".") + kind + num(8 * size);
  }
  std::string reg(const std::string& r) const {
    if (r.empty()) no("an empty register name");
    return "%" + canonical_reg(r);
  }
  std::string op(const Operand& o) const { return o.is_reg ? reg(o.reg) : num(o.imm); }
  std::string space(const std::string& loc) const {
    const LocDecl* d = decl_of(t, loc);
    return d && d->space == "shared" ? ".shared" : ".global";
  }
  // `.order.scope` of a memory access; a weak access prints none (PTX ISA 8.4).
  std::string sem(const Instr& in) const {
    if (in.order == mm::Order::Weak) return "";
    if (in.order == mm::Order::MMIO) return ".relaxed.mmio.sys";  // the last order qualifier wins
    return std::string(".") + mm::to_string(in.order) + "." + mm::to_string(in.scope);
  }
  void check_proxy(const Instr& in) const {
    const LocDecl* d = decl_of(t, in.loc);
    mm::Proxy lp = d ? d->proxy : mm::Proxy::Generic;
    if (in.proxy != mm::Proxy::Generic && in.proxy != lp)
      no(std::string("a ") + mm::to_string(in.proxy) + " access to '" + in.loc +
         "' (declare an alias `via " + mm::to_string(in.proxy) + "`)");
  }
  static char atom_kind(AluOp o) {
    switch (o) {
      case AluOp::And: case AluOp::Or: case AluOp::Xor: case AluOp::Exch: case AluOp::Cas: return 'b';
      default: return 'u';
    }
  }

  std::string instr(const Instr& in) const {
    switch (in.kind) {
      case InstrKind::Label: return in.target + ":";
      case InstrKind::Ptx: return in.ptx_text.empty() ? in.text + ";" : in.ptx_text;
      case InstrKind::Load:
        check_proxy(in);
        return "ld" + space(in.loc) + sem(in) + type(in.size, 'u') + " " + reg(in.dst) + ", [" + in.loc + "];";
      case InstrKind::Store:
        check_proxy(in);
        return "st" + space(in.loc) + sem(in) + type(in.size, 'u') + " [" + in.loc + "], " + op(in.args.at(0)) + ";";
      case InstrKind::Rmw:
      case InstrKind::Red: {
        check_proxy(in);
        bool rmw = in.kind == InstrKind::Rmw;
        if (in.op == AluOp::Sub || in.op == AluOp::Mul || in.op == AluOp::Div)
          no(std::string(rmw ? "atom." : "red.") + to_string(in.op));
        if (in.order == mm::Order::Weak || in.order == mm::Order::SC || in.order == mm::Order::MMIO)
          no(std::string("an atomic with order .") + mm::to_string(in.order));
        if (in.size != 4 && in.size != 8) no("an atomic of " + num(in.size) + " bytes");
        if ((in.op == AluOp::Inc || in.op == AluOp::Dec) && in.args.empty())
          no(std::string(rmw ? "atom." : "red.") + to_string(in.op) + " without its bound operand");
        std::string s = std::string(rmw ? "atom" : "red") + space(in.loc) + sem(in) + "." + to_string(in.op) +
                        type(in.size, atom_kind(in.op)) + " ";
        if (rmw) s += reg(in.dst) + ", ";
        s += "[" + in.loc + "]";
        for (const auto& a : in.args) s += ", " + op(a);
        return s + ";";
      }
      case InstrKind::Fence:
        if (in.order != mm::Order::SC && in.order != mm::Order::AcqRel && in.order != mm::Order::Acquire &&
            in.order != mm::Order::Release)
          no(std::string("a fence with order .") + mm::to_string(in.order));
        return std::string("fence.") + mm::to_string(in.order) + "." + mm::to_string(in.scope) + ";";
      case InstrKind::ProxyFence: {
        const char* k = pfence_name(in.pfence);
        // The PTX front end knows only these two (PTX ISA 9.7.13.4).
        if (in.pfence != mm::ProxyFenceKind::Alias && in.pfence != mm::ProxyFenceKind::Async)
          no(std::string("fence.proxy.") + (k ? k : "?") + " (PTX has fence.proxy.alias and .async)");
        return std::string("fence.proxy.") + k + fspace_suffix(in) + ";";
      }
      case InstrKind::Barrier: {
        if (in.args.size() != 1) no("a barrier named by " + num(in.args.size()) + " operands");
        if (in.bar != mm::BarrierOp::Sync && in.bar != mm::BarrierOp::Arrive) no("this barrier operation");
        if (in.bar == mm::BarrierOp::Arrive && in.bar_count < 0) no("bar.arrive without a thread count");
        std::string s = in.bar == mm::BarrierOp::Sync ? "bar.sync " : "bar.arrive ";
        s += op(in.args[0]);
        if (in.bar_count >= 0) s += ", " + std::to_string(in.bar_count);
        return s + ";";
      }
      case InstrKind::Alu: {
        if (in.op == AluOp::Mov) return "mov" + type(in.size, 'b') + " " + reg(in.dst) + ", " + op(in.args.at(0)) + ";";
        if (in.op == AluOp::Setp)
          return std::string("setp.") + cmp_suffix(in.cmp) + type(in.size, 'u') + " " + reg(in.dst) + ", " +
                 op(in.args.at(0)) + ", " + op(in.args.at(1)) + ";";
        if (!alu_from_name(to_string(in.op))) no(std::string("the register operation ") + to_string(in.op));
        if (in.size != 2 && in.size != 4 && in.size != 8) no("arithmetic on " + num(in.size) + " bytes");
        char k = in.op == AluOp::And || in.op == AluOp::Or || in.op == AluOp::Xor ? 'b' : 'u';
        return std::string(to_string(in.op)) + (in.op == AluOp::Mul ? ".lo" : "") + type(in.size, k) + " " +
               reg(in.dst) + ", " + op(in.args.at(0)) +
               ", " + op(in.args.at(1)) + ";";
      }
      case InstrKind::Branch: {
        // PTX branches test a predicate: `@%p bra` is p != 0, `@!%p bra` p == 0.
        bool ok = in.args.size() == 2 && in.args[0].is_reg && !in.args[1].is_reg && in.args[1].imm == 0 &&
                  (in.cmp == CmpOp::Ne || in.cmp == CmpOp::Eq);
        if (!ok) no("a compare-and-branch other than `@%p bra` / `@!%p bra`");
        return std::string(in.cmp == CmpOp::Ne ? "@" : "@!") + reg(in.args[0].reg) + " bra " + in.target + ";";
      }
      case InstrKind::Jump: return "bra " + in.target + ";";
    }
    no("an unknown instruction");
  }

  // PTX ISA 4.4 Identifiers: [a-zA-Z][a-zA-Z0-9_$]* or [_$%][a-zA-Z0-9_$]+.
  // Dat3M's dialect also allows dots in locations and labels (`LC.0`).
  static bool ptx_ident(const std::string& n) {
    auto follow = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '$'; };
    if (n.empty()) return false;
    bool lead_sym = n[0] == '_' || n[0] == '$' || n[0] == '%';
    if (!std::isalpha(static_cast<unsigned char>(n[0])) && !(lead_sym && n.size() > 1)) return false;
    for (size_t i = 1; i < n.size(); ++i)
      if (!follow(n[i])) return false;
    return true;
  }
  void name(const std::string& n, const char* what) const {
    if (!ptx_ident(n)) no(std::string(what) + " '" + n + "' (not a PTX identifier)");
  }
  void names_of(const Cond& c) const {
    for (const CondValue* v : {&c.lhs, &c.rhs}) {
      if (v->kind == CondValue::Reg) name("%" + canonical_reg(v->name), "the register");
      if (v->kind == CondValue::Loc) name(v->name, "the location");
    }
    for (const Cond& k : c.kids) names_of(k);
  }
  // Names the PTX parser would not read back as the same token.
  void names() const {
    for (const auto& d : t.locs) {
      name(d.name, "the location");
      if (!d.alias_of.empty()) name(d.alias_of, "the location");
    }
    for (const auto& r : t.reg_inits) name("%" + canonical_reg(r.reg), "the register");
    for (const auto& th : t.threads)
      for (const auto& in : th.code) {
        if (in.kind == InstrKind::Ptx) continue;  // printed from its own PTX text
        if (!in.loc.empty()) name(in.loc, "the location");
        if (!in.target.empty()) name(in.target, "the label");
        if (!in.dst.empty()) name("%" + canonical_reg(in.dst), "the register");
        for (const auto& a : in.args)
          if (a.is_reg) name("%" + canonical_reg(a.reg), "the register");
      }
    names_of(t.cond);
  }

  std::string print() const {
    if (t.name.empty() || t.name.find_first_of(" \t\r\n\"{") != std::string::npos)
      no("the test name '" + t.name + "' (one word, no quotes or braces)");
    if (t.name.rfind("//", 0) == 0 || t.name.rfind("(*", 0) == 0)
      no("the test name '" + t.name + "' (it would start a comment)");
    names();
    std::string s = "PTX " + t.name + "\n{\n";
    for (const auto& d : t.locs) {
      s += "  ." + (d.space.empty() ? std::string("global") : d.space) + " " + type(d.size, 'u') + " " + d.name;
      if (d.alias_of.empty()) s += " = " + num(d.init);
      else s += " aliases " + d.alias_of;
      if (d.proxy != mm::Proxy::Generic) s += std::string(" via ") + mm::to_string(d.proxy);
      s += ";\n";
    }
    for (const auto& r : t.reg_inits) s += "  T" + std::to_string(r.thread) + ":" + reg(r.reg) + " = " + num(r.value) + ";\n";
    s += "}\n";
    if (!t.prelude.empty()) s += t.prelude + "\n";
    else if (!t.funcs.empty()) no("functions without their prelude text");
    for (size_t i = 0; i < t.threads.size(); ++i) {
      const auto& p = t.threads[i].place;
      s += "T" + std::to_string(i) + " @ cta " + std::to_string(p.cta) + ", cluster " + std::to_string(p.cluster) +
           ", gpu " + std::to_string(p.gpu);
      if (p.warp >= 0) s += ", warp " + std::to_string(p.warp);
      s += " {\n";
      for (const auto& in : t.threads[i].code) s += (in.kind == InstrKind::Label ? "" : "  ") + instr(in) + "\n";
      s += "}\n";
    }
    if (printed_depth(t.cond) > kMaxCondDepth)
      no("a condition nested deeper than " + num(kMaxCondDepth) + " levels once printed");
    return s + quant_name(t.quant) + " " + cond_text(t.cond, true) + "\n";
  }
};

// ---- Dat3M ------------------------------------------------------------------

struct Dat3m {
  const Test& t;
  [[noreturn]] void no(const std::string& what) const { cannot(t, "Dat3M's dialect", what); }

  std::string reg(const std::string& r) const {
    std::string c = canonical_reg(r);
    bool ok = c.size() >= 2 && c[0] == 'r';
    for (size_t i = 1; ok && i < c.size(); ++i) ok = c[i] >= '0' && c[i] <= '9';
    if (!ok) no("the register name '" + r + "' (registers are r<N>)");
    return c;
  }
  std::string op(const Operand& o) const { return o.is_reg ? reg(o.reg) : num(o.imm); }
  // The condition's registers must be r<N> too (`P1:%13` is native only).
  void cond_regs(const Cond& c) const {
    for (const CondValue* v : {&c.lhs, &c.rhs})
      if (v->kind == CondValue::Reg) reg(v->name);
    for (const Cond& k : c.kids) cond_regs(k);
  }
  void size4(uint32_t size) const {
    if (size != 4) no("an access or operation of " + num(size) + " bytes");
  }
  std::string sem(const Instr& in) const {
    if (in.order == mm::Order::Weak) return ".weak";
    return std::string(".") + mm::to_string(in.order) + "." + mm::to_string(in.scope);
  }
  std::string mnemonic(const Instr& in) const {
    mm::Proxy p = in.proxy;
    switch (in.kind) {
      case InstrKind::Load:
        if (p == mm::Proxy::Texture) return "tld";
        if (p == mm::Proxy::Surface) return "suld";
        if (p == mm::Proxy::Constant) return "cold";
        return "ld";
      case InstrKind::Store:
        if (p == mm::Proxy::Surface) return "sust";
        if (p != mm::Proxy::Generic) no(std::string("a store through the ") + mm::to_string(p) + " proxy");
        return "st";
      default:
        if (p == mm::Proxy::Surface) return in.kind == InstrKind::Rmw ? "suatom" : "sured";
        if (p != mm::Proxy::Generic) no(std::string("an atomic through the ") + mm::to_string(p) + " proxy");
        return in.kind == InstrKind::Rmw ? "atom" : "red";
    }
  }

  // ptxcheck's async extension of the dialect (docs/litmus-format.md): the
  // forms its reader accepts (dat3m.cpp parse_async), written as PTX with
  // bare location names and r<N> registers.
  std::string async_ext(const Instr& in) const {
    std::string s = in.ptx_text.empty() ? in.text : in.ptx_text;
    while (!s.empty() && (s.back() == ';' || std::isspace(static_cast<unsigned char>(s.back())))) s.pop_back();
    const std::string m = s.substr(0, s.find(' '));
    const bool ok = m == "cp.async.bulk.commit_group" || m.rfind("cp.async.bulk.", 0) == 0 ||
                    m.rfind("mbarrier.try_wait", 0) == 0 || m.rfind("mbarrier.test_wait", 0) == 0;
    if (!ok) no("the PTX instruction '" + in.text + "'");
    std::string out = m;
    size_t at = m.size();
    for (bool first = true; at < s.size(); first = false) {
      size_t end = s.find(',', at);
      if (end == std::string::npos) end = s.size();
      std::string o = trimmed(s.substr(at, end - at));
      at = end + 1;
      if (o.size() > 2 && o.front() == '[' && o.back() == ']') o = trimmed(o.substr(1, o.size() - 2));
      else if (!o.empty() && o[0] == '%') o = reg(o);
      out += (first ? " " : ", ") + o;
    }
    return out;
  }

  std::string instr(const Instr& in) const {
    switch (in.kind) {
      case InstrKind::Label: return in.target + ":";
      case InstrKind::Ptx: return async_ext(in);
      case InstrKind::Load:
        size4(in.size);
        return mnemonic(in) + sem(in) + " " + reg(in.dst) + ", " + in.loc;
      case InstrKind::Store:
        size4(in.size);
        return mnemonic(in) + sem(in) + " " + in.loc + ", " + op(in.args.at(0));
      case InstrKind::Rmw:
      case InstrKind::Red: {
        size4(in.size);
        if (in.order == mm::Order::Weak) no("a weak atomic");
        std::string s = mnemonic(in) + sem(in) + "." + to_string(in.op) + " ";
        if (in.kind == InstrKind::Rmw) s += reg(in.dst) + ", ";
        s += in.loc;
        size_t want = in.op == AluOp::Cas ? 2 : (in.op == AluOp::Inc || in.op == AluOp::Dec) ? 0 : 1;
        if (in.args.size() != want) no(std::string("atom.") + to_string(in.op) + " with " + num(in.args.size()) + " operands");
        for (const auto& a : in.args) s += ", " + op(a);
        return s;
      }
      case InstrKind::Fence:
        if (in.order != mm::Order::SC && in.order != mm::Order::AcqRel && in.order != mm::Order::Acquire &&
            in.order != mm::Order::Release)
          no(std::string("a fence with order .") + mm::to_string(in.order));
        return std::string("fence.") + mm::to_string(in.order) + "." + mm::to_string(in.scope);
      case InstrKind::ProxyFence: {
        const char* k = pfence_name(in.pfence);
        if (!k) no("a proxy fence without a kind");
        return std::string("fence.proxy.") + k + fspace_suffix(in);
      }
      case InstrKind::Barrier: {
        if (in.args.empty() || in.args.size() > 2) no("a barrier named by " + num(in.args.size()) + " operands");
        if (in.bar != mm::BarrierOp::Sync && in.bar != mm::BarrierOp::Arrive) no("this barrier operation");
        if (in.bar_count >= 0 && in.args.size() != 2) no("a barrier thread count without a two-operand barrier id");
        std::string s = in.bar == mm::BarrierOp::Sync ? "bar.cta.sync " : "bar.cta.arrive ";
        for (size_t i = 0; i < in.args.size(); ++i) s += (i ? ", " : "") + op(in.args[i]);
        if (in.bar_count >= 0) s += ", " + std::to_string(in.bar_count);
        return s;
      }
      case InstrKind::Alu:
        size4(in.size);
        if (in.op == AluOp::Mov) {
          if (in.args.at(0).is_reg) no("mov of a register");
          return "ld " + reg(in.dst) + ", " + num(in.args[0].imm);  // Dat3M's register assignment
        }
        if (in.op == AluOp::Setp) no("setp");
        if (!alu_from_name(to_string(in.op))) no(std::string("the register operation ") + to_string(in.op));
        return std::string(to_string(in.op)) + " " + reg(in.dst) + ", " + op(in.args.at(0)) + ", " + op(in.args.at(1));
      case InstrKind::Branch:
        return std::string("b") + cmp_suffix(in.cmp) + " " + op(in.args.at(0)) + ", " + op(in.args.at(1)) + ", " +
               in.target;
      case InstrKind::Jump: return "goto " + in.target;
    }
    no("an unknown instruction");
  }

  std::string print() const {
    if (t.name.empty() || t.name.find_first_of("\r\n{") != std::string::npos || t.name != trimmed(t.name))
      no("the test name '" + t.name + "'");
    if (!t.funcs.empty()) no("functions (.func definitions)");
    std::string s = "PTX " + t.name + "\n{\n";
    for (const auto& d : t.locs) {
      if (d.size != 4) no("a location of " + num(d.size) + " bytes");
      if (!d.space.empty() && d.space != "global" && d.space != "shared") no("the state space ." + d.space);
      if (d.alias_of.empty()) {
        if (d.proxy != mm::Proxy::Generic) no("a proxy on the non-alias location '" + d.name + "'");
        s += "  " + d.name + " = " + num(d.init) + ";\n";
        if (d.space == "shared") s += "  " + d.name + " @ shared;\n";  // ptxcheck's extension
      } else {
        s += "  " + d.name + " @ " + mm::to_string(d.proxy) + " aliases " + d.alias_of + ";\n";
      }
    }
    for (const auto& r : t.reg_inits) s += "  P" + std::to_string(r.thread) + ":" + reg(r.reg) + " = " + num(r.value) + ";\n";
    s += "}\n";
    // Columns: header row, then one row per instruction index, padded.
    std::vector<std::vector<std::string>> cols;
    size_t rows = 0;
    for (size_t i = 0; i < t.threads.size(); ++i) {
      const auto& p = t.threads[i].place;
      if (p.warp >= 0) no("a warp placement");
      std::string h = "P" + std::to_string(i) + "@cta " + std::to_string(p.cta);
      if (p.cluster != p.cta + 1000 * p.gpu) {
        if (p.cluster == 0) no("cluster 0 for a thread in cta " + std::to_string(p.cta));
        h += ",cluster " + std::to_string(p.cluster);
      }
      h += ",gpu " + std::to_string(p.gpu);
      std::vector<std::string> col{h};
      for (const auto& in : t.threads[i].code) col.push_back(instr(in));
      rows = std::max(rows, col.size());
      cols.push_back(std::move(col));
    }
    if (cols.empty()) no("a test without threads");
    std::vector<size_t> width(cols.size(), 0);
    for (size_t i = 0; i < cols.size(); ++i)
      for (const auto& c : cols[i]) width[i] = std::max(width[i], c.size());
    for (size_t r = 0; r < rows; ++r) {
      std::string line;
      for (size_t i = 0; i < cols.size(); ++i) {
        std::string cell = r < cols[i].size() ? cols[i][r] : "";
        cell.resize(width[i], ' ');
        line += (i ? " | " : " ") + cell;
      }
      s += line + " ;\n";
    }
    cond_regs(t.cond);
    if (printed_depth(t.cond) > kMaxCondDepth)
      no("a condition nested deeper than " + num(kMaxCondDepth) + " levels once printed");
    return s + quant_name(t.quant) + " " + cond_text(t.cond, false) + "\n";
  }
};

}  // namespace

std::string canonical_reg(const std::string& name) {
  return !name.empty() && name[0] == '%' ? name.substr(1) : name;
}

std::string print_native(const Test& t) { return Native{t}.print(); }
std::string print_dat3m(const Test& t) { return Dat3m{t}.print(); }
std::string print_native_instr(const Test& t, const Instr& in) { return Native{t}.instr(in); }

}  // namespace ptxcheck::litmus
