// Execution of IrOp::Mma (wmma.load/store/mma, mma.sync, ldmatrix, stmatrix,
// movmatrix; PTX ISA 9.7.14). These are .sync.aligned: the whole warp
// executes the instruction together. Lanes that arrive first wait
// (TState::WarpWait) for the others, as the warp collectives do
// (warp_ops.cpp); a warp with fewer than 32 live lanes cannot execute one
// (an error: the ISA leaves it undefined). Memory is accessed element by
// element through Machine::access, so bounds, uninitialised reads and races
// are checked as for ld/st.
#include <algorithm>
#include <bit>
#include <cstring>

#include "semantics/interp/machine_state.hpp"
#include "semantics/interp/mma.hpp"

namespace ptxcheck::interp {

namespace {
#define FOR_LANES(mask) for (uint32_t b_ = (mask), l; b_ && ((l = std::countr_zero(b_)), true); b_ &= b_ - 1)

unsigned per_reg(MElem e) { return e == MElem::f64 ? 1 : 32 / melem_bits(e); }
uint64_t emask(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

}  // namespace

bool Machine::exec_mma(Warp& w, const Inst& in, uint32_t m) {
  if (!m) return false;  // every lane's guard is false: nothing happens
  const MmaSite& s = *prog.mma[in.target];
  if (s.op >= MatOp::WgFence) return exec_wgmma(w, in, m);
  Cta& c = *w.cta;
  Thread* T = &c.threads[w.first];
  // The ExecHook (hook.hpp) sees the global and shared accesses of
  // wmma.load/store, ldmatrix and stmatrix as exec.cpp reports ld/st:
  // `ptxcheck outcomes` makes them memory-model events (weak, PTX ISA
  // 9.7.14.5.15: ldmatrix is a weak memory operation).
  auto hooked = [&](const Where& wh) {
    return hook_ && (wh.space == Space::Global || wh.space == Space::Shared || wh.space == Space::SharedCluster);
  };
  const uint32_t full = 0xffffffffu, g = w.group, pc = w.pc;
  uint32_t alive = 0, waiting = 0;
  for (uint32_t l = 0; l < w.nlanes; ++l) {
    if (T[l].st != TState::Exited) alive |= 1u << l;
    if (T[l].st == TState::WarpWait && T[l].pc == pc) waiting |= 1u << l;
  }
  uint32_t part = m | waiting;
  bool fast = part == full && !waiting && w.nlanes == 32;
  if (!fast) {
    unconverge(w);
    FOR_LANES(g & ~m) T[l].pc = pc + 1;
    if (w.nlanes < 32 || alive != full) {
      diag(DiagKind::WarpSync, true, c, T[std::countr_zero(m)], in,
           "warp-level matrix instruction needs all 32 lanes of the warp (.sync.aligned, PTX ISA 9.7.14); " +
               std::to_string(std::popcount(alive)) + " are live");
      stop_ = true;
      return true;
    }
    if (part != full) {  // wait for the rest of the warp
      FOR_LANES(m) {
        T[l].pc = pc;
        T[l].st = TState::WarpWait;
      }
      return true;
    }
  }
  w.coll.add(full);  // a warp-collective .sync instruction (races.hpp: warp-sync-race)
  if (hook_) hook_->warp_collective(c, w.index, full, false);
  auto reg = [&](uint32_t l, const Opnd& o) { return get(o, T[l], l, w); };
  auto set = [&](uint32_t l, const Opnd& o, uint64_t v) {
    if (o.kind == Opnd::Reg) T[l].regs[T[l].reg_base + o.slot] = v;
  };
  auto base = [&](uint32_t l) {
    uint64_t a = static_cast<uint64_t>(s.addr.off);
    if (s.addr.base == Addr::Reg) a = s.addr.wrap(a + T[l].regs[T[l].reg_base + s.addr.slot]);
    else if (s.addr.base == Addr::Frame) a += T[l].fp;
    return a;
  };
  auto misaligned = [&](uint32_t l, const std::string& what) {
    diag(DiagKind::Misaligned, true, c, T[l], in, what);
    stop_ = true;
  };
  switch (s.op) {
    case MatOp::Load:
    case MatOp::Store: {  // PTX ISA 9.7.14.4.2-4
      bool st = s.op == MatOp::Store;
      const std::vector<Opnd>& rg = st ? s.ra : s.rd;
      unsigned eb = melem_bits(s.a), esz = eb / 8, pr = per_reg(s.a);
      for (uint32_t l = 0; l < 32; ++l) {
        uint64_t a = base(l);
        uint64_t stride = s.stride.kind == Opnd::None ? s.def_stride : reg(l, s.stride) & 0xffffffffu;
        // PTX ISA 9.7.14.4.2 asks every row (column) to start at a multiple of
        // the fragment size; CUDA documents 256-bit pointers and strides in
        // multiples of 16 bytes, which compiled code relies on. We diagnose
        // what both forbid: a base below min(fragment, 32) bytes of
        // alignment, a stride below min(fragment, 16) bytes (docs/mma.md).
        uint32_t abase = std::min<uint32_t>(s.frag_bytes, 32), astride = std::min<uint32_t>(s.frag_bytes, 16);
        if (a % abase || (stride * esz) % astride) {
          misaligned(l, "wmma: address must be " + std::to_string(abase) + "-byte aligned and stride*element size a multiple of " +
                            std::to_string(astride) + " bytes (PTX ISA 9.7.14.4.2)");
          return true;
        }
        uint64_t vals[16] = {};
        if (st)
          for (size_t r = 0; r < rg.size(); ++r) vals[r] = reg(l, rg[r]);
        for (unsigned e = 0; e < s.ca; ++e) {
          Coord co = s.amap[l * s.ca + e];
          uint64_t idx = s.row ? co.row * stride + co.col : co.col * stride + co.row;
          Where wh;
          if (!access(w, T[l], in, s.addr.space, a + idx * esz, esz, st, false, wh)) return true;
          uint8_t* p = &wh.region->bytes[wh.off];
          unsigned sh = (e % pr) * eb;
          if (st) {
            uint64_t v = (vals[e / pr] >> sh) & emask(eb);
            if (hooked(wh) && !hook_->write(T[l], c, hook_access(in, HookKind::Store, wh, c, 0, esz), v))
              return hook_stop();
            std::memcpy(p, &v, esz);
            wh.region->mark_init(wh.off, esz);
          } else {
            uint64_t v = 0;
            std::memcpy(&v, p, esz);
            if (hooked(wh) && !hook_->read(T[l], c, hook_access(in, HookKind::Load, wh, c, 0, esz), v))
              return hook_stop();
            vals[e / pr] |= v << sh;
          }
        }
        if (!st)
          for (size_t r = 0; r < rg.size(); ++r) set(l, rg[r], vals[r]);
      }
      break;
    }
    case MatOp::Mma: {  // PTX ISA 9.7.14.4.5, 9.7.14.5.14, 9.7.14.6.3
      const unsigned ka = s.sparse ? s.k / 2 : s.k;  // mma.sp: A is packed, 16 x K/2
      std::vector<uint64_t> A(s.m * ka), B(s.k * s.n), C(s.m * s.n), D(s.m * s.n);
      // Gather each matrix from the fragments; where a fragment holds an
      // element twice (wmma .f16 A/B), the lowest slot is the one used.
      auto gather = [&](const std::vector<Opnd>& rg, const std::vector<Coord>& map, unsigned cnt, MElem et,
                        unsigned cols, std::vector<uint64_t>& out) {
        unsigned eb = melem_bits(et), pr = per_reg(et);
        for (uint32_t l = 0; l < 32; ++l)
          for (unsigned e = cnt; e-- > 0;) {
            Coord co = map[l * cnt + e];
            out[co.row * cols + co.col] = (reg(l, rg[e / pr]) >> ((e % pr) * eb)) & emask(eb);
          }
      };
      gather(s.ra, s.amap, s.ca, s.a, ka, A);
      gather(s.rb, s.bmap, s.cb, s.b, s.n, B);
      gather(s.rc, s.cmap, s.cc, s.c, s.n, C);
      const MmaShape sh{s.m, s.n, s.k, s.a, s.b, s.c, s.d, s.satfinite, s.bop};
      if (!s.sparse) {
        mma_compute(sh, A.data(), B.data(), C.data(), D.data());
      } else {
        // mma.sp (PTX ISA 9.7.14.6): each lane's metadata register, read as
        // sp_meta_pos says for the selector; mma_sp_compute sums the
        // products of the stored elements (docs/mma.md). A selector the
        // shape does not define or an undefined index (9.7.14.6.1; with
        // ::ordered_metadata also decreasing ones, 9.7.14.6.3) is a
        // `sparse-metadata` error; execution goes on with the model's values.
        const std::string form = s.ordered ? "mma.sp::ordered_metadata" : "mma.sp";
        if (s.sp_sel > s.sp_sel_max)
          diag(DiagKind::SparseMetadata, true, c, T[0], in,
               "sparsity selector " + std::to_string(s.sp_sel) + " of " + form + " .m16n8k" + std::to_string(s.k) + " ." +
                   melem_name(s.a) + " is undefined (PTX ISA 9.7.14.6.1: " +
                   (s.sp_sel_max ? "0 or 1, a thread pair of each group of four" : "0, all threads contribute") + ")");
        uint32_t meta[32];
        for (uint32_t l = 0; l < 32; ++l) meta[l] = static_cast<uint32_t>(reg(l, s.sp_meta));
        SpBad bad;
        if (!mma_sp_compute(sh, std::min(s.sp_sel, s.sp_sel_max), s.ordered, meta, A.data(), B.data(), C.data(), D.data(),
                            &bad))
          diag(DiagKind::SparseMetadata, true, c, T[bad.thread], in,
               "sparsity metadata 0x" + std::string(1, "0123456789abcdef"[bad.nib]) + " for row " + std::to_string(bad.row) +
                   ", columns " + std::to_string(bad.col) + "-" + std::to_string(bad.col + bad.width - 1) + " of A (bits " +
                   std::to_string(bad.bit + 3) + ".." + std::to_string(bad.bit) + " of lane " +
                   std::to_string(bad.thread) + "'s metadata register, selector " + std::to_string(s.sp_sel) +
                   ") is undefined for " + form + " (PTX ISA 9.7.14.6.1" +
                   (s.ordered ? ", 9.7.14.6.3: two equal or decreasing indices" : ": two equal indices") +
                   (s.a == MElem::tf32 ? ", or not 0b0100/0b1110 for .tf32)" : ")"));
      }
      unsigned eb = melem_bits(s.d), pr = per_reg(s.d);
      for (uint32_t l = 0; l < 32; ++l) {
        uint64_t vals[8] = {};
        for (unsigned e = 0; e < s.cc; ++e) {
          Coord co = s.cmap[l * s.cc + e];
          vals[e / pr] |= (D[co.row * s.n + co.col] & emask(eb)) << ((e % pr) * eb);
        }
        for (size_t r = 0; r < s.rd.size(); ++r) set(l, s.rd[r], vals[r]);
      }
      break;
    }
    case MatOp::Ldmatrix:
    case MatOp::Stmatrix: {
      // PTX ISA 9.7.14.5.15/16: lanes 8j..8j+7 give the row addresses of
      // matrix j; lane l holds row l/4, columns 2(l%4) and 2(l%4)+1 (with
      // .trans: the transposed matrix's).
      bool st = s.op == MatOp::Stmatrix;
      uint64_t rowa[4][8];
      for (unsigned j = 0; j < s.nmat; ++j)
        for (unsigned r = 0; r < 8; ++r) {
          rowa[j][r] = base(j * 8 + r);
          if (rowa[j][r] % 16) {
            misaligned(j * 8 + r, "ldmatrix/stmatrix: row address must be 16-byte aligned (PTX ISA 9.7.14.5.15)");
            return true;
          }
        }
      uint64_t out[32][4] = {};
      for (uint32_t l = 0; l < 32; ++l)
        for (unsigned j = 0; j < s.nmat; ++j) {
          uint64_t v = st ? reg(l, s.ra[j]) : 0;
          for (unsigned h = 0; h < 2; ++h) {
            unsigned r = l / 4, col = 2 * (l % 4) + h;
            uint64_t a = s.trans ? rowa[j][col] + 2 * r : rowa[j][r] + 2 * col;
            Where wh;
            if (!access(w, T[l], in, s.addr.space, a, 2, st, false, wh)) return true;
            uint8_t* p = &wh.region->bytes[wh.off];
            if (st) {
              uint16_t x = static_cast<uint16_t>(v >> (16 * h));
              if (hooked(wh) && !hook_->write(T[l], c, hook_access(in, HookKind::Store, wh, c, 0, 2), x))
                return hook_stop();
              std::memcpy(p, &x, 2);
              wh.region->mark_init(wh.off, 2);
            } else {
              uint16_t x;
              std::memcpy(&x, p, 2);
              uint64_t hv = x;
              if (hooked(wh) && !hook_->read(T[l], c, hook_access(in, HookKind::Load, wh, c, 0, 2), hv))
                return hook_stop();
              out[l][j] |= (hv & 0xffff) << (16 * h);
            }
          }
        }
      if (!st)
        for (uint32_t l = 0; l < 32; ++l)
          for (unsigned j = 0; j < s.nmat; ++j) set(l, s.rd[j], out[l][j]);
      break;
    }
    case MatOp::Movmatrix: {  // PTX ISA 9.7.14.5.17: lane 4r + c/2 holds M[r][c]
      uint16_t M[8][8];
      for (uint32_t l = 0; l < 32; ++l) {
        uint64_t v = reg(l, s.ra[0]);
        M[l / 4][2 * (l % 4)] = static_cast<uint16_t>(v);
        M[l / 4][2 * (l % 4) + 1] = static_cast<uint16_t>(v >> 16);
      }
      for (uint32_t l = 0; l < 32; ++l) {
        unsigned r = l / 4, c0 = 2 * (l % 4);
        set(l, s.rd[0], M[c0][r] | (static_cast<uint64_t>(M[c0 + 1][r]) << 16));
      }
      break;
    }
    default: break;  // wgmma: exec_wgmma
  }
  if (fast) return false;
  FOR_LANES(part) {
    T[l].pc = pc + 1;
    T[l].st = TState::Ready;
  }
  return true;
}

}  // namespace ptxcheck::interp
