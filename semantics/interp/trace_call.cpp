// Calls and frames in a symbolic thread (trace_exec_impl.hpp): call and ret
// move register files and frames as the interpreter does (Machine::do_call,
// do_ret), with each value's dependencies; the frames live in the thread's
// own bytes (State::local).
#include <algorithm>

#include "semantics/interp/trace_exec_impl.hpp"

namespace ptxcheck::interp::trace_detail {

uint64_t Tracer::read_local(const State& s, uint64_t off, unsigned n, Deps& d) {
  uint64_t v = 0;
  for (unsigned b = 0; b < n && b < 8; ++b) {
    auto it = s.local.find(off + b);
    if (it == s.local.end()) continue;
    v |= uint64_t{it->second.first} << (8 * b);
    merge(d, it->second.second);
  }
  return v;
}

void Tracer::write_local(State& s, uint64_t off, unsigned n, uint64_t v, const Deps& d) {
  for (unsigned b = 0; b < n && b < 8; ++b) s.local[off + b] = {static_cast<uint8_t>(v >> (8 * b)), d};
}

void Tracer::copy_local(State& s, uint64_t to, uint64_t from, unsigned n) {
  if (to == from) return;
  std::vector<std::pair<bool, std::pair<uint8_t, Deps>>> bytes(n);
  for (unsigned b = 0; b < n; ++b) {
    auto it = s.local.find(from + b);
    if (it != s.local.end()) bytes[b] = {true, it->second};
  }
  for (unsigned b = 0; b < n; ++b) {
    if (bytes[b].first)
      s.local[to + b] = std::move(bytes[b].second);
    else
      s.local.erase(to + b);  // not initialised (as Machine::do_call copies the init marks)
  }
}

bool Tracer::call(State& s, const Inst& in) {
  const CallSite& cs = prog_.calls[in.target];
  uint32_t callee = cs.callee;
  if (callee == ~0u) {
    // An indirect call (`call (r), %rd, (a), proto;`): the code that runs
    // depends on the register, a control dependency of what follows.
    const uint64_t a = val(s, cs.fnptr);
    const uint64_t idx = (a - kFuncAddrBase) / 16;
    if (a < kFuncAddrBase || (a - kFuncAddrBase) % 16 || idx >= prog_.funcs.size())
      fail(in, "indirect call through an address that is not a function");
    deps_of(s, cs.fnptr, s.ctrl);
    callee = static_cast<uint32_t>(idx);
  }
  const Function& f = prog_.funcs[callee];
  if (!f.defined) {
    if (cs.builtin_vprintf || f.name == "vprintf" || f.name == "malloc" || f.name == "free")
      fail(in,
           "call to '" + f.name + "': vprintf and the device heap (malloc, free) are not modelled in a litmus thread");
    fail(in, "call to function '" + f.name + "' that has no body (define it with its body before the threads)");
  }
  // PTX ISA 9.7.12.5 call: the lowering checks a direct call against its
  // callee (check_calls in lower.cpp); an indirect call's callee is known
  // only now. The interpreter runs a mismatched indirect call with the
  // formals it lacks at 0; here it is an error.
  if (cs.callee == ~0u && (cs.args.size() != f.params.size() || cs.rets.size() != f.rets.size()))
    fail(in, "indirect call to '" + f.name + "' with " + std::to_string(cs.args.size()) + " argument(s) and " +
                 std::to_string(cs.rets.size()) + " return value(s); it takes " + std::to_string(f.params.size()) +
                 " and returns " + std::to_string(f.rets.size()));
  // Recursion is bounded like a loop: a function may be active at most
  // unroll + 1 times on one path.
  int active = s.func == callee;
  for (const State::Frame& fr : s.frames) active += fr.func == callee;
  if (active > lim_.unroll) {
    ++out_.cut;
    return false;
  }
  if (s.frames.size() >= 1024) fail(in, "call depth limit (1024) exceeded");
  std::vector<uint64_t> regs(f.nregs, 0);
  std::vector<Deps> deps(f.nregs);
  const uint64_t fp = (s.sp + 15) & ~uint64_t{15};
  // Copy the arguments into the callee's formals (PTX ISA 5.1.6.4), as Machine::do_call.
  for (size_t k = 0; k < f.params.size(); ++k) {
    const Formal& fm = f.params[k];
    const CallArg& a = cs.args[k];
    const unsigned n = std::min(8u, fm.size);
    if (a.in_frame) {
      if (fm.is_reg) {
        Deps d;
        regs[fm.slot] = read_local(s, s.fp + a.frame_off, n, d);
        deps[fm.slot] = std::move(d);
      } else {
        copy_local(s, fp + fm.frame_off, s.fp + a.frame_off, fm.size);
      }
    } else {
      const uint64_t v = val(s, a.value);
      Deps d;
      deps_of(s, a.value, d);
      if (fm.is_reg) {
        regs[fm.slot] = v;
        deps[fm.slot] = std::move(d);
      } else {
        write_local(s, fp + fm.frame_off, n, v, d);
      }
    }
    if (fm.is_reg && fm.width == 128) {  // the high half of a .b128 formal
      Deps d;
      uint64_t hi = 0;
      if (a.in_frame) {
        hi = read_local(s, s.fp + a.frame_off + 8, 8, d);
      } else if (a.value.kind == Opnd::Reg) {
        hi = s.regs[a.value.slot + 1];
        d = s.deps[a.value.slot + 1];
      }
      regs[fm.slot + 1] = hi;
      deps[fm.slot + 1] = std::move(d);
    }
  }
  State::Frame fr;
  fr.ret_pc = s.pc + 1;
  fr.call = in.target;
  fr.func = s.func;
  fr.fp = s.fp;
  fr.sp = s.sp;
  fr.regs = std::move(s.regs);
  fr.deps = std::move(s.deps);
  fr.back_jumps = std::move(s.back_jumps);
  fr.arrivals = std::move(s.arrivals);
  s.frames.push_back(std::move(fr));
  s.regs = std::move(regs);
  s.deps = std::move(deps);
  s.back_jumps.clear();
  s.arrivals.clear();
  s.func = callee;
  s.fp = fp;
  s.sp = fp + f.frame_bytes;
  s.pc = f.entry_pc;
  return true;
}

void Tracer::ret(State& s) {
  State::Frame fr = std::move(s.frames.back());
  s.frames.pop_back();
  const Function& f = prog_.funcs[s.func];
  const CallSite& cs = prog_.calls[fr.call];
  for (size_t k = 0; k < f.rets.size() && k < cs.rets.size(); ++k) {
    const Formal& fm = f.rets[k];
    const CallArg& a = cs.rets[k];
    const unsigned n = std::min(8u, fm.size);
    uint64_t v = 0;
    Deps d;
    if (fm.is_reg) {
      v = s.regs[fm.slot];
      d = s.deps[fm.slot];
    } else if (!a.in_frame) {
      v = read_local(s, s.fp + fm.frame_off, n, d);
    }
    if (a.in_frame) {
      if (fm.is_reg)
        write_local(s, fr.fp + a.frame_off, n, v, d);
      else
        copy_local(s, fr.fp + a.frame_off, s.fp + fm.frame_off, fm.size);
    } else if (a.value.kind == Opnd::Reg) {
      fr.regs[a.value.slot] = v;
      fr.deps[a.value.slot] = std::move(d);
    }
    if (fm.is_reg && fm.width == 128) {  // the high half of a .b128 return value
      const uint64_t hi = s.regs[fm.slot + 1];
      if (a.in_frame)
        write_local(s, fr.fp + a.frame_off + 8, 8, hi, s.deps[fm.slot + 1]);
      else if (a.value.kind == Opnd::Reg) {
        fr.regs[a.value.slot + 1] = hi;
        fr.deps[a.value.slot + 1] = s.deps[fm.slot + 1];
      }
    }
  }
  s.regs = std::move(fr.regs);
  s.deps = std::move(fr.deps);
  s.back_jumps = std::move(fr.back_jumps);
  s.arrivals = std::move(fr.arrivals);
  s.func = fr.func;
  s.fp = fr.fp;
  s.sp = fr.sp;
  s.pc = fr.ret_pc;
}
}  // namespace ptxcheck::interp::trace_detail
