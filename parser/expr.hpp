// Evaluation of PTX constant expressions (PTX ISA 4.5.4-4.5.6): 64-bit
// integer arithmetic, signed unless an operand is unsigned (.u64 cast or U
// suffix); floats and symbols are not integer constants.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "parser/ast.hpp"

namespace ptxcheck {

struct ConstValue {
  uint64_t bits = 0;
  bool is_unsigned = false;
};

// The predefined integer constant WARP_SZ, "the number of threads per warp
// for the target platform; to date, all target architectures have a WARP_SZ
// value of 32" (PTX ISA 4.5.1 Integer Constants); usable "in any instruction
// where an immediate operand is allowed" (PTX ISA 2.2.1 Cooperative Thread Arrays).
inline constexpr uint64_t kWarpSz = 32;
inline bool is_warp_sz(const std::string& name) { return name == "WARP_SZ"; }

// nullopt when `e` is not an integer constant expression or divides by zero.
std::optional<ConstValue> eval_const(const ast::Operand& e);

}  // namespace ptxcheck
