// The checked memory access every memory instruction goes through
// (access()) and ld/st with their fast paths: the parts of the
// step function (exec.cpp) that read and write memory synchronously
// (atom/red are in exec_atomic.cpp).
// Asynchronous copies and mbarrier objects are in exec_async.cpp.
#include <bit>
#include <cstring>

#include "semantics/interp/exec_util.hpp"
#include "semantics/interp/ir_flags.hpp"

namespace ptxcheck::interp {

// Translates and checks one access; diagnoses and stops on a fault.
bool Machine::access(Warp& w, Thread& t, const Inst& in, Space sp, uint64_t addr, unsigned size, bool write,
                     bool atomic, Where& out) {
  // Fast path: the global allocation this instruction accessed last (an
  // instruction usually walks one buffer; kernels interleave several).
  auto pi = (reinterpret_cast<uintptr_t>(&in) - reinterpret_cast<uintptr_t>(prog.code.data())) / sizeof(Inst);
  Region*& hot = pi < pc_hot_.size() ? pc_hot_[pi] : hot_;
  if ((sp == Space::Global || sp == Space::Generic) && hot && addr >= hot->base &&
      addr - hot->base + size <= hot->bytes.size() && !(addr & (size - 1))) {
    out.region = hot;
    out.off = addr - hot->base;
    out.space = Space::Global;
    out.cta = -1;
    out.fault = Fault::None;
    if (par_ && (&in != par_claimed_ || out.region != hot) && !claim(out.region, out.off, size, write || atomic))
      return false;
    // (an allocation with initialisation flags: a launch spec's uninitialised
    // buffer, the shim's discarded managed memory)
    if (!write && !hot->init.empty() && !hot->is_init(out.off, size)) [[unlikely]]
      diag(DiagKind::UninitializedRead, false, *w.cta, t, in, "read of uninitialised global memory");
  } else if (sp == Space::Shared && size <= w.cta->shared->bytes.size() && addr <= w.cta->shared->bytes.size() - size &&
             !(addr & (size - 1))) {
    out.region = w.cta->shared.get();  // fast path: the own CTA's shared memory
    out.off = addr;
    out.space = Space::Shared;
    out.cta = static_cast<int>(w.cta->slot);
    out.fault = Fault::None;
    if (!write && !out.region->is_init(out.off, size))
      diag(DiagKind::UninitializedRead, false, *w.cta, t, in, "read of uninitialised shared::cta memory");
  } else {
    ThreadMem tm = tmem(t, *w.cta);
    out = mem.translate(sp, addr, size, size, tm);
    if (out.fault == Fault::None && write && out.region->read_only) out.fault = Fault::ReadOnly;
    if (out.fault != Fault::None) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "%s %u-byte %s at %s address 0x%llx", write ? "write of" : "read of", size,
                    out.fault == Fault::Misaligned ? "access misaligned"
                    : out.fault == Fault::ReadOnly ? "access to read-only memory"
                                                   : "access out of bounds",
                    space_name(sp), static_cast<unsigned long long>(addr));
      diag(fault_kind(out.fault), true, *w.cta, t, in, buf);
      stop_ = true;
      return false;
    }
    if (out.space == Space::Global) {
      hot = out.region;
      if (par_) {
        par_claimed_ = nullptr;  // `hot` changed: the later lanes claim for themselves (parallel.cpp)
        if (!claim(out.region, out.off, size, write || atomic)) return false;
      }
    }
    if (!write && !out.region->is_init(out.off, size))
      diag(DiagKind::UninitializedRead, false, *w.cta, t, in,
           std::string("read of uninitialised ") + space_name(out.space) + " memory");
  }
  // mbarrier objects and atomics are not data of the proxies (atomic)
  if (proxy_on_ && !atomic && (out.space == Space::Shared || out.space == Space::SharedCluster))
    proxy_note(w, t, in, out, size, write);
  if (races.enabled && !cp_defer_ &&
      (out.space == Space::Global || out.space == Space::Shared || out.space == Space::SharedCluster)) {
    const Who me = who(t, *w.cta);
    AccessInfo a;
    a.gid = t.gid;
    a.gen = me.gen;
    a.clock = t.sync.clock;
    a.wcoll = static_cast<uint16_t>(w.coll.seq);
    a.pc = static_cast<uint32_t>(pi);
    a.size = static_cast<uint8_t>(std::min(size, 255u));
    // Atomics (and mbarrier operations) are strong, relaxed at least.
    a.order = atomic && in.order == mm::Order::Weak ? mm::Order::Relaxed : in.order;
    a.scope = in.scope;
    if (atomic && reduce_access_) {
      // cp.reduce.async.bulk{.tensor}: "Each reduction operation ... has
      // individually .relaxed.gpu memory ordering semantics" (PTX ISA
      // 9.7.9.25.4.2, 9.7.9.25.5.3).
      a.order = mm::Order::Relaxed;
      a.scope = mm::Scope::GPU;
      a.async = true;
    } else if (atomic && in.op != IrOp::Atom && in.op != IrOp::Red) {
      // An mbarrier object is opaque and only mbarrier operations touch it
      // (PTX ISA 9.7.13.15.1): they never race with each other.
      a.order = mm::Order::Relaxed;
      a.scope = mm::Scope::Sys;
    }
    a.write = write;
    // A strong write that later reads may observe (PTX ISA 8.9.2): its
    // number in its location's writes.
    const bool rmw = in.op == IrOp::Atom || in.op == IrOp::Red;
    if (write && !a.async && (rmw || (in.op == IrOp::St && a.strong())))
      races.begin_write(out.region, out.off, size, a, me, rmw);
    if (!t.cp_ops.empty()) own_copy_race(w, t, in, out, size, write, a);
    RaceHit hit;
    if (races.access(out.region, out.off, size, a, t.sync, w.coll, hit))
      race_report(w, t, in, out, size, write, a, hit);
    // The location's part in release/acquire patterns (PTX ISA 8.8, 8.9.2).
    if (in.op == IrOp::Atom || in.op == IrOp::Red || (atomic && reduce_access_)) {
      races.strong_read(t.sync, me, out.region, out.off, size, a.order, a.scope, in.op != IrOp::Atom, a.async);
      races.strong_write(t.sync, me, out.region, out.off, size, a.order, a.scope, true);
    } else if (in.op == IrOp::Ld || in.op == IrOp::St) {
      if (!a.strong()) {
        if (write)
          races.weak_store(t.sync, me, out.region, out.off, size);
        else
          races.weak_load(t.sync, me, out.region, out.off);
      } else if (write) {
        races.strong_write(t.sync, me, out.region, out.off, size, a.order, a.scope, false);
      } else {
        races.strong_read(t.sync, me, out.region, out.off, size, a.order, a.scope, false);
      }
    } else if (write && !atomic) {
      races.weak_write(out.region, out.off);
    }
  }
  return true;
}

