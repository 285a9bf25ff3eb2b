// Bulk tensor copies (PTX ISA 9.7.9.25.5): cp.async.bulk.tensor loads
// (global -> shared::cta/shared::cluster, optionally multicast to CTAs of the
// cluster) and stores (shared::cta -> global), cp.reduce.async.bulk.tensor,
// and tensormap.replace (9.7.9.27) on the tensor-map encoding of
// tensormap.hpp.
//
// Model (docs/interpreter.md, "Tensor maps"):
// - The copy happens at once when the instruction executes (a permitted
//   schedule, as for cp.async.bulk); a load then performs complete_tx of the
//   whole box's bytes on the mbarrier (of every destination CTA).
// - Tile mode: the box starts at the tensor coordinates; along dimension d
//   it holds ceil(boxDim[d] / elementStrides[d]) elements at coordinate
//   c[d] + i * elementStrides[d]. Elements outside [0, dims[d]) are out of
//   bounds: a load fills them with zero (or the canonical NaN with
//   oob_fill = nan for float types), a store or reduction skips them.
// - Im2col mode (rank 3-5: channels innermost, then the spatial dims, batch
//   outermost): pixelsPerColumn pixels from the coordinates (c, w, h, d, n)
//   plus the lower corner and the im2col offsets, walking w, then h, then d,
//   then n over the bounding box [lower, dims + upper]; channelsPerPixel
//   channels each (CUDA driver API, cuTensorMapEncodeIm2col).
// - Im2col wide modes (.im2col::w, .im2col::w::128, sm_100; PTX ISA 5.5.5):
//   pixels along W only, with wHalo halo pixels after the main pixels (or
//   after each group of 32); ptxcheck's reading of the figures is stated in
//   docs/interpreter.md. .im2col_no_offs stores and reductions walk an
//   im2col map's pixels with the offsets zero.
// - Shared memory holds the box densely, dimension 0 innermost; with a
//   swizzle mode, address bits 4.. are XORed with bits 7.. of the shared
//   address (32B: one bit, 64B: two, 128B: three), the pattern wgmma expects;
//   the 128B mode's 32B and 64B atomicities move 32- or 64-byte units
//   instead (PTX ISA 5.5.7; saddr below).
// - Each element goes through the checked access path, so bounds, races and
//   uninitialised reads are diagnosed per element.
#include <algorithm>
#include <bit>
#include <cstring>

#include "semantics/interp/exec_util.hpp"
#include "semantics/interp/machine_state.hpp"
#include "semantics/interp/tensormap.hpp"
#include "semantics/interp/tma.hpp"

