// Post-parse name resolution of function bodies (see resolve.cpp).
// Contract: rewrites Symbol operands that name a label of the body into
// LabelRef and those that name a .reg of the body (or a .reg parameter) into
// Reg; `!name` / `a|b` over such registers become negated Reg / RegPair.
// Idempotent, so printing and re-parsing gives the same AST.
#pragma once
#include <vector>

#include "parser/ast.hpp"

namespace ptxcheck {
void resolve_body(std::vector<ast::Statement>& body, const std::vector<ast::VarDecl>& params);
void resolve_module(ast::Module& m);
}  // namespace ptxcheck
