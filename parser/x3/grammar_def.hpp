// Definitions of the PTX grammar rules (PTX ISA 9.2 chapters 4, 5, 9, 11).
// Included ONLY by parser/x3/grammar.cpp. Instructions are parsed generically
// (opcode word, operand list) and validated in plain C++ (actions.hpp), so
// this file stays small and compiles in one unit.
#pragma once
#include <boost/fusion/include/at_c.hpp>

#include "parser/expr.hpp"
#include "parser/x3/actions.hpp"
#include "parser/x3/ast_adapted.hpp"
#include "parser/x3/grammar.hpp"
#include "parser/x3/number.hpp"

namespace ptxcheck::x3g {

using x3::_attr;
using x3::_val;
using x3::_where;
using x3::char_;
using x3::eoi;
using x3::eps;
using x3::lexeme;
using x3::lit;
using x3::raw;

// ---- annotation and error handling ----

// Sets `pos` of any node that has one to the first non-blank char it spans.
struct annotate {
  template <typename It, typename T, typename Ctx>
  void on_success(const It& first, const It&, T& node, const Ctx& ctx) const {
    if constexpr (requires { node.pos; }) node.pos = state(ctx).pos_skipped(first);
  }
};

// Expectation failures become InputError at the position of the failure.
struct throw_on_error {
  template <typename It, typename Exc, typename Ctx>
  x3::error_handler_result on_error(It&, const It&, const Exc& x, const Ctx& ctx) const {
    // Named rules give readable names; anything else is an internal parser.
    std::string what = x.which();
    if (what.rfind("N5boost", 0) == 0) what = "a valid token";
    state(ctx).fail(x.where(), "expected " + what);
    return x3::error_handler_result::fail;  // not reached: fail() throws
  }
};

// ---- nesting bound ----

// nested[p]: parses p one nesting level deeper; beyond kMaxNesting levels it
// reports an InputError instead of recursing, so that hostile input such as
// "((((..." or "- - - -..." cannot exhaust the stack.
constexpr int kMaxNesting = 64;
template <typename Subject>
struct depth_directive : x3::unary_parser<Subject, depth_directive<Subject>> {
  using base = x3::unary_parser<Subject, depth_directive<Subject>>;
  static bool const is_pass_through_unary = true;
  constexpr depth_directive(const Subject& s) : base(s) {}
  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It& first, const It& last, const Ctx& ctx, RCtx& rctx, Attr& attr) const {
    ParseState& st = state(ctx);
    if (st.depth >= kMaxNesting) st.fail(first, "nesting deeper than " + std::to_string(kMaxNesting) + " levels");
    struct Guard {
      int& d;
      ~Guard() { --d; }
    } guard{++st.depth};
    return this->subject.parse(first, last, ctx, rctx, attr);
  }
};
struct depth_gen {
  template <typename Subject>
  constexpr depth_directive<typename x3::extension::as_parser<Subject>::value_type> operator[](const Subject& s) const {
    return {x3::as_parser(s)};
  }
};
inline constexpr depth_gen nested{};

// ---- rule ids ----
#define PTX_RULE(name, attr, desc)   \
  struct name##_class : annotate {}; \
  const x3::rule<name##_class, attr> name = desc;
