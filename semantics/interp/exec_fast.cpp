// The step function's inline arithmetic (exec.cpp, IrOp::Arith): a warp step
// of an instruction with an inline form (semantics/arith/fast.hpp: integer
// add/sub/mul.lo/mad.lo, min/max, logic and shifts, selp, setp; f32/f64
// .rn add/sub/mul/fma/div/rcp/sqrt on the host FPU, f32 div.full,
// div.approx, rcp.approx and sqrt.approx, min/max, abs, neg)
// whose sources are registers or immediates runs one loop over the lanes
// with the operation inlined, instead of a call through OpDesc::fn per lane.
// The bits written are the same: apply<> computes what the kernel computes
// (tests/semantics/arith_fast.cpp), and the destination writes are those of
// the general path (the value masked to the destination width; setp's q,
// the kernel's aux, written after p).
#include "semantics/arith/fast.hpp"
#include "semantics/interp/exec_util.hpp"

namespace ptxcheck::interp {

namespace {

using arith::fast::Op;

// I: which sources are immediates: kAllReg none (the usual case: no
// per-lane choice between an immediate and a register), 0, 1 or 2 that one
// source alone (x - 1, 1 - x, fma(x, c, y), fma(x, y, c): again no choice
// per lane), kMixed any (chosen per lane); the sources an operation lacks
// are not read. P: the form has neither .ftz nor .sat; the local copy then
// says so in constants, and the inlined float forms drop those tests. A
// whole warp runs a counted loop over its 32 lanes. The loop for an
// instruction is picked once (pick, at the first Arith step of the launch)
// and called through its entry in Machine::fast_.
constexpr int kAllReg = -1, kMixed = 3;

template <Op O, int I, bool P>
__attribute__((always_inline)) inline void lanes_body(Warp& w, const Inst& in, uint32_t m,
                                                      const arith::fast::Form& form) {
  arith::fast::Form f = form;
  if (P) f.ftz = f.sat = false;  // (the caller checked: the same values)
  uint64_t k[3] = {0, 0, 0};
  uint32_t sl[3] = {0, 0, 0};
  bool imm[3] = {true, true, true};
  for (unsigned j = 0; j < in.nsrc && j < 3; ++j) {
    imm[j] = in.src[j].kind == Opnd::Imm;
    k[j] = in.src[j].imm;
    sl[j] = in.src[j].slot;
  }
  const uint64_t wm = in.dwidth >= 64 ? ~0ull : (1ull << in.dwidth) - 1;
  const uint32_t ds = in.dst[0].slot;
  constexpr bool kSetp = O == Op::setp || O == Op::setp_f32 || O == Op::setp_f64;
  const bool q = kSetp && in.ndst > 1 && in.dst[1].kind == Opnd::Reg;
  const uint32_t qs = in.dst[1].slot;
  auto src = [&](const uint64_t* r, int j) __attribute__((always_inline)) {
    if constexpr (I == kMixed)
      return imm[j] ? k[j] : r[sl[j]];
    else
      return j == I ? k[j] : r[sl[j]];
  };
  auto lane = [&](uint32_t l) __attribute__((always_inline)) {
    uint64_t* r = w.rp[l];
    const uint64_t v = arith::fast::apply<O>(f, src(r, 0), src(r, 1), src(r, 2));
    r[ds] = v & wm;
    if (q) r[qs] = v ^ 1;
  };
  if (m == ~0u) {
    for (uint32_t l = 0; l < 32; ++l) lane(l);
  } else {
    FOR_LANES(m) lane(l);
  }
}

// A lane loop: lanes_body as a function, one per operation, source mode
// and plainness; arith_fast calls the one the instruction's entry names.
template <Op O, int I, bool P>
void lanes(Warp& w, const Inst& in, uint32_t m, const arith::fast::Form& f) {
  lanes_body<O, I, P>(w, in, m, f);
}
// The same compiled for the host's FMA instruction (fast.hpp host_fma):
// std::fma inline instead of a call into libm.
template <Op O, int I, bool P>
PTXCHECK_FMA_TARGET_ATTR void lanes_fma(Warp& w, const Inst& in, uint32_t m, const arith::fast::Form& f) {
  lanes_body<O, I, P>(w, in, m, f);
}

using LaneFn = void (*)(Warp&, const Inst&, uint32_t, const arith::fast::Form&);

template <Op O, bool P>
LaneFn pick_mode(int mode) {
  if constexpr (arith::fast::uses_fma(O) && PTXCHECK_FMA_TARGET)
    if (arith::fast::host_fma()) switch (mode) {
        case kAllReg: return lanes_fma<O, kAllReg, P>;
        case 0: return lanes_fma<O, 0, P>;
        case 1: return lanes_fma<O, 1, P>;
        case 2: return lanes_fma<O, 2, P>;
        default: return lanes_fma<O, kMixed, P>;
      }
  switch (mode) {
    case kAllReg: return lanes<O, kAllReg, P>;
    case 0: return lanes<O, 0, P>;
    case 1: return lanes<O, 1, P>;
    case 2: return lanes<O, 2, P>;
    default: return lanes<O, kMixed, P>;
  }
}

// (only the float forms, from add_f32 on in fast_ops.def, read .ftz/.sat:
// the integer forms keep one instantiation)
template <Op O>
LaneFn pick_op(int mode, bool plain) {
  if constexpr (O >= Op::add_f32)
    if (plain) return pick_mode<O, true>(mode);
  return pick_mode<O, false>(mode);
}

// The lane loop for instruction `in` with form `f`: null when the form is
// none or the operands are ones the loop does not take (more than three
// sources, a source neither a register nor an immediate, a negated
// predicate, a destination other than a register and setp's q).
LaneFn pick(const Inst& in, const arith::fast::Form& f) {
  if (f.op == Op::none || in.nsrc > 3 || in.dst[0].kind != Opnd::Reg) return nullptr;
  const bool setp = f.op == Op::setp || f.op == Op::setp_f32 || f.op == Op::setp_f64;
  // Other destinations: only setp's q (the kernels of the other forms write no aux).
  if (in.ndst > 1 && in.dst[1].kind != Opnd::None && (!setp || in.ndst > 2)) return nullptr;
  uint32_t imms = 0;  // the immediate sources, a bit each
  for (unsigned j = 0; j < in.nsrc; ++j) {
    if (in.src[j].kind != Opnd::Imm && (in.src[j].kind != Opnd::Reg || in.src[j].negate)) return nullptr;
    if (in.src[j].kind == Opnd::Imm) imms |= 1u << j;
  }
  const int mode = imms == 0 ? kAllReg : imms == 1 ? 0 : imms == 2 ? 1 : imms == 4 ? 2 : kMixed;
  const bool plain = !f.ftz && !f.sat;
  switch (f.op) {
#define X(name, what, section) \
  case Op::name:               \
    return pick_op<Op::name>(mode, plain);
#include "semantics/arith/fast_ops.def"
#undef X
    case Op::none: break;
  }
  return nullptr;
}

}  // namespace

bool Machine::arith_fast(Warp& w, const Inst& in, uint32_t m) {
  if (fast_.size() != prog.code.size()) [[unlikely]] {
    fast_.assign(prog.code.size(), FastArith{});
    for (size_t i = 0; i < prog.code.size(); ++i)
      if (prog.code[i].op == IrOp::Arith && prog.code[i].fn.fn) {
        fast_[i].f = arith::fast::form_of(prog.code[i].fn);
        fast_[i].run = pick(prog.code[i], fast_[i].f);
      }
  }
  const FastArith& e = fast_[w.pc];
  if (!e.run) return false;
  e.run(w, in, m, e.f);
  return true;
}

}  // namespace ptxcheck::interp
