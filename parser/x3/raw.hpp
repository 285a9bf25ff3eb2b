// Grammar-internal shapes that the X3 rules fill before plain C++ turns them
// into typed AST nodes (parser/decl.cpp): declaration lines are parsed as a
// generic list of dotted items so that ptxas' free ordering of .align/.v4/
// .ptr/type is accepted, and checked afterwards with precise positions.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "parser/ast.hpp"

namespace ptxcheck::raw {

struct DeclItem {  // `.align 16`, `.u32`, `.attribute(.managed)`
  ast::Pos pos;
  std::string word;  // with the leading '.'
  std::optional<uint64_t> num;
  bool attribute = false;
};

struct Declarator {  // name<24>[4][] = init
  ast::Pos pos;
  std::string name;
  std::optional<uint32_t> range;
  std::vector<std::optional<uint64_t>> dims;
  std::optional<ast::Init> init;
};

struct Decl {
  ast::Pos pos;
  std::vector<DeclItem> items;
  std::vector<Declarator> decls;
};

}  // namespace ptxcheck::raw