PTX_RULE(ident, std::string, "identifier")
PTX_RULE(semi, x3::unused_type, "';'")
PTX_RULE(close_block, x3::unused_type, "a statement or '}'")
PTX_RULE(version_kw, x3::unused_type, ".version")
PTX_RULE(target_kw, x3::unused_type, ".target")
PTX_RULE(module_end, x3::unused_type, "a directive, variable or function")
PTX_RULE(operands, std::vector<ast::Operand>, "operands")
PTX_RULE(dword, std::string, "directive")
PTX_RULE(string_lit, std::string, "string literal")
PTX_RULE(reg, ast::Reg, "register")
PTX_RULE(regop, ast::Operand, "register")
PTX_RULE(sink, ast::Sink, "'_'")
PTX_RULE(primary, ast::Operand, "constant")
PTX_RULE(unary, ast::Operand, "expression")
PTX_RULE(mul_e, ast::Operand, "expression")
PTX_RULE(add_e, ast::Operand, "expression")
PTX_RULE(shift_e, ast::Operand, "expression")
PTX_RULE(rel_e, ast::Operand, "expression")
PTX_RULE(eq_e, ast::Operand, "expression")
PTX_RULE(band_e, ast::Operand, "expression")
PTX_RULE(bxor_e, ast::Operand, "expression")
PTX_RULE(bor_e, ast::Operand, "expression")
PTX_RULE(land_e, ast::Operand, "expression")
PTX_RULE(lor_e, ast::Operand, "expression")
PTX_RULE(expr, ast::Operand, "expression")
PTX_RULE(simple_e, ast::Operand, "expression")
PTX_RULE(address, ast::Address, "address")
PTX_RULE(vector_op, ast::VectorOp, "vector operand")
PTX_RULE(arglist, ast::ArgList, "argument list")
PTX_RULE(operand, ast::Operand, "operand")
PTX_RULE(guard, ast::Guard, "guard")
PTX_RULE(insn, ast::Instruction, "instruction")
PTX_RULE(label, ast::Label, "label")
PTX_RULE(init, ast::Init, "initializer")
PTX_RULE(decl_item, raw::DeclItem, "directive")
PTX_RULE(declarator, raw::Declarator, "name")
PTX_RULE(decl_line, raw::Decl, "declaration")
PTX_RULE(param, raw::Decl, "parameter")
PTX_RULE(loc_dir, ast::LocDir, ".loc")
PTX_RULE(loc_uint, unsigned, "an unsigned integer")
PTX_RULE(loc_more, std::string, "function_name or inlined_at")
PTX_RULE(loc_inlined, std::string, "inlined_at")
PTX_RULE(pragma_dir, ast::PragmaDir, ".pragma")
PTX_RULE(targets_dir, ast::TargetListDir, "target list")
PTX_RULE(proto_dir, ast::CallPrototypeDir, ".callprototype")
PTX_RULE(body_dir, ast::Directive, "directive")
PTX_RULE(block, ast::Block, "block")
PTX_RULE(stmts, std::vector<ast::Statement>, "statements")
PTX_RULE(file_dir, ast::FileDir, ".file")
PTX_RULE(alias_dir, ast::AliasDir, ".alias")
PTX_RULE(section_dir, ast::SectionDir, ".section")
PTX_RULE(section_value, ast::Operand, "an integer, label, label+offset or label-label")
PTX_RULE(section_int, ast::Operand, "integer")
PTX_RULE(section_label, ast::Operand, "label")
PTX_RULE(perf_dir, ast::PerfDirective, "performance directive")
PTX_RULE(function, ast::Function, "function")
PTX_RULE(top_dir, ast::Directive, "directive")
#undef PTX_RULE

struct module_class : annotate, throw_on_error {};
struct statements_class : annotate, throw_on_error {};
const module_type ptx_module = "module";
const statements_type statements_r = "statements";

// Records the position of the next token in the enclosing rule's node. Why
// not on_success: X3 hands on_success an unused attribute when the rule's
// right-hand side has semantic actions, which most rules here do.
auto set_pos = [](auto& ctx) { _val(ctx).pos = state(ctx).pos(_where(ctx).begin()); };
const auto here = eps[set_pos];

// ---- tokens (PTX ISA 4.3 identifiers, 4.2 directives) ----

// Character sets rather than alnum/alpha: those call the C library per char.
const auto idchar = char_("a-zA-Z0-9_$");
const auto dchar = char_("a-zA-Z0-9_:");
const auto letter = char_("a-zA-Z");
// A keyword must end where an identifier/qualifier would (.loc vs .local).
inline auto kw(const char* s) { return lexeme[lit(s) >> !dchar]; }

const auto semi_def = lit(';');
const auto close_block_def = lit('}');
const auto version_kw_def = kw(".version");
const auto target_kw_def = kw(".target");
const auto module_end_def = eoi;

const auto ident_def = lexeme[(letter >> *idchar) | (char_("_$%") >> +idchar)];
const auto dword_def = lexeme[char_('.') >> +dchar];
// The opening quote of a string literal (in .pragma and .file directives;
// the grammar keeps a string on one line, PTX ISA 4.1). A string without
// its closing quote on the same line is reported at the opening quote
// itself, not where the expectation failed (after the line's end).
struct open_quote_parser : x3::parser<open_quote_parser> {
  using attribute_type = x3::unused_type;
  static bool const has_attribute = false;
  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It& first, const It& last, const Ctx& ctx, RCtx&, Attr&) const {
    if (first == last || *first != '"') return false;
    for (It p = first + 1; p != last; ++p) {
      if (*p == '\\' && p + 1 != last) {
        ++p;
      } else if (*p == '"') {
        ++first;
        return true;
      } else if (*p == '\n') {
        break;
      }
    }
    const ParseState& st = state(ctx);
    throw InputError(st.file, st.pos(first), "unterminated string literal");
  }
};
inline constexpr open_quote_parser open_quote{};
const auto string_lit_def = lexeme[open_quote > raw[*(('\\' >> char_) | ~char_("\"\n"))] > '"'];