namespace ptxcheck::interp {

namespace {

uint64_t nan_bits(unsigned dtype) {
  switch (dtype) {
    case 6:
    case 9: return 0x7fff;                          // f16, bf16
    case 8: return 0x7fffffffffffffffull;           // f64
    default: return tensormap_is_float(dtype) ? 0x7fffffff : 0;
  }
}
}  // namespace

// complete_tx of `bytes` on the mbarrier at shared::cluster address `ma`
// (PTX ISA 9.7.13.15 mbarrier): the phase completes when no arrivals and no
// transaction bytes are pending.
bool Machine::mbar_complete_tx(Warp& w, Thread& t, const Inst& in, uint64_t ma, int64_t bytes, uint32_t hook_id) {
  Where mw;
  if (!access(w, t, in, Space::SharedCluster, ma, 8, true, true, mw)) return false;
  uint64_t v;
  std::memcpy(&v, &mw.region->bytes[mw.off], 8);
  // A bulk copy's complete_tx at its completion (cp_complete): an update of
  // the mbarrier, reported to the hook as the copy's (PTX ISA 8.9.1.1).
  const Cta& c = *w.cta;
  if (hook_ && hook_id) {
    HookAccess ha = hook_access(in, HookKind::RmwRead, mw, c, 0, 8);
    ha.async = hook_id;
    if (!hook_->read(t, c, ha, v)) return hook_stop(), false;
  }
  int64_t& tx = txcount_[{mw.region, mw.off}];
  tx -= bytes;
  uint64_t pending = v & 0x7fffffffu, expected = (v >> 32) & 0x7fffffffu, phase = v >> 63;
  // The copy's writes become visible with the phase to the threads that
  // wait for it (as for cp.async.bulk, exec_async.cpp).
  if (races.enabled) races.mbar_arrive(mw.region, mw.off, Races::release(t.sync, who(t, *w.cta), mm::Scope::Cluster), false);
  if (pending == 0 && tx == 0 && expected) {
    if (races.enabled) races.mbar_complete(mw.region, mw.off, static_cast<unsigned>(phase));
    phase ^= 1;
    pending = expected;
    ++(mw.cta >= 0 && static_cast<size_t>(mw.cta) < ctas.size() ? *ctas[static_cast<size_t>(mw.cta)] : *w.cta).bar_generation;
  }
  v = (phase << 63) | (expected << 32) | pending;
  if (hook_ && hook_id) {
    HookAccess ha = hook_access(in, HookKind::RmwWrite, mw, c, 0, 8);
    ha.async = hook_id;
    if (!hook_->write(t, c, ha, v)) return hook_stop(), false;
  }
  std::memcpy(&mw.region->bytes[mw.off], &v, 8);
  return true;
}

// PTX ISA 8.6 Proxies and 9.7.13.4 membar/fence (fence.proxy.async): a generic-proxy write and a later
// async-proxy access of the same shared-memory location are ordered only
// through a fence.proxy.async executed by the writer after its write (then
// any ordinary synchronisation, which the race check covers). An
// async-proxy access of a byte whose last generic write was not followed by
// one is reported as a race of the two proxies.
void Machine::proxy_note(Warp& w, Thread& t, const Inst& in, const Where& wh, unsigned size, bool write) {
  auto& [gw, gl] = gwrites_[wh.region];
  if (gw.size() < wh.region->bytes.size()) {
    gw.resize(wh.region->bytes.size(), 0);
    gl.resize(wh.region->bytes.size(), 0);
  }
  auto fences = [&](uint32_t gid) { return gid < proxy_fences_.size() ? proxy_fences_[gid] : 0u; };
  if (!async_proxy_) {
    if (write)
      for (unsigned b = 0; b < size; ++b) {
        gw[wh.off + b] = (uint64_t{t.gid} + 1) << 32 | fences(t.gid);
        gl[wh.off + b] = in.line;
      }
    return;
  }
  for (unsigned b = 0; b < size; ++b) {
    uint64_t v = gw[wh.off + b];
    if (!v) continue;
    uint32_t g = static_cast<uint32_t>(v >> 32) - 1;
    if (fences(g) != static_cast<uint32_t>(v)) continue;  // the writer fenced since
    diag(DiagKind::DataRace, true, *w.cta, t, in,
         std::string("async-proxy ") + (write ? "write" : "read") + " of shared memory that a generic-proxy write at line " +
             std::to_string(gl[wh.off + b]) + (g == t.gid ? " by this thread" : " by another thread") +
             " stored without a fence.proxy.async after it (proxies, PTX ISA 8.6; 9.7.13.4 membar/fence)");
    break;
  }
  if (write) std::fill(gw.begin() + static_cast<long>(wh.off), gw.begin() + static_cast<long>(wh.off + size), 0);
}

bool Machine::exec_tensor(Warp& w, const Inst& in, uint32_t m) {
  const TensorSite& s = *prog.tensor[in.target];
  Cta& c = *w.cta;
  Thread* T = &c.threads[w.first];
  FOR_LANES(m) {
    Thread& t = T[l];
    auto addr_of = [&](const Addr& a) {
      uint64_t v = static_cast<uint64_t>(a.off);
      if (a.base == Addr::Reg) v = a.wrap(v + t.regs[t.reg_base + a.slot]);
      else if (a.base == Addr::Frame) v += t.fp;
      return v;
    };
    auto fail = [&](DiagKind kind, const std::string& msg) {
      diag(kind, true, c, t, in, msg);
      stop_ = true;
      return true;
    };
    // The tensor-map object (128 bytes, 64-byte aligned).
    uint64_t ta = addr_of(s.tmap);
    Where mw = mem.translate(s.tmap.space, ta, kTensorMapBytes, 64, tmem(t, c));
    if (mw.fault != Fault::None)
      return fail(mw.fault == Fault::Misaligned ? DiagKind::Misaligned : DiagKind::OutOfBounds,
                  "tensor-map address 0x" + [&] { char b[32]; std::snprintf(b, sizeof b, "%llx", (unsigned long long)ta); return std::string(b); }() +
                      " is not a 64-byte aligned tensor-map object (PTX ISA 9.7.9.25.5)");
    if (par_ && mw.space == Space::Global && !claim(mw.region, mw.off, kTensorMapBytes, s.kind == TensorSite::Replace))
      return true;
    uint8_t* obj = &mw.region->bytes[mw.off];
    TensorMap map;
    if (!tensormap_decode(obj, map))
      return fail(DiagKind::TensorMap, "the operand does not hold a tensor-map object (from the launch spec's \"tensormaps\" or cuTensorMapEncode*)");
    if (s.kind == TensorSite::Replace) {  // PTX ISA 9.7.9.27 tensormap.replace
      uint64_t v = get(s.value, t, l, w);
      unsigned ord = s.ord.kind == Opnd::None ? 0 : static_cast<unsigned>(get(s.ord, t, l, w));
      if (ord > 4) return fail(DiagKind::TensorMap, "tensormap.replace: ordinal " + std::to_string(ord) + " is not below 5");
      switch (s.field) {
        case 0: map.addr = v; break;
        case 1: map.rank = static_cast<uint8_t>(v + 1); break;  // the field holds rank - 1
        case 2: map.box[ord] = static_cast<uint32_t>(v); break;
        case 3: map.dims[ord] = v; break;
        case 4: map.strides[ord] = v; break;
        case 5: map.estride[ord] = static_cast<uint32_t>(v); break;
        case 6: {  // Table 33's numbering, not CUtensorMapDataType's
          const int dt = tensormap_dtype_from_ptx(v);
          map.dtype = static_cast<uint8_t>(dt < 0 ? 255 : dt);
          break;
        }
        case 7: map.interleave = static_cast<uint8_t>(v); break;
        case 8: map.swizzle = static_cast<uint8_t>(v); break;
        case 9: map.oob_nan = static_cast<uint8_t>(v); break;
        case 10: map.atom = static_cast<uint8_t>(v); break;
      }
      tensormap_encode(map, obj);
      mw.region->mark_init(mw.off, kTensorMapBytes);
      continue;
    }
    std::string why = tensormap_check(map);
    if (why.empty() && map.mode == TensorMap::Im2col)
      for (unsigned d = 1; d + 1 < map.rank; ++d)
        if (map.estride[d] != 1) why = "im2col traversal strides other than 1 are not modelled";
    if (!why.empty()) return fail(DiagKind::TensorMap, "invalid tensor map: " + why);
    // The map's mode for the instruction's: .tile and the gather/scatter
    // modes take tiled maps, .im2col and .im2col_no_offs im2col maps,
    // .im2col::w / ::w::128 the wide maps of that mode
    // (cuTensorMapEncodeIm2colWide, CU_TENSOR_MAP_IM2COL_WIDE_MODE_W / _W128).
    static const char* const kModeName[] = {"tiled", "im2col", "im2col wide W", "im2col wide W128"};
    const unsigned want = s.wide == 2 ? TensorMap::WideW128 : s.wide == 1 ? TensorMap::WideW
                        : s.im2col ? TensorMap::Im2col : TensorMap::Tiled;
    if (map.rank != s.dim || map.mode != want)
      return fail(DiagKind::TensorMap, "the tensor map (rank " + std::to_string(map.rank) + ", " + kModeName[map.mode & 3] +
                                    ") does not match the instruction's ." + std::to_string(s.dim) + "d " +
                                    kModeName[want] + " mode (undefined, PTX ISA 9.7.9.25.5)");
    if (s.rows4 && (map.box[1] != 1 || map.interleave))
      return fail(DiagKind::TensorMap, ".tile::gather4/.tile::scatter4 need a bounding box of size 1 in dimension 1 and no "
                                       "interleave layout (PTX ISA 5.5.3.4)");
    const unsigned es = tensormap_elem_bytes(map.dtype), R = map.rank;
    // elementStrides[0]: "when interleave is CU_TENSOR_MAP_INTERLEAVE_NONE,
    // the first element of this array is ignored since TMA doesn't support
    // the stride for dimension zero" (driver API, cuTensorMapEncodeTiled).
    if (!map.interleave) map.estride[0] = 1;
    int64_t co[5] = {0, 0, 0, 0, 0};
    for (unsigned d = 0; d < s.coords.size() && d < 5; ++d) co[d] = static_cast<int32_t>(get(s.coords[d], t, l, w));
    // The elements of the box, in shared-memory order: their global
    // coordinates (or out of bounds).
    unsigned n[5] = {1, 1, 1, 1, 1};
    uint64_t total = 1;
    if (s.rows4) {
      // Four rows of box[0] elements, each its own bounding box starting at
      // (col, row_k), one after the other in shared memory (PTX ISA 5.5.3.4).
      n[0] = (map.box[0] + map.estride[0] - 1) / map.estride[0];
      n[1] = 4;
      total = uint64_t{n[0]} * 4;
    } else if (!s.im2col) {
      for (unsigned d = 0; d < R; ++d) {
        n[d] = (map.box[d] + map.estride[d] - 1) / map.estride[d];
        total *= n[d];
      }
    } else if (!s.wide) {
      n[0] = map.channels;
      n[1] = map.pixels;
      total = uint64_t{map.channels} * map.pixels;
    }
    // The wide modes (PTX ISA 5.5.5): wHalo "valid range is [0, 512)" for
    // .im2col::w and "[0, 32)" for .im2col::w::128, wOffset [0, 32)
    // (9.7.9.25.5.2). The bounding box is [lowerW, W - 1 + upperW] shifted
    // by wOffset ("Bounding Box Lower Corner W += wOffset ... W += wOffset",
    // 5.5.5.4), one pixel high in H and D at the coordinates.
    int64_t halo = 0, box_lo = 0, box_hi = 0, wstart = 0;
    if (s.wide) {
      halo = static_cast<int64_t>(get(s.offsets[0], t, l, w) & 0xffff);
      const int64_t woff = static_cast<int64_t>(get(s.offsets[1], t, l, w) & 0xffff);
      if (halo >= (s.wide == 2 ? 32 : 512) || woff >= 32)
        return fail(DiagKind::TensorMap, "im2col::w: wHalo " + std::to_string(halo) + " or wOffset " + std::to_string(woff) +
                                             " out of its range (PTX ISA 9.7.9.25.5.2)");
      box_lo = map.lower[0] + woff;
      box_hi = static_cast<int64_t>(map.dims[1]) - 1 + map.upper[0] + woff;
      wstart = co[1] + woff;
      if (wstart > box_hi)
        return fail(DiagKind::TensorMap, "im2col::w: the first pixel (W " + std::to_string(wstart) +
                                             ") lies right of the bounding box; it may lie outside only on the left side "
                                             "(PTX ISA 5.5.5.1)");
      n[0] = map.channels;
      // Pixels in shared memory: pixelsPerColumn then wHalo halo pixels
      // (.im2col::w), or four groups of 32 pixels each followed by wHalo
      // halo pixels (.im2col::w::128: 128 pixels).
      n[1] = s.wide == 2 ? static_cast<unsigned>(4 * (32 + halo)) : static_cast<unsigned>(map.pixels + halo);
      total = uint64_t{n[0]} * n[1];
    }
    // Interleaved layouts (PTX ISA 5.5.6: NC/8DHWC8, NC/16HWC16, "the C
    // information is organized in slices where sequential C elements are
    // grouped in 16 byte or 32 byte quantities"): the map describes the
    // tensor as it is stored, dimension 0 being the channels of one slice
    // (as in the 5.5.7 example "NC/(32B)HWC(32B) tensor of 1x2x10x10xC16
    // ... with the innermost dimension holding slice of 16 channels"), so
    // the box walks it as any other tensor, with elementStrides[0] applied.
    // Neither the ISA nor the driver says how a box row that is not a whole
    // number of 16-byte units lies in shared memory: not modelled.
    if (map.interleave && (uint64_t{n[0]} * es) % 16)
      return fail(DiagKind::Unsupported, "interleaved layout: a box row of " + std::to_string(n[0] * es) +
                                             " bytes (not a multiple of 16) is not modelled");
    auto gcoord = [&](uint64_t idx, int64_t* g) {
      if (s.rows4) {
        g[0] = co[0] + static_cast<int64_t>(idx % n[0]) * map.estride[0];
        g[1] = co[1 + idx / n[0]];
        return;
      }
      if (s.wide) {
        // Our reading of PTX ISA 5.5.5 and its Figures 16-19
        // (docs/interpreter.md, "Tensor maps"): the pixels form one
        // sequence along W with the traversal stride, from the W coordinate
        // (which may lie left of the box) to the box's right end, then from
        // the box's left end in the next image of the batch; H and D stay
        // at the coordinates. Halo pixels are the pixels that follow in the
        // same sequence, stored after the main pixels (::w) or after each
        // group of 32 (::w::128).
        const uint64_t slot = idx / map.channels;
        const int64_t q = static_cast<int64_t>(s.wide == 2 ? 32 * (slot / (32 + halo)) + slot % (32 + halo) : slot);
        const int64_t st = map.estride[1];
        const int64_t first = (box_hi - wstart) / st + 1, per = (box_hi - box_lo) / st + 1;
        g[0] = co[0] + static_cast<int64_t>(idx % map.channels);
        int64_t row = 0;
        if (q < first) {
          g[1] = wstart + q * st;
        } else {
          g[1] = box_lo + (q - first) % per * st;
          row = 1 + (q - first) / per;
        }
        for (unsigned d = 2; d + 1 < R; ++d) g[d] = co[d];
        g[R - 1] = co[R - 1] + row;
        return;
      }
      if (!s.im2col) {
        for (unsigned d = 0; d < R; ++d) {
          g[d] = co[d] + static_cast<int64_t>(idx % n[d]) * map.estride[d];
          idx /= n[d];
        }
        return;
      }
      // im2col (PTX ISA 5.5.4): channel idx % C from the C coordinate;
      // pixel p = idx / C walks the bounding box [lower, dims - 1 + upper]
      // of the spatial dims (W fastest) from the filter base (coordinates +
      // im2col offsets), wrapping to the lower corner and then to the next
      // image of the batch.
      uint64_t ch = idx % map.channels, p = idx / map.channels;
      g[0] = co[0] + static_cast<int64_t>(ch);
      unsigned ns = R - 2;
      int64_t carry = static_cast<int64_t>(p);
      for (unsigned k = 0; k < ns; ++k) {
        int64_t ext = std::max<int64_t>(1, static_cast<int64_t>(map.dims[k + 1]) - 1 + map.upper[k] - map.lower[k] + 1);
        int64_t off = k < s.offsets.size() ? static_cast<int64_t>(get(s.offsets[k], t, l, w) & 0xffff) : 0;
        int64_t v = co[k + 1] + off - map.lower[k] + carry;
        g[k + 1] = map.lower[k] + v % ext;
        carry = v / ext;
      }
      g[R - 1] = co[R - 1] + carry;
    };
    auto in_bounds = [&](const int64_t* g) {
      for (unsigned d = 0; d < R; ++d)
        if (g[d] < 0 || static_cast<uint64_t>(g[d]) >= map.dims[d]) return false;
      return true;
    };
    auto gaddr = [&](const int64_t* g) {
      uint64_t a = map.addr;
      for (unsigned d = 0; d < R; ++d) a += static_cast<uint64_t>(g[d]) * (d ? map.strides[d] : es);
      return a;
    };
    const uint64_t sbase = addr_of(s.smem);
    if (sbase % 128) return fail(DiagKind::Misaligned, "bulk tensor shared-memory address must be 128-byte aligned (PTX ISA 9.7.9.25.5)");
    // PTX ISA 5.5.7: the 128B swizzle with 32B + 8B-flip atomicity "is legal
    // only when cp.async.bulk.tensor specifies the copy direction as
    // .shared::cluster.global or otherwise .shared::cta.global" (loads), and
    // not with the .im2col::w modes (5.5.5).
    if (map.atom == 2 && s.kind != TensorSite::Load)
      return fail(DiagKind::TensorMap, "the 128B swizzle with 32-byte atomicity and 8-byte flip is legal only for "
                                       "loads into shared memory (PTX ISA 5.5.7)");
    // The swizzle patterns of PTX ISA 5.5.7 as functions of the shared
    // address: a line is 128 bytes; the tables repeat every 2 (32B), 4
    // (64B) or 8 (128B) lines from a 256/512/1024-byte boundary, so line
    // bits 7.. of the address select the row (the "swizzle base offset"
    // (dstMem / 128) % N of a box that does not start on that boundary).
    // - 16B atomicity: 16-byte chunk c of line r goes to c ^ (r % N);
    // - 128B with 32B atomicity: 32-byte unit u of line r goes to
    //   u ^ (r % 4) ("the 32-byte of data is kept intact while swizzling");
    // - 32B + 8B flip: as 32B, and on every odd line the two 8-byte halves
    //   of each 16-byte chunk swap ("a flip of adjacent 8-bytes within the
    //   16-byte data at every alternate shared memory line"; which lines
    //   flip is our reading: the odd ones);
    // - 128B with 64B atomicity: 64-byte half h of line r goes to h ^ (r % 2).
    const unsigned W = map.swizzle ? 1u << map.swizzle : 1;  // 16-byte chunks per swizzle line: 2, 4, 8
    auto saddr = [&](uint64_t base, uint64_t idx) {
      uint64_t a = base + idx * es;
      const uint64_t line = a >> 7;
      switch (map.atom) {
        case 1: return a ^ ((line & 3) << 5);
        case 2: return a ^ ((line & 3) << 5) ^ ((line & 1) << 3);
        case 3: return a ^ ((line & 1) << 6);
        default: return W > 1 ? a ^ ((line & (W - 1)) << 4) : a;
      }
    };
    const uint64_t bytes = total * es;
    if (s.kind == TensorSite::Load) {
      // Destinations: the CTA the address names, or with .multicast::cluster
      // the same CTA-relative offset in every CTA of ctaMask (and their
      // mbarriers at the mbarrier operand's offset).
      std::vector<std::pair<uint64_t, uint64_t>> dst;  // (smem base, mbarrier), shared::cluster addresses
      uint64_t mb = addr_of(s.mbar);
      if (s.multicast) {
        uint64_t mask = get(s.cta_mask, t, l, w) & 0xffff;
        uint64_t soff = sbase & 0xffffff, moff = mb & 0xffffff;
        // .cta_group::2: "For each destination CTA specified in the ctaMask,
        // the mbarrier signal is sent either to the destination CTA or its
        // peer-CTA based on CTAs %cluster_ctarank parity of shared memory
        // where the mbarrier object mbar resides" (PTX ISA 9.7.9.25.5.2).
        const uint64_t mrank = mb >> 24 ? (mb >> 24) - 1 : c.rank;
        for (unsigned r = 0; r < 16; ++r)
          if (mask >> r & 1) {
            if (r >= cluster_size()) return fail(DiagKind::OutOfBounds, "multicast ctaMask names CTA rank " + std::to_string(r) + " outside the cluster");
            const uint64_t mr = s.cta_group2 ? ((r & ~1u) | (mrank & 1)) : r;
            if (mr >= cluster_size()) return fail(DiagKind::OutOfBounds, "the .cta_group::2 peer CTA rank " + std::to_string(mr) + " is outside the cluster");
            dst.push_back({(uint64_t{r} + 1) << 24 | soff, (mr + 1) << 24 | moff});
          }
      } else {
        dst.push_back({sbase, mb});
      }
      for (uint64_t idx = 0; idx < total; ++idx) {
        int64_t g[5];
        gcoord(idx, g);
        uint64_t v = map.oob_nan ? nan_bits(map.dtype) : 0;
        if (in_bounds(g)) {
          Where gw;
          if (!access(w, t, in, Space::Global, gaddr(g), es, false, false, gw)) return true;
          v = 0;
          std::memcpy(&v, &gw.region->bytes[gw.off], es);
        }
        for (const auto& [base, mbar] : dst) {
          Where sw;
          async_proxy_ = true;
          bool ok = access(w, t, in, s.multicast ? Space::SharedCluster : s.smem.space, saddr(base, idx), es, true, false, sw);
          async_proxy_ = false;
          if (!ok) return true;
          std::memcpy(&sw.region->bytes[sw.off], &v, es);
          sw.region->mark_init(sw.off, es);
        }
      }
      for (const auto& [base, mbar] : dst)
        if (!mbar_complete_tx(w, t, in, mbar, static_cast<int64_t>(bytes))) return true;
      continue;
    }
    // Store / reduce: shared::cta -> global, out-of-bounds elements skipped.
    for (uint64_t idx = 0; idx < total; ++idx) {
      int64_t g[5];
      gcoord(idx, g);
      if (!in_bounds(g)) continue;
      Where sw, gw;
      async_proxy_ = true;
      bool ok = access(w, t, in, s.smem.space, saddr(sbase, idx), es, false, false, sw);
      async_proxy_ = false;
      if (!ok) return true;
      uint64_t v = 0;
      std::memcpy(&v, &sw.region->bytes[sw.off], es);
      reduce_access_ = s.kind == TensorSite::Reduce;  // .relaxed.gpu (PTX ISA 9.7.9.25.5.3)
      ok = access(w, t, in, Space::Global, gaddr(g), es, true, s.kind == TensorSite::Reduce, gw);
      reduce_access_ = false;
      if (!ok) return true;
      uint8_t* p = &gw.region->bytes[gw.off];
      if (s.kind == TensorSite::Reduce) {
        uint64_t old = 0;
        std::memcpy(&old, p, es);
        bool sg = map.dtype == 3 || map.dtype == 5;  // s32, s64
        auto sx = [&](uint64_t x) { return es == 8 ? static_cast<int64_t>(x) : static_cast<int64_t>(static_cast<int32_t>(x)); };
        bool fl = tensormap_is_float(map.dtype);
        uint64_t nv = old;
        if (fl) {
          // .add (f16, bf16, f32), .min/.max (f16, bf16): the arithmetic
          // layer's add.rn / min / max (f32 add flushes subnormals as red does).
          std::string ty = map.dtype == 6 ? ".f16" : map.dtype == 9 ? ".bf16" : map.dtype == 8 ? ".f64" : ".f32";
          std::string mn = s.red == AtomOp::Add ? (ty == ".f32" ? "add.rn.ftz.f32" : "add.rn" + ty)
                           : std::string(s.red == AtomOp::Min ? "min" : "max") + ty;
          auto r = arith::resolve(mn);
          if (!r || (s.red != AtomOp::Add && s.red != AtomOp::Min && s.red != AtomOp::Max))
            return fail(DiagKind::Unsupported, "cp.reduce.async.bulk.tensor: no such reduction on this element type");
          uint64_t src[3] = {old, v, 0}, aux = 0;
          nv = r.desc->fn(src, &aux, r.desc->cfg);
        } else {
          switch (s.red) {
            case AtomOp::Add: nv = old + v; break;
            case AtomOp::Min: nv = sg ? (sx(old) < sx(v) ? old : v) : std::min(old, v); break;
            case AtomOp::Max: nv = sg ? (sx(old) > sx(v) ? old : v) : std::max(old, v); break;
            case AtomOp::Inc: nv = old >= v ? 0 : old + 1; break;
            case AtomOp::Dec: nv = (old == 0 || old > v) ? v : old - 1; break;
            case AtomOp::And: nv = old & v; break;
            case AtomOp::Or: nv = old | v; break;
            case AtomOp::Xor: nv = old ^ v; break;
            default: break;
          }
        }
        std::memcpy(p, &nv, es);
      } else {
        std::memcpy(p, &v, es);
      }
      gw.region->mark_init(gw.off, es);
    }
  }
  return false;
}

}  // namespace ptxcheck::interp
