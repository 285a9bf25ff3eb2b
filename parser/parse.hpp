// PTX front end entry points (Spirit X3 grammar in parser/x3/, validation
// against the instruction table in parser/insn.cpp).
// Contract: both functions either return a fully validated AST or throw
// ptxcheck::InputError carrying `file` and the 1-based line:col of the
// offending token; they never crash or loop on any byte sequence.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "parser/ast.hpp"
#include "parser/diagnostic.hpp"

namespace ptxcheck {

// A whole module: .version/.target/.address_size, then directives, variables
// and functions (PTX ISA 9.2 chapter 11).
ast::Module parse_module(std::string_view text, const std::string& file);

// A bare sequence of statements as found inside a function body: instructions,
// labels, .reg/.local/.shared declarations, { } blocks, .loc/.pragma. Used by
// the litmus native format for thread bodies. Reported and stored positions
// are shifted so that the first character of `text` is at `origin`
// (line origin.line, column origin.col; a zero origin counts as 1:1).
// Label references are resolved against the labels of the whole sequence.
std::vector<ast::Statement> parse_statements(std::string_view text, const std::string& file,
                                             SourcePos origin);

}  // namespace ptxcheck