auto set_reg_name = [](auto& ctx) { _val(ctx).name.assign(_attr(ctx).begin(), _attr(ctx).end()); };
auto set_reg_sel = [](auto& ctx) { _val(ctx).sel.assign(_attr(ctx).begin(), _attr(ctx).end()); };
const auto reg_def =
    lexeme[raw['%' >> +idchar][set_reg_name] >> -('.' >> raw[+char_("a-zA-Z0-9")][set_reg_sel] >> !idchar)];

auto regop_act = [](auto& ctx) {
  auto& a = _attr(ctx);
  const auto& second = boost::fusion::at_c<2>(a);
  if (second) {
    _val(ctx).v = ast::RegPair{boost::fusion::at_c<1>(a), *second};
  } else {
    ast::Reg r = boost::fusion::at_c<1>(a);
    const auto& prefix = boost::fusion::at_c<0>(a);
    r.negated = prefix && *prefix == '!';
    r.minus = prefix && *prefix == '-';
    _val(ctx).v = std::move(r);
  }
};
const auto regop_def = (-char_("!-") >> reg >> -('|' >> reg))[regop_act];
const auto sink_def = lexeme['_' >> !idchar] >> eps;
// `_|%p` and `_|p` (elect.sync's discarded d, PTX ISA 9.7.13.13): a pair whose
// first register is the sink, named "_"; a plain identifier second becomes a
// register in resolve.cpp (BitOr of two registers -> RegPair).
auto sink_reg_act = [](auto& ctx) { _val(ctx).v = ast::RegPair{ast::Reg{"_", "", false, false}, _attr(ctx)}; };
auto sink_sym_act = [](auto& ctx) {
  ast::Expr e;
  e.op = ast::ExprOp::BitOr;
  ast::Operand first;
  first.pos = _attr(ctx).pos;
  first.v = ast::Reg{"_", "", false, false};
  e.args.push_back(std::move(first));
  e.args.push_back(_attr(ctx));
  _val(ctx).v = std::move(e);
};

// ---- constant expressions (PTX ISA 4.5.4-4.5.6), lowest precedence last ----

auto assign = [](auto& ctx) { _val(ctx) = std::move(_attr(ctx)); };
auto wrap = [](auto& ctx) { _val(ctx).v = std::move(_attr(ctx)); };
auto assign_at = [](auto& ctx) {  // keeps the position recorded by `here`
  const ast::Pos p = _val(ctx).pos;
  _val(ctx) = std::move(_attr(ctx));
  _val(ctx).pos = p;
};
template <ast::ExprOp Op>
struct bin_act {
  template <typename Ctx>
  void operator()(Ctx& ctx) const {
    ast::Operand lhs = std::move(_val(ctx));
    ast::Operand out;
    out.pos = lhs.pos;
    out.v = ast::Expr{Op, {std::move(lhs), std::move(_attr(ctx))}};
    _val(ctx) = std::move(out);
  }
};
template <ast::ExprOp Op>
struct un_act {
  template <typename Ctx>
  void operator()(Ctx& ctx) const {
    if constexpr (Op == ast::ExprOp::Neg) {
      const ast::Pos p = _val(ctx).pos;
      _val(ctx) = negate(std::move(_attr(ctx)));
      _val(ctx).pos = p;
    } else {
      _val(ctx).v = ast::Expr{Op, {std::move(_attr(ctx))}};
    }
  }
};
auto sym_act = [](auto& ctx) { _val(ctx).v = ast::Symbol{std::move(_attr(ctx))}; };
auto generic_act = [](auto& ctx) {
  ast::Operand s;
  s.pos = state(ctx).pos(_attr(ctx).begin());
  s.v = ast::Symbol{std::string(_attr(ctx).begin(), _attr(ctx).end())};
  _val(ctx).v = ast::Expr{ast::ExprOp::Generic, {std::move(s)}};
};
using E = ast::ExprOp;
const auto primary_def = here >> (number[assign] | nested['(' > expr[assign] > ')'] |
                                  (kw("generic") >> '(' > raw[ident][generic_act] > ')') | ident[sym_act]);
