// Closed PTX vocabularies as enums, generated from the X-macro .def tables in
// this folder; shared by the parser, the printer and the interpreter.
// Contract: every spelling maps to exactly one enumerator and back; lookups
// are by exact spelling (leading '.' included for qualifiers) and return
// nullopt when unknown. Adding a line to a .def file is all a new spelling
// needs.
#pragma once
#include <bitset>
#include <cstdint>
#include <optional>
#include <string_view>

namespace ptxcheck::table {

// Instruction opcodes (opcodes.def), including dotted ones like cp.async.bulk.
enum class Opcode : uint16_t {
#define PTX_INSN(id, sp, lo, hi, mods) id,
#include "parser/table/opcodes.def"
#undef PTX_INSN
  kCount
};

// Every instruction qualifier; the vocabularies follow each other in one
// enum so that an instruction keeps its qualifiers in one ordered list.
enum class Mod : uint16_t {
#define PTX_TYPE(id, sp, kind, bits) id,
#include "parser/table/types.def"
#undef PTX_TYPE
#define PTX_SPACE(id, sp) id,
#include "parser/table/spaces.def"
#undef PTX_SPACE
#define PTX_SCOPE(id, sp) id,
#include "parser/table/scopes.def"
#undef PTX_SCOPE
#define PTX_SEM(id, sp) id,
#include "parser/table/sems.def"
#undef PTX_SEM
#define PTX_RND(id, sp) id,
#include "parser/table/rounding.def"
#undef PTX_RND
#define PTX_CMP(id, sp) id,
#include "parser/table/cmp.def"
#undef PTX_CMP
#define PTX_OPSEL(id, sp) id,
#include "parser/table/ops.def"
#undef PTX_OPSEL
#define PTX_VEC(id, sp, n) id,
#include "parser/table/vectors.def"
#undef PTX_VEC
#define PTX_SHAPE(id, sp) id,
#include "parser/table/shapes.def"
#undef PTX_SHAPE
#define PTX_GEOM(id, sp) id,
#include "parser/table/geometry.def"
#undef PTX_GEOM
#define PTX_CACHE(id, sp) id,
#include "parser/table/cache.def"
#undef PTX_CACHE
#define PTX_MISC(id, sp) id,
#include "parser/table/misc.def"
#undef PTX_MISC
  kCount
};

// Which .def file (vocabulary) a qualifier comes from.
enum class ModClass : uint8_t { Type, Space, Scope, Sem, Rnd, Cmp, Op, Vec, Shape, Geom, Cache, Misc };

// Kind of a type (types.def): signed, unsigned, float, bits, predicate, opaque.
enum class TypeKind : uint8_t { S, U, F, B, P, O };

// Performance/cluster directives of function headers (perf.def).
enum class Perf : uint8_t {
#define PTX_PERF(id, sp, lo, hi) id,
#include "parser/table/perf.def"
#undef PTX_PERF
  kCount
};

// Linking directives (linkage.def); None = no directive written.
enum class Linkage : uint8_t {
  None,
#define PTX_LINK(id, sp) id,
#include "parser/table/linkage.def"
#undef PTX_LINK
};

constexpr size_t kModCount = static_cast<size_t>(Mod::kCount);
using ModSet = std::bitset<kModCount>;

std::string_view name(Opcode op);  // "cp.async.bulk"
std::string_view name(Mod m);      // ".u32"
std::string_view name(Perf p);     // ".maxntid"
std::string_view name(Linkage l);  // ".visible"; "" for None
std::optional<Opcode> lookup_opcode(std::string_view spelling);
std::optional<Mod> lookup_mod(std::string_view spelling);  // with leading '.'
std::optional<Perf> lookup_perf(std::string_view spelling);
std::optional<Linkage> lookup_linkage(std::string_view spelling);

ModClass mod_class(Mod m);
bool is_type(Mod m);
bool is_space(Mod m);
TypeKind type_kind(Mod type);   // precondition: is_type(type)
unsigned type_bits(Mod type);   // precondition: is_type(type)
unsigned vec_count(Mod vec);    // .v4 -> 4, .x2 -> 2; precondition: class Vec

// The instruction table row of an opcode (opcodes.def).
struct InsnInfo {
  uint8_t min_operands;
  uint8_t max_operands;  // 255 = variadic
  const ModSet* allowed;  // qualifiers accepted, in any order
};
const InsnInfo& info(Opcode op);

// Perf directive argument-count range.
std::pair<unsigned, unsigned> perf_arity(Perf p);

}  // namespace ptxcheck::table
