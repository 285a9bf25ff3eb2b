// Plain C++ helpers that the grammar's semantic actions call; they hold the
// checks that would bloat the X3 templates (instruction table validation,
// declaration assembly). Each throws InputError via ParseState::fail.
#pragma once
#include <vector>

#include "parser/ast.hpp"
#include "parser/x3/config.hpp"
#include "parser/x3/raw.hpp"

namespace ptxcheck::x3g {

// `add.rn.f32` at [b, e): longest-prefix opcode lookup, then qualifiers
// checked against the instruction table (parser/table/opcodes.def).
void decode_opword(const ParseState& st, const char* b, const char* e, ast::Instruction& insn);

// After the operands: operand count and operand kinds; `semi` points at ';'.
void finish_insn(const ParseState& st, const char* semi, ast::Instruction& insn);

enum class DeclSite { Module, Body, Param };
// One declaration line -> one VarDecl per declarator.
std::vector<ast::VarDecl> build_decls(const ParseState& st, const raw::Decl& d, DeclSite site);

// Unary minus on a literal folds into it; otherwise an Expr{Neg}.
ast::Operand negate(ast::Operand x);

}  // namespace ptxcheck::x3g