const auto unary_def =
    here >>
    nested[('-' >> unary[un_act<E::Neg>{}]) | ('+' >> unary[un_act<E::Plus>{}]) | ('!' >> unary[un_act<E::Not>{}]) |
           ('~' >> unary[un_act<E::BitNot>{}]) | (lit('(') >> kw(".s64") >> ')' >> unary[un_act<E::CastS64>{}]) |
           (lit('(') >> kw(".u64") >> ')' >> unary[un_act<E::CastU64>{}]) | primary[assign]];
const auto mul_e_def = unary[assign] >>
                       *(('*' > unary[bin_act<E::Mul>{}]) | ('/' > unary[bin_act<E::Div>{}]) |
                         (lexeme['%' >> !idchar] >> unary[bin_act<E::Rem>{}]));  // %r1 is a register, `% 3` a remainder
const auto add_e_def = mul_e[assign] >> *(('+' > mul_e[bin_act<E::Add>{}]) | ('-' > mul_e[bin_act<E::Sub>{}]));
const auto shift_e_def = add_e[assign] >>
                         *((lit("<<") > add_e[bin_act<E::Shl>{}]) | (lit(">>") > add_e[bin_act<E::Shr>{}]));
const auto rel_e_def = shift_e[assign] >>
                       *((lit("<=") > shift_e[bin_act<E::Le>{}]) | (lit(">=") > shift_e[bin_act<E::Ge>{}]) |
                         ('<' > shift_e[bin_act<E::Lt>{}]) | ('>' > shift_e[bin_act<E::Gt>{}]));
const auto eq_e_def = rel_e[assign] >> *((lit("==") > rel_e[bin_act<E::Eq>{}]) | (lit("!=") > rel_e[bin_act<E::Ne>{}]));
const auto band_e_def = eq_e[assign] >> *(lexeme['&' >> !lit('&')] > eq_e[bin_act<E::BitAnd>{}]);
const auto bxor_e_def = band_e[assign] >> *('^' > band_e[bin_act<E::BitXor>{}]);
const auto bor_e_def = bxor_e[assign] >> *(lexeme['|' >> !lit('|')] > bxor_e[bin_act<E::BitOr>{}]);
const auto land_e_def = bor_e[assign] >> *(lit("&&") > bor_e[bin_act<E::LogAnd>{}]);
const auto lor_e_def = land_e[assign] >> *(lit("||") > land_e[bin_act<E::LogOr>{}]);
auto cond_act = [](auto& ctx) {
  auto& a = _attr(ctx);
  ast::Operand c = std::move(_val(ctx));
  ast::Operand out;
  out.pos = c.pos;
  out.v =
      ast::Expr{E::Cond, {std::move(c), std::move(boost::fusion::at_c<0>(a)), std::move(boost::fusion::at_c<1>(a))}};
  _val(ctx) = std::move(out);
};
// Fast path: a lone literal or name followed by a terminator skips the
// twelve precedence levels (most constants in real PTX, e.g. debug sections).
const auto simple_e_def = here >> ((number[assign_at] | ident[sym_act]) >> &char_(",;]}).\n"));
const auto expr_def = simple_e[assign] | (lor_e[assign] >> -(('?' > expr > ':' > expr)[cond_act]));

// ---- instruction operands (PTX ISA 6.4) ----

auto addr_reg = [](auto& ctx) { _val(ctx).reg = std::move(_attr(ctx)); };
auto addr_sym = [](auto& ctx) { _val(ctx).sym = std::move(_attr(ctx)); };
// Where an address operand starts: its own position, or where its match
// begins when the operand carries none (a float literal such as `[4. 6b]`).
template <typename Ctx>
SourcePos operand_pos(Ctx& ctx) {
  SourcePos p = _attr(ctx).pos;
  return p.line ? p : state(ctx).pos(_where(ctx).begin());
}
template <bool Neg>
struct addr_off {
  template <typename Ctx>
  void operator()(Ctx& ctx) const {
    auto v = ptxcheck::eval_const(_attr(ctx));
    if (!v) throw InputError(state(ctx).file, operand_pos(ctx), "address offset must be an integer constant");
    _val(ctx).offset = static_cast<int64_t>(Neg ? 0 - v->bits : v->bits);
  }
};
auto addr_imm = [](auto& ctx) {
  auto v = ptxcheck::eval_const(_attr(ctx));
  if (!v) throw InputError(state(ctx).file, operand_pos(ctx), "address must be a register, symbol or integer");
  _val(ctx).offset = static_cast<int64_t>(v->bits);
};
auto push_extra = [](auto& ctx) { _val(ctx).extra.push_back(std::move(_attr(ctx))); };
const auto addr_offset = ('+' > expr[addr_off<false>{}]) | ('-' > expr[addr_off<true>{}]);
const auto address_def = nested['[' > ((reg[addr_reg] >> -addr_offset) | (ident[addr_sym] >> -addr_offset) |
                                       expr[addr_imm]) > *(',' > operand[push_extra]) > ']'];