namespace {

// The tight ld/st loop of exec_ldst for an address in a register, one
// instantiation per element size (and, for loads, sign extension and the
// shared-memory initialisation check): the same lanes in the same order,
// and the same bits, as the loop it replaces, without the per-lane choices
// between sizes, register or constant address, and checks. Each returns
// the lanes it did not do (the first that misses and those after it).
// `amask` is Addr::wrap's: 32-bit registers wrap, 64-bit ones do not.
template <unsigned ES>
inline bool all_init(const uint8_t* p) {  // Region::is_init for ES bytes (each init byte is 0 or 1)
  if constexpr (ES == 1)
    return *p != 0;
  else
    return load_n(p, ES) == (0x0101010101010101ull >> (64 - 8 * ES));
}

// MASK: the destination mask `dm` can clear bits of the loaded (and
// extended) value; without it the value is written as it is (the same bits).
// A whole warp runs a counted loop over its 32 lanes.
template <unsigned ES, bool SX, bool CHK, bool MASK>
uint32_t load_lanes(uint64_t* const* rp, uint32_t m, const uint8_t* data, const uint8_t* init, uint64_t base,
                    uint64_t lim, uint64_t off0, uint64_t amask, uint32_t as, uint32_t ds, uint64_t dm) {
  auto lane = [&](uint64_t * r) __attribute__((always_inline)) {
    const uint64_t a = (off0 + r[as]) & amask, off = a - base;
    if (off > lim || (a & (ES - 1)) != 0) return false;
    if constexpr (CHK)
      if (!all_init<ES>(init + off)) return false;
    uint64_t v = load_n(data + off, ES);
    if constexpr (SX) v = sext(v, ES * 8u);
    r[ds] = MASK ? v & dm : v;
    return true;
  };
  if (m == ~0u) {
    for (uint32_t l = 0; l < 32; ++l)
      if (!lane(rp[l])) return ~0u << l;
    return 0;
  }
  for (; m; m &= m - 1)
    if (!lane(rp[std::countr_zero(m)])) break;
  return m;
}

template <unsigned ES, bool SX, bool CHK>
uint32_t load_lanes_dm(uint64_t* const* rp, uint32_t m, const uint8_t* data, const uint8_t* init, uint64_t base,
                       uint64_t lim, uint64_t off0, uint64_t amask, uint32_t as, uint32_t ds, uint64_t dm) {
  // (dm is 2^k - 1: it keeps every bit of an ES-byte value zero-extended
  // when it has the low 8 * ES bits, of a sign-extended one when it is ~0)
  constexpr uint64_t vm = ES == 8 ? ~0ull : (1ull << (ES * 8)) - 1;
  const bool keeps = SX ? dm == ~0ull : (dm & vm) == vm;
  return keeps ? load_lanes<ES, SX, CHK, false>(rp, m, data, init, base, lim, off0, amask, as, ds, dm)
               : load_lanes<ES, SX, CHK, true>(rp, m, data, init, base, lim, off0, amask, as, ds, dm);
}

template <unsigned ES>
uint32_t store_lanes(uint64_t* const* rp, uint32_t m, uint8_t* data, uint8_t* init, uint64_t base, uint64_t lim,
                     uint64_t off0, uint64_t amask, uint32_t as, bool imm, uint64_t k, uint32_t ss) {
  for (; m; m &= m - 1) {
    const uint64_t* r = rp[std::countr_zero(m)];
    const uint64_t a = (off0 + r[as]) & amask, off = a - base;
    if (off > lim || (a & (ES - 1)) != 0) break;
    store_n(data + off, imm ? k : r[ss], ES);
    if (init) store_n(init + off, 0x0101010101010101ull, ES);  // Region::mark_init
  }
  return m;
}

template <bool SX, bool CHK>
uint32_t load_lanes_es(unsigned es, uint64_t* const* rp, uint32_t m, const uint8_t* data, const uint8_t* init,
                       uint64_t base, uint64_t lim, uint64_t off0, uint64_t amask, uint32_t as, uint32_t ds,
                       uint64_t dm) {
  switch (es) {
    case 1: return load_lanes_dm<1, SX, CHK>(rp, m, data, init, base, lim, off0, amask, as, ds, dm);
    case 2: return load_lanes_dm<2, SX, CHK>(rp, m, data, init, base, lim, off0, amask, as, ds, dm);
    case 4: return load_lanes_dm<4, SX, CHK>(rp, m, data, init, base, lim, off0, amask, as, ds, dm);
    case 8: return load_lanes_dm<8, SX, CHK>(rp, m, data, init, base, lim, off0, amask, as, ds, dm);
  }
  return m;
}

// exec_ldst's tight loop for one element at a register address (`in` is
// such a load or store; the caller checked its size): the lanes of `m` it
// did not do (the first that misses [base, base + lim] or is misaligned,
// and those after it), or `m` when the operands are not plain registers or
// an immediate. `data` and `init` hold the bytes from `base` on; `chk`:
// loads check the initialisation flags (a lane that reads an unwritten byte
// misses: the general loop reports it).
__attribute__((always_inline)) inline uint32_t tight_lanes(const Warp& w, const Inst& in, uint32_t m, uint8_t* data,
                                                           uint8_t* init, uint64_t base, uint64_t lim, bool chk) {
  const unsigned es = in.size;
  const uint64_t off0 = static_cast<uint64_t>(in.addr.off);
  const uint64_t amask = in.addr.addr32 ? 0xffff'ffffull : ~0ull;
  const uint32_t as = in.addr.slot;
  if (in.op == IrOp::St) {
    const Opnd& o = in.src[0];
    if (o.kind != Opnd::Imm && (o.kind != Opnd::Reg || o.negate)) return m;
    switch (es) {
      case 1:
        return store_lanes<1>(w.rp, m, data, init, base, lim, off0, amask, as, o.kind == Opnd::Imm, o.imm, o.slot);
      case 2:
        return store_lanes<2>(w.rp, m, data, init, base, lim, off0, amask, as, o.kind == Opnd::Imm, o.imm, o.slot);
      case 4:
        return store_lanes<4>(w.rp, m, data, init, base, lim, off0, amask, as, o.kind == Opnd::Imm, o.imm, o.slot);
      default:
        return store_lanes<8>(w.rp, m, data, init, base, lim, off0, amask, as, o.kind == Opnd::Imm, o.imm, o.slot);
    }
  }
  if (in.dst[0].kind != Opnd::Reg) return m;
  // (lowering set dwidth to the destination register's declared width)
  const uint64_t dm = in.dwidth >= 64 ? ~0ull : (1ull << in.dwidth) - 1;
  const uint32_t ds = in.dst[0].slot;
  return in.nk == NumKind::S
             ? chk ? load_lanes_es<true, true>(es, w.rp, m, data, init, base, lim, off0, amask, as, ds, dm)
                   : load_lanes_es<true, false>(es, w.rp, m, data, init, base, lim, off0, amask, as, ds, dm)
         : chk ? load_lanes_es<false, true>(es, w.rp, m, data, init, base, lim, off0, amask, as, ds, dm)
               : load_lanes_es<false, false>(es, w.rp, m, data, init, base, lim, off0, amask, as, ds, dm);
}

// The same, out of line: CTAs on all cores, in the window par_window gave.
__attribute__((noinline)) uint32_t tight_lanes_window(const Warp& w, const Inst& in, uint32_t m, uint8_t* data,
                                                      uint8_t* init, uint64_t base, uint64_t lim) {
  return tight_lanes(w, in, m, data, init, base, lim, init != nullptr);
}

// The same for ld/st.v2/.v4 (N elements of ES bytes, one access of N * ES
// bytes aligned to its size): registers ds[0..N-1] (masks dm), sources
// register ss[k] or immediate k[k].
template <unsigned ES, unsigned N, bool CHK>
uint32_t load_vec_lanes(uint64_t* const* rp, uint32_t m, const uint8_t* data, const uint8_t* init, uint64_t base,
                        uint64_t lim, uint64_t off0, uint64_t amask, uint32_t as, const uint32_t* ds,
                        const uint64_t* dm, bool sx) {
  for (; m; m &= m - 1) {
    uint64_t* r = rp[std::countr_zero(m)];
    const uint64_t a = (off0 + r[as]) & amask, off = a - base;
    if (off > lim || (a & (ES * N - 1)) != 0) break;
    if constexpr (CHK) {
      bool ok = true;
      for (unsigned e = 0; e < N; ++e) ok = ok && all_init<ES>(init + off + e * ES);
      if (!ok) break;
    }
    for (unsigned e = 0; e < N; ++e) {
      uint64_t v = load_n(data + off + e * ES, ES);
      if (sx) v = sext(v, ES * 8u);
      r[ds[e]] = v & dm[e];
    }
  }
  return m;
}

// IMM: some element is an immediate (else every one is a register, read
// without a per-element choice).
template <unsigned ES, unsigned N, bool IMM>
uint32_t store_vec_lanes(uint64_t* const* rp, uint32_t m, uint8_t* data, uint8_t* init, uint64_t base, uint64_t lim,
                         uint64_t off0, uint64_t amask, uint32_t as, const bool* imm, const uint64_t* k,
                         const uint32_t* ss) {
  for (; m; m &= m - 1) {
    const uint64_t* r = rp[std::countr_zero(m)];
    const uint64_t a = (off0 + r[as]) & amask, off = a - base;
    if (off > lim || (a & (ES * N - 1)) != 0) break;
    for (unsigned e = 0; e < N; ++e) store_n(data + off + e * ES, IMM && imm[e] ? k[e] : r[ss[e]], ES);
    if (init) std::memset(init + off, 1, ES * N);  // Region::mark_init
  }
  return m;
}

}  // namespace

