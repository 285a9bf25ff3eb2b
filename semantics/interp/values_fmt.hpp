// format_value (values.hpp) into a caller's buffer: for writers of many
// values (the reports of `ptxcheck run`), without a string per value.
#pragma once
#include <cstddef>
#include <cstdint>

#include "semantics/interp/values.hpp"

namespace ptxcheck::interp {

constexpr size_t kValueChars = 64;  // longer than every spelling format_value gives
// Writes format_value(bits, t) to buf[0, kValueChars); returns its length.
size_t format_value_to(char* buf, uint64_t bits, ElemType t);

}  // namespace ptxcheck::interp