auto push_elem = [](auto& ctx) { _val(ctx).elems.push_back(std::move(_attr(ctx))); };
const auto vector_op_def = nested['{' > (operand[push_elem] % ',') > '}'];
// No expectation points: `(1 + 2) * 3` and `(.s64)x` start like an argument
// list, so a parenthesised group only counts as one when an operand ends
// right after it (see operand_def); otherwise it is a constant expression.
const auto arglist_def = nested['(' >> -(operand[push_elem] % ',') >> ')'];
const auto operand_def = here >> (address[wrap] | vector_op[wrap] | (arglist >> &char_(",;)]}"))[wrap] |
                                  (lexeme['_' >> !idchar] >> '|' >> reg)[sink_reg_act] |
                                  (lexeme['_' >> !idchar] >> '|' >> primary)[sink_sym_act] | sink[wrap] |
                                  regop[assign_at] | expr[assign_at]);

// ---- instructions and statements ----

auto guard_neg = [](auto& ctx) { _val(ctx).negated = true; };
auto guard_reg = [](auto& ctx) { _val(ctx).reg = std::move(_attr(ctx)); };
const auto guard_def = here >> (lexeme['@' >> -lit('!')[guard_neg] >> ident[guard_reg]]);
auto insn_guard = [](auto& ctx) { _val(ctx).guard = std::move(_attr(ctx)); };
auto insn_op = [](auto& ctx) { decode_opword(state(ctx), _attr(ctx).begin(), _attr(ctx).end(), _val(ctx)); };
auto insn_args = [](auto& ctx) { _val(ctx).operands = std::move(_attr(ctx)); };
// No actions here, so `> operand` fails with the rule's name.
const auto operands_def = operand >> *(',' > operand);
auto insn_end = [](auto& ctx) { finish_insn(state(ctx), _where(ctx).begin(), _val(ctx)); };
const auto opword = raw[lexeme[char_("a-z") >> *char_("a-z0-9_") >> *('.' >> +dchar)]];
const auto insn_def = here >> (-guard[insn_guard] >> opword[insn_op] >> -operands[insn_args] > eps[insn_end] > semi);
auto label_name = [](auto& ctx) { _val(ctx).name = std::move(_attr(ctx)); };
const auto label_def = here >> (ident[label_name] >> ':');

// Declarations: a generic run of dotted items, assembled in decl.cpp.
auto item_attr = [](auto& ctx) {
  _val(ctx).word = std::move(_attr(ctx));
  _val(ctx).attribute = true;
};
auto item_word = [](auto& ctx) { _val(ctx).word = std::move(_attr(ctx)); };
auto item_num = [](auto& ctx) { _val(ctx).num = _attr(ctx); };
const auto decl_item_def = here >> ((kw(".attribute") > '(' > dword[item_attr] > ')') |
                                    (dword[item_word] >> -x3::uint64[item_num]));
auto init_list = [](auto& ctx) {
  _val(ctx).is_list = true;
  _val(ctx).elems = std::move(_attr(ctx));
};
auto init_value = [](auto& ctx) { _val(ctx).value = std::move(_attr(ctx)); };
const auto init_def = here >> (nested['{' > (init % ',') > '}'][init_list] | expr[init_value]);
auto dc_name = [](auto& ctx) { _val(ctx).name.assign(_attr(ctx).begin(), _attr(ctx).end()); };
auto dc_range = [](auto& ctx) { _val(ctx).range = _attr(ctx); };
auto dc_dim = [](auto& ctx) {
  const auto& n = _attr(ctx);  // boost::optional
  _val(ctx).dims.push_back(n ? std::optional<uint64_t>(*n) : std::nullopt);
};
auto dc_init = [](auto& ctx) { _val(ctx).init = std::move(_attr(ctx)); };
const auto declarator_def = here >> raw[ident | lit('_')][dc_name] >> -('<' > x3::uint32[dc_range] > '>') >>
                            *(('[' > -x3::uint64 > ']')[dc_dim]) >> -('=' > init[dc_init]);
auto decl_items = [](auto& ctx) { _val(ctx).items = std::move(_attr(ctx)); };
auto decl_names = [](auto& ctx) { _val(ctx).decls = std::move(_attr(ctx)); };
const auto decl_line_def = here >> ((+decl_item)[decl_items] >> (declarator % ',')[decl_names] > ';');
auto param_name = [](auto& ctx) { _val(ctx).decls.push_back(std::move(_attr(ctx))); };
const auto param_def = here >> ((+decl_item)[decl_items] > declarator[param_name]);