// ld/st for the lanes `m` of the group (PTX ISA, Data Movement and
// Conversion Instructions: ld, st):
// the fast paths (the global allocation this instruction hit last, kernel
// parameters and the const bank, the own CTA's shared memory; races, hooks
// and proxies off) inline, anything else through access(). True when the
// step stopped (a fault or the hook).
bool Machine::exec_ldst(Warp& w, const Inst& in, uint32_t m) {
  // A load of one element from a constant address in the kernel's
  // parameters or the const bank (ld.param at a kernel's start): the same
  // bytes for every lane, read once (the general loop's `ro` branch: both
  // are read-only, always initialised and never part of a race).
  if (in.addr.base == Addr::Abs && in.op != IrOp::St &&
      (in.addr.space == Space::Param || in.addr.space == Space::Const) && !hook_ && m && in.ndst == 1 &&
      in.dst[0].kind == Opnd::Reg) {
    const Region& ro = in.addr.space == Space::Param ? mem.params() : mem.constant();
    const unsigned es = in.size;
    const uint64_t a = static_cast<uint64_t>(in.addr.off);
    if ((es == 1 || es == 2 || es == 4 || es == 8) && a + es <= ro.bytes.size() && a + es >= a && !(a & (es - 1))) {
      uint64_t v = load_n(ro.bytes.data() + a, es);
      if (in.nk == NumKind::S) v = sext(v, es * 8u);
      // (lowering set dwidth to the destination register's declared width)
      v &= in.dwidth >= 64 ? ~0ull : (1ull << in.dwidth) - 1;
      const uint32_t ds = in.dst[0].slot;
      if (m == ~0u)  // a whole warp, counted
        for (uint32_t l = 0; l < 32; ++l) w.rp[l][ds] = v;
      else
        for (; m; m &= m - 1) w.rp[std::countr_zero(m)][ds] = v;
      return false;
    }
  }
  // The usual access of a tight loop first, with the fewest tests: one
  // element of 1, 2, 4 or 8 bytes at a register address in the own CTA's
  // shared memory or (one core) the global allocation this instruction hit
  // last, races, hooks and (shared) the async proxy off, to a register or
  // from a register or immediate: the tight loop below, its lanes in the
  // same order, each doing what the general loop would. The lanes from the
  // first that misses on go through the rest of this function, whose tight
  // loop misses at that lane again.
  if (in.addr.base == Addr::Reg && !hook_ && !races.enabled && m) {
    const bool st = in.op == IrOp::St;
    const unsigned es = in.size;
    Region* fr = nullptr;
    if (in.addr.space == Space::Shared) {
      fr = proxy_on_ ? nullptr : w.cta->shared.get();
    } else if ((in.addr.space == Space::Global || in.addr.space == Space::Generic) && w.pc < pc_hot_.size()) {
      if (!par_) {
        fr = pc_hot_[w.pc];
      } else if (Region* const h = pc_hot_[w.pc];
                 h && (st ? in.nsrc : in.ndst) == 1 && (es == 1 || es == 2 || es == 4 || es == 8)) {
        // CTAs on all cores: the same loop in the window of the allocation
        // the lanes hold a claim on (par_window, parallel.cpp); no window:
        // the general loop claims (par_claim_lanes).
        uint64_t lo = 0, hi = 0;
        if (!par_window(*this, w, in, m, h, st, lo, hi)) return true;
        if (hi - lo >= es) {
          const uint64_t skip = lo - h->base;  // the window's first byte in the allocation
          m = tight_lanes_window(w, in, m, h->bytes.data() + skip, h->init.empty() ? nullptr : h->init.data() + skip,
                                 lo, hi - lo - es);
          if (!m) return false;
        }
      }
    }
    if (fr && (st ? in.nsrc : in.ndst) == 1 && (es == 1 || es == 2 || es == 4 || es == 8) && fr->bytes.size() >= es) {
      const bool shared = in.addr.space == Space::Shared;
      uint8_t* const init = fr->init.empty() ? nullptr : fr->init.data();
      m = tight_lanes(w, in, m, fr->bytes.data(), init, shared ? 0 : fr->base, fr->bytes.size() - es, init != nullptr);
      if (!m) return false;
    }
  }
  Cta& c = *w.cta;
  Thread* T = &c.threads[w.first];
  // Operand read through the cached frame pointer (as the step function's).
  auto val = [&](const Opnd& o, uint32_t l) -> uint64_t {
    if (o.kind == Opnd::Reg) {
      uint64_t v = w.rp[l][o.slot];
      return o.negate ? !v : v;
    }
    if (o.kind == Opnd::Imm) return o.imm;
    return get(o, T[l], l, w);
  };
  bool st = in.op == IrOp::St;
  unsigned n = st ? in.nsrc : in.ndst;
  unsigned total = in.size * n;
  if (!m) return false;
  // Destination masks from the declared register widths: every lane at
  // this PC runs the same function.
  uint64_t dmask[4] = {0, 0, 0, 0};
  if (!st) {
    const Function& fn = prog.funcs[T[std::countr_zero(m)].func];
    for (unsigned k = 0; k < n; ++k)
      if (in.dst[k].kind == Opnd::Reg) {
        uint32_t dw = fn.reg_width[in.dst[k].slot];
        dmask[k] = dw >= 64 ? ~0ull : (1ull << dw) - 1;
      }
  }
  const bool sx = in.nk == NumKind::S;
  const unsigned es = in.size;
  // Global fast path (races off): the allocation the previous access hit,
  // checked here without a call; anything else goes through access().
  const bool gfast = !hook_ && !races.enabled && (in.addr.space == Space::Global || in.addr.space == Space::Generic) &&
                     in.addr.base != Addr::Frame;
  Region* const hot = w.pc < pc_hot_.size() ? pc_hot_[w.pc] : nullptr;
  // Kernel parameters and the const bank: read-only, always initialised,
  // never part of a race.
  Region* const ro = st                              ? nullptr
                     : in.addr.space == Space::Param ? &mem.params()
                     : in.addr.space == Space::Const ? &mem.constant()
                                                     : nullptr;
  // The own CTA's shared memory (races off): access()'s shared::cta path, inline.
  Region* const sh =
      !hook_ && !races.enabled && !proxy_on_ && in.addr.space == Space::Shared ? c.shared.get() : nullptr;
  Where hw;  // the resolved access, for the hook
  // CTAs on all cores: claim the lanes' accesses to `hot` before any lane
  // accesses (parallel.cpp).
  bool claimed = false;
  if (par_ && !par_claim_lanes(w, in, m, hot, total, st, claimed)) return true;
  // The common case in a tight loop: one element of at most 8 bytes, the
  // address in a register or a constant, a register destination (a register or immediate
  // source), the region known before the loop (the own CTA's shared memory,
  // params/const, or the global allocation of the previous access, claimed
  // when CTAs run on all cores), no hook. Lanes are taken in ascending
  // order while each does what the general loop below would do in its
  // first three branches; from the first lane that misses the region, is
  // misaligned or (shared loads) reads uninitialised bytes, the general loop
  // goes on (and reports).
  Region* const fr = sh ? sh : ro ? ro : gfast && hot && (!par_ || claimed) ? hot : nullptr;
  if (fr && n == 1 && es <= 8 && (in.addr.base == Addr::Reg || in.addr.base == Addr::Abs) &&
      fr->bytes.size() >= total &&
      (st ? in.src[0].kind == Opnd::Imm || (in.src[0].kind == Opnd::Reg && !in.src[0].negate)
          : in.dst[0].kind == Opnd::Reg)) {
    const uint64_t base = fr == hot ? hot->base : 0, lim = fr->bytes.size() - total;
    const uint64_t off0 = static_cast<uint64_t>(in.addr.off);
    const bool reg = in.addr.base == Addr::Reg;
    const uint32_t as = in.addr.slot;
    uint8_t* const data = fr->bytes.data();
    uint8_t* const init = fr->init.empty() ? nullptr : fr->init.data();
    if (reg && (es == 1 || es == 2 || es == 4 || es == 8)) {  // per size, without per-lane choices
      const uint64_t amask = in.addr.addr32 ? 0xffff'ffffull : ~0ull;
      if (st) {
        const bool imm = in.src[0].kind == Opnd::Imm;
        const uint64_t k = in.src[0].imm;
        const uint32_t ss = in.src[0].slot;
        switch (es) {
          case 1: m = store_lanes<1>(w.rp, m, data, init, base, lim, off0, amask, as, imm, k, ss); break;
          case 2: m = store_lanes<2>(w.rp, m, data, init, base, lim, off0, amask, as, imm, k, ss); break;
          case 4: m = store_lanes<4>(w.rp, m, data, init, base, lim, off0, amask, as, imm, k, ss); break;
          default: m = store_lanes<8>(w.rp, m, data, init, base, lim, off0, amask, as, imm, k, ss); break;
        }
      } else {
        const uint32_t ds = in.dst[0].slot;
        const bool chk = fr == sh && init;
        m = sx    ? chk ? load_lanes_es<true, true>(es, w.rp, m, data, init, base, lim, off0, amask, as, ds, dmask[0])
                        : load_lanes_es<true, false>(es, w.rp, m, data, init, base, lim, off0, amask, as, ds, dmask[0])
               : chk ? load_lanes_es<false, true>(es, w.rp, m, data, init, base, lim, off0, amask, as, ds, dmask[0])
                  : load_lanes_es<false, false>(es, w.rp, m, data, init, base, lim, off0, amask, as, ds, dmask[0]);
      }
    } else if (st) {
      const bool imm = in.src[0].kind == Opnd::Imm;
      const uint64_t k = in.src[0].imm;
      const uint32_t ss = in.src[0].slot;
      for (; m; m &= m - 1) {
        const uint32_t l = std::countr_zero(m);
        const uint64_t* r = w.rp[l];
        const uint64_t a = reg ? in.addr.wrap(off0 + r[as]) : off0, off = a - base;
        if (off > lim || (a & (total - 1)) != 0) break;
        store_n(data + off, imm ? k : r[ss], es);
        if (init) store_n(init + off, 0x0101010101010101ull, es);  // Region::mark_init
      }
    } else {
      const uint32_t ds = in.dst[0].slot;
      const uint64_t dm = dmask[0];
      const bool chk = fr == sh && init;
      for (; m; m &= m - 1) {
        const uint32_t l = std::countr_zero(m);
        uint64_t* r = w.rp[l];
        const uint64_t a = reg ? in.addr.wrap(off0 + r[as]) : off0, off = a - base;
        if (off > lim || (a & (total - 1)) != 0 || (chk && !fr->is_init(off, total))) break;
        uint64_t v = load_n(data + off, es);
        if (sx) v = sext(v, es * 8u);
        r[ds] = v & dm;
      }
    }
    if (!m) return false;
  }
  // ld/st.v2/.v4 of 2-, 4- or 8-byte elements at a register address, every
  // element a register (or, stored, an immediate): the same, per element.
  if (fr && (n == 2 || n == 4) && (es == 2 || es == 4 || es == 8) && in.addr.base == Addr::Reg &&
      fr->bytes.size() >= total) {
    bool plain = true;
    uint32_t sl[4];
    bool imm[4] = {false, false, false, false};
    uint64_t k[4] = {0, 0, 0, 0};
    for (unsigned e = 0; e < n; ++e) {
      const Opnd& o = st ? in.src[e] : in.dst[e];
      plain = plain && (o.kind == Opnd::Reg ? !o.negate : st && o.kind == Opnd::Imm);
      sl[e] = o.slot;
      imm[e] = o.kind == Opnd::Imm;
      k[e] = o.imm;
    }
    if (plain) {
      const uint64_t base = fr == hot ? hot->base : 0, lim = fr->bytes.size() - total;
      const uint64_t off0 = static_cast<uint64_t>(in.addr.off);
      const uint64_t amask = in.addr.addr32 ? 0xffff'ffffull : ~0ull;
      const uint32_t as = in.addr.slot;
      uint8_t* const data = fr->bytes.data();
      uint8_t* const init = fr->init.empty() ? nullptr : fr->init.data();
      const unsigned sel = es * 8 + n;  // (element size, count)
      if (st) {
        const bool any_imm = imm[0] || imm[1] || imm[2] || imm[3];
#define FAST_ST(ES, N)                                                                                        \
  case ES * 8 + N:                                                                                            \
    m = any_imm ? store_vec_lanes<ES, N, true>(w.rp, m, data, init, base, lim, off0, amask, as, imm, k, sl)   \
                : store_vec_lanes<ES, N, false>(w.rp, m, data, init, base, lim, off0, amask, as, imm, k, sl); \
    break;
        switch (sel) { FAST_ST(2, 2) FAST_ST(2, 4) FAST_ST(4, 2) FAST_ST(4, 4) FAST_ST(8, 2) FAST_ST(8, 4) }
#undef FAST_ST
      } else if (fr == sh && init) {
#define FAST_LD(ES, N)                                                                               \
  case ES * 8 + N:                                                                                   \
    m = load_vec_lanes<ES, N, true>(w.rp, m, data, init, base, lim, off0, amask, as, sl, dmask, sx); \
    break;
        switch (sel) { FAST_LD(2, 2) FAST_LD(2, 4) FAST_LD(4, 2) FAST_LD(4, 4) FAST_LD(8, 2) FAST_LD(8, 4) }
#undef FAST_LD
      } else {
#define FAST_LD(ES, N)                                                                                \
  case ES * 8 + N:                                                                                    \
    m = load_vec_lanes<ES, N, false>(w.rp, m, data, init, base, lim, off0, amask, as, sl, dmask, sx); \
    break;
        switch (sel) { FAST_LD(2, 2) FAST_LD(2, 4) FAST_LD(4, 2) FAST_LD(4, 4) FAST_LD(8, 2) FAST_LD(8, 4) }
#undef FAST_LD
      }
      if (!m) return false;
    }
  }
  FOR_LANES(m) {
    Thread& t = T[l];
    uint64_t a = static_cast<uint64_t>(in.addr.off);
    if (in.addr.base == Addr::Reg)
      a = in.addr.wrap(a + w.rp[l][in.addr.slot]);
    else if (in.addr.base == Addr::Frame)
      a += t.fp;
    uint8_t* p;
    Region* rg;
    uint64_t off;
    if (gfast && hot && a >= hot->base && a - hot->base + total <= hot->bytes.size() && !(a & (total - 1))) {
      rg = hot;
      off = a - hot->base;
      if (par_ && !claimed && !claim(rg, off, total, st)) return true;
    } else if (ro && a + total <= ro->bytes.size() && a + total >= a && !(a & (total - 1))) {
      rg = ro;
      off = a;
    } else if (sh && total <= sh->bytes.size() && a <= sh->bytes.size() - total && !(a & (total - 1))) {
      rg = sh;
      off = a;
      if (!st && !sh->is_init(off, total))
        diag(DiagKind::UninitializedRead, false, c, t, in, "read of uninitialised shared::cta memory");
    } else {
      Where wh;
      if (!access(w, t, in, in.addr.space, a, total, st, false, wh)) return true;
      rg = wh.region;
      off = wh.off;
      hw = wh;
    }
    const bool hooked = hook_ && rg != ro && hw.region == rg &&
                        (hw.space == Space::Global || hw.space == Space::Shared || hw.space == Space::SharedCluster);
    p = rg->bytes.data() + off;
    uint64_t* r = w.rp[l];
    if (st) {
      for (unsigned k = 0; k < n; ++k) {
        if (hooked) {
          uint64_t v = val(in.src[k], l);
          if (es < 8) v &= (1ull << (8 * es)) - 1;
          if (!hook_->write(t, c, hook_access(in, HookKind::Store, hw, c, k * es, es), v)) return hook_stop();
        }
        store_n(p + k * es, val(in.src[k], l), es);
      }
      rg->mark_init(off, total);
    } else {
      for (unsigned k = 0; k < n; ++k) {
        if (in.dst[k].kind != Opnd::Reg) continue;
        uint64_t v = load_n(p + k * es, es);
        if (hooked && !hook_->read(t, c, hook_access(in, HookKind::Load, hw, c, k * es, es), v)) return hook_stop();
        if (sx) v = sext(v, es * 8u);
        r[in.dst[k].slot] = v & dmask[k];
      }
    }
  }
  return false;
}

}  // namespace ptxcheck::interp
