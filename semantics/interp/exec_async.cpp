// Asynchronous copies (cp.async, cp.async.bulk, cp.reduce.async.bulk),
// st.bulk and mbarrier objects: the parts of the step function (exec.cpp)
// that work in the async proxy or on mbarriers. Accesses go through
// access() (exec_mem.cpp).
#include <bit>
#include <cstring>

#include "semantics/interp/exec_util.hpp"
#include "semantics/interp/ir_flags.hpp"
#include "semantics/interp/spin.hpp"

namespace ptxcheck::interp {


void Machine::cp_races(Warp& w, Thread& t, const CpCopy& cp, bool reads, bool writes) {
  const Cta& c = *w.cta;
  const Who me = who(t, c);
  AccessInfo a, issued;
  a.gid = t.gid;
  a.gen = me.gen;
  a.clock = t.sync.clock;
  a.wcoll = static_cast<uint16_t>(w.coll.seq);
  a.pc = static_cast<uint32_t>(cp.in - prog.code.data());
  a.order = mm::Order::Weak;  // "treated as a weak memory operation" (9.7.9.25.3)
  ThreadSync its;
  its.k = cp.k;
  its.clock = cp.clock;
  // The source is read before the destination is written (8.9.1.1: the
  // loads and stores of one cp.async are ordered with each other). A bulk
  // copy in pieces of 16 bytes (its chunks, exec_async).
  for (int k = 0; k < 2; ++k) {
    const bool write = k == 1;
    if (!(write ? writes : reads)) continue;
    const Where& wh = write ? cp.dst : cp.src;
    const unsigned size = write ? cp.n : cp.srcn;
    if (!size || !wh.region ||
        !(wh.space == Space::Global || wh.space == Space::Shared || wh.space == Space::SharedCluster))
      continue;
    a.write = write;
    for (unsigned o = 0; o < size; o += 16) {
      const unsigned sz = std::min(size - o, 16u);
      Where piece = wh;
      piece.off += o;
      a.size = static_cast<uint8_t>(sz);
      issued = a;
      issued.gen = cp.gen;
      issued.clock = cp.clock;
      RaceHit hit;
      if (races.access(piece.region, piece.off, sz, a, t.sync, w.coll, hit, &issued, &its))
        race_report(w, t, *cp.in, piece, sz, write, a, hit);
      if (write)
        races.weak_write(piece.region, piece.off);
      else
        races.weak_load(t.sync, me, piece.region, piece.off);
    }
  }
}

void Machine::own_copy_race(Warp& w, Thread& t, const Inst& in, const Where& wh, unsigned size, bool write,
                            const AccessInfo& a) {
  auto overlap = [&](const Where& x, unsigned n) {
    return n && x.region == wh.region && wh.off < x.off + n && x.off < wh.off + size;
  };
  for (const CpCopy& cp : t.cp_ops) {
    // Its writes are pending until it completes; its reads until then, or
    // until a cp.async.bulk.wait_group.read (moved).
    const bool d = overlap(cp.dst, cp.n);
    if (!d && !(write && !cp.moved && overlap(cp.src, cp.srcn))) continue;
    const Where& x = d ? cp.dst : cp.src;
    const uint64_t lo = std::max(x.off, wh.off), hi = std::min(x.off + (d ? cp.n : cp.srcn), wh.off + size);
    RaceHit h;
    h.prev = a;
    h.prev.pc = static_cast<uint32_t>(cp.in - prog.code.data());
    h.prev.write = d;
    h.prev.order = mm::Order::Weak;
    h.prev.async = false;
    h.prev.obs = false;
    h.prev.gen = cp.gen;
    h.prev.clock = cp.clock;
    h.prev.size = static_cast<uint8_t>(std::min<uint64_t>(hi - lo, 255));
    h.prev_off = lo;
    race_report(w, t, in, wh, size, write, a, h,
                "the copy's accesses are asynchronous, not part of the program order, and it has not completed "
                "(PTX ISA 8.9.1.1; 9.7.9.25.1.1): neither morally strong nor ordered by causality order (PTX ISA "
                "8.7.1)");
    return;  // one report per access
  }
}

// Completes the copies of thread t in flight that `which` selects (PTX ISA
// 9.7.9.25.1.1 Async-group mechanism): Cp, the cp.async whose group is
// below `groups` (9.7.9.25.3.3 cp.async.wait_group: "wait till only N or
// fewer of the most recent cp.async-groups are pending and all the prior
// cp.async-groups committed by the executing threads are complete"); Bulk,
// the bulk copies of the bulk async-groups below `groups`
// (cp.async.bulk.wait_group), and BulkRead only their reads
// (cp.async.bulk.wait_group.read: "the source ... can be reused"; the writes
// complete at a later wait or exit); All, every copy (the thread's exit);
// Mbar, the bulk copies that complete on the mbarrier `mb` (their
// complete_tx follows their writes). With a hook the copy is performed
// here, 4 bytes at a time: each element of the source read (the bytes
// src-size leaves: none, zero-filled), then written.
bool Machine::cp_complete(Warp& w, Thread& t, uint32_t groups, bool waited, CpWhich which, const Where* mb) {
  if (t.cp_ops.empty()) return true;
  Cta& c = *w.cta;
  const bool read_only = which == CpWhich::BulkRead;
  size_t keep = 0;
  for (size_t i = 0; i < t.cp_ops.size(); ++i) {
    CpCopy& cp = t.cp_ops[i];
    const bool bulk = cp.in->op == IrOp::BulkCopy;
    bool done = false;
    switch (which) {
      case CpWhich::Cp: done = !bulk && cp.group < groups; break;
      case CpWhich::Bulk:
      case CpWhich::BulkRead: done = bulk && !cp.on_mbar && cp.group < groups && !(read_only && cp.moved); break;
      case CpWhich::All: done = true; break;
      case CpWhich::Mbar: done = cp.on_mbar && mb && cp.mbw.region == mb->region && cp.mbw.off == mb->off; break;
    }
    if (!done) {
      if (keep != i) t.cp_ops[keep] = std::move(cp);
      ++keep;
      continue;
    }
    if (races.enabled) cp_races(w, t, cp, !cp.moved, !read_only);
    if (hook_) {
      auto rd = [&](uint32_t e, uint64_t& v) {
        v = 0;
        const uint32_t sn = cp.srcn > e ? std::min<uint32_t>(cp.srcn - e, 4) : 0;
        if (!sn) return true;
        std::memcpy(&v, &cp.src.region->bytes[cp.src.off + e], sn);
        HookAccess ha = hook_access(*cp.in, HookKind::Load, cp.src, c, e, sn);
        ha.async = cp.hook_id + 1;
        if (!hook_->read(t, c, ha, v)) return false;
        if (sn < 4) v &= (1ull << (8 * sn)) - 1;
        return true;
      };
      auto wr = [&](uint32_t e, uint64_t v) {
        const uint32_t dn = std::min<uint32_t>(cp.n - e, 4);
        HookAccess ha = hook_access(*cp.in, HookKind::Store, cp.dst, c, e, dn);
        ha.async = cp.hook_id + 1;
        if (!hook_->write(t, c, ha, v)) return false;
        std::memcpy(&cp.dst.region->bytes[cp.dst.off + e], &v, dn);
        return true;
      };
      for (uint32_t e = 0; e < cp.n; e += 4) {
        uint64_t v = 0;
        if (read_only) {  // the reads now, the writes of the staged bytes at completion
          if (!rd(e, v)) return hook_stop();
          cp.staged.resize(cp.n);
          std::memcpy(&cp.staged[e], &v, std::min<uint32_t>(cp.n - e, 4));
          continue;
        }
        if (cp.moved)
          std::memcpy(&v, &cp.staged[e], std::min<uint32_t>(cp.n - e, 4));
        else if (!rd(e, v))
          return hook_stop();
        if (!wr(e, v)) return hook_stop();
      }
      if (!read_only) {
        cp.dst.region->mark_init(cp.dst.off, cp.n);
        // .mbarrier::complete_tx::bytes: after the copy's writes (8.9.1.1;
        // 9.7.9.25.4.1).
        if (cp.on_mbar && !mbar_complete_tx(w, t, *cp.in, cp.mbar, cp.n, cp.hook_id + 1)) return false;
      }
      hook_->async_done(t, c, cp.hook_id, waited, read_only);
    }
    if (read_only) {
      cp.moved = true;
      if (keep != i) t.cp_ops[keep] = std::move(cp);
      ++keep;
    }
  }
  t.cp_ops.resize(keep);
  return true;
}

bool Machine::mbar_copies_done(const Where& mb) {
  for (size_t i = 0; i < mbar_copies_.size();) {
    auto [cc, lin] = mbar_copies_[i];
    bool live = false;
    for (const auto& x : ctas) live = live || x.get() == cc;
    Thread* t = live && lin < cc->threads.size() ? &cc->threads[lin] : nullptr;
    bool here = false;
    if (t)
      for (const CpCopy& cp : t->cp_ops) here = here || (cp.on_mbar && cp.mbw.region == mb.region && cp.mbw.off == mb.off);
    if (here && !cp_complete(cc->warps[lin / 32], *t, ~0u, false, CpWhich::Mbar, &mb)) return false;
    bool left = false;
    if (t)
      for (const CpCopy& cp : t->cp_ops) left = left || cp.on_mbar;
    if (left) {
      ++i;
    } else {
      mbar_copies_[i] = mbar_copies_.back();
      mbar_copies_.pop_back();
    }
  }
  return true;
}

// cp.async, cp.async.bulk, cp.reduce.async.bulk, st.bulk and mbarrier.* for
// the lanes `m` of the group: false when the step goes on to the next
// instruction, true when it stopped (a fault).
bool Machine::exec_async(Warp& w, const Inst& in, uint32_t m) {
  Cta& c = *w.cta;
  Thread* T = &c.threads[w.first];
  switch (in.op) {
    case IrOp::CpAsync:
      // The fast path (races, hook and async-proxy checks off): the lanes
      // whose destination is in the own CTA's shared memory and whose
      // source (when src-size is not 0) is in the global allocation this
      // instruction read last, aligned, as access() finds them without a
      // call, in ascending order; from the first lane that misses, the
      // general loop below goes on (and reports). The same claims, bytes
      // and initialisation marks as that loop.
      if (!races.enabled && !hook_ && !proxy_on_ && !stop_) {
        const auto pi = static_cast<size_t>(&in - prog.code.data());
        Region* const hot = pi < pc_hot_.size() ? pc_hot_[pi] : hot_;
        Region& sh = *c.shared;
        const uint64_t shn = sh.bytes.size();
        auto val = [&](const Opnd& o, uint32_t l) -> uint64_t {
          if (o.kind == Opnd::Reg) {
            const uint64_t v = w.rp[l][o.slot];
            return o.negate ? !v : v;
          }
          if (o.kind == Opnd::Imm) return o.imm;
          return get(o, T[l], l, w);
        };
        for (; m; m &= m - 1) {
          const uint32_t l = static_cast<uint32_t>(std::countr_zero(m));
          const uint64_t* r = w.rp[l];
          const uint32_t n = static_cast<uint32_t>(val(in.src[0], l));
          uint32_t srcn = in.src[1].kind == Opnd::None ? n : static_cast<uint32_t>(val(in.src[1], l));
          if (in.src[2].kind != Opnd::None && val(in.src[2], l)) srcn = 0;  // .ignore_src predicate true
          const uint64_t da =
              in.addr.wrap(static_cast<uint64_t>(in.addr.off) + (in.addr.base == Addr::Reg ? r[in.addr.slot] : 0));
          if (!(n <= shn && da <= shn - n && !(da & (n - 1)))) break;
          const uint32_t sn = std::min(srcn, n);
          uint8_t tmp[16] = {};
          if (srcn) {
            const uint64_t sa = in.addr2.wrap(static_cast<uint64_t>(in.addr2.off) +
                                              (in.addr2.base == Addr::Reg ? r[in.addr2.slot] : 0));
            if (!(hot && sa >= hot->base && sa - hot->base + sn <= hot->bytes.size() && !(sa & (sn - 1)))) break;
            if (par_ && &in != par_claimed_ && !claim(hot, sa - hot->base, sn, false)) return true;
            std::memcpy(tmp, &hot->bytes[sa - hot->base], std::min<uint32_t>(sn, 16));
          }
          std::memcpy(&sh.bytes[da], tmp, std::min<uint32_t>(n, 16));  // zero-fill past src-size
          sh.mark_init(da, n);
        }
      }
      // The copy's reads and writes are performed asynchronously (PTX ISA
      // 8.9.1.1: "not part of the program order"; 9.7.9.25.3: only
      // cp.async.wait_group / wait_all or an mbarrier guarantee their
      // completion). Without races or a hook the copy completes at once (a
      // permitted schedule). With races it still moves the data now, but
      // the race detector sees its accesses at completion (cp_races); with
      // a hook the data moves at completion too (cp_complete), where the
      // hook gets the accesses.
      FOR_LANES(m) {
        Thread& t = T[l];
        uint32_t n = static_cast<uint32_t>(get(in.src[0], t, l, w));
        uint32_t srcn = in.src[1].kind == Opnd::None ? n : static_cast<uint32_t>(get(in.src[1], t, l, w));
        if (in.src[2].kind != Opnd::None && get(in.src[2], t, l, w)) srcn = 0;  // .ignore_src predicate true
        uint64_t da = in.addr.wrap(static_cast<uint64_t>(in.addr.off) + (in.addr.base == Addr::Reg ? t.regs[t.reg_base + in.addr.slot] : 0));
        uint64_t sa = in.addr2.wrap(static_cast<uint64_t>(in.addr2.off) + (in.addr2.base == Addr::Reg ? t.regs[t.reg_base + in.addr2.slot] : 0));
        const bool defer = races.enabled || hook_;
        Where dw, sw;
        cp_defer_ = defer;
        bool ok = access(w, t, in, in.addr.space, da, n, true, false, dw);
        if (ok && srcn) ok = access(w, t, in, in.addr2.space, sa, std::min(srcn, n), false, false, sw);
        cp_defer_ = false;
        if (!ok) return true;
        if (defer) {
          CpCopy cp;
          cp.in = &in;
          cp.dst = dw;
          cp.src = sw;
          cp.n = n;
          cp.srcn = srcn ? std::min(srcn, n) : 0;
          cp.group = t.cp_commits;
          if (races.enabled) {
            cp.k = t.sync.k;
            cp.gen = who(t, c).gen;
            cp.clock = t.sync.clock;
          }
          if (hook_) {
            HookAccess src;  // size 0: nothing read (a zero fill)
            if (cp.srcn) src = hook_access(in, HookKind::Load, sw, c, 0, cp.srcn);
            cp.hook_id = hook_->async_issue(t, c, in, hook_access(in, HookKind::Store, dw, c, 0, n), src);
            t.cp_ops.push_back(std::move(cp));
            continue;  // the data moves at completion
          }
          t.cp_ops.push_back(std::move(cp));
        }
        uint8_t tmp[16] = {};
        if (srcn) std::memcpy(tmp, &sw.region->bytes[sw.off], std::min<uint32_t>(std::min(srcn, n), 16));
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
              if (r >= cluster_size()) {
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
        // The copy's reads and writes are asynchronous (PTX ISA 8.9.1.1):
        // with a hook, a copy of one destination without a byte mask is
        // kept in flight and performed when it completes (cp_complete: a
        // cp.async.bulk.wait_group of its bulk async-group, a wait of some
        // thread on its mbarrier, or the thread's exit); with races, one
        // that completes by its bulk async-group moves its data now and the
        // race detector sees its accesses at completion. Otherwise it
        // completes here (a permitted schedule).
        const bool defer = in.mode == 0 && in.flags == 0 && (hook_ || (races.enabled && !has_mbar));
        Where first_s, first_d, mbw;
        if (defer && has_mbar) {
          mbw = mem.translate(Space::SharedCluster, ma, 8, 8, tmem(t, c));
          if (mbw.fault != Fault::None) mbw.region = nullptr;  // faults at its complete_tx, below
        }
        bool whole = defer && !(has_mbar && !mbw.region);  // each range in one allocation
        // Chunk by chunk (16 bytes), each through the checked access path
        // (bounds, races, the async proxy).
        for (unsigned d = 0; d < nd; ++d)
          for (uint32_t k = 0; k < n; k += 16) {
            Where sw, dw;
            cp_defer_ = whole;
            bool ok = access(w, t, in, in.addr2.space, sa + k, 16, false, false, sw) &&
                      access(w, t, in, in.flags & 1 ? Space::SharedCluster : in.addr.space, dst[d].first + k, 16, true, false, dw);
            cp_defer_ = false;
            if (!ok) return true;
            if (k == 0) {
              first_s = sw;
              first_d = dw;
            } else if (sw.region != first_s.region || sw.off != first_s.off + k || dw.region != first_d.region ||
                       dw.off != first_d.off + k) {
              whole = false;
            }
            if (whole && hook_) continue;  // the data moves at completion
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
        if (whole) {
          CpCopy cp;
          cp.in = &in;
          cp.dst = first_d;
          cp.src = first_s;
          cp.n = cp.srcn = n;
          cp.group = t.bulk_commits;
          cp.on_mbar = has_mbar;
          cp.mbar = ma;
          cp.mbw = mbw;
          if (races.enabled) {
            cp.k = t.sync.k;
            cp.gen = who(t, c).gen;
            cp.clock = t.sync.clock;
          }
          if (hook_) {
            cp.hook_id = hook_->async_issue(t, c, in, hook_access(in, HookKind::Store, first_d, c, 0, n),
                                            hook_access(in, HookKind::Load, first_s, c, 0, n));
            if (has_mbar) mbar_copies_.emplace_back(&c, t.lin);
          }
          t.cp_ops.push_back(std::move(cp));
          if (hook_) continue;
        } else if (hook_ && defer && !(has_mbar && !mbw.region)) {
          // Parts in several allocations: outcomes does not model it.
          diag(DiagKind::Unsupported, true, c, t, in,
               "cp.async.bulk: a range that spans allocations (outcomes models a copy of one allocation)");
          stop_ = true;
          return true;
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
    case IrOp::Mbarrier: {
      // cp.async.mbarrier.arrive.noinc: the thread's prior cp.async
      // operations complete before its arrive-on (lower_sync.cpp, mode 6).
      if (in.mode == 6)
        FOR_LANES(m) if (!cp_complete(w, T[l], ~0u, true)) return true;
      bool phase_done = false;  // a wait found its phase complete in some lane
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
        // With a hook, the bulk copies that complete on this mbarrier
        // complete before a wait reads it (cp_complete; any later time is
        // one the waits cannot tell apart: they spin until the phase
        // completes, and every other access of the copy's bytes the copy
        // is not ordered with is communicating).
        if (hook_ && !mbar_copies_.empty() && (op == MbarOp::Wait || op == MbarOp::WaitParity) &&
            !mbar_copies_done(wh))
          return true;
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
            phase_done = phase_done || phase != want;
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
      // A converged warp's wait that found the phase incomplete in every
      // lane ends the warp's quantum (machine.cpp run_cluster).
      if ((in.mbar == MbarOp::Wait || in.mbar == MbarOp::WaitParity) && !phase_done && w.conv && !in.guarded &&
          !hook_ && spin_)
        spin_->wait_failed = true;
      break;
    }
    default: break;
  }
  return false;
}

}  // namespace ptxcheck::interp
