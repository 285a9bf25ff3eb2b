// atom/red: the read-modify-write part of the step function (exec.cpp;
// exec_mem.cpp holds the checked access() it goes through and ld/st).
#include <cstring>

#include "semantics/interp/exec_util.hpp"
#include "semantics/interp/ir_flags.hpp"

namespace ptxcheck::interp {

// atom/red (PTX ISA 9.7.13.5 atom, 9.7.13.6 red; arithmetic in
// arith::atom_apply) for the lanes `m` of the group: false when the step
// goes on to the next instruction, true when it stopped (a fault).
bool Machine::exec_atomic(Warp& w, const Inst& in, uint32_t m) {
  Cta& c = *w.cta;
  Thread* T = &c.threads[w.first];
  AtomOp op = in.atom;
  if (in.size == 16) {  // atom.exch/.cas.b128 (sm_90): one 16-byte atomic operation
    FOR_LANES(m) {
      Thread& t = T[l];
      uint64_t a = static_cast<uint64_t>(in.addr.off);
      if (in.addr.base == Addr::Reg)
        a = in.addr.wrap(a + t.regs[t.reg_base + in.addr.slot]);
      else if (in.addr.base == Addr::Frame)
        a += t.fp;
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
    return false;
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
  const unsigned nel = v8                  ? 8u
                       : op == AtomOp::Cas ? 1u
                                           : std::max<unsigned>(1, in.op == IrOp::Atom ? in.ndst : in.nsrc);
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
  uint32_t park = 0;  // lanes an ExecHook parks before the instruction (rmw_wait)
  FOR_LANES(m) {      // lanes in ascending order: a deterministic serialisation
    Thread& t = T[l];
    uint64_t a = static_cast<uint64_t>(in.addr.off);
    if (in.addr.base == Addr::Reg)
      a = in.addr.wrap(a + t.regs[t.reg_base + in.addr.slot]);
    else if (in.addr.base == Addr::Frame)
      a += t.fp;
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
    const bool hooked =
        hook_ && (wh.space == Space::Global || wh.space == Space::Shared || wh.space == Space::SharedCluster);
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
      if (hooked && nel == 1 && hook_->rmw_wait(t, c, hook_access(in, HookKind::RmwRead, wh, c, 0, in.size))) {
        park |= 1u << l;  // runs again when the hook wakes it (nothing written yet)
        t.st = TState::Parked;
        break;
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
    if (park >> l & 1) continue;
    wh.region->mark_init(wh.off, in.size * nel);
  }
  if (park) {
    // The parked lanes stay at this instruction; the others go on after it.
    FOR_LANES(w.group) T[l].pc = park >> l & 1 ? w.pc : w.pc + 1;
    w.conv = false;
    return true;
  }
  return false;
}

}  // namespace ptxcheck::interp
