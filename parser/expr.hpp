// Evaluation of PTX constant expressions (PTX ISA 4.5.4-4.5.6): 64-bit
// integer arithmetic, signed unless an operand is unsigned (.u64 cast or U
// suffix); floats and symbols are not integer constants.
#pragma once
#include <cstdint>
#include <optional>

#include "parser/ast.hpp"

namespace ptxcheck {

struct ConstValue {
  uint64_t bits = 0;
  bool is_unsigned = false;
};

// nullopt when `e` is not an integer constant expression or divides by zero.
std::optional<ConstValue> eval_const(const ast::Operand& e);

}  // namespace ptxcheck
