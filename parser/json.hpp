// AST -> JSON (nlohmann) for `ptxcheck parse --json` and tooling.
// Contract: every node is an object with "kind" and, where the node has a
// position, "line"/"col"; qualifiers/opcodes/types appear by their PTX
// spelling. The shape follows parser/ast.hpp field by field.
#pragma once
#include <nlohmann/json.hpp>

#include "parser/ast.hpp"

namespace ptxcheck {
nlohmann::json to_json(const ast::Module& m);
nlohmann::json to_json(const ast::Statement& s);
nlohmann::json to_json(const ast::Operand& o);
}  // namespace ptxcheck
