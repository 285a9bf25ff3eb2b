// Name tables and lookups for the X-macro vocabularies (see table.hpp).
#include "parser/table/table.hpp"

#include <array>
#include <string>
#include <unordered_map>
#include <vector>

namespace ptxcheck::table {
namespace {

struct ModRow {
  std::string_view name;
  ModClass cls;
  TypeKind kind;
  uint8_t bits;  // type bits, or vector count for Vec
};

constexpr ModRow kMods[] = {
#define PTX_TYPE(id, sp, k, b) {sp, ModClass::Type, TypeKind::k, b},
#include "parser/table/types.def"
#undef PTX_TYPE
#define PTX_SPACE(id, sp) {sp, ModClass::Space, TypeKind::O, 0},
#include "parser/table/spaces.def"
#undef PTX_SPACE
#define PTX_SCOPE(id, sp) {sp, ModClass::Scope, TypeKind::O, 0},
#include "parser/table/scopes.def"
#undef PTX_SCOPE
#define PTX_SEM(id, sp) {sp, ModClass::Sem, TypeKind::O, 0},
#include "parser/table/sems.def"
#undef PTX_SEM
#define PTX_RND(id, sp) {sp, ModClass::Rnd, TypeKind::O, 0},
#include "parser/table/rounding.def"
#undef PTX_RND
#define PTX_CMP(id, sp) {sp, ModClass::Cmp, TypeKind::O, 0},
#include "parser/table/cmp.def"
#undef PTX_CMP
#define PTX_OPSEL(id, sp) {sp, ModClass::Op, TypeKind::O, 0},
#include "parser/table/ops.def"
#undef PTX_OPSEL
#define PTX_VEC(id, sp, n) {sp, ModClass::Vec, TypeKind::O, n},
#include "parser/table/vectors.def"
#undef PTX_VEC
#define PTX_SHAPE(id, sp) {sp, ModClass::Shape, TypeKind::O, 0},
#include "parser/table/shapes.def"
#undef PTX_SHAPE
#define PTX_GEOM(id, sp) {sp, ModClass::Geom, TypeKind::O, 0},
#include "parser/table/geometry.def"
#undef PTX_GEOM
#define PTX_CACHE(id, sp) {sp, ModClass::Cache, TypeKind::O, 0},
#include "parser/table/cache.def"
#undef PTX_CACHE
#define PTX_MISC(id, sp) {sp, ModClass::Misc, TypeKind::O, 0},
#include "parser/table/misc.def"
#undef PTX_MISC
};
static_assert(std::size(kMods) == kModCount);

struct OpRow {
  std::string_view name;
  uint8_t lo, hi;
  std::string_view spec;
};
constexpr OpRow kOps[] = {
#define PTX_INSN(id, sp, lo, hi, mods) {sp, lo, hi, mods},
#include "parser/table/opcodes.def"
#undef PTX_INSN
};
constexpr size_t kOpCount = static_cast<size_t>(Opcode::kCount);
static_assert(std::size(kOps) == kOpCount);

struct PerfRow {
  std::string_view name;
  unsigned lo, hi;
};
constexpr PerfRow kPerf[] = {
#define PTX_PERF(id, sp, lo, hi) {sp, lo, hi},
#include "parser/table/perf.def"
#undef PTX_PERF
};
constexpr std::string_view kLink[] = {
    "",
#define PTX_LINK(id, sp) sp,
#include "parser/table/linkage.def"
#undef PTX_LINK
};

struct Indexes {
  std::unordered_map<std::string_view, Mod> mods;
  std::unordered_map<std::string_view, Opcode> ops;
  std::vector<ModSet> allowed;
  std::vector<InsnInfo> infos;
};

// Expands a qualifier spec ("@type .sat") into a set; an unknown spelling in
// the table is a programming error caught by tests/parser (table sanity).
ModSet expand(std::string_view spec, const std::unordered_map<std::string_view, Mod>& mods) {
  ModSet set;
  static const std::pair<std::string_view, ModClass> kClasses[] = {
      {"@type", ModClass::Type}, {"@space", ModClass::Space}, {"@scope", ModClass::Scope},
      {"@sem", ModClass::Sem},   {"@rnd", ModClass::Rnd},     {"@cmp", ModClass::Cmp},
      {"@op", ModClass::Op},     {"@vec", ModClass::Vec},     {"@shape", ModClass::Shape},
      {"@geom", ModClass::Geom}, {"@cache", ModClass::Cache},
  };
  size_t i = 0;
  while (i < spec.size()) {
    while (i < spec.size() && spec[i] == ' ') ++i;
    size_t j = spec.find(' ', i);
    if (j == std::string_view::npos) j = spec.size();
    std::string_view tok = spec.substr(i, j - i);
    i = j;
    if (tok.empty()) continue;
    if (tok[0] == '@') {
      for (const auto& [n, c] : kClasses)
        if (n == tok)
          for (size_t m = 0; m < kModCount; ++m)
            if (kMods[m].cls == c) set.set(m);
    } else if (auto it = mods.find(tok); it != mods.end()) {
      set.set(static_cast<size_t>(it->second));
    }
  }
  return set;
}

const Indexes& indexes() {
  static const Indexes idx = [] {
    Indexes x;
    for (size_t m = 0; m < kModCount; ++m) x.mods.emplace(kMods[m].name, static_cast<Mod>(m));
    for (size_t o = 0; o < kOpCount; ++o) x.ops.emplace(kOps[o].name, static_cast<Opcode>(o));
    x.allowed.reserve(kOpCount);
    for (size_t o = 0; o < kOpCount; ++o) x.allowed.push_back(expand(kOps[o].spec, x.mods));
    for (size_t o = 0; o < kOpCount; ++o) x.infos.push_back({kOps[o].lo, kOps[o].hi, &x.allowed[o]});
    return x;
  }();
  return idx;
}

}  // namespace

std::string_view name(Opcode op) { return kOps[static_cast<size_t>(op)].name; }
std::string_view name(Mod m) { return kMods[static_cast<size_t>(m)].name; }
std::string_view name(Perf p) { return kPerf[static_cast<size_t>(p)].name; }
std::string_view name(Linkage l) { return kLink[static_cast<size_t>(l)]; }

std::optional<Opcode> lookup_opcode(std::string_view s) {
  const auto& m = indexes().ops;
  auto it = m.find(s);
  if (it == m.end()) return std::nullopt;
  return it->second;
}
std::optional<Mod> lookup_mod(std::string_view s) {
  const auto& m = indexes().mods;
  auto it = m.find(s);
  if (it == m.end()) return std::nullopt;
  return it->second;
}
std::optional<Perf> lookup_perf(std::string_view s) {
  for (size_t i = 0; i < std::size(kPerf); ++i)
    if (kPerf[i].name == s) return static_cast<Perf>(i);
  return std::nullopt;
}
std::optional<Linkage> lookup_linkage(std::string_view s) {
  for (size_t i = 1; i < std::size(kLink); ++i)
    if (kLink[i] == s) return static_cast<Linkage>(i);
  return std::nullopt;
}

ModClass mod_class(Mod m) { return kMods[static_cast<size_t>(m)].cls; }
bool is_type(Mod m) { return mod_class(m) == ModClass::Type; }
bool is_space(Mod m) { return mod_class(m) == ModClass::Space; }
TypeKind type_kind(Mod t) { return kMods[static_cast<size_t>(t)].kind; }
unsigned type_bits(Mod t) { return kMods[static_cast<size_t>(t)].bits; }
unsigned vec_count(Mod v) { return kMods[static_cast<size_t>(v)].bits; }

const InsnInfo& info(Opcode op) { return indexes().infos[static_cast<size_t>(op)]; }

std::pair<unsigned, unsigned> perf_arity(Perf p) {
  return {kPerf[static_cast<size_t>(p)].lo, kPerf[static_cast<size_t>(p)].hi};
}

}  // namespace ptxcheck::table
