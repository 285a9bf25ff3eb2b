// The PTX grammar (Spirit X3), split as the X3 "rexpr" example: rules are
// declared here, defined in grammar_def.hpp and instantiated once in
// grammar.cpp. Include only this header elsewhere.
// Contract: on success the attributes hold syntax-checked AST pieces whose
// instructions are already validated against the instruction table
// (opcode, qualifiers, operand count); any error throws InputError.
#pragma once
#include <vector>

#include "parser/ast.hpp"
#include "parser/x3/config.hpp"

namespace ptxcheck::x3g {

struct module_class;
struct statements_class;
using module_type = x3::rule<module_class, ast::Module>;
using statements_type = x3::rule<statements_class, std::vector<ast::Statement>>;
BOOST_SPIRIT_DECLARE(module_type, statements_type)

const module_type& module_rule();
const statements_type& statements_rule();

}  // namespace ptxcheck::x3g
