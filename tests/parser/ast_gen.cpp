// Random PTX modules for the printer properties (tests/parser/test_ast_props.cpp):
// module() draws directives, variables with initialisers, alignment and
// arrays, kernels and functions with parameters, instructions drawn from the
// opcode table with allowed qualifiers, and operands of every shape;
// valid_module() draws modules that ptxas must accept. Every pick is a
// RapidCheck generator run inside the property, so counterexamples shrink.
#include "tests/parser/ast_gen.hpp"

#include <rapidcheck.h>

#include <cstring>
#include <string>
#include <vector>

namespace {

namespace ast = ptxcheck::ast;
namespace table = ptxcheck::table;
using table::Mod;
using table::Opcode;

// ---- small pickers (inside a property, so every pick shrinks) ----

int pick(int lo, int hi) { return *rc::gen::inRange(lo, hi + 1); }  // inclusive
bool coin(int pct) { return pick(0, 99) < pct; }
template <typename T>
T one_of(const std::vector<T>& v) {
  return v[static_cast<size_t>(pick(0, static_cast<int>(v.size()) - 1))];
}
uint64_t bits64() { return *rc::gen::arbitrary<uint64_t>(); }

ast::Operand wrap(auto v) {
  ast::Operand o;
  o.v = std::move(v);
  return o;
}

const std::vector<Mod>& all_types() {
  static const std::vector<Mod> t = [] {
    std::vector<Mod> v;
    for (size_t i = 0; i < table::kModCount; ++i)
      if (table::is_type(static_cast<Mod>(i))) v.push_back(static_cast<Mod>(i));
    return v;
  }();
  return t;
}

// Names: symbols never collide with labels or register names, so name
// resolution (parser/resolve.cpp) leaves them as generated.
const std::vector<std::string> kSyms = {"gvar", "tbl", "buf", "fn_a", "$str", "_x1", "arr0", "k2"};
const std::vector<std::string> kRegs = {"%r1", "%r22", "%rd3", "%f4", "%fd5", "%h6", "%p1", "%p7", "%_t$1", "%SP"};
const std::vector<std::string> kPreds = {"%p1", "%p2", "%p7"};

// Registers declared without '%' in the function being generated (PTX ISA
// 4.4: any identifier may name a register); the parser reads them as
// symbols and parser/resolve.cpp turns them back into registers.
std::vector<std::string> g_plain_regs;

// ---- operands ----

ast::Reg reg(bool allow_sel = true) {
  ast::Reg r;
  if (!g_plain_regs.empty() && coin(20)) {
    r.name = one_of(g_plain_regs);
  } else if (allow_sel && coin(15)) {
    r.name = one_of<std::string>({"%tid", "%ntid", "%ctaid", "%nctaid"});
    r.sel = one_of<std::string>({"x", "y", "z"});
  } else {
    r.name = one_of(kRegs);
  }
  return r;
}

ast::IntImm int_imm() {
  ast::IntImm i;
  i.base = static_cast<ast::IntBase>(pick(0, 3));
  uint64_t mag = coin(60) ? static_cast<uint64_t>(pick(0, 300)) : bits64();
  i.is_unsigned = coin(20);
  i.negative = coin(25);
  i.value = i.negative ? 0 - mag : mag;  // written -mag (parser: negate)
  return i;
}

ast::FloatImm float_imm() {
  ast::FloatImm f;
  f.form = static_cast<ast::FloatForm>(pick(0, 2));
  if (f.form == ast::FloatForm::Hex32) {
    f.bits = bits64() & 0xffffffffu;
  } else if (f.form == ast::FloatForm::Hex64) {
    f.bits = bits64();
  } else {  // decimal: finite values only (nan/inf have no decimal spelling)
    double d = coin(50) ? pick(-1000, 1000) / 8.0 : 0;
    if (d == 0) {
      std::memcpy(&d, &(f.bits = bits64()), sizeof d);
      if (!std::isfinite(d)) d = 1e300;
    }
    std::memcpy(&f.bits, &d, sizeof d);
  }
  return f;
}

ast::Operand literal() { return coin(70) ? wrap(int_imm()) : wrap(float_imm()); }

// Constant expressions over literals and symbols (PTX ISA 4.5.4). Negation of
// a non-negative literal is folded by the parser, so it is not generated.
ast::Operand expr(int depth) {
  if (depth <= 0 || coin(35)) return coin(60) ? literal() : wrap(ast::Symbol{one_of(kSyms)});
  using E = ast::ExprOp;
  const int k = pick(0, 9);
  ast::Expr e;
  if (k <= 4) {
    e.op = static_cast<E>(pick(static_cast<int>(E::Mul), static_cast<int>(E::LogOr)));
    e.args = {expr(depth - 1), expr(depth - 1)};
  } else if (k <= 6) {
    e.op = one_of<E>({E::Neg, E::Plus, E::Not, E::BitNot, E::CastS64, E::CastU64});
    ast::Operand a = expr(depth - 1);
    if (e.op == E::Neg) {
      if (const auto* i = std::get_if<ast::IntImm>(&a.v); i && !i->negative) a = wrap(ast::Symbol{one_of(kSyms)});
      if (std::holds_alternative<ast::FloatImm>(a.v)) a = wrap(ast::Symbol{one_of(kSyms)});
    }
    e.args = {a};
  } else if (k == 7) {
    e.op = E::Cond;
    e.args = {expr(depth - 1), expr(depth - 1), expr(depth - 1)};
  } else if (k == 8) {
    e.op = E::Generic;
    e.args = {wrap(ast::Symbol{one_of(kSyms)})};
  } else {
    return wrap(ast::Symbol{one_of(kSyms)});
  }
  return wrap(std::move(e));
}

ast::Operand simple_operand() {
  switch (pick(0, 3)) {
    case 0: return wrap(reg());
    case 1: return literal();
    case 2: return wrap(ast::Sink{});
    default: return wrap(ast::Symbol{one_of(kSyms)});
  }
}

ast::Operand address() {
  ast::Address a;
  const int base = pick(0, 2);
  if (base == 0) a.reg = reg(false);
  if (base == 1) a.sym = one_of(kSyms);
  a.offset = coin(50) ? pick(-64, 64) : static_cast<int64_t>(bits64());
  if (base != 2 && coin(30)) a.offset = 0;
  for (int n = coin(20) ? pick(1, 2) : 0; n > 0; --n) a.extra.push_back(simple_operand());
  return wrap(std::move(a));
}

ast::Operand dest_operand() {
  switch (pick(0, 5)) {
    case 0: {  // p|q: the parser reads a pair only when both halves are spelled alike
      ast::Reg a = reg(false), b = reg(false);
      if ((a.name[0] == '%') != (b.name[0] == '%')) b = a;
      return wrap(ast::RegPair{a, b});
    }
    case 1: {
      ast::VectorOp v;
      for (int n = pick(1, 4); n > 0; --n) v.elems.push_back(coin(80) ? wrap(reg(false)) : wrap(ast::Sink{}));
      return wrap(std::move(v));
    }
    case 2: return wrap(ast::Sink{});
    default: return wrap(reg());
  }
}

ast::Operand operand(bool allow_address, const std::vector<std::string>& labels) {
  switch (pick(0, 10)) {
    case 0: {
      ast::Reg r = reg();
      r.negated = coin(50);
      r.minus = !r.negated;
      return wrap(r);
    }
    case 1: return dest_operand();
    case 2: return literal();
    case 3: return expr(3);
    case 4: return allow_address ? address() : wrap(reg());
    case 5: {
      ast::ArgList a;
      for (int n = pick(0, 3); n > 0; --n) a.elems.push_back(simple_operand());
      return wrap(std::move(a));
    }
    case 6: return labels.empty() ? wrap(ast::Symbol{one_of(kSyms)}) : wrap(ast::LabelRef{one_of(labels)});
    case 7: {
      ast::VectorOp v;
      for (int n = pick(1, 4); n > 0; --n) v.elems.push_back(simple_operand());
      return wrap(std::move(v));
    }
    default: return wrap(reg());
  }
}

// ---- instructions ----

// Families whose operands the parser refuses to take from memory (mirrors
// takes_address() in parser/insn.cpp).
bool no_address(Opcode op) {
  using O = Opcode;
  for (O o : {O::add, O::sub,  O::mul,  O::mad, O::fma, O::div,  O::rem, O::abs,  O::neg, O::min, O::max, O::and_,
              O::or_, O::xor_, O::not_, O::shl, O::shr, O::setp, O::set, O::selp, O::cvt, O::bra, O::ret, O::exit})
    if (o == op) return true;
  return false;
}

// Families whose first operand is a memory operand rather than a destination.
bool first_is_address(Opcode op) {
  using O = Opcode;
  for (O o : {O::st, O::red, O::prefetch, O::cp_async, O::cp_async_bulk, O::mbarrier_init, O::st_async})
    if (o == op) return true;
  return false;
}

// The parser reads the longest dotted opcode: `cp.async.bulk` + `.prefetch`
// would print as the opcode `cp.async.bulk.prefetch`. Such ASTs never come
// out of the parser, so they are not generated.
bool opword_stable(Opcode op, const std::vector<ast::ModTok>& mods) {
  std::string w(table::name(op));
  for (size_t k = 0; k < mods.size() && k < 3; ++k) {
    w += table::name(mods[k].id);
    if (table::lookup_opcode(w)) return false;
  }
  return true;
}

ast::Instruction instruction(const std::vector<std::string>& labels) {
  ast::Instruction in;
  in.op = static_cast<Opcode>(pick(0, static_cast<int>(Opcode::kCount) - 1));
  const auto& info = table::info(in.op);
  std::vector<Mod> allowed;
  for (size_t i = 0; i < table::kModCount; ++i)
    if (info.allowed->test(i)) allowed.push_back(static_cast<Mod>(i));
  if (!allowed.empty())
    for (int n = pick(0, 4); n > 0; --n) in.mods.push_back({one_of(allowed), {}});
  while (!opword_stable(in.op, in.mods)) in.mods.erase(in.mods.begin());
  if (coin(25)) in.guard = ast::Guard{{}, one_of(kPreds), coin(50)};
  const int hi = std::min<int>(info.max_operands, info.min_operands + 3);
  const int n = pick(info.min_operands, hi);
  for (int k = 0; k < n; ++k)
    in.operands.push_back(k == 0 ? (first_is_address(in.op) && coin(50) ? address() : dest_operand())
                                 : operand(!no_address(in.op), labels));
  return in;
}

// ---- declarations ----

enum class Site { Module, Body, Param };

ast::Init init(int depth) {
  ast::Init i;
  if (depth > 0 && coin(40)) {
    i.is_list = true;
    for (int n = pick(1, 3); n > 0; --n) i.elems.push_back(init(depth - 1));
  } else {
    i.value = coin(70) ? literal() : expr(2);
  }
  return i;
}

ast::VarDecl var(Site site) {
  ast::VarDecl v;
  std::vector<Mod> spaces;
  if (site == Site::Module) spaces = {Mod::global, Mod::const_, Mod::shared, Mod::local, Mod::param};
  if (site == Site::Body) spaces = {Mod::reg, Mod::local, Mod::shared, Mod::param, Mod::const_, Mod::global};
  if (site == Site::Param) spaces = {Mod::param, Mod::param, Mod::reg};
  v.space = one_of(spaces);
  if (site == Site::Module) {
    v.linkage = one_of<table::Linkage>({table::Linkage::None, table::Linkage::visible, table::Linkage::extern_,
                                        table::Linkage::weak_, table::Linkage::common});
    if (coin(10)) v.attributes.push_back(one_of<std::string>({".managed", ".unified"}));
  }
  if (coin(30)) v.align = 1u << pick(0, 8);
  if (coin(15)) v.vec = one_of<unsigned>({2, 4, 8});
  v.type = one_of(all_types());
  if (site == Site::Param && v.space == Mod::param && coin(30)) {
    v.ptr = true;
    if (coin(60)) v.ptr_space = one_of<Mod>({Mod::global, Mod::shared, Mod::const_, Mod::local});
    if (coin(50)) v.ptr_align = 1u << pick(0, 7);
  }
  v.name = v.space == Mod::reg ? "%v" + std::to_string(pick(0, 9)) : "v" + std::to_string(pick(0, 99));
  if (v.space == Mod::reg && coin(40)) v.range = static_cast<uint32_t>(pick(1, 100));
  if (v.space != Mod::reg)
    for (int n = coin(35) ? pick(1, 2) : 0, k = 0; k < n; ++k)
      v.dims.push_back(k == 0 && coin(30) ? std::nullopt : std::optional<uint64_t>(pick(1, 64)));
  if ((v.space == Mod::global || v.space == Mod::const_) && coin(40)) v.init = init(2);
  return v;
}

// ---- directives, statements, functions ----

ast::Directive body_directive(bool module_scope = false) {
  ast::Directive d;
  switch (pick(0, module_scope ? 1 : 3)) {
    case 0:
      d.v = ast::LocDir{static_cast<unsigned>(pick(1, 3)), static_cast<unsigned>(pick(0, 999)),
                        static_cast<unsigned>(pick(0, 80)),
                        one_of<std::string>({"", ", inlined_at 1 2 3", ", function_name $L__info_string0",
                                             ", function_name $L__info_string1+8, inlined_at 2 40 7"})};
      break;
    case 1: {
      ast::PragmaDir p;
      for (int n = pick(1, 2); n > 0; --n)
        p.strings.push_back(one_of<std::string>({"nounroll", "unroll 4", "enable_smem_spilling", "a\\\"b", ""}));
      d.v = p;
      break;
    }
    case 2: {
      ast::TargetListDir t;
      t.calls = coin(50);
      for (int n = pick(1, 3); n > 0; --n) t.names.push_back(one_of(kSyms));
      d.v = t;
      break;
    }
    default: {
      ast::CallPrototypeDir p;
      auto proto_param = [] {
        ast::VarDecl v;
        v.space = Mod::param;
        v.type = one_of<Mod>({Mod::b32, Mod::b64, Mod::f32});
        v.name = "_";
        return v;
      };
      if (coin(50)) p.rets.push_back(proto_param());
      for (int n = pick(0, 2); n > 0; --n) p.params.push_back(proto_param());
      p.noreturn = coin(20);
      d.v = p;
    }
  }
  return d;
}

template <typename T>
ast::Statement stmt(T node) {
  ast::Statement s;
  s.v = std::move(node);
  return s;
}

std::vector<ast::Statement> body(int depth, const std::vector<std::string>& labels, size_t& next_label) {
  std::vector<ast::Statement> out;
  for (int n = pick(0, 6); n > 0; --n) {
    const int k = pick(0, 9);
    if (k <= 4)
      out.push_back(stmt(instruction(labels)));
    else if (k == 5)
      out.push_back(stmt(var(Site::Body)));
    else if (k == 6 && next_label < labels.size())
      out.push_back(stmt(ast::Label{{}, labels[next_label++]}));
    else if (k == 7 && depth > 0)
      out.push_back(stmt(ast::Block{{}, body(depth - 1, labels, next_label)}));
    else if (k == 8)
      out.push_back(stmt(body_directive()));
    else
      out.push_back(stmt(instruction(labels)));
  }
  return out;
}

ast::Function function() {
  ast::Function f;
  f.is_entry = coin(50);
  f.linkage = one_of<table::Linkage>(
      {table::Linkage::None, table::Linkage::visible, table::Linkage::extern_, table::Linkage::weak_});
  f.name = one_of<std::string>({"kern", "f", "_Z3fooPf", "$helper"});
  if (!f.is_entry && coin(40)) f.rets.push_back(var(Site::Param));
  for (int n = pick(0, 3); n > 0; --n) f.params.push_back(var(Site::Param));
  for (int n = coin(30) ? pick(1, 2) : 0; n > 0; --n) {
    ast::PerfDirective p;
    p.kind = static_cast<table::Perf>(pick(0, static_cast<int>(table::Perf::kCount) - 1));
    auto [lo, hi] = table::perf_arity(p.kind);
    for (int k = pick(static_cast<int>(lo), static_cast<int>(hi)); k > 0; --k) p.values.push_back(pick(1, 1024));
    f.perf.push_back(p);
  }
  if (coin(10)) f.pragmas.push_back(ast::PragmaDir{{"nounroll"}});
  f.has_body = coin(85);
  g_plain_regs.clear();
  if (f.has_body && coin(30)) {
    for (const char* n : {"rv", "pq"}) {
      ast::VarDecl v;
      v.space = Mod::reg;
      v.type = n[0] == 'p' ? Mod::pred : Mod::b32;
      v.name = n;
      f.body.push_back(stmt(v));
      g_plain_regs.push_back(n);
    }
  }
  if (f.has_body) {
    std::vector<std::string> labels;
    for (int n = pick(0, 3); n > 0; --n) labels.push_back("$L__BB0_" + std::to_string(labels.size() + 1));
    size_t next = 0;
    auto more = body(2, labels, next);
    f.body.insert(f.body.end(), more.begin(), more.end());
    for (; next < labels.size(); ++next) f.body.push_back(stmt(ast::Label{{}, labels[next]}));
  }
  g_plain_regs.clear();
  return f;
}

// A debug-section data value (PTX ISA 11.5.2): integer, label, label+imm,
// label-label.
ast::Operand section_value() {
  const std::vector<std::string> labels{".debug_info", ".debug_abbrev", "Ldebug0", "$L__func_begin0"};
  switch (pick(0, 3)) {
    case 0: return wrap(int_imm());
    case 1: return wrap(ast::Symbol{one_of(labels)});
    case 2: return wrap(ast::Expr{ast::ExprOp::Add, {wrap(ast::Symbol{one_of(labels)}), wrap(int_imm())}});
    default:
      return wrap(ast::Expr{ast::ExprOp::Sub, {wrap(ast::Symbol{one_of(labels)}), wrap(ast::Symbol{one_of(labels)})}});
  }
}

ast::Directive top_directive() {
  ast::Directive d;
  switch (pick(0, 4)) {
    case 0: {
      ast::FileDir f{static_cast<unsigned>(pick(1, 9)), one_of<std::string>({"a.cu", "/tmp/x y.cu", "k.cuh"}),
                     std::nullopt, std::nullopt};
      if (coin(50)) f.timestamp = bits64() >> pick(0, 63);
      if (f.timestamp && coin(50)) f.size = static_cast<uint64_t>(pick(0, 100000));
      d.v = f;
      break;
    }
    case 1: {
      ast::SectionDir s;
      s.name = one_of<std::string>({".debug_info", ".debug_abbrev", ".nv_debug_ptx_txt"});
      for (int n = pick(0, 4); n > 0; --n) {
        ast::SectionEntry e;
        if (coin(25)) {
          e.label = "Ldebug" + std::to_string(pick(0, 9));
        } else {
          e.type = one_of<Mod>({Mod::b8, Mod::b16, Mod::b32, Mod::b64});
          for (int k = pick(1, 3); k > 0; --k) e.values.push_back(section_value());
        }
        s.entries.push_back(std::move(e));
      }
      d.v = s;
      break;
    }
    case 2: d.v = ast::AliasDir{one_of(kSyms), one_of(kSyms)}; break;
    case 3: d = body_directive(true); break;  // .loc and .pragma
    default: d.v = ast::PragmaDir{{"nounroll"}};
  }
  return d;
}

ast::Module module() {
  ast::Module m;
  m.version = {static_cast<unsigned>(pick(1, 9)), static_cast<unsigned>(pick(0, 9))};
  m.targets.push_back(one_of<std::string>({"sm_80", "sm_90a", "sm_100a", "compute_75"}));
  if (coin(20)) m.targets.push_back(one_of<std::string>({"texmode_independent", "debug", "map_f64_to_f32"}));
  if (coin(80)) m.address_size = one_of<unsigned>({32, 64});
  for (int n = pick(0, 4); n > 0; --n) {
    ast::TopLevel t;
    const int k = pick(0, 5);
    if (k <= 1)
      t.v = var(Site::Module);
    else if (k <= 4)
      t.v = function();
    else
      t.v = top_directive();
    m.items.push_back(std::move(t));
  }
  return m;
}

// ---- valid-only mode: modules ptxas must accept ----

ast::Operand R(const std::string& cls, int n) {
  return wrap(ast::Reg{"%" + cls + std::to_string(n), "", false, false});
}
ast::Operand any_r(const std::string& cls) { return R(cls, pick(0, 7)); }
ast::Operand imm(uint64_t v, ast::IntBase b = ast::IntBase::Dec) { return wrap(ast::IntImm{v, b, false, false}); }
ast::Operand mem(ast::Operand base, int64_t off) {
  ast::Address a;
  if (auto* r = std::get_if<ast::Reg>(&base.v))
    a.reg = *r;
  else
    a.sym = std::get<ast::Symbol>(base.v).name;
  a.offset = off;
  return wrap(a);
}
ast::Instruction I(Opcode op, std::vector<Mod> mods, std::vector<ast::Operand> ops) {
  ast::Instruction in;
  in.op = op;
  for (Mod m : mods) in.mods.push_back({m, {}});
  in.operands = std::move(ops);
  return in;
}

// A 32-bit integer immediate in any spelling ptxas reads (PTX ISA 4.5.1).
ast::Operand int_operand() {
  if (coin(15)) {  // (a + 2) op 3: the printer parenthesises the left operand
    using E = ast::ExprOp;
    return wrap(ast::Expr{one_of<E>({E::Mul, E::Add, E::Shl, E::BitAnd}),
                          {wrap(ast::Expr{E::Add, {imm(static_cast<uint64_t>(pick(0, 9))), imm(2)}}), imm(3)}});
  }
  ast::IntImm i{static_cast<uint64_t>(pick(0, 1000)), static_cast<ast::IntBase>(pick(0, 3)), coin(20), false};
  if (coin(20)) i.negative = true, i.value = 0 - i.value, i.is_unsigned = false;
  return wrap(i);
}

ast::Instruction valid_insn(const std::vector<std::string>& labels, const std::vector<std::string>& globals) {
  using O = Opcode;
  switch (pick(0, 13)) {
    case 0: return I(O::add, {Mod::s32}, {any_r("r"), any_r("r"), coin(50) ? any_r("r") : int_operand()});
    case 1: return I(O::mul, {Mod::lo, Mod::u32}, {any_r("r"), any_r("r"), int_operand()});
    case 2: return I(O::sub, {Mod::s64}, {any_r("rd"), any_r("rd"), any_r("rd")});
    case 3:
      return I(O::add, {Mod::rn, Mod::f32},
               {any_r("f"), any_r("f"), wrap(ast::FloatImm{bits64() & 0xffffffffu, ast::FloatForm::Hex32})});
    case 4: {
      ast::FloatImm f = float_imm();
      if (f.form == ast::FloatForm::Hex32) f.form = ast::FloatForm::Hex64;
      return I(O::fma, {Mod::rn, Mod::f64}, {any_r("fd"), any_r("fd"), any_r("fd"), wrap(f)});
    }
    case 5:
      return I(O::mov, {Mod::u32},
               {any_r("r"), wrap(ast::Reg{"%tid", one_of<std::string>({"x", "y", "z"}), false, false})});
    case 6:
      return I(O::setp, {one_of<Mod>({Mod::lt, Mod::ge, Mod::ne}), Mod::s32}, {any_r("p"), any_r("r"), int_operand()});
    case 7: {
      ast::Reg p{"%p" + std::to_string(pick(0, 3)), "", coin(50), false};
      return I(O::selp, {Mod::b32}, {any_r("r"), any_r("r"), int_operand(), wrap(p)});
    }
    case 8: return I(O::ld, {Mod::global, Mod::u32}, {any_r("r"), mem(R("rd", 2), 4 * pick(-4, 4))});
    case 9: {
      ast::VectorOp v;
      const int n = coin(50) ? 2 : 4;
      for (int k = 0; k < n; ++k) v.elems.push_back(any_r("f"));
      return I(O::ld, {Mod::global, n == 2 ? Mod::v2 : Mod::v4, Mod::f32}, {wrap(v), mem(R("rd", 2), 16 * pick(0, 4))});
    }
    case 10: return I(O::st, {Mod::global, Mod::u32}, {mem(R("rd", 2), 4 * pick(0, 8)), any_r("r")});
    case 11:
      if (!globals.empty())
        return I(O::ld, {Mod::global, Mod::u32}, {any_r("r"), mem(wrap(ast::Symbol{one_of(globals)}), 4 * pick(0, 3))});
      [[fallthrough]];
    case 12:
      if (!labels.empty()) {
        ast::Instruction b = I(O::bra, {}, {wrap(ast::LabelRef{one_of(labels)})});
        b.guard = ast::Guard{{}, "%p" + std::to_string(pick(0, 3)), coin(50)};
        return b;
      }
      [[fallthrough]];
    default: return I(O::cvt, {Mod::rn, Mod::f32, Mod::s32}, {any_r("f"), any_r("r")});
  }
}

ast::VarDecl regs(Mod type, const std::string& name) {
  ast::VarDecl v;
  v.space = Mod::reg;
  v.type = type;
  v.name = name;
  v.range = 8;
  return v;
}

ast::Module valid_module(int sm) {
  ast::Module m;
  m.version = {8, 0};
  m.targets = {"sm_" + std::to_string(sm)};
  m.address_size = 64;
  std::vector<std::string> globals;
  for (int n = pick(0, 3); n > 0; --n) {
    ast::VarDecl g;
    g.linkage = one_of<table::Linkage>({table::Linkage::None, table::Linkage::visible});
    g.space = Mod::global;
    g.name = "g" + std::to_string(globals.size());
    g.type = one_of<Mod>({Mod::b32, Mod::u32, Mod::s32});
    g.align = 1u << pick(2, 4);
    const int count = pick(1, 4);
    g.dims.push_back(count == 1 && coin(50) ? std::optional<uint64_t>(1) : std::optional<uint64_t>(count));
    if (coin(70)) {
      g.init = ast::Init{{}, true, std::nullopt, {}};
      for (int k = 0; k < count; ++k) g.init->elems.push_back(ast::Init{{}, false, int_operand(), {}});
    }
    globals.push_back(g.name);
    m.items.push_back(ast::TopLevel{{}, g});
  }
  const bool with_call = coin(50);
  if (with_call) {  // .func (.param .b32 fr) fhelp(.param .b32 fa): returns its argument
    ast::Function f;
    f.name = "fhelp";
    ast::VarDecl fr, fa;
    fr.space = fa.space = Mod::param;
    fr.type = fa.type = Mod::b32;
    fr.name = "fr";
    fa.name = "fa";
    f.rets.push_back(fr);
    f.params.push_back(fa);
    f.has_body = true;
    f.body.push_back(stmt(regs(Mod::b32, "%r")));
    f.body.push_back(stmt(I(Opcode::ld, {Mod::param, Mod::b32}, {R("r", 0), mem(wrap(ast::Symbol{"fa"}), 0)})));
    f.body.push_back(stmt(I(Opcode::st, {Mod::param, Mod::b32}, {mem(wrap(ast::Symbol{"fr"}), 0), R("r", 0)})));
    f.body.push_back(stmt(I(Opcode::ret, {}, {})));
    m.items.push_back(ast::TopLevel{{}, f});
  }
  ast::Function k;
  k.is_entry = true;
  k.linkage = table::Linkage::visible;
  k.name = "kern";
  ast::VarDecl p0;
  p0.space = Mod::param;
  p0.type = Mod::u64;
  p0.name = "p0";
  p0.ptr = coin(50);
  if (p0.ptr && coin(50)) p0.ptr_space = Mod::global;
  if (p0.ptr && coin(50)) p0.ptr_align = 8;
  k.params.push_back(p0);
  if (coin(50)) k.perf.push_back(ast::PerfDirective{{}, table::Perf::maxntid, {128, 1, 1}});
  k.has_body = true;
  for (auto [t, n] : std::vector<std::pair<Mod, std::string>>{
           {Mod::pred, "%p"}, {Mod::b32, "%r"}, {Mod::b64, "%rd"}, {Mod::f32, "%f"}, {Mod::f64, "%fd"}})
    k.body.push_back(stmt(regs(t, n)));
  k.body.push_back(stmt(I(Opcode::ld, {Mod::param, Mod::u64}, {R("rd", 1), mem(wrap(ast::Symbol{"p0"}), 0)})));
  k.body.push_back(stmt(I(Opcode::cvta, {Mod::to, Mod::global, Mod::u64}, {R("rd", 2), R("rd", 1)})));
  std::vector<std::string> labels;
  for (int n = pick(0, 2); n > 0; --n) labels.push_back("$L__BB0_" + std::to_string(labels.size() + 1));
  size_t next = 0;
  for (int n = pick(1, 12); n > 0; --n) {
    if (next < labels.size() && coin(20)) {
      k.body.push_back(stmt(ast::Label{{}, labels[next++]}));
    } else if (with_call && coin(15)) {  // { .param a0, r0; st; call.uni (r0), fhelp, (a0); ld }
      ast::Block b;
      for (const char* n : {"a0", "r0"}) {
        ast::VarDecl v;
        v.space = Mod::param;
        v.type = Mod::b32;
        v.name = n;
        b.body.push_back(stmt(v));
      }
      b.body.push_back(stmt(I(Opcode::st, {Mod::param, Mod::b32}, {mem(wrap(ast::Symbol{"a0"}), 0), any_r("r")})));
      b.body.push_back(stmt(I(Opcode::call, {Mod::uni},
                              {wrap(ast::ArgList{{wrap(ast::Symbol{"r0"})}}), wrap(ast::Symbol{"fhelp"}),
                               wrap(ast::ArgList{{wrap(ast::Symbol{"a0"})}})})));
      b.body.push_back(stmt(I(Opcode::ld, {Mod::param, Mod::b32}, {any_r("r"), mem(wrap(ast::Symbol{"r0"}), 0)})));
      k.body.push_back(stmt(std::move(b)));
    } else {
      k.body.push_back(stmt(valid_insn(labels, globals)));
    }
  }
  for (; next < labels.size(); ++next) k.body.push_back(stmt(ast::Label{{}, labels[next]}));
  k.body.push_back(stmt(I(Opcode::ret, {}, {})));
  m.items.push_back(ast::TopLevel{{}, k});
  return m;
}

}  // namespace

namespace ptxtest::astgen {
ptxcheck::ast::Module random_module() { return module(); }
ptxcheck::ast::Module random_valid_module(int sm) { return valid_module(sm); }
bool random_coin(int pct) { return coin(pct); }
}  // namespace ptxtest::astgen
