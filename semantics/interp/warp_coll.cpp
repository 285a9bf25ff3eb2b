// Values of warp collectives (warp_coll.hpp).
#include "semantics/interp/warp_coll.hpp"

#include <algorithm>
#include <bit>

namespace ptxcheck::interp {

namespace {
#define FOR_LANES(mask) for (uint32_t b_ = (mask), l; b_ && ((l = std::countr_zero(b_)), true); b_ &= b_ - 1)
}  // namespace

void warp_collective_values(const Inst& in, uint32_t part, uint32_t mm, uint32_t nlanes, const CollOperands& op,
                            CollResult& r) {
  r.outside = 0;
  switch (in.op) {
    case IrOp::Shfl: {  // PTX ISA 9.7.9.6 shfl.sync
      FOR_LANES(part) {
        uint32_t bv = static_cast<uint32_t>(op.b[l]) & 31;
        uint32_t cv = static_cast<uint32_t>(op.c[l]);
        uint32_t seg = (cv >> 8) & 31, cl = cv & 31;
        int maxl = static_cast<int>((l & seg) | (cl & ~seg)), minl = static_cast<int>(l & seg);
        int j = 0;
        bool p = false;
        switch (in.mode) {
          case 0:
            j = static_cast<int>(l) - static_cast<int>(bv);
            p = j >= maxl;
            break;
          case 1:
            j = static_cast<int>(l + bv);
            p = j <= maxl;
            break;
          case 2:
            j = static_cast<int>(l ^ bv);
            p = j <= maxl;
            break;
          default:
            j = minl | static_cast<int>(bv & ~seg);
            p = j <= maxl;
            break;
        }
        if (!p) j = static_cast<int>(l);
        if ((static_cast<uint32_t>(j) >= nlanes || !((mm >> j) & 1)) && p) r.outside |= 1u << l;
        r.d0[l] = static_cast<uint32_t>(j) < nlanes ? static_cast<uint32_t>(op.a[j]) : 0;
        r.d1[l] = p;
        r.src[l] = j;
      }
      break;
    }
    case IrOp::Vote: {  // PTX ISA 9.7.13.9 vote.sync
      uint32_t ballot = 0;
      FOR_LANES(part) if (op.a[l]) ballot |= 1u << l;
      uint64_t v = 0;
      switch (in.mode) {
        case 0: v = (ballot & part) == part; break;
        case 1: v = ballot != 0; break;
        case 2: v = ballot == 0 || (ballot & part) == part; break;
        default: v = ballot; break;
      }
      FOR_LANES(part) r.d0[l] = v;
      break;
    }
    case IrOp::Match: {  // PTX ISA 9.7.13.10 match.sync
      uint64_t v[32] = {};
      FOR_LANES(part) v[l] = op.a[l] & (in.size >= 8 ? ~0ull : 0xffffffffull);
      bool all = true;
      FOR_LANES(part) all = all && v[l] == v[std::countr_zero(part)];
      FOR_LANES(part) {
        uint32_t m = 0;
        if (in.mode == 1) {
          m = all ? part : 0;
          r.d1[l] = all;
        } else {
          for (uint32_t b2 = part; b2; b2 &= b2 - 1) {
            uint32_t k = std::countr_zero(b2);
            if (v[k] == v[l]) m |= 1u << k;
          }
        }
        r.d0[l] = m;
      }
      break;
    }
    case IrOp::Redux: {  // PTX ISA 9.7.13.12 redux.sync
      bool sg = in.nk == NumKind::S;
      uint32_t acc = 0;
      bool init = false;
      FOR_LANES(part) {
        uint32_t x = static_cast<uint32_t>(op.a[l]);
        if (in.fn.fn && (in.flags & 1)) x &= 0x7fffffffu;  // .abs (f32)
        if (!init) {
          acc = x;
          init = true;
          continue;
        }
        if (in.fn.fn) {                 // .f32 min/max (lowering resolved it)
          uint64_t s[3] = {acc, x, 0};  // resolved fns may read a third source
          uint64_t aux = 0;
          acc = static_cast<uint32_t>(in.fn.fn(s, &aux, in.fn.cfg));
          continue;
        }
        switch (in.atom) {
          case AtomOp::Add: acc += x; break;
          case AtomOp::Min:
            acc = sg ? static_cast<uint32_t>(std::min(static_cast<int32_t>(acc), static_cast<int32_t>(x)))
                     : std::min(acc, x);
            break;
          case AtomOp::Max:
            acc = sg ? static_cast<uint32_t>(std::max(static_cast<int32_t>(acc), static_cast<int32_t>(x)))
                     : std::max(acc, x);
            break;
          case AtomOp::And: acc &= x; break;
          case AtomOp::Or: acc |= x; break;
          default: acc ^= x; break;
        }
      }
      if (in.fn.fn && (acc & 0x7fffffffu) > 0x7f800000u) acc = 0x7fffffffu;  // NaN results are canonical
      FOR_LANES(part) r.d0[l] = acc;
      break;
    }
    case IrOp::Elect: {  // PTX ISA 9.7.13.13 elect.sync
      uint32_t leader = std::countr_zero(part & mm ? part & mm : part);
      FOR_LANES(part) {
        r.d0[l] = leader;
        r.d1[l] = l == leader;
      }
      break;
    }
    default: break;
  }
}

}  // namespace ptxcheck::interp
