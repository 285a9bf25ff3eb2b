// AST -> canonical PTX text.
// Contract: the output parses back to an equal AST (positions aside), and
// ptxas accepts it whenever it accepted the source. Layout is fixed: one
// statement per line, a tab before instructions, qualifiers in source order.
#pragma once
#include <string>

#include "parser/ast.hpp"

namespace ptxcheck {

std::string print(const ast::Module& m);
std::string print(const ast::Instruction& insn);     // "@%p1 add.s32 %r1, %r2, 4;" (no newline)
std::string print(const ast::Operand& op);
std::string print(const ast::Statement& s);           // one or more lines, each '\n'-terminated
std::string print_statements(const std::vector<ast::Statement>& body);

}  // namespace ptxcheck