// Directives inside bodies (PTX ISA 11.5.4 .loc, 11.4.7 .pragma, 11.3 branch/call targets).
//   .loc file line col [, function_name label [+ imm]] [, inlined_at file line col]
auto loc_file = [](auto& ctx) { _val(ctx).file = _attr(ctx); };
auto loc_line = [](auto& ctx) { _val(ctx).line = _attr(ctx); };
auto loc_col = [](auto& ctx) { _val(ctx).col = _attr(ctx); };
// The optional parts are kept as their canonical text in LocDir::tail.
auto lm_fname = [](auto& ctx) { _val(ctx) += ", function_name " + _attr(ctx); };
auto lm_foff = [](auto& ctx) { _val(ctx) += "+" + std::to_string(_attr(ctx)); };
auto lm_at = [](auto& ctx) {
  const auto& a = _attr(ctx);
  _val(ctx) += ", inlined_at " + std::to_string(boost::fusion::at_c<0>(a)) + " " +
               std::to_string(boost::fusion::at_c<1>(a)) + " " + std::to_string(boost::fusion::at_c<2>(a));
};
auto lm_append = [](auto& ctx) { _val(ctx) += _attr(ctx); };
auto loc_tail = [](auto& ctx) { _val(ctx).tail = std::move(_attr(ctx)); };
const auto loc_uint_def = x3::uint_;
// Actions sit outside the expectations so that a failure names the rule.
const auto loc_inlined_def = (kw("inlined_at") > loc_uint > loc_uint > loc_uint)[lm_at];
const auto loc_more_def =
    ((kw("function_name") > ident)[lm_fname] > -('+' > x3::uint64[lm_foff]) > -(lit(',') > loc_inlined)[lm_append]) |
    loc_inlined[lm_append];
const auto loc_dir_def = kw(".loc") > x3::uint_[loc_file] > x3::uint_[loc_line] > x3::uint_[loc_col] >
                         -(lit(',') > loc_more)[loc_tail];
auto pragma_str = [](auto& ctx) { _val(ctx).strings.push_back(std::move(_attr(ctx))); };
const auto pragma_dir_def = kw(".pragma") > (string_lit[pragma_str] % ',') > ';';
auto tgt_calls = [](auto& ctx) { _val(ctx).calls = true; };
auto tgt_name = [](auto& ctx) { _val(ctx).names.push_back(std::move(_attr(ctx))); };
const auto targets_dir_def = (kw(".branchtargets") | kw(".calltargets")[tgt_calls]) > (ident[tgt_name] % ',') > ';';
template <bool Ret>
struct proto_param {
  template <typename Ctx>
  void operator()(Ctx& ctx) const {
    auto decls = build_decls(state(ctx), _attr(ctx), DeclSite::Param);
    auto& dst = Ret ? _val(ctx).rets : _val(ctx).params;
    dst.insert(dst.end(), decls.begin(), decls.end());
  }
};
auto proto_noret = [](auto& ctx) { _val(ctx).noreturn = true; };
const auto proto_dir_def = kw(".callprototype") >
                           -('(' > -(param[proto_param<true>{}] % ',') > ')') > lexeme['_' >> !idchar] > '(' >
                           -(param[proto_param<false>{}] % ',') > ')' > -kw(".noreturn")[proto_noret] > ';';
const auto body_dir_def = here >> (loc_dir[wrap] | pragma_dir[wrap] | targets_dir[wrap] | proto_dir[wrap]);

auto block_body = [](auto& ctx) { _val(ctx).body = std::move(_attr(ctx)); };
const auto block_def = here >> nested['{' > stmts[block_body] > close_block];

template <typename T>
ast::Statement make_stmt(T&& node) {
  ast::Statement s;
  s.pos = node.pos;
  s.v = std::forward<T>(node);
  return s;
}
auto push_stmt = [](auto& ctx) { _val(ctx).push_back(make_stmt(std::move(_attr(ctx)))); };
auto push_decls = [](auto& ctx) {
  for (auto& d : build_decls(state(ctx), _attr(ctx), DeclSite::Body)) _val(ctx).push_back(make_stmt(std::move(d)));
};
// Dispatch on the first token so that failing alternatives cost a char test,
// not a rule with a position lookup (the hot loop of the parser).
const auto label_ahead = &(lexeme[(letter | char_("_$%")) >> *idchar] >> ':');
const auto stmts_def =
    *((&lit('{') >> block[push_stmt]) | (&lit('.') >> (body_dir[push_stmt] | decl_line[push_decls])) |
      (label_ahead >> label[push_stmt]) | insn[push_stmt]);
