// AST -> JSON (nlohmann) for `ptxcheck parse --json` and tooling.
// Contract: every node is an object with "kind" and, where the node has a
// position, "line"/"col"; qualifiers/opcodes/types appear by their PTX
// spelling. The shape follows parser/ast.hpp field by field.
#pragma once
#include <iosfwd>
#include <vector>

#include <nlohmann/json.hpp>

#include "parser/ast.hpp"

namespace ptxcheck {
nlohmann::json to_json(const ast::Module& m);
nlohmann::json to_json(const ast::Statement& s);
nlohmann::json to_json(const ast::Operand& o);

// Streams the JSON AST to `os` without building it in memory: the same bytes
// as to_json(m).dump(1) (for a vector: the array of the modules, dumped the
// same way). Throws InputError before writing anything when a string of the
// module is not UTF-8 (JSON text is UTF-8, RFC 8259 8.1).
void write_json(std::ostream& os, const ast::Module& m);
void write_json(std::ostream& os, const std::vector<ast::Module>& ms);
void check_json_strings(const ast::Module& m);
}  // namespace ptxcheck
