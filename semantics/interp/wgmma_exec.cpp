// Execution of the warpgroup-level matrix instructions (PTX ISA 9.7.15):
// wgmma.fence, wgmma.commit_group, wgmma.wait_group and wgmma.mma_async.
//
// Model (docs/mma.md, "wgmma"):
// - A warpgroup is four contiguous warps, the first with a warp rank that is
//   a multiple of 4 (9.7.15.1). wgmma.mma_async is .sync.aligned over it: the
//   warps wait for each other at the instruction (as lanes of a warp wait at
//   mma.sync), and the last one to arrive executes it for all 128 threads.
// - The operation is asynchronous: its operands (A from registers or shared
//   memory, B from shared memory, the accumulators) are read when it is
//   issued, which is one permitted moment, and its results are kept aside
//   until a wgmma.wait_group completes its wgmma-group; only then are the
//   accumulator registers written. A chained wgmma.mma_async of the same
//   accumulators reads the newest in-flight value (the ISA orders
//   accumulator accesses across wgmma.mma_async instructions of the same
//   shape, 9.7.15.7.1).
// - Accessing an accumulator or A-fragment register of an operation in flight
//   is undefined (9.7.15.7.3): a `wgmma-async` error, reported at the access.
//   A wgmma.mma_async without a wgmma.fence after the warp last accessed one
//   of those registers (or before its first one) is undefined (9.7.15.7.1):
//   a `wgmma-fence` error. Both run on: the values are what this model has.
#include <algorithm>
#include <bit>
#include <cstring>

#include "semantics/interp/machine_state.hpp"
#include "semantics/interp/mma.hpp"

