// atom/red arithmetic (see atom.hpp). PTX ISA 9.7.13.5 atom: the integer
// operations follow the instruction type; .inc/.dec are
// ((old >= b) ? 0 : old + 1) and (((old == 0) || (old > b)) ? b : old - 1);
// atom.add.f32 rounds to nearest even and flushes subnormal inputs and
// results; .f64 and the 16-bit formats (.noftz) do not flush; the 16-bit
// .min/.max are the min/max instruction's (PTX ISA 9.7.3.11-12).
#include "semantics/arith/atom.hpp"

#include <algorithm>
#include <array>

#include "semantics/arith/intutil.hpp"

namespace ptxcheck::arith {

namespace {

enum class Kind : uint8_t { B, U, S, F, V, P };

constexpr std::array kKinds = {
#define X(name, bits, kind) Kind::kind,
#include "semantics/arith/types.def"
#undef X
};

constexpr size_t kNumTys = kKinds.size();

Kind kind_of(Ty t) { return kKinds[static_cast<size_t>(t)]; }

bool half_form(Ty t) { return t == Ty::f16 || t == Ty::bf16 || t == Ty::f16x2 || t == Ty::bf16x2; }

// The floating-point forms, resolved once (thread-safe static initialisation).
struct FloatForms {
  std::array<std::optional<OpDesc>, kNumTys> add, min, max;
  FloatForms() {
    for (size_t i = 0; i < kNumTys; ++i) {
      Ty t = static_cast<Ty>(i);
      std::string n(ty_name(t));
      if (t == Ty::f32) add[i] = resolve("add.rn.ftz.f32").desc;
      else if (t == Ty::f64 || half_form(t)) add[i] = resolve("add.rn." + n).desc;
      if (half_form(t)) {
        min[i] = resolve("min." + n).desc;
        max[i] = resolve("max." + n).desc;
      }
    }
  }
};

const FloatForms& float_forms() {
  static const FloatForms f;
  return f;
}

const std::optional<OpDesc>& float_form(AtomOp op, Ty t) {
  const FloatForms& f = float_forms();
  size_t i = static_cast<size_t>(t);
  return op == AtomOp::Add ? f.add[i] : op == AtomOp::Min ? f.min[i] : f.max[i];
}

bool is_float(Ty t) { return kind_of(t) == Kind::F || t == Ty::f16x2 || t == Ty::bf16x2; }

}  // namespace

const char* atom_op_name(AtomOp op) {
  switch (op) {
    case AtomOp::Add: return "add";
    case AtomOp::Inc: return "inc";
    case AtomOp::Dec: return "dec";
    case AtomOp::Min: return "min";
    case AtomOp::Max: return "max";
    case AtomOp::And: return "and";
    case AtomOp::Or: return "or";
    case AtomOp::Xor: return "xor";
    case AtomOp::Exch: return "exch";
    case AtomOp::Cas: return "cas";
  }
  return "?";
}

std::string atom_form_error(AtomOp op, Ty t) {
  if (kind_of(t) == Kind::P) return "atom/red on predicates is not a PTX form";
  if (!is_float(t) || op == AtomOp::Exch || op == AtomOp::Cas) {
    if (kind_of(t) == Kind::V) return "atom/red on " + std::string(ty_name(t)) + " is not supported";
    return {};
  }
  if (op == AtomOp::Add || op == AtomOp::Min || op == AtomOp::Max) {
    if (float_form(op, t)) return {};
  }
  return "atom/red ." + std::string(atom_op_name(op)) + " on ." + std::string(ty_name(t)) + " is not a PTX form";
}

uint64_t atom_apply(AtomOp op, Ty t, uint64_t old, uint64_t b, uint64_t c) {
  const unsigned bits = ty_bits(t);
  const uint64_t m = mask(bits);
  old &= m;
  b &= m;
  uint64_t nv = old;
  switch (op) {
    case AtomOp::Add:
      if (is_float(t)) {
        uint64_t s[3] = {old, b, 0}, aux = 0;  // resolved fns may read a third source
        nv = (*float_form(op, t))(s, &aux);
      } else {
        nv = old + b;
      }
      break;
    case AtomOp::Inc: nv = old >= b ? 0 : old + 1; break;
    case AtomOp::Dec: nv = (old == 0 || old > b) ? b : old - 1; break;
    case AtomOp::Min:
    case AtomOp::Max: {
      if (is_float(t)) {
        uint64_t s[3] = {old, b, 0}, aux = 0;
        nv = (*float_form(op, t))(s, &aux);
        break;
      }
      bool less = kind_of(t) == Kind::S ? sext(old, bits) < sext(b, bits) : old < b;
      nv = (op == AtomOp::Min) == less ? old : b;
      break;
    }
    case AtomOp::And: nv = old & b; break;
    case AtomOp::Or: nv = old | b; break;
    case AtomOp::Xor: nv = old ^ b; break;
    case AtomOp::Exch: nv = b; break;
    case AtomOp::Cas: nv = old == b ? c : old; break;
  }
  return nv & m;
}

}  // namespace ptxcheck::arith
