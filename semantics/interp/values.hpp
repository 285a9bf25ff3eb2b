// Exact reading and printing of launch-spec values (docs: launch-spec.md).
// Reading is by value: a decimal is rounded correctly (round to nearest even)
// to the element type, integers are read exactly from their spelling (never
// through a double), and "nan", "inf", "-inf", "-0.0" and hex bit patterns in
// strings ("0x3f800000") are accepted. Printing is the inverse: the shortest
// decimal that reads back to the same bits; NaN prints as "nan" when it is the
// canonical NaN of its type (PTX: all exponent and mantissa bits set, sign
// clear: 0x7fffffff for f32) and as its hex bit pattern otherwise.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "semantics/interp/json_pos.hpp"

namespace ptxcheck::interp {

enum class ElemType : uint8_t {
#define ELEM(name, bytes, kind) name,
#include "semantics/interp/elem_types.def"
#undef ELEM
};

std::optional<ElemType> elem_type_from(std::string_view name);
const char* elem_name(ElemType t);
unsigned elem_size(ElemType t);
bool elem_is_float(ElemType t);
bool elem_is_signed(ElemType t);

// Canonical NaN bit pattern of a float type.
uint64_t canonical_nan(ElemType t);

// Bits (zero-extended to 64) of a JSON value of element type `t`.
// Throws InputError(file, node.pos, ...) when it is not a valid value.
uint64_t read_value(const JNode& node, ElemType t, const std::string& file);

// A decimal or special spelling ("1.5", "-0.0", "nan", "1e-3") as bits of
// float type `t`, correctly rounded; nullopt when not a number spelling.
std::optional<uint64_t> decimal_to_float_bits(std::string_view text, ElemType t);

// Round a double to a float type's bits (round to nearest even).
uint64_t double_to_float_bits(double x, ElemType t);
// Value of float bits as a double (exact for every float type).
double float_bits_to_double(uint64_t bits, ElemType t);

// JSON spelling of a value: integers as JSON integers, floats shortest
// round-trip (negative zero as -0.0), specials as JSON strings ("nan", "inf",
// "-inf", "0x7fc00000").
std::string format_value(uint64_t bits, ElemType t);

// Sign-extend or mask `bits` to the element width (keeps the value's class).
uint64_t mask_to(uint64_t bits, ElemType t);

}  // namespace ptxcheck::interp
