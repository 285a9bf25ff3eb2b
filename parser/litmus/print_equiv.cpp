// Equivalence of two litmus Tests (print.hpp: test_difference): the
// relation a print/parse round trip must preserve. Fields compare per
// instruction kind: only those the kind uses (litmus_ast.hpp) count.
#include <sstream>

#include "parser/litmus/print.hpp"

namespace ptxcheck::litmus {

namespace {

std::string op_text(const Operand& o) { return o.is_reg ? "%" + canonical_reg(o.reg) : std::to_string(o.imm); }

std::string args_text(const std::vector<Operand>& v) {
  std::string s;
  for (const auto& o : v) s += op_text(o) + ",";
  return s;
}

const LocDecl* decl_of(const Test& t, const std::string& name) {
  for (const auto& d : t.locs)
    if (d.name == name) return &d;
  return nullptr;
}

mm::Proxy effective_proxy(const Test& t, const Instr& in) {
  if (in.proxy != mm::Proxy::Generic) return in.proxy;
  const LocDecl* d = decl_of(t, in.loc);
  return d ? d->proxy : mm::Proxy::Generic;
}

// A kind-specific key: equal keys mean the same instruction to the model.
std::string key(const Test& t, const Instr& in) {
  std::ostringstream k;
  k << "kind" << int(in.kind);
  bool mem = in.kind == InstrKind::Load || in.kind == InstrKind::Store || in.kind == InstrKind::Rmw ||
             in.kind == InstrKind::Red;
  if (mem) {
    k << " loc=" << in.loc << " order=" << int(in.order) << " size=" << in.size
      << " proxy=" << int(effective_proxy(t, in));
    if (in.order != mm::Order::Weak) k << " scope=" << int(in.scope);
  }
  switch (in.kind) {
    case InstrKind::Load: k << " dst=" << canonical_reg(in.dst); break;
    case InstrKind::Store: k << " args=" << args_text(in.args); break;
    case InstrKind::Rmw: k << " dst=" << canonical_reg(in.dst) << " op=" << int(in.op) << " args=" << args_text(in.args); break;
    case InstrKind::Red: k << " op=" << int(in.op) << " args=" << args_text(in.args); break;
    case InstrKind::Fence: k << " order=" << int(in.order) << " scope=" << int(in.scope); break;
    case InstrKind::ProxyFence: k << " pfence=" << int(in.pfence); break;
    case InstrKind::Barrier: k << " bar=" << int(in.bar) << " args=" << args_text(in.args) << " count=" << in.bar_count; break;
    case InstrKind::Alu:
      k << " op=" << int(in.op) << " dst=" << canonical_reg(in.dst) << " args=" << args_text(in.args)
        << " size=" << in.size;
      if (in.op == AluOp::Setp) k << " cmp=" << int(in.cmp);
      break;
    case InstrKind::Branch: k << " cmp=" << int(in.cmp) << " args=" << args_text(in.args) << " target=" << in.target; break;
    case InstrKind::Jump:
    case InstrKind::Label: k << " target=" << in.target; break;
    case InstrKind::Ptx:  // the Dat3M dialect's async extension keeps its PTX form in ptx_text
      k << " ptx=" << (in.ptx_text.empty() ? in.text : in.ptx_text.substr(0, in.ptx_text.size() - 1));
      break;
  }
  return k.str();
}

std::string value_key(const CondValue& v) {
  switch (v.kind) {
    case CondValue::Reg: return std::to_string(v.thread) + ":%" + canonical_reg(v.name);
    case CondValue::Loc: return "loc " + v.name;
    case CondValue::Const: return "const " + std::to_string(v.value);
  }
  return "?";
}

std::string cond_key(const Cond& c) {
  std::string s = "(" + std::to_string(int(c.kind));
  if (c.kind == Cond::Cmp) s += " " + value_key(c.lhs) + " " + to_string(c.cmp) + " " + value_key(c.rhs);
  for (const auto& k : c.kids) s += " " + cond_key(k);
  return s + ")";
}

std::string loc_key(const LocDecl& d) {
  std::ostringstream k;
  k << d.name << " alias_of=" << d.alias_of << " proxy=" << int(d.proxy) << " size=" << d.size
    << " space=" << (d.space.empty() ? "global" : d.space);
  if (d.alias_of.empty()) k << " init=" << d.init;
  return k.str();
}

std::string place_key(const mm::ThreadPlace& p) {
  return "cta " + std::to_string(p.cta) + ", cluster " + std::to_string(p.cluster) + ", gpu " +
         std::to_string(p.gpu) + ", warp " + std::to_string(p.warp);
}

}  // namespace

std::string test_difference(const Test& a, const Test& b) {
  auto diff = [](const std::string& what, const std::string& x, const std::string& y) {
    return what + ": '" + x + "' vs '" + y + "'";
  };
  if (a.name != b.name) return diff("name", a.name, b.name);
  if (a.locs.size() != b.locs.size())
    return diff("location count", std::to_string(a.locs.size()), std::to_string(b.locs.size()));
  for (size_t i = 0; i < a.locs.size(); ++i)
    if (loc_key(a.locs[i]) != loc_key(b.locs[i])) return diff("location", loc_key(a.locs[i]), loc_key(b.locs[i]));
  // The prelude's functions (their bodies are PTX, compared as parsed).
  if (a.funcs.size() != b.funcs.size())
    return diff("function count", std::to_string(a.funcs.size()), std::to_string(b.funcs.size()));
  for (size_t i = 0; i < a.funcs.size(); ++i) {
    const ast::Function &x = a.funcs[i], &y = b.funcs[i];
    if (x.name != y.name) return diff("function", x.name, y.name);
    if (x.rets.size() != y.rets.size() || x.params.size() != y.params.size() || x.body.size() != y.body.size())
      return diff("function", x.name, y.name + " (another signature or body)");
  }
  if (a.reg_inits.size() != b.reg_inits.size())
    return diff("register init count", std::to_string(a.reg_inits.size()), std::to_string(b.reg_inits.size()));
  for (size_t i = 0; i < a.reg_inits.size(); ++i) {
    const auto &x = a.reg_inits[i], &y = b.reg_inits[i];
    if (x.thread != y.thread || canonical_reg(x.reg) != canonical_reg(y.reg) || x.value != y.value)
      return diff("register init", std::to_string(x.thread) + ":" + x.reg + "=" + std::to_string(x.value),
                  std::to_string(y.thread) + ":" + y.reg + "=" + std::to_string(y.value));
  }
  if (a.threads.size() != b.threads.size())
    return diff("thread count", std::to_string(a.threads.size()), std::to_string(b.threads.size()));
  for (size_t t = 0; t < a.threads.size(); ++t) {
    const auto &x = a.threads[t], &y = b.threads[t];
    std::string T = "thread " + std::to_string(t);
    if (place_key(x.place) != place_key(y.place)) return diff(T + " placement", place_key(x.place), place_key(y.place));
    if (x.code.size() != y.code.size())
      return diff(T + " length", std::to_string(x.code.size()), std::to_string(y.code.size()));
    for (size_t i = 0; i < x.code.size(); ++i) {
      std::string kx = key(a, x.code[i]), ky = key(b, y.code[i]);
      if (kx != ky) return diff(T + " instruction " + std::to_string(i), kx, ky);
    }
  }
  if (a.quant != b.quant) return diff("quantifier", quant_name(a.quant), quant_name(b.quant));
  if (cond_key(a.cond) != cond_key(b.cond)) return diff("condition", cond_key(a.cond), cond_key(b.cond));
  return "";
}

}  // namespace ptxcheck::litmus
