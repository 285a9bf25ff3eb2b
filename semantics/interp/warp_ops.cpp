// Warp-collective instructions (shfl.sync, vote.sync, match.sync,
// redux.sync, activemask, elect.sync, bar.warp.sync) and device printf.
// A .sync instruction executes once every non-exited lane of its membermask
// has reached it; lanes that arrive early wait (TState::WarpWait).
#include <bit>
#include <cstring>

#include "semantics/interp/machine_state.hpp"
#include "semantics/interp/warp_coll.hpp"
#include "semantics/interp/warp_sync.hpp"

namespace ptxcheck::interp {

namespace {
#define FOR_LANES(mask) for (uint32_t b_ = (mask), l; b_ && ((l = std::countr_zero(b_)), true); b_ &= b_ - 1)
}

void Machine::exec_warp_op(Warp& w, const Inst& in, uint32_t m) {
  Cta& c = *w.cta;
  Thread* T = &c.threads[w.first];
  uint32_t g = w.group, pc = w.pc;
  auto finish = [&](uint32_t part) {
    unconverge(w);
    FOR_LANES(g | part) {
      T[l].pc = pc + 1;
      T[l].st = TState::Ready;
    }
  };
  if (!m) return finish(0);
  if (in.op == IrOp::Activemask) {  // PTX ISA 9.7.13.11 activemask: the lanes executing now
    FOR_LANES(m) T[l].regs[T[l].reg_base + in.dst[0].slot] = g;
    return finish(0);
  }
  // Deprecated vote and shfl without .sync (PTX ISA 9.7.13.8 vote (deprecated), 9.7.9.5 shfl (deprecated))
  // operate on the lanes executing now.
  bool legacy = (in.op == IrOp::Vote || in.op == IrOp::Shfl) && !(in.flags & 1);
  auto mask_opnd = [](const Inst& i) -> const Opnd& {
    return i.op == IrOp::Shfl ? i.src[3] : i.op == IrOp::WarpSync || i.op == IrOp::Elect ? i.src[0] : i.src[1];
  };
  auto mask_at = [&](uint32_t l, const Inst& i) {
    return legacy ? m : static_cast<uint32_t>(get(mask_opnd(i), T[l], l, w)) & lanes_of(w);
  };
  auto mask_of = [&](uint32_t l) { return mask_at(l, in); };
  // A lane waiting at another .sync instruction joins this one when that
  // instruction is the same operation with the same qualifiers: "wait until
  // all non-exited threads corresponding to membermask have executed
  // vote.sync with the same qualifiers and same membermask value" (PTX ISA
  // 9.7.13.9 vote.sync; likewise 9.7.9.6 shfl.sync, 9.7.13.10 match.sync,
  // 9.7.13.12 redux.sync, 9.7.13.2 bar.warp.sync, 9.7.13.13 elect.sync). Only
  // "for .target sm_6x or below" must they "execute the same ... instruction
  // in convergence": such a module's collectives carry kSameInstruction
  // (warp_sync.hpp) and a lane joining from another instruction is a
  // warp-sync error; the result is then computed as for sm_70 and later.
  auto same_qualifiers = [&](const Inst& o) {
    return o.op == in.op && o.mode == in.mode && o.flags == in.flags && o.atom == in.atom && o.size == in.size &&
           o.nk == in.nk && o.fn.fn == in.fn.fn && o.fn.cfg == in.fn.cfg && o.ndst == in.ndst && o.dwidth == in.dwidth;
  };
  uint32_t alive = 0;
  for (uint32_t l = 0; l < w.nlanes; ++l)
    if (T[l].st != TState::Exited) alive |= 1u << l;
  unconverge(w);
  FOR_LANES(g & ~m) T[l].pc = pc + 1;
  const Inst* at[32] = {};
  for (uint32_t l = 0; l < w.nlanes; ++l) at[l] = &in;
  // Lanes at this PC may name different membermasks (e.g. tiled groups):
  // each distinct mask is its own collective.
  uint32_t rest = m;
  while (rest) {
    uint32_t mm = mask_of(std::countr_zero(rest));
    uint32_t sub = 0, waiting = 0;
    FOR_LANES(rest) if (mask_of(l) == mm) sub |= 1u << l;
    rest &= ~sub;
    for (uint32_t l = 0; l < w.nlanes; ++l) {
      if (T[l].st != TState::WarpWait) continue;
      const Inst& o = prog.code[T[l].pc];
      if ((T[l].pc == pc || (!legacy && same_qualifiers(o))) && mask_at(l, o) == mm) {
        waiting |= 1u << l;
        at[l] = &o;
        if (T[l].pc != pc && (in.flags & kSameInstruction))
          diag(DiagKind::WarpSync, true, c, T[l], in,
               "lanes of membermask execute different instructions for one warp collective (this one and line " +
                   std::to_string(o.line) + "); for .target sm_6x or below all threads in membermask must execute "
                   "the same instruction in convergence (PTX ISA 9.7.13.9 vote.sync)");
      }
    }
    if (sub & ~mm)
      diag(DiagKind::WarpSync, false, c, T[std::countr_zero(sub & ~mm)], in,
           "executing lane is not in the instruction's membermask (undefined behaviour)");
    uint32_t part = sub | waiting;
    if ((mm & alive) & ~part) {  // wait for the other lanes of the mask
      FOR_LANES(sub) {
        T[l].pc = pc;
        T[l].st = TState::WarpWait;
      }
      continue;
    }
    collective(w, in, part, mm, at);
    FOR_LANES(part) {
      T[l].pc = T[l].pc + 1;  // each lane past its own instruction
      T[l].st = TState::Ready;
    }
  }
}

// `at[l]`: lane l's own instruction (the same operation and qualifiers as
// `in`, perhaps at another PC): its operands are the lane's.
void Machine::collective(Warp& w, const Inst& in, uint32_t part, uint32_t mm, const Inst* const* at) {
  Cta& c = *w.cta;
  Thread* T = &c.threads[w.first];
  // Any warp-collective .sync instruction: the lanes wait for each other
  // but (except bar.warp.sync) no memory ordering is stated (races.hpp:
  // warp-sync-race).
  if (in.op != IrOp::Activemask && !((in.op == IrOp::Vote || in.op == IrOp::Shfl) && !(in.flags & 1))) {
    w.coll.add(part);
    if (hook_) hook_->warp_collective(c, w.index, part, in.op == IrOp::WarpSync);
  }
  switch (in.op) {
    case IrOp::WarpSync:  // orders memory among the participating lanes (PTX ISA 9.7.13.3)
      if (races.enabled) {
        std::vector<Rel> rels;
        FOR_LANES(part) rels.push_back(Races::release(T[l].sync, who(T[l], c), mm::Scope::CTA));
        KnowP k = races.merge(rels, false, 0, 0, 0);
        FOR_LANES(part) T[l].sync.k = k;
        // As at a CTA barrier (Machine::check_barrier): a fence.sc release
        // that one lane's strong read observed before bar.warp.sync is
        // acquired by a later fence.sc of any participating lane (PTX ISA
        // 8.10.6 item 1, 8.9.3: the lane's read precedes that fence in
        // causality order, so the writer's fence.sc precedes it in Fence-SC
        // order; probe9j's j21).
        std::vector<ThreadSync::Pend> sc;
        FOR_LANES(part) Races::gather_sc(sc, T[l].sync);
        if (!sc.empty()) FOR_LANES(part) Races::carry_sc(T[l].sync, sc);
      }
      break;
    case IrOp::Shfl:    // PTX ISA 9.7.9.6 shfl.sync
    case IrOp::Vote:    // PTX ISA 9.7.13.9 vote.sync
    case IrOp::Match:   // PTX ISA 9.7.13.10 match.sync
    case IrOp::Redux:   // PTX ISA 9.7.13.12 redux.sync
    case IrOp::Elect: {  // PTX ISA 9.7.13.13 elect.sync
      // The values come from warp_coll.cpp, which litmus threads use too.
      CollOperands op;
      if (in.op == IrOp::Shfl)
        for (uint32_t l = 0; l < w.nlanes; ++l) op.a[l] = get(at[l]->src[0], T[l], l, w);
      else if (in.op != IrOp::Elect)
        FOR_LANES(part) op.a[l] = get(at[l]->src[0], T[l], l, w);
      if (in.op == IrOp::Shfl)
        FOR_LANES(part) {
          op.b[l] = get(at[l]->src[1], T[l], l, w);
          op.c[l] = get(at[l]->src[2], T[l], l, w);
        }
      CollResult r;
      warp_collective_values(in, part, mm, w.nlanes, op, r);
      FOR_LANES(part) {
        if (!((r.outside >> l) & 1)) continue;
        diag(DiagKind::ShflSource, false, c, T[l], in,
             (in.flags & 1) ? "shfl.sync reads a lane outside membermask (undefined value)"
                            : "shfl reads a lane that does not execute it (unpredictable value)");
      }
      FOR_LANES(part) {
        uint64_t* R = &T[l].regs[T[l].reg_base];
        const Inst& li = *at[l];
        switch (in.op) {
          case IrOp::Shfl:
            if (li.dst[0].kind == Opnd::Reg) R[li.dst[0].slot] = r.d0[l];
            if (in.ndst > 1 && li.dst[1].kind == Opnd::Reg) R[li.dst[1].slot] = r.d1[l];
            break;
          case IrOp::Match:
            if (in.mode == 1 && in.ndst > 1) R[li.dst[1].slot] = r.d1[l];
            if (li.dst[0].kind == Opnd::Reg) R[li.dst[0].slot] = r.d0[l];
            break;
          case IrOp::Elect:
            if (li.dst[0].kind == Opnd::Reg) R[li.dst[0].slot] = r.d0[l];
            if (li.dst[1].kind == Opnd::Reg) R[li.dst[1].slot] = r.d1[l];
            break;
          default: R[li.dst[0].slot] = r.d0[l]; break;
        }
      }
      break;
    }
    default: break;
  }
}

// CUDA device printf: vprintf(format, args) where args points to a buffer of
// the arguments, each at its natural alignment; float arguments are promoted
// to double (CUDA C Programming Guide, "Formatted Output").
void Machine::vprintf(Thread& t, const ThreadMem& tm, uint64_t fmt, uint64_t args, const Inst& in) {
  auto read = [&](uint64_t a, unsigned n, uint64_t& out) {
    Where wh = mem.translate(Space::Generic, a, n, 1, tm);
    if (wh.fault != Fault::None) return false;
    if (par_ && wh.space == Space::Global && !claim(wh.region, wh.off, n, false)) return false;
    out = 0;
    std::memcpy(&out, &wh.region->bytes[wh.off], n);
    return true;
  };
  auto cstring = [&](uint64_t a, std::string& s) {
    for (size_t k = 0; k < 4096; ++k) {
      uint64_t ch;
      if (!read(a + k, 1, ch)) return false;
      if (!ch) return true;
      s += static_cast<char>(ch);
    }
    return true;
  };
  std::string f;
  if (!cstring(fmt, f)) {
    diag(DiagKind::Printf, true, *ctas[static_cast<size_t>(tm.slot_base + tm.cta_rank)], t, in, "printf format string is not readable");
    return;
  }
  std::string out;
  uint64_t off = 0;
  auto arg = [&](unsigned n, uint64_t& v) {
    off = (off + n - 1) / n * n;
    bool ok = read(args + off, n, v);
    off += n;
    return ok;
  };
  for (size_t i = 0; i < f.size(); ++i) {
    if (f[i] != '%') {
      out += f[i];
      continue;
    }
    size_t j = i + 1;
    while (j < f.size() && std::strchr("-+ #0123456789.*", f[j])) ++j;
    std::string len;
    while (j < f.size() && std::strchr("hlLqjzt", f[j])) len += f[j++];
    if (j >= f.size()) break;
    char conv = f[j];
    std::string spec = f.substr(i, j - i - len.size());
    char buf[512];
    uint64_t v = 0;
    if (conv == '%') {
      out += '%';
    } else if (std::strchr("diouxXc", conv)) {
      bool wide = len.find('l') != std::string::npos || len == "q" || len == "j" || len == "z";
      arg(wide ? 8 : 4, v);
      std::string sp = spec + "ll" + conv;
      if (conv == 'd' || conv == 'i')
        std::snprintf(buf, sizeof buf, sp.c_str(), wide ? static_cast<long long>(v) : static_cast<long long>(static_cast<int32_t>(v)));
      else if (conv == 'c')
        std::snprintf(buf, sizeof buf, (spec + "c").c_str(), static_cast<int>(v));
      else
        std::snprintf(buf, sizeof buf, sp.c_str(), static_cast<unsigned long long>(wide ? v : static_cast<uint32_t>(v)));
      out += buf;
    } else if (std::strchr("fFeEgGaA", conv)) {
      arg(8, v);
      double d;
      std::memcpy(&d, &v, 8);
      std::snprintf(buf, sizeof buf, (spec + conv).c_str(), d);
      out += buf;
    } else if (conv == 'p') {
      arg(8, v);
      std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
      out += buf;
    } else if (conv == 's') {
      arg(8, v);
      std::string s;
      if (!cstring(v, s)) s = "(bad string)";
      out += s;
    } else {
      out += f.substr(i, j - i + 1);
    }
    i = j;
  }
  res.printf_output += out;
}

}  // namespace ptxcheck::interp