const auto statements_r_def = stmts[assign] > eoi;

// ---- module level (PTX ISA 11.1-11.6) ----

auto file_index = [](auto& ctx) { _val(ctx).index = _attr(ctx); };
auto file_path = [](auto& ctx) { _val(ctx).path = std::move(_attr(ctx)); };
auto file_ts = [](auto& ctx) { _val(ctx).timestamp = _attr(ctx); };
auto file_size = [](auto& ctx) { _val(ctx).size = _attr(ctx); };
const auto file_dir_def = kw(".file") > x3::uint_[file_index] > string_lit[file_path] > -(',' > x3::uint64[file_ts]) >
                          -(',' > x3::uint64[file_size]);
auto alias_a = [](auto& ctx) { _val(ctx).alias = std::move(_attr(ctx)); };
auto alias_b = [](auto& ctx) { _val(ctx).aliasee = std::move(_attr(ctx)); };
const auto alias_dir_def = kw(".alias") > ident[alias_a] > ',' > ident[alias_b] > ';';

auto sec_name = [](auto& ctx) { _val(ctx).name = std::move(_attr(ctx)); };
auto sec_label = [](auto& ctx) {
  ast::SectionEntry e;
  e.label = std::move(_attr(ctx));
  _val(ctx).entries.push_back(std::move(e));
};
auto sec_type = [](auto& ctx) {
  std::string w(_attr(ctx).begin(), _attr(ctx).end());
  auto t = table::lookup_mod(w);
  if (!t || !table::is_type(*t))
    state(ctx).fail(_attr(ctx).begin(), "expected a data type in section, got '" + w + "'");
  ast::SectionEntry e;
  e.type = *t;
  _val(ctx).entries.push_back(std::move(e));
};
// A data value of a debug section (PTX ISA 11.5.2; ast::SectionEntry): an integer, a label, a
// label plus a constant byte offset (`.debug_loc+131`) or the difference of
// two labels (`$L__func_end0-$L__func_begin0`); nothing else (ptxas rejects
// `label-4` and longer sums). Section names such as `.debug_abbrev` serve as
// labels of their sections' starts.
auto sec_value = [](auto& ctx) { _val(ctx).entries.back().values.push_back(std::move(_attr(ctx))); };
auto sec_dsym = [](auto& ctx) { _val(ctx).v = ast::Symbol{std::string(_attr(ctx).begin(), _attr(ctx).end())}; };
auto sec_int_check = [](auto& ctx) {
  if (!std::holds_alternative<ast::IntImm>(_val(ctx).v))
    throw InputError(state(ctx).file, _val(ctx).pos, "debug section data must be integers or labels");
};
const auto section_int_def = here >> ((lit('-') >> number[un_act<E::Neg>{}]) | number[assign_at]) >> eps[sec_int_check];
const auto section_label_def = here >> raw[dword | ident][sec_dsym];
const auto section_value_def = here >> ((section_label[assign_at] >> -((lit('+') > section_int)[bin_act<E::Add>{}] |
                                                                       (lit('-') > section_label)[bin_act<E::Sub>{}])) |
                                        section_int[assign_at]);
const auto section_dir_def = kw(".section") > dword[sec_name] > '{' >
                             *((ident >> ':')[sec_label] | (raw[dword][sec_type] > (section_value[sec_value] % ','))) >
                             '}';

auto perf_values = [](auto& ctx) { _val(ctx).values = std::move(_attr(ctx)); };
struct perf_symbols : x3::symbols<table::Perf> {
  perf_symbols() {
    for (unsigned i = 0; i < static_cast<unsigned>(table::Perf::kCount); ++i)
      add(std::string(table::name(static_cast<table::Perf>(i))), static_cast<table::Perf>(i));
  }
};
const perf_symbols perf_kw;
auto perf_kind = [](auto& ctx) {
  _val(ctx).kind = *table::lookup_perf(std::string_view(_attr(ctx).begin(), _attr(ctx).end()));
  _val(ctx).pos = state(ctx).pos(_attr(ctx).begin());
};
auto perf_check = [](auto& ctx) {
  auto [lo, hi] = table::perf_arity(_val(ctx).kind);
  size_t n = _val(ctx).values.size();
  if (n < lo || n > hi)
    throw InputError(state(ctx).file, _val(ctx).pos,
                     std::string(table::name(_val(ctx).kind)) + " takes " + std::to_string(lo) +
                         (lo == hi ? "" : "-" + std::to_string(hi)) + " values, got " + std::to_string(n));
};
const auto perf_dir_def =
    (raw[lexeme[perf_kw >> !dchar]][perf_kind] >> -(x3::uint64 % ',')[perf_values]) >> eps[perf_check];

