// Atomics, asynchronous copies and mbarrier objects, and the checked memory
// access every memory instruction goes through: the parts of the step
// function (exec.cpp) that touch memory beyond plain ld/st.
#include <bit>
#include <cstring>

#include "semantics/interp/exec_util.hpp"
#include "semantics/interp/ir_flags.hpp"

namespace ptxcheck::interp {

namespace {

DiagKind fault_kind(Fault f) {
  switch (f) {
    case Fault::Misaligned: return DiagKind::Misaligned;
    case Fault::ReadOnly: return DiagKind::ReadOnlyWrite;
    default: return DiagKind::OutOfBounds;
  }
}

#define FOR_LANES(mask) for (uint32_t b_ = (mask), l; b_ && ((l = std::countr_zero(b_)), true); b_ &= b_ - 1)

}  // namespace

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
    if (par_ && !claim(out.region, out.off, size, write || atomic)) return false;
  } else if (sp == Space::Shared && size <= w.cta->shared->bytes.size() && addr <= w.cta->shared->bytes.size() - size &&
             !(addr & (size - 1))) {
    out.region = w.cta->shared.get();  // fast path: the own CTA's shared memory
    out.off = addr;
    out.space = Space::Shared;
    out.cta = static_cast<int>(w.cta->rank);
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
      if (par_ && !claim(out.region, out.off, size, write || atomic)) return false;
    }
    if (!write && !out.region->is_init(out.off, size))
      diag(DiagKind::UninitializedRead, false, *w.cta, t, in,
           std::string("read of uninitialised ") + space_name(out.space) + " memory");
  }
  // mbarrier objects and atomics are not data of the proxies (atomic)
  if (proxy_on_ && !atomic && (out.space == Space::Shared || out.space == Space::SharedCluster)) proxy_note(w, t, in, out, size, write);
  if (races.enabled && (out.space == Space::Global || out.space == Space::Shared || out.space == Space::SharedCluster)) {
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
    RaceHit hit;
    if (races.access(out.region, out.off, size, a, t.sync, w.coll, hit)) race_report(w, t, in, out, size, write, a, hit);
    // The location's part in release/acquire patterns (PTX ISA 8.8, 8.9.2).
    if (in.op == IrOp::Atom || in.op == IrOp::Red || (atomic && reduce_access_)) {
      races.strong_read(t.sync, me, out.region, out.off, size, a.order, a.scope, in.op != IrOp::Atom);
      races.strong_write(t.sync, me, out.region, out.off, size, a.order, a.scope, true);
    } else if (in.op == IrOp::Ld || in.op == IrOp::St) {
      if (!a.strong()) {
        if (write) races.weak_write(out.region, out.off);
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

// atom/red (PTX ISA 9.7.13.5 atom, 9.7.13.6 red; arithmetic in
// arith::atom_apply), cp.async, cp.async.bulk, st.bulk and mbarrier.* for the
// lanes `m` of the group: false when the step goes on to the next
// instruction, true when it stopped (a fault).
bool Machine::exec_atomic_async(Warp& w, const Inst& in, uint32_t m) {
  Cta& c = *w.cta;
  Thread* T = &c.threads[w.first];
  switch (in.op) {
    case IrOp::Atom:
    case IrOp::Red: {
      AtomOp op = in.atom;
      if (in.size == 16) {  // atom.exch/.cas.b128 (sm_90): one 16-byte atomic operation
        FOR_LANES(m) {
          Thread& t = T[l];
          uint64_t a = static_cast<uint64_t>(in.addr.off);
          if (in.addr.base == Addr::Reg) a = in.addr.wrap(a + t.regs[t.reg_base + in.addr.slot]);
          else if (in.addr.base == Addr::Frame) a += t.fp;
          Where wh;
          if (!access(w, t, in, in.addr.space, a, 16, true, true, wh)) return true;
          uint8_t* p = &wh.region->bytes[wh.off];
          uint64_t old[2], b[2] = {get(in.src[0], t, l, w), get(in.src[1], t, l, w)};
          std::memcpy(old, p, 16);
          if (op == AtomOp::Exch || (old[0] == b[0] && old[1] == b[1])) {
            uint64_t nv[2] = {b[0], b[1]};
            if (op == AtomOp::Cas) nv[0] = get(in.src[2], t, l, w), nv[1] = get(in.src[3], t, l, w);
            std::memcpy(p, nv, 16);
          }
          wh.region->mark_init(wh.off, 16);
          put(t, in.dst[0], old[0], 64);
          put(t, in.dst[1], old[1], 64);
        }
        break;
      }
      unsigned bits = in.size * 8u;
      uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
      // Elements: 1, or the vector width of atom/red .v2/.v4/.v8, each its
      // own atomic operation on consecutive locations ("the atomicity is
      // guaranteed separately for each of the individual scalar elements",
      // PTX ISA 9.7.13.5). A .v8 has elements 4-7 in the operand
      // continuation that follows it (ir_flags.hpp kAtomV8).
      const bool v8 = in.flags & kAtomV8;
      const Inst& cont = v8 ? (&in)[1] : in;
      const unsigned nel = v8 ? 8u : op == AtomOp::Cas ? 1u : std::max<unsigned>(1, in.op == IrOp::Atom ? in.ndst : in.nsrc);
      // A packed .f16x2/.bf16x2 element is two 16-bit atomic operations:
      // "atom instruction on packed type or vector type, accesses adjacent
      // scalar elements in memory. In such cases, the atomicity is
      // guaranteed separately for each of the individual scalar elements;
      // the entire atom is not guaranteed to be atomic as a single access"
      // (PTX ISA 9.7.13.5; red 9.7.13.6). The race check and the events of
      // `ptxcheck outcomes` see one 2-byte access per half.
      const bool packed = in.ety == arith::Ty::f16x2 || in.ety == arith::Ty::bf16x2;
      const unsigned usz = packed ? 2u : in.size, nun = nel * (packed ? 2u : 1u);
      auto src_of = [&](unsigned e) -> const Opnd& { return e < 4 ? in.src[e] : cont.src[e - 4]; };
      auto dst_of = [&](unsigned e) -> const Opnd& { return e < 4 ? in.dst[e] : cont.dst[e - 4]; };
      FOR_LANES(m) {  // lanes in ascending order: a deterministic serialisation
        Thread& t = T[l];
        uint64_t a = static_cast<uint64_t>(in.addr.off);
        if (in.addr.base == Addr::Reg) a = in.addr.wrap(a + t.regs[t.reg_base + in.addr.slot]);
        else if (in.addr.base == Addr::Frame) a += t.fp;
        Where wh;
        // A vector is one access for bounds and alignment (to the whole
        // vector, PTX ISA 6.4.1 / 8.2.4), and one atomic operation per
        // element for the race check (each element's own location and size:
        // morally strong with a scalar atomic of that element, 8.7).
        const bool races_on = races.enabled;
        if (nun > 1) races.enabled = false;
        const bool ok = access(w, t, in, in.addr.space, a, in.size * nel, true, true, wh);
        races.enabled = races_on;
        if (!ok) return true;
        if (nel > 1 && wh.space != Space::Global) {
          // "atom with vector type may be used only with .global space and
          // with generic addressing where the address points to .global
          // space" (PTX ISA 9.7.13.5; red 9.7.13.6 likewise).
          const bool sh = wh.space == Space::Shared || wh.space == Space::SharedCluster;
          diag(DiagKind::OutOfBounds, true, c, t, in,
               std::string("vector atom/red: the generic address is in ") + (sh ? "shared" : space_name(wh.space)) +
                   " memory, not .global (PTX ISA 9.7.13.5)");
          stop_ = true;
          return true;
        }
        if (nun > 1 && races_on)
          for (unsigned e = 0; e < nun; ++e) {
            Where we;
            if (!access(w, t, in, in.addr.space, a + e * usz, usz, true, true, we)) return true;
          }
        const bool hooked = hook_ && (wh.space == Space::Global || wh.space == Space::Shared || wh.space == Space::SharedCluster);
        // Every operand is read before any destination is written (a
        // destination may be another element's source register).
        uint64_t bs[8];
        for (unsigned e = 0; e < nel; ++e) bs[e] = get(src_of(e), t, l, w) & mask;
        const uint64_t c2 = op == AtomOp::Cas ? get(in.src[1], t, l, w) & mask : 0;
        for (unsigned e = 0; e < nel; ++e) {
          uint8_t* p = &wh.region->bytes[wh.off + e * in.size];
          uint64_t old = 0;
          std::memcpy(&old, p, in.size);
          const uint64_t b = bs[e];
          if (packed) {
            // Each half its own read-modify-write; the halves of a packed
            // operation are independent (the lanes of add/min/max .f16x2).
            uint64_t whole = 0;
            for (unsigned h = 0; h < 2; ++h) {
              uint64_t oh = (old >> (16 * h)) & 0xffff;
              if (hooked && !hook_->read(t, c, hook_access(in, HookKind::RmwRead, wh, c, e * in.size + 2 * h, 2), oh))
                return hook_stop();
              oh &= 0xffff;
              whole |= oh << (16 * h);
              const uint64_t nh = (arith::atom_apply(op, in.ety, oh << (16 * h), b, c2) >> (16 * h)) & 0xffff;
              if (hooked && !hook_->write(t, c, hook_access(in, HookKind::RmwWrite, wh, c, e * in.size + 2 * h, 2), nh))
                return hook_stop();
              std::memcpy(p + 2 * h, &nh, 2);
            }
            if (in.op == IrOp::Atom) put(t, dst_of(e), whole, 64);
            continue;
          }
          if (hooked && !hook_->read(t, c, hook_access(in, HookKind::RmwRead, wh, c, e * in.size, in.size), old))
            return hook_stop();
          uint64_t nv = arith::atom_apply(op, in.ety, old, b, c2);
          // A failing cas performs no write (PTX ISA 9.7.13.5).
          bool failed_cas = op == AtomOp::Cas && old != b;
          if (hooked && !failed_cas &&
              !hook_->write(t, c, hook_access(in, HookKind::RmwWrite, wh, c, e * in.size, in.size), nv))
            return hook_stop();
          std::memcpy(p, &nv, in.size);
          if (in.op == IrOp::Atom) put(t, dst_of(e), old, 64);
        }
        wh.region->mark_init(wh.off, in.size * nel);
      }
      break;
    }
    case IrOp::CpAsync:
      FOR_LANES(m) {
        Thread& t = T[l];
        uint32_t n = static_cast<uint32_t>(get(in.src[0], t, l, w));
        uint32_t srcn = in.src[1].kind == Opnd::None ? n : static_cast<uint32_t>(get(in.src[1], t, l, w));
        if (in.src[2].kind != Opnd::None && get(in.src[2], t, l, w)) srcn = 0;  // .ignore_src predicate true
        uint64_t da = in.addr.wrap(static_cast<uint64_t>(in.addr.off) + (in.addr.base == Addr::Reg ? t.regs[t.reg_base + in.addr.slot] : 0));
        uint64_t sa = in.addr2.wrap(static_cast<uint64_t>(in.addr2.off) + (in.addr2.base == Addr::Reg ? t.regs[t.reg_base + in.addr2.slot] : 0));
        Where dw, sw;
        if (!access(w, t, in, in.addr.space, da, n, true, false, dw)) return true;
        uint8_t tmp[16] = {};
        if (srcn) {
          if (!access(w, t, in, in.addr2.space, sa, std::min(srcn, n), false, false, sw)) return true;
          std::memcpy(tmp, &sw.region->bytes[sw.off], std::min<uint32_t>(std::min(srcn, n), 16));
        }
        std::memcpy(&dw.region->bytes[dw.off], tmp, std::min<uint32_t>(n, 16));  // zero-fill past src-size
        dw.region->mark_init(dw.off, n);
      }
      break;
    case IrOp::BulkCopy:  // performed in the async proxy (PTX ISA 8.6)
      if (in.mode == 2) {
        // cp.reduce.async.bulk (PTX ISA 9.7.9.25.4.2; lower_sync.cpp): each
        // element of [dst, dst + size) reduced with the element of the
        // shared::cta source, at once (a permitted schedule, as for
        // cp.async.bulk). The source reads are weak async-proxy reads; each
        // reduction is a .relaxed.gpu atomic of the async proxy; a
        // .shared::cluster destination ends with complete-tx of size bytes
        // on the mbarrier (.release at .cluster scope).
        const AtomOp op = in.atom;
        const unsigned es = in.size;
        FOR_LANES(m) {
          Thread& t = T[l];
          const uint32_t n = static_cast<uint32_t>(get(in.src[0], t, l, w));
          const uint64_t da = in.addr.wrap(static_cast<uint64_t>(in.addr.off) + (in.addr.base == Addr::Reg ? t.regs[t.reg_base + in.addr.slot] : 0));
          const uint64_t sa = in.addr2.wrap(static_cast<uint64_t>(in.addr2.off) + (in.addr2.base == Addr::Reg ? t.regs[t.reg_base + in.addr2.slot] : 0));
          if (n % 16 || !n || da % 16 || sa % 16) {
            diag(DiagKind::Misaligned, true, c, t, in,
                 "cp.reduce.async.bulk: size must be a non-zero multiple of 16 and both addresses 16-byte aligned "
                 "(PTX ISA 9.7.9.25.4.2)");
            stop_ = true;
            return true;
          }
          // Both ranges must lie in their state spaces (undefined otherwise):
          // checked before any element is reduced.
          const ThreadMem tm = tmem(t, c);
          for (int k = 0; k < 2; ++k) {
            const Space sp = k ? in.addr.space : in.addr2.space;
            const uint64_t a = k ? da : sa;
            Where r = mem.translate(sp, a, n, 16, tm);
            if (r.fault == Fault::None && k && r.region->read_only) r.fault = Fault::ReadOnly;
            if (r.fault != Fault::None) {
              char buf[200];
              std::snprintf(buf, sizeof buf, "cp.reduce.async.bulk: %s range of %u bytes at %s address 0x%llx is %s",
                            k ? "destination" : "source", n, space_name(sp), static_cast<unsigned long long>(a),
                            r.fault == Fault::ReadOnly ? "read-only" : "out of bounds");
              diag(fault_kind(r.fault), true, c, t, in, buf);
              stop_ = true;
              return true;
            }
          }
          for (uint32_t k = 0; k < n; k += es) {
            Where sw, dw;
            async_proxy_ = true;
            bool ok = access(w, t, in, in.addr2.space, sa + k, es, false, false, sw);
            async_proxy_ = false;
            if (!ok) return true;
            reduce_access_ = true;
            ok = access(w, t, in, in.addr.space, da + k, es, true, true, dw);
            reduce_access_ = false;
            if (!ok) return true;
            if (proxy_on_ && (dw.space == Space::Shared || dw.space == Space::SharedCluster)) {
              async_proxy_ = true;  // an async-proxy write of shared memory (PTX ISA 8.6)
              proxy_note(w, t, in, dw, es, true);
              async_proxy_ = false;
            }
            uint64_t v = 0, old = 0;
            std::memcpy(&v, &sw.region->bytes[sw.off], es);
            uint8_t* p = &dw.region->bytes[dw.off];
            std::memcpy(&old, p, es);
            const uint64_t nv = arith::atom_apply(op, in.ety, old, v, 0);
            std::memcpy(p, &nv, es);
            dw.region->mark_init(dw.off, es);
          }
          if (in.src[1].kind != Opnd::None) {  // .mbarrier::complete_tx::bytes
            uint64_t ma = in.src[2].imm + (in.src[1].kind == Opnd::Reg ? t.regs[t.reg_base + in.src[1].slot] : 0);
            if (!mbar_complete_tx(w, t, in, ma, n)) return true;
          }
        }
        break;
      }
      FOR_LANES(m) {
        struct Proxy {
          bool& f;
          Proxy(bool& x, bool on) : f(x) { f = on; }
          ~Proxy() { f = false; }
        } proxy(async_proxy_, in.mode == 0);
        Thread& t = T[l];
        uint32_t n = static_cast<uint32_t>(get(in.src[0], t, l, w));
        uint64_t da = in.addr.wrap(static_cast<uint64_t>(in.addr.off) + (in.addr.base == Addr::Reg ? t.regs[t.reg_base + in.addr.slot] : 0));
        uint64_t sa = in.addr2.wrap(static_cast<uint64_t>(in.addr2.off) + (in.addr2.base == Addr::Reg ? t.regs[t.reg_base + in.addr2.slot] : 0));
        if (n % 16 || !n) {
          diag(DiagKind::Misaligned, true, c, t, in, "cp.async.bulk size must be a non-zero multiple of 16");
          stop_ = true;
          return true;
        }
        const bool has_mbar = in.src[1].kind != Opnd::None;
        const uint64_t ma = has_mbar ? in.src[2].imm + (in.src[1].kind == Opnd::Reg ? t.regs[t.reg_base + in.src[1].slot] : 0) : 0;
        // Destinations (address, mbarrier): the one the operands name, or
        // with .multicast::cluster the same CTA-relative offsets in each CTA
        // of ctaMask (PTX ISA 9.7.9.25.4.1; shared::cluster addresses as
        // mapa forms them, docs/interpreter.md "Memory").
        std::pair<uint64_t, uint64_t> dst[16];
        unsigned nd = 0;
        if (in.flags & 1) {
          const uint64_t mask = get(in.src[3], t, l, w) & 0xffff;
          for (unsigned r = 0; r < 16; ++r)
            if (mask >> r & 1) {
              if (r >= ctas.size()) {
                diag(DiagKind::OutOfBounds, true, c, t, in, "multicast ctaMask names CTA rank " + std::to_string(r) + " outside the cluster");
                stop_ = true;
                return true;
              }
              dst[nd++] = {(uint64_t{r} + 1) << 24 | (da & 0xffffff), (uint64_t{r} + 1) << 24 | (ma & 0xffffff)};
            }
        } else {
          dst[nd++] = {da, ma};
        }
        const unsigned bytemask = in.flags & 2 ? static_cast<unsigned>(get(in.src[3], t, l, w) & 0xffff) : 0xffffu;
        // Chunk by chunk (16 bytes), each through the checked access path
        // (bounds, races, the async proxy).
        for (unsigned d = 0; d < nd; ++d)
          for (uint32_t k = 0; k < n; k += 16) {
            Where sw, dw;
            if (!access(w, t, in, in.addr2.space, sa + k, 16, false, false, sw)) return true;
            if (!access(w, t, in, in.flags & 1 ? Space::SharedCluster : in.addr.space, dst[d].first + k, 16, true, false, dw))
              return true;
            if (bytemask == 0xffffu) {
              std::memmove(&dw.region->bytes[dw.off], &sw.region->bytes[sw.off], 16);
              dw.region->mark_init(dw.off, 16);
            } else {
              for (unsigned b = 0; b < 16; ++b)
                if (bytemask >> b & 1) {
                  dw.region->bytes[dw.off + b] = sw.region->bytes[sw.off + b];
                  dw.region->mark_init(dw.off + b, 1);
                }
            }
          }
        if (has_mbar)  // .mbarrier::complete_tx::bytes on each destination's mbarrier (exec_tensor.cpp)
          for (unsigned d = 0; d < nd; ++d)
            if (!mbar_complete_tx(w, t, in, dst[d].second, n)) return true;
      }
      break;
    case IrOp::StBulk:  // zero-fill, 8 bytes at a time (each chunk checked)
      FOR_LANES(m) {
        Thread& t = T[l];
        uint64_t n = get(in.src[0], t, l, w);
        uint64_t a = in.addr.wrap(static_cast<uint64_t>(in.addr.off) + (in.addr.base == Addr::Reg ? w.rp[l][in.addr.slot] : 0));
        if (n % 8) {
          diag(DiagKind::Misaligned, true, c, t, in, "st.bulk size must be a multiple of 8");
          stop_ = true;
          return true;
        }
        for (uint64_t k = 0; k < n; k += 8) {
          Where wh;
          if (!access(w, t, in, in.addr.space, a + k, 8, true, false, wh)) return true;
          std::memset(&wh.region->bytes[wh.off], 0, 8);
          wh.region->mark_init(wh.off, 8);
        }
      }
      break;
    case IrOp::Mbarrier:
      FOR_LANES(m) {
        Thread& t = T[l];
        const MbarOp op = in.mbar;
        if (op == MbarOp::PendingCount) {  // from a state token
          put(t, in.dst[0], get(in.src[0], t, l, w) & 0x7fffffffu, 32);
          continue;
        }
        uint64_t a = in.addr.wrap(static_cast<uint64_t>(in.addr.off) + (in.addr.base == Addr::Reg ? t.regs[t.reg_base + in.addr.slot] : 0));
        Where wh;
        // Only the waits and pending_count leave the object as it is.
        const bool writes = op != MbarOp::Wait && op != MbarOp::WaitParity && op != MbarOp::PendingCount;
        const bool arrives = op == MbarOp::Arrive || op == MbarOp::ArriveDrop;
        const bool tx_only = op == MbarOp::ExpectTx || op == MbarOp::CompleteTx;
        if (!access(w, t, in, in.addr.space, a, 8, writes, true, wh)) return true;
        uint64_t v = 0;
        std::memcpy(&v, &wh.region->bytes[wh.off], 8);
        // For a hook: init/inval write the object, arrive/expect/complete
        // update it (read + write), test/try_wait read it (PTX ISA 9.7.13.15).
        const bool mhook = hook_ && (wh.space == Space::Shared || wh.space == Space::SharedCluster || wh.space == Space::Global);
        if (mhook && op != MbarOp::Init && op != MbarOp::Inval &&
            !hook_->read(t, c, hook_access(in, writes ? HookKind::RmwRead : HookKind::Load, wh, c, 0, 8), v))
          return hook_stop();
        uint64_t pending = v & 0x7fffffffu, expected = (v >> 32) & 0x7fffffffu, phase = v >> 63;
        uint64_t cnt = op == MbarOp::Init || arrives || tx_only ? get(in.src[0], t, l, w) & 0x7fffffffu : 0;
        int64_t& tx = txcount_[{wh.region, wh.off}];
        if (races.enabled) {
          // PTX ISA 8.8: arrive (and complete_tx) release to the waits that
          // observe the phase completion; a .cta-scoped arrival from another
          // CTA reaches no waiter of the owning CTA.
          const bool remote = wh.cta >= 0 && static_cast<size_t>(wh.cta) < ctas.size() &&
                              ctas[static_cast<size_t>(wh.cta)].get() != &c;
          if (op == MbarOp::Init) races.mbar_init(wh.region, wh.off);
          if (arrives && in.order != mm::Order::Relaxed && (!remote || in.scope != mm::Scope::CTA))
            races.mbar_arrive(wh.region, wh.off, Races::release(t.sync, who(t, c), in.scope), remote);
          // complete-tx (of st.async/red.async, or explicit) makes the
          // asynchronous writes visible with the phase to its waiters.
          if (op == MbarOp::CompleteTx) races.mbar_arrive(wh.region, wh.off, Races::release(t.sync, who(t, c), in.scope), false);
        }
        switch (op) {
          case MbarOp::Init: v = (cnt << 32) | cnt; tx = 0; break;
          case MbarOp::Inval: v = 0; tx = 0; break;
          case MbarOp::ExpectTx: tx += static_cast<int64_t>(cnt); break;
          case MbarOp::CompleteTx: tx -= static_cast<int64_t>(cnt); break;
          case MbarOp::PendingCount: break;  // handled above
          case MbarOp::Arrive:
          case MbarOp::ArriveDrop: {
            put(t, in.dst[0], v, 64);  // the state token: the phase before this arrive
            if (in.expect_tx) {        // the count is transaction bytes; one arrival
              tx += static_cast<int64_t>(cnt);
              cnt = 1;
            }
            if (op == MbarOp::ArriveDrop) expected -= std::min(expected, cnt);
            pending -= std::min(pending, cnt);
            break;
          }
          case MbarOp::Wait:  // test/try_wait
          case MbarOp::WaitParity: {
            const uint64_t want = op == MbarOp::Wait ? get(in.src[0], t, l, w) >> 63 : get(in.src[0], t, l, w) & 1;
            put(t, in.dst[0], phase != want, 1);
            if (phase != want && races.enabled && in.order != mm::Order::Relaxed)
              races.mbar_wait(t.sync, wh.region, wh.off, static_cast<unsigned>(want), in.scope >= mm::Scope::Cluster);
            break;
          }
        }
        // The phase completes when no arrivals and no transaction bytes are pending.
        if (arrives || tx_only) {
          if (pending == 0 && tx == 0 && expected) {
            if (races.enabled) races.mbar_complete(wh.region, wh.off, static_cast<unsigned>(phase));
            phase ^= 1;
            pending = expected;
            // Memory before the phase is visible after a wait in the CTA
            // owning the object (a remote complete_tx or arrive included).
            ++(wh.cta >= 0 && static_cast<size_t>(wh.cta) < ctas.size() ? *ctas[static_cast<size_t>(wh.cta)] : c).bar_generation;
          }
          v = (phase << 63) | (expected << 32) | pending;
        }
        if (mhook && writes &&
            !hook_->write(t, c, hook_access(in, op == MbarOp::Init || op == MbarOp::Inval ? HookKind::Store : HookKind::RmwWrite, wh, c, 0, 8), v))
          return hook_stop();
        if (tx_only) {
          std::memcpy(&wh.region->bytes[wh.off], &v, 8);
          continue;
        }
        if (writes) {
          std::memcpy(&wh.region->bytes[wh.off], &v, 8);
          wh.region->mark_init(wh.off, 8);
        }
      }
      break;
    default: break;
  }
  return false;
}

}  // namespace ptxcheck::interp
