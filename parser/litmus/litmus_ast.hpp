// The litmus test model shared by both litmus front ends (Dat3M's PTX dialect
// and ptxcheck's native format) and by semantics/litmus, which runs it.
// Contract: a Test is syntax-neutral: memory accesses already carry their
// order/scope/proxy in the model's vocabulary (memmodel/events.hpp), labels
// are names (resolved by semantics/litmus), registers are per-thread names.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "memmodel/events.hpp"
#include "parser/ast.hpp"
#include "parser/diagnostic.hpp"

namespace ptxcheck::litmus {

enum class InstrKind : uint8_t {
  Load,        // dst <- [loc]
  Store,       // [loc] <- args[0]
  Rmw,         // atom: dst <- [loc]; [loc] <- op([loc], args...)
  Red,         // red: [loc] <- op([loc], args[0]); no destination
  Fence,       // fence.{sc,acq_rel,acquire,release}.scope, membar
  ProxyFence,  // fence.proxy.*
  Barrier,     // bar.cta.{sync,arrive}: args are the id operand(s)
  Alu,         // dst <- op(args[0], args[1]) (Mov: dst <- args[0])
  Branch,      // if cmp(args[0], args[1]) goto target (`@%p bra L` is %p != 0)
  Jump,        // goto target
  Label,       // target:
  Ptx,         // any other PTX instruction (native format): run from `ptx` alone
};

// Arithmetic of Alu/Rmw/Red (PTX ISA 9.7.13.5 atom operations).
// Setp: dst <- cmp(args[0], args[1]) ? 1 : 0 (predicates are 0/1 registers).
enum class AluOp : uint8_t { Mov, Add, Sub, Mul, Div, And, Or, Xor, Exch, Cas, Inc, Dec, Min, Max, Setp };
enum class CmpOp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge };

struct Operand {
  bool is_reg = false;
  std::string reg;   // register name when is_reg
  uint64_t imm = 0;  // immediate otherwise
};

struct Instr {
  InstrKind kind = InstrKind::Label;
  mm::Order order = mm::Order::Weak;
  mm::Scope scope = mm::Scope::Sys;
  mm::Proxy proxy = mm::Proxy::Generic;  // method of access (ld: generic, tld: texture, ...)
  std::string loc;                       // memory operand (location name)
  std::string dst;                       // destination register
  AluOp op = AluOp::Mov;
  CmpOp cmp = CmpOp::Eq;
  std::vector<Operand> args;
  std::string target;                    // Branch/Jump target, Label name
  mm::ProxyFenceKind pfence = mm::ProxyFenceKind::None;
  mm::StateSpace fspace = mm::StateSpace::Any;  // fence.proxy.async.{global,shared::*} (PTX ISA 9.7.13.4)
  mm::BarrierOp bar = mm::BarrierOp::None;
  int bar_count = -1;                    // barrier thread count operand, -1 = whole CTA
  uint32_t size = 4;                     // access size in bytes (values wrap to it)
  std::string type;                      // PTX type suffix ("u32", "s64", ...); empty: untyped (Dat3M)
  // Further locations a Ptx-kind instruction of the Dat3M dialect names (an
  // asynchronous copy's source, destination and mbarrier); `loc` is unused.
  std::vector<std::string> more_locs;
  std::string ptx_text;  // a Ptx-kind instruction of the Dat3M dialect written as PTX
  SourcePos pos;
  std::string text;                      // source text, for labels in --explain/--dot
  // The parsed PTX statement (native format). semantics/litmus lowers it
  // with the interpreter; the decoded fields above (order, scope, ...) are
  // authoritative for memory instructions (transforms change them).
  std::shared_ptr<const ast::Instruction> ptx;
};

struct Thread {
  mm::ThreadPlace place;
  std::vector<Instr> code;
  SourcePos pos;
  // .param and .local variables the body declares (native format), as in
  // nvcc's call sequences; `{ }` blocks are flattened, one variable per
  // name (the largest declaration of it).
  std::vector<ast::VarDecl> decls;
};

// A location declaration. An alias names another location's physical
// memory (PTX ISA 8.2.2); `proxy` is the proxy through which it is accessed.
struct LocDecl {
  std::string name;
  uint64_t init = 0;
  std::string alias_of;  // empty = a location of its own
  mm::Proxy proxy = mm::Proxy::Generic;
  uint32_t size = 4;
  std::string space = "global";  // state space (native format; informational)
  SourcePos pos;
};

struct RegInit {
  int thread = 0;
  std::string reg;
  uint64_t value = 0;
};

// A value in the final condition: P1:r0, x, or a constant.
struct CondValue {
  enum Kind : uint8_t { Reg, Loc, Const } kind = Const;
  int thread = -1;
  std::string name;
  uint64_t value = 0;
};

struct Cond {
  enum Kind : uint8_t { True, Cmp, And, Or, Not, Implies } kind = True;
  CmpOp cmp = CmpOp::Eq;
  CondValue lhs, rhs;
  std::vector<Cond> kids;
};

enum class Quant : uint8_t { Exists, NotExists, Forall };

// A statement of a function of the prelude: its position and source text
// (the label of its events in --explain and --dot).
struct FuncStmt {
  SourcePos pos;
  std::string text;
};

struct Test {
  std::string name;
  std::string file;
  std::vector<LocDecl> locs;
  // The native format's PTX prelude between the locations and the threads:
  // `.func` definitions (and declarations) that threads may call, as nvcc
  // prints them. `funcs` are parsed by the PTX front end with positions in
  // this file; `prelude` is their text (printing), `func_stmts` the text of
  // each of their statements.
  std::vector<ast::Function> funcs;
  std::string prelude;
  std::vector<FuncStmt> func_stmts;
  std::vector<RegInit> reg_inits;
  std::vector<Thread> threads;
  Quant quant = Quant::Exists;
  Cond cond;
  // herd's test kind from the quantifier: Allowed, Forbidden, Required.
  const char* kind_name() const;
};

// Dat3M's PTX litmus dialect (LitmusPTX.g4 in hernanponcedeleon/Dat3M).
// Throws InputError with file:line:col on malformed input.
Test parse_dat3m(std::string_view text, const std::string& file);

// ptxcheck's native format (docs/litmus-format.md).
Test parse_native(std::string_view text, const std::string& file);

// Reads `path` and picks the dialect from its shape. Throws InputError when
// the file cannot be read or parsed.
Test parse_litmus_file(const std::string& path);
Test parse_litmus_text(std::string_view text, const std::string& file);

// Printing helpers shared by output and diagnostics.
std::string to_string(const Cond& c);
std::string to_string(const CondValue& v);
const char* to_string(CmpOp c);
const char* quant_name(Quant q);

}  // namespace ptxcheck::litmus
