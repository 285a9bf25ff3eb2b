// Random PTX modules for the printer properties (ast_gen.cpp). Call these
// only inside a RapidCheck property or rc::gen::exec: every pick shrinks.
#pragma once

#include "parser/ast.hpp"

namespace ptxtest::astgen {
ptxcheck::ast::Module random_module();              // any module the grammar accepts
ptxcheck::ast::Module random_valid_module(int sm);  // one that ptxas assembles for sm_<sm>
bool random_coin(int pct);                          // true with pct% probability
}  // namespace ptxtest::astgen
