// Typed AST of a PTX module (PTX ISA 9.2 chapters 4, 5, 9, 11).
// Contract:
//  * every node carries `pos` (1-based line/col of its first token);
//  * positions never take part in equality: `a == b` compares structure and
//    values only, so parse(print(parse(x))) == parse(x) is meaningful;
//  * qualifiers are table enums (parser/table/table.hpp) kept in source order;
//  * the parser fills this AST only with inputs it has validated against the
//    instruction table; consumers may rely on opcode/qualifier membership but
//    must check operand kinds themselves where a family allows several.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "parser/diagnostic.hpp"
#include "parser/table/table.hpp"

namespace ptxcheck::ast {

using table::Linkage;
using table::Mod;
using table::Opcode;
using table::Perf;

// A source position that compares equal to every other position.
struct Pos : SourcePos {
  Pos() = default;
  Pos(SourcePos p) : SourcePos(p) {}  // NOLINT(google-explicit-constructor)
  friend bool operator==(const Pos&, const Pos&) { return true; }
};

struct Operand;

// ---- operands (PTX ISA 4.5 constants, 6.4 operand forms) ----

// %r1, %tid.x (sel "x"), video byte/half selectors a.b0 (sel "b0"),
// !%p (negated, predicate sources only), -%r (minus, vmad sources only).
struct Reg {
  std::string name;  // with leading '%' for %-names; plain identifiers allowed
  std::string sel;   // component after '.', without the dot; "" if none
  bool negated = false;
  bool minus = false;  // -%r: arithmetic negation of a vmad source (PTX ISA 9.7.18)
  bool operator==(const Reg&) const = default;
};
struct Sink {  // `_`
  bool operator==(const Sink&) const = default;
};
struct RegPair {  // p|q dual destination of setp/vote etc.
  Reg first, second;
  bool operator==(const RegPair&) const = default;
};
struct VectorOp {  // {%r1, %r2, _, %r4}
  std::vector<Operand> elems;
  bool operator==(const VectorOp&) const = default;
};
enum class IntBase : uint8_t { Dec, Hex, Oct, Bin };
struct IntImm {  // 42, 0x2A, 052, 0b101010, 42U (PTX ISA 4.5.1)
  uint64_t value = 0;  // two's complement bits
  IntBase base = IntBase::Dec;
  bool is_unsigned = false;  // 'U' suffix
  bool negative = false;     // written as -N (value holds the negated bits)
  bool operator==(const IntImm&) const = default;
};
enum class FloatForm : uint8_t { Hex32, Hex64, Decimal };
struct FloatImm {  // 0f3F800000, 0d3FF0000000000000, 1.5 (PTX ISA 4.5.2)
  uint64_t bits = 0;  // f32 bits for Hex32, else f64 bits
  FloatForm form = FloatForm::Decimal;
  bool operator==(const FloatImm&) const = default;
};
struct Symbol {  // a variable, function or parameter name
  std::string name;
  bool operator==(const Symbol&) const = default;
};
struct LabelRef {  // a symbol that names a label of the enclosing function
  std::string name;
  bool operator==(const LabelRef&) const = default;
};
// Constant expressions (PTX ISA 4.5.4-4.5.6) and generic(sym) in initializers.
enum class ExprOp : uint8_t {
  Neg, Plus, Not, BitNot,               // unary - + ! ~
  Mul, Div, Rem, Add, Sub, Shl, Shr,    // binary
  Lt, Gt, Le, Ge, Eq, Ne, BitAnd, BitXor, BitOr, LogAnd, LogOr,
  Cond,                                 // a ? b : c
  CastS64, CastU64,                     // (.s64) (.u64)
  Generic,                              // generic(sym)
};
struct Expr {
  ExprOp op = ExprOp::Add;
  std::vector<Operand> args;
  bool operator==(const Expr&) const = default;
};
// [base+offset], [imm], [base, extra...] (tex/surf/bulk-tensor coordinates).
struct Address {
  std::optional<Reg> reg;        // register base
  std::optional<std::string> sym;  // symbol base (exclusive with reg)
  int64_t offset = 0;             // byte offset, or the address when no base
  std::vector<Operand> extra;     // operands after the first ',' inside [ ]
  bool operator==(const Address&) const = default;
};
struct ArgList {  // (a, b) of call
  std::vector<Operand> elems;
  bool operator==(const ArgList&) const = default;
};

struct Operand {
  Pos pos;
  std::variant<Reg, Sink, RegPair, VectorOp, IntImm, FloatImm, Symbol, LabelRef, Expr, Address,
               ArgList>
      v;
  bool operator==(const Operand&) const = default;
};

// ---- instructions and statements ----

struct Guard {  // @%p / @!%p
  Pos pos;
  std::string reg;
  bool negated = false;
  bool operator==(const Guard&) const = default;
};
struct ModTok {
  Mod id;
  Pos pos;
  bool operator==(const ModTok&) const = default;
};
struct Instruction {
  Pos pos;  // of the guard when present, else of the opcode
  std::optional<Guard> guard;
  Opcode op = Opcode::exit;
  std::vector<ModTok> mods;  // source order
  std::vector<Operand> operands;
  bool operator==(const Instruction&) const = default;
  bool has(Mod m) const {
    for (const auto& t : mods)
      if (t.id == m) return true;
    return false;
  }
};

struct Label {
  Pos pos;
  std::string name;
  bool operator==(const Label&) const = default;
};

// Initializer of a variable: a scalar constant expression / symbol /
// generic(sym) / sym+off, or a brace list (nested for arrays).
struct Init {
  Pos pos;
  bool is_list = false;
  std::optional<Operand> value;  // when !is_list
  std::vector<Init> elems;       // when is_list
  bool operator==(const Init&) const = default;
};

// A variable, parameter or register declaration (PTX ISA 5.4, 11.1.2 params).
struct VarDecl {
  Pos pos;
  Linkage linkage = Linkage::None;  // module scope only
  Mod space = Mod::reg;              // state space
  std::optional<uint32_t> align;     // .align N
  unsigned vec = 0;                  // 0, 2, 4, 8 (.v2 .v4 .v8)
  Mod type = Mod::b32;
  std::string name;
  std::optional<uint32_t> range;     // %r<24>: 24 registers %r0..%r23
  std::vector<std::optional<uint64_t>> dims;  // [4][] -> {4, nullopt}
  bool ptr = false;                  // .param .ptr attribute (kernel params)
  std::optional<Mod> ptr_space;      // .ptr.global etc
  std::optional<uint32_t> ptr_align; // .ptr.align N
  std::vector<std::string> attributes;  // .attribute(.managed) names, e.g. ".managed"
  std::optional<Init> init;
  bool operator==(const VarDecl&) const = default;
};

struct Statement;
struct Block {  // nested { } scope
  Pos pos;
  std::vector<Statement> body;
  bool operator==(const Block&) const = default;
};

// ---- directives (PTX ISA 11.1-11.6) ----

struct FileDir {  // .file 1 "a.cu", 1700000000, 1234
  unsigned index = 0;
  std::string path;
  std::optional<uint64_t> timestamp, size;
  bool operator==(const FileDir&) const = default;
};
struct LocDir {  // .loc 1 20 5 [, function_name L, inlined_at 1 2 3]
  unsigned file = 0, line = 0, col = 0;
  std::string tail;  // text after the third number, whitespace-normalized
  bool operator==(const LocDir&) const = default;
};
struct PragmaDir {  // .pragma "nounroll";
  std::vector<std::string> strings;
  bool operator==(const PragmaDir&) const = default;
};
struct SectionEntry {  // label, or `.b8 1, 2` / `.b32 sym+4` data line
  std::optional<std::string> label;
  Mod type = Mod::b8;
  std::vector<Operand> values;
  bool operator==(const SectionEntry&) const = default;
};
struct SectionDir {  // .section .debug_info { ... }
  std::string name;
  std::vector<SectionEntry> entries;
  bool operator==(const SectionDir&) const = default;
};
struct TargetListDir {  // .branchtargets L1, L2;  .calltargets f, g;
  bool calls = false;
  std::vector<std::string> names;
  bool operator==(const TargetListDir&) const = default;
};
struct CallPrototypeDir {  // .callprototype (.param .b32 _) _ (.param .b32 _, ...);
  std::vector<VarDecl> rets, params;
  bool noreturn = false;
  bool operator==(const CallPrototypeDir&) const = default;
};
struct AliasDir {  // .alias alias, aliasee;
  std::string alias, aliasee;
  bool operator==(const AliasDir&) const = default;
};
struct Directive {
  Pos pos;
  std::variant<FileDir, LocDir, PragmaDir, SectionDir, TargetListDir, CallPrototypeDir, AliasDir> v;
  bool operator==(const Directive&) const = default;
};

struct Statement {
  Pos pos;
  std::variant<Instruction, Label, VarDecl, Block, Directive> v;
  bool operator==(const Statement&) const = default;
};

// ---- functions and the module ----

struct PerfDirective {  // .maxntid 256, 1, 1   .noreturn   .pragma "x";
  Pos pos;
  Perf kind = Perf::maxntid;
  std::vector<uint64_t> values;
  bool operator==(const PerfDirective&) const = default;
};

struct Function {
  Pos pos;
  bool is_entry = false;  // .entry (kernel) vs .func
  Linkage linkage = Linkage::None;
  std::string name;
  std::vector<VarDecl> rets;    // .func return parameters
  std::vector<VarDecl> params;
  std::vector<PerfDirective> perf;
  std::vector<PragmaDir> pragmas;  // .pragma between header and body
  bool has_body = false;           // false: a declaration ending in ';'
  std::vector<Statement> body;
  bool operator==(const Function&) const = default;
};

struct Version {
  unsigned major = 0, minor = 0;
  bool operator==(const Version&) const = default;
};

struct TopLevel {
  Pos pos;
  std::variant<VarDecl, Function, Directive> v;
  bool operator==(const TopLevel&) const = default;
};

struct Module {
  Pos pos;
  std::string file;  // for diagnostics; ignored by ==
  Version version;
  std::vector<std::string> targets;  // "sm_90a", "texmode_independent", "debug"
  std::optional<unsigned> address_size;
  std::vector<TopLevel> items;       // source order
  bool operator==(const Module& o) const {
    return version == o.version && targets == o.targets && address_size == o.address_size &&
           items == o.items;
  }
};

}  // namespace ptxcheck::ast