struct linkage_symbols : x3::symbols<table::Linkage> {
  linkage_symbols() {
    for (auto l : {table::Linkage::visible, table::Linkage::extern_, table::Linkage::weak_, table::Linkage::common})
      add(std::string(table::name(l)), l);
  }
};
const linkage_symbols linkage_kw;
auto fn_link = [](auto& ctx) { _val(ctx).linkage = _attr(ctx); };
auto fn_entry = [](auto& ctx) { _val(ctx).is_entry = true; };
auto fn_name = [](auto& ctx) { _val(ctx).name = std::move(_attr(ctx)); };
template <bool Ret>
struct fn_param {
  template <typename Ctx>
  void operator()(Ctx& ctx) const {
    auto decls = build_decls(state(ctx), _attr(ctx), DeclSite::Param);
    auto& dst = Ret ? _val(ctx).rets : _val(ctx).params;
    dst.insert(dst.end(), decls.begin(), decls.end());
  }
};
auto fn_perf = [](auto& ctx) { _val(ctx).perf.push_back(std::move(_attr(ctx))); };
auto fn_pragma = [](auto& ctx) { _val(ctx).pragmas.push_back(std::move(_attr(ctx))); };
auto fn_body = [](auto& ctx) {
  _val(ctx).has_body = true;
  _val(ctx).body = std::move(_attr(ctx));
};
const auto function_def = here >> (-lexeme[linkage_kw[fn_link] >> !dchar] >> (kw(".entry")[fn_entry] | kw(".func")) >
                                   -('(' > -(param[fn_param<true>{}] % ',') > ')') > ident[fn_name] >
                                   -('(' > -(param[fn_param<false>{}] % ',') > ')') >
                                   *(perf_dir[fn_perf] | pragma_dir[fn_pragma]) >
                                   (lit(';') | ('{' > stmts[fn_body] > close_block)));

const auto top_dir_def = here >>
                         (file_dir[wrap] | section_dir[wrap] | alias_dir[wrap] | pragma_dir[wrap] | loc_dir[wrap]);

auto mod_version = [](auto& ctx) {
  _val(ctx).version.major = boost::fusion::at_c<0>(_attr(ctx));
  _val(ctx).version.minor = boost::fusion::at_c<1>(_attr(ctx));
};
auto mod_target = [](auto& ctx) { _val(ctx).targets.push_back(std::move(_attr(ctx))); };
auto mod_asize = [](auto& ctx) { _val(ctx).address_size = _attr(ctx); };
template <typename T>
ast::TopLevel make_top(T&& node) {
  ast::TopLevel t;
  t.pos = node.pos;
  t.v = std::forward<T>(node);
  return t;
}
auto mod_item = [](auto& ctx) { _val(ctx).items.push_back(make_top(std::move(_attr(ctx)))); };
auto mod_decls = [](auto& ctx) {
  for (auto& d : build_decls(state(ctx), _attr(ctx), DeclSite::Module))
    _val(ctx).items.push_back(make_top(std::move(d)));
};
const auto ptx_module_def = here > version_kw > lexeme[x3::uint_ > '.' > x3::uint_][mod_version] > target_kw >
                            (ident[mod_target] % ',') > -(kw(".address_size") > x3::uint_[mod_asize]) >
                            *(top_dir[mod_item] | function[mod_item] | decl_line[mod_decls]) > module_end;

BOOST_SPIRIT_DEFINE(semi, close_block, version_kw, target_kw, module_end, operands, ident, dword, string_lit, reg,
                    regop, sink, primary, unary, mul_e, add_e, shift_e, rel_e, eq_e, band_e, bxor_e, bor_e, land_e,
                    lor_e, expr, simple_e, address, vector_op, arglist, operand, guard, insn, label, init, decl_item,
                    declarator, decl_line, param, loc_dir, loc_uint, loc_more, loc_inlined, pragma_dir, targets_dir,
                    proto_dir, body_dir, block, stmts, file_dir, alias_dir, section_value, section_int, section_label,
                    section_dir, perf_dir, function, top_dir, ptx_module, statements_r)

}  // namespace ptxcheck::x3g