namespace ptxcheck::interp {

namespace {
#define FOR_LANES(mask) for (uint32_t b_ = (mask), l; b_ && ((l = std::countr_zero(b_)), true); b_ &= b_ - 1)

uint64_t emask(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

bool is_float(MElem e) { return e != MElem::s8 && e != MElem::u8 && e != MElem::s32 && e != MElem::b1; }

// Completes the thread's in-flight operations of groups 1..upto (oldest
// first): their accumulator values land in the registers.
void complete(Thread& t, uint32_t upto) {
  size_t keep = 0;
  for (size_t i = 0; i < t.wg_ops.size(); ++i) {
    WgOp& op = t.wg_ops[i];
    if (op.group && op.group <= upto) {
      for (const auto& [slot, v] : op.d) {
        if (slot < t.regs.size()) t.regs[slot] = v;
        --t.wg_busy[slot];
      }
      for (uint32_t slot : op.a) --t.wg_busy[slot];
    } else {
      if (keep != i) t.wg_ops[keep] = std::move(op);
      ++keep;
    }
  }
  t.wg_ops.resize(keep);
}

}  // namespace

void Machine::wg_touch(Warp& w, const Inst& in, uint32_t m) {
  w.wg_fenced = false;  // 9.7.15.7.1: the next wgmma.mma_async needs a wgmma.fence
  Thread* T = &w.cta->threads[w.first];
  FOR_LANES(m) {
    Thread& t = T[l];
    if (t.wg_ops.empty()) continue;
    auto busy = [&](uint32_t slot) {
      uint32_t a = t.reg_base + slot;
      return a < t.wg_busy.size() && t.wg_busy[a];
    };
    auto check = [&](const Opnd& o) { return o.kind == Opnd::Reg && busy(o.slot); };
    bool hit = (in.guarded && busy(in.guard)) || (in.addr.base == Addr::Reg && busy(in.addr.slot)) ||
               (in.addr2.base == Addr::Reg && busy(in.addr2.slot));
    for (unsigned k = 0; k < 4; ++k) hit = hit || check(in.dst[k]) || check(in.src[k]);
    if (hit) {
      diag(DiagKind::WgmmaAsync, true, *w.cta, t, in,
           "accesses a register of a wgmma.mma_async in flight (line " + std::to_string(t.wg_ops.back().line) +
               ") before the wgmma.wait_group that completes it (undefined, PTX ISA 9.7.15.7.3)");
      return;
    }
  }
}

bool Machine::exec_wgmma(Warp& w, const Inst& in, uint32_t m) {
  const MmaSite& s = *prog.mma[in.target];
  Cta& c = *w.cta;
  Thread* T = &c.threads[w.first];
  switch (s.op) {
    case MatOp::WgFence:  // 9.7.15.7.1
      w.wg_fenced = true;
      return false;
    case MatOp::WgCommit: {  // 9.7.15.7.2: a new wgmma-group of the uncommitted operations
      uint32_t g = ++w.wg_committed;
      FOR_LANES(m)
      for (WgOp& op : T[l].wg_ops)
        if (!op.group) op.group = g;
      return false;
    }
    case MatOp::WgWait: {  // 9.7.15.7.3: all but the newest N groups complete
      uint32_t upto = w.wg_committed >= s.wait_n ? w.wg_committed - s.wait_n : 0;
      FOR_LANES(m) complete(T[l], upto);
      return false;
    }
    default: break;
  }
  // wgmma.mma_async (9.7.15.5.2): first the warp, then the warpgroup.
  const uint32_t full = 0xffffffffu, g = w.group, pc = w.pc;
  uint32_t alive = 0, waiting = 0;
  for (uint32_t l = 0; l < w.nlanes; ++l) {
    if (T[l].st != TState::Exited) alive |= 1u << l;
    if (T[l].st == TState::WarpWait && T[l].pc == pc) waiting |= 1u << l;
  }
  unconverge(w);
  FOR_LANES(g & ~m) T[l].pc = pc + 1;
  const uint32_t wg = w.index / 4;
  bool complete_group = c.warps.size() >= 4 * wg + 4;
  for (uint32_t k = 0; complete_group && k < 4; ++k) {
    const Warp& o = c.warps[4 * wg + k];
    complete_group = o.nlanes == 32;
    for (uint32_t l = 0; complete_group && l < 32; ++l) complete_group = c.threads[o.first + l].st != TState::Exited;
  }
  if (w.nlanes < 32 || alive != full || !complete_group) {
    diag(DiagKind::WarpSync, true, c, T[std::countr_zero(m)], in,
         "wgmma.mma_async needs all 128 threads of its warpgroup (four warps, .sync.aligned, PTX ISA 9.7.15.5.2)");
    stop_ = true;
    return true;
  }
  auto wait_here = [&]() {
    FOR_LANES(m) {
      T[l].pc = pc;
      T[l].st = TState::WarpWait;
    }
    return true;
  };
  if ((m | waiting) != full) return wait_here();  // the rest of the warp
  if (c.wg_arrive.size() <= wg) c.wg_arrive.resize(wg + 1, {~0u, 0});
  auto& ar = c.wg_arrive[wg];
  if (ar.first != pc) ar = {pc, 0};
  ar.second = static_cast<uint8_t>(ar.second | (1u << (w.index % 4)));
  if (ar.second != 0xf) return wait_here();  // the other warps of the warpgroup
  c.wg_arrive[wg] = {~0u, 0};
  Warp* W[4];
  Thread* G[128];
  for (uint32_t k = 0; k < 4; ++k) {
    W[k] = &c.warps[4 * wg + k];
    for (uint32_t l = 0; l < 32; ++l) G[32 * k + l] = &c.threads[W[k]->first + l];
  }
  bool fenced = W[0]->wg_fenced && W[1]->wg_fenced && W[2]->wg_fenced && W[3]->wg_fenced;
  if (!fenced)
    diag(DiagKind::WgmmaFence, true, c, *G[0], in,
         "wgmma.mma_async without a wgmma.fence after the last access to its accumulator or A registers "
         "(or before the first wgmma.mma_async; undefined, PTX ISA 9.7.15.7.1)");
  Thread& t0 = *G[0];
  Warp& w0 = *W[0];
  const unsigned M = s.m, N = s.n, K = s.k;
  // .sp: A is the packed M x K/2 matrix of stored elements (9.7.15.6.3).
  const unsigned KA = s.sparse ? K / 2 : K;
  const unsigned ab = melem_bits(s.a), db = melem_bits(s.d);
  std::vector<uint64_t> A(M * KA), B(K * N), C(M * N), D(M * N);
  // Shared-memory operands through their descriptors (9.7.15.5.1.2), read as
  // the warpgroup's first thread (bounds, uninitialised reads, races).
  auto load = [&](uint64_t desc, bool mn_major, unsigned rows, std::vector<uint64_t>& out, bool is_a) {
    WgDesc d = wgmma_decode(desc);
    unsigned esz = std::max(1u, ab / 8);
    const unsigned kext = is_a ? KA : K;
    for (unsigned mn = 0; mn < rows; ++mn)
      for (unsigned k = 0; k < kext; ++k) {
        unsigned bit = 0;
        uint64_t a = wgmma_smem_addr(d, ab, mn_major, mn, k, &bit);
        Where wh;
        async_proxy_ = true;  // wgmma reads shared memory through the async proxy
        bool ok = access(w0, t0, in, Space::Shared, a, esz, false, false, wh);
        async_proxy_ = false;
        if (!ok) return false;
        uint64_t v = 0;
        std::memcpy(&v, &wh.region->bytes[wh.off], esz);
        if (ab < 8) v = (v >> bit) & emask(ab);
        (is_a ? out[mn * KA + k] : out[k * N + mn]) = v;
      }
    return true;
  };
  auto reg = [&](Thread& t, const Opnd& o) { return get(o, t, 0, w0); };
  auto acc = [&](Thread& t, const Opnd& o) {
    uint32_t a = t.reg_base + o.slot;
    return a < t.wg_busy.size() && t.wg_busy[a] ? t.wg_val[a] : t.regs[a];  // a chained accumulator in flight
  };
  if (s.a_smem) {
    if (!load(get(s.desc_a, t0, 0, w0), s.trans_a, M, A, true)) return true;
  } else {
    unsigned per = 32 / ab;
    for (unsigned th = 0; th < 128; ++th)
      for (unsigned i = 0; i < s.ca; ++i) {
        Coord co = s.amap[th * s.ca + i];
        A[co.row * KA + co.col] = (reg(*G[th], s.ra[i / per]) >> ((i % per) * ab)) & emask(ab);
      }
  }
  if (!load(get(s.desc_b, t0, 0, w0), s.trans_b, N, B, false)) return true;
  const bool use_c = get(s.scale_d, t0, 0, w0) != 0;
  const unsigned dper = 32 / db;
  for (unsigned th = 0; th < 128; ++th)
    for (unsigned i = 0; i < s.cc; ++i) {
      Coord co = s.cmap[th * s.cc + i];
      C[co.row * N + co.col] = (acc(*G[th], s.rd[i / dper]) >> ((i % dper) * db)) & emask(db);
    }
  // imm-scale-a/b = -1 negate the multiplicand (floating-point types only).
  if (s.neg_a && is_float(s.a))
    for (auto& x : A) x ^= 1ull << (ab - 1);
  if (s.neg_b && is_float(s.b))
    for (auto& x : B) x ^= 1ull << (ab - 1);
  MmaShape sh{M, N, K, s.a, s.b, s.d, s.d, s.satfinite, s.bop};
  sh.use_c = use_c;
  if (!s.sparse) {
    mma_compute(sh, A.data(), B.data(), C.data(), D.data());
  } else {
    // wgmma.mma_async.sp (PTX ISA 9.7.15.6.1 Sparse matrix storage,
    // 9.7.15.6.2 metadata): warp r/16 holds the metadata of rows r (in its
    // lanes as sp_meta_pos says); mma_sp_compute sums the products of the
    // stored elements only (docs/mma.md, "Sparse wgmma"). An undefined
    // metadata value (9.7.15.6.1) is a `sparse-metadata` error; its chunk
    // then contributes nothing.
    uint32_t meta[128];
    for (unsigned th = 0; th < 128; ++th) meta[th] = static_cast<uint32_t>(get(s.sp_meta, *G[th], 0, w0));
    SpBad bad;
    if (!mma_sp_compute(sh, s.sp_sel, false, meta, A.data(), B.data(), C.data(), D.data(), &bad))
      diag(DiagKind::SparseMetadata, true, c, *G[0], in,
           "sparsity metadata 0x" + std::string(1, "0123456789abcdef"[bad.nib]) + " for row " +
               std::to_string(bad.row) + ", columns " + std::to_string(bad.col) + "-" +
               std::to_string(bad.col + bad.width - 1) + " of A (bits " + std::to_string(bad.bit + 3) + ".." +
               std::to_string(bad.bit) + " of the sp-meta register of thread " + std::to_string(bad.thread) +
               " of the warpgroup, sp-sel " + std::to_string(s.sp_sel) +
               ") is undefined (PTX ISA 9.7.15.6.1: two equal indices, or for .tf32 not 0b0100/0b1110)");
  }
  // The results wait in each thread's in-flight list for wgmma.wait_group.
  for (unsigned th = 0; th < 128; ++th) {
    Thread& t = *G[th];
    if (t.wg_busy.size() < t.regs.size()) {
      t.wg_busy.resize(t.regs.size(), 0);
      t.wg_val.resize(t.regs.size(), 0);
    }
    WgOp op;
    op.line = in.line;
    std::vector<uint64_t> vals(s.rd.size(), 0);
    for (unsigned i = 0; i < s.cc; ++i) {
      Coord co = s.cmap[th * s.cc + i];
      vals[i / dper] |= (D[co.row * N + co.col] & emask(db)) << ((i % dper) * db);
    }
    for (size_t r = 0; r < s.rd.size(); ++r) {
      uint32_t a = t.reg_base + s.rd[r].slot;
      op.d.push_back({a, vals[r]});
      ++t.wg_busy[a];
      t.wg_val[a] = vals[r];
    }
    for (const Opnd& o : s.ra)
      if (o.kind == Opnd::Reg) {
        op.a.push_back(t.reg_base + o.slot);
        ++t.wg_busy[t.reg_base + o.slot];
      }
    t.wg_ops.push_back(std::move(op));
  }
  for (Thread* t : G) {
    t->pc = pc + 1;
    t->st = TState::Ready;
  }
  return true;
}

}  // namespace ptxcheck::interp
