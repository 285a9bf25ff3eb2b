// Calls and returns of a Machine thread (PTX ISA 9.7.12.5 call, 9.7.12.6
// ret): frames, argument and return-value copies, and the extern functions
// that have no body in the module (vprintf, malloc/free, __assertfail).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "semantics/interp/device_heap.hpp"
#include "semantics/interp/machine_state.hpp"

namespace ptxcheck::interp {

namespace {
constexpr uint32_t kMaxLocal = 1u << 20;  // per-thread stack (local memory) bytes
constexpr size_t kMaxFrames = 4096;
}  // namespace

// CUDA device malloc(size) / free(ptr): the extern functions nvcc declares as
// `.extern .func (.param .b64 r) malloc (.param .b64 size)` and
// `.extern .func free (.param .b64 ptr)` (CUDA C++ Programming Guide,
// "Dynamic Global Memory Allocation and Operations"; device_heap.hpp).
void Machine::device_alloc_call(Warp& w, Thread& t, uint32_t lane, const Inst& in, const CallSite& cs,
                                const Function& f) {
  const bool is_free = f.name == "free";
  if (par_) {
    // Which CTA gets which block depends on the order of the calls.
    par_order_dependent("a CTA called malloc or free");
    stop_ = true;
    return;
  }
  uint64_t arg = 0;
  if (!cs.args.empty()) {
    if (cs.args[0].in_frame)
      std::memcpy(&arg, &t.local.bytes[t.fp + cs.args[0].frame_off],
                  f.params.empty() || !f.params[0].size ? 8u : std::min(8u, f.params[0].size));
    else
      arg = get(cs.args[0].value, t, lane, w);
  }
  if (is_free) {
    // free(NULL) does nothing; freeing anything else malloc did not return
    // (or a block twice) is undefined behaviour, reported as CUDA's memory
    // checker reports an invalid free.
    if (arg != 0 && !heap_->free(arg, mem)) {
      char buf[40];
      std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(arg));
      diag(DiagKind::OutOfBounds, true, *w.cta, t, in,
           std::string("free(") + buf + "): not a block that malloc returned, or already freed");
      stop_ = true;
      return;
    }
  } else {
    const uint64_t p = heap_->malloc(arg, mem);
    if (p && races.enabled) races.forget_range(mem.global_at(kDeviceHeapBase, 1), p - kDeviceHeapBase, arg);
    if (!cs.rets.empty() && cs.rets[0].in_frame) {
      const uint32_t n = f.rets.empty() || !f.rets[0].size ? 8u : std::min(8u, f.rets[0].size);
      std::memcpy(&t.local.bytes[t.fp + cs.rets[0].frame_off], &p, n);
      t.local.mark_init(t.fp + cs.rets[0].frame_off, n);
    } else if (!cs.rets.empty() && cs.rets[0].value.kind == Opnd::Reg) {
      t.regs[t.reg_base + cs.rets[0].value.slot] = p;
    }
  }
  t.pc = w.pc + 1;
}

void Machine::do_call(Warp& w, Thread& t, uint32_t lane, const Inst& in) {
  const CallSite& cs = prog.calls[in.target];
  uint32_t callee = cs.callee;
  if (callee == ~0u) {
    uint64_t a = get(cs.fnptr, t, lane, w);
    uint64_t idx = (a - kFuncAddrBase) / 16;
    if (a < kFuncAddrBase || (a - kFuncAddrBase) % 16 || idx >= prog.funcs.size()) {
      diag(DiagKind::BadCall, true, *w.cta, t, in, "indirect call through an address that is not a function");
      stop_ = true;
      return;
    }
    callee = static_cast<uint32_t>(idx);
  }
  const Function& f = prog.funcs[callee];
  // Output, the heap, a trap: not a call that spin detection may repeat (spin.cpp spin_own_op).
  if (cs.builtin_vprintf || !f.defined) spin_own_only_ = false, effect_ = true;
  if (cs.builtin_vprintf || (!f.defined && f.name == "vprintf")) {
    ThreadMem tm = tmem(t, *w.cta);
    uint64_t fmt = 0, args = 0;
    for (size_t k = 0; k < cs.args.size() && k < 2; ++k) {
      uint64_t v = 0;
      if (cs.args[k].in_frame)
        std::memcpy(&v, &t.local.bytes[t.fp + cs.args[k].frame_off], 8);
      else
        v = get(cs.args[k].value, t, lane, w);
      (k == 0 ? fmt : args) = v;
    }
    vprintf(t, tm, fmt, args, in);
    if (!cs.rets.empty() && cs.rets[0].in_frame) {
      uint32_t zero = 0;
      std::memcpy(&t.local.bytes[t.fp + cs.rets[0].frame_off], &zero, 4);
      t.local.mark_init(t.fp + cs.rets[0].frame_off, 4);
    }
    t.pc = w.pc + 1;
    return;
  }
  if (!f.defined && (f.name == "malloc" || f.name == "free")) {
    device_alloc_call(w, t, lane, in, cs, f);
    return;
  }
  // CUDA device assert: a failed assert(e) calls the noreturn
  // __assertfail(message, file, line, function, charSize). The kernel halts
  // and the host's next synchronisation returns cudaErrorAssert; the message
  // is "<file>:<line>: <function>: block: [..], thread: [..] Assertion `<e>`
  // failed." (CUDA C++ Programming Guide, "Assertion"). The diagnostic
  // carries it without the block and thread, which it records itself; the
  // shim maps the "device-side assert: " trap to CUDA_ERROR_ASSERT.
  if (!f.defined && f.name == "__assertfail") {
    const ThreadMem tm = tmem(t, *w.cta);
    auto arg = [&](size_t k) {
      uint64_t v = 0;
      if (k >= cs.args.size()) return v;
      if (cs.args[k].in_frame)
        std::memcpy(&v, &t.local.bytes[t.fp + cs.args[k].frame_off], 8);
      else
        v = get(cs.args[k].value, t, lane, w);
      return v;
    };
    auto cstring = [&](uint64_t a) {
      std::string s;
      for (size_t k = 0; k < 4096; ++k) {
        Where wh = mem.translate(Space::Generic, a + k, 1, 1, tm);
        if (wh.fault != Fault::None || (par_ && wh.space == Space::Global && !claim(wh.region, wh.off, 1, false)))
          return std::string("(unreadable)");
        if (!wh.region->bytes[wh.off]) break;
        s += static_cast<char>(wh.region->bytes[wh.off]);
      }
      return s;
    };
    const std::string expr = cstring(arg(0)), file = cstring(arg(1)), func = cstring(arg(3));
    const auto line = static_cast<uint32_t>(arg(2));
    diag(DiagKind::Trap, true, *w.cta, t, in,
         "device-side assert: " + file + ":" + std::to_string(line) + ": " + func + ": Assertion `" + expr +
             "` failed.");
    stop_ = true;
    return;
  }
  if (!f.defined) {
    diag(DiagKind::Unsupported, true, *w.cta, t, in, "call to external function '" + f.name + "' that has no body");
    stop_ = true;
    return;
  }
  if (t.frames.size() >= kMaxFrames || t.sp + f.frame_bytes + 16 > kMaxLocal) {
    diag(DiagKind::StackOverflow, true, *w.cta, t, in, "call depth or stack size limit exceeded");
    stop_ = true;
    return;
  }
  w.rp_dirty = true;
  Frame fr{w.pc + 1, t.reg_base, t.fp, t.sp, t.func, in.target};
  uint32_t new_base = static_cast<uint32_t>(t.regs.size());
  t.regs.resize(new_base + f.nregs, 0);
  uint32_t new_fp = (t.sp + 15) & ~15u;
  ensure_local(t, new_fp + f.frame_bytes);
  // Copy arguments into the callee's formals (PTX ISA 5.1.6.4).
  for (size_t k = 0; k < f.params.size() && k < cs.args.size(); ++k) {
    const Formal& fm = f.params[k];
    const CallArg& a = cs.args[k];
    uint64_t v = 0;
    if (a.in_frame) {
      if (fm.is_reg) {
        std::memcpy(&v, &t.local.bytes[t.fp + a.frame_off], std::min(8u, fm.size));
        t.regs[new_base + fm.slot] = v;
      } else {
        std::memmove(&t.local.bytes[new_fp + fm.frame_off], &t.local.bytes[t.fp + a.frame_off], fm.size);
        std::memmove(&t.local.init[new_fp + fm.frame_off], &t.local.init[t.fp + a.frame_off], fm.size);
      }
    } else {
      v = get(a.value, t, lane, w);
      if (fm.is_reg) {
        t.regs[new_base + fm.slot] = v;
      } else {
        std::memcpy(&t.local.bytes[new_fp + fm.frame_off], &v, std::min(8u, fm.size));
        t.local.mark_init(new_fp + fm.frame_off, std::min(8u, fm.size));
      }
    }
    if (fm.is_reg && fm.width == 128) {  // the high half of a .b128 formal
      uint64_t hi = 0;
      if (a.in_frame)
        std::memcpy(&hi, &t.local.bytes[t.fp + a.frame_off + 8], 8);
      else if (a.value.kind == Opnd::Reg)
        hi = t.regs[t.reg_base + a.value.slot + 1];
      t.regs[new_base + fm.slot + 1] = hi;
    }
  }
  t.frames.push_back(fr);
  t.reg_base = new_base;
  t.fp = new_fp;
  t.sp = new_fp + f.frame_bytes;
  t.func = callee;
  t.pc = f.entry_pc;
}

void Machine::do_ret(Warp& w, Thread& t, const Inst& in) {
  if (t.frames.empty()) {  // ret from the kernel ends the thread
    thread_exit(*w.cta, t);
    return;
  }
  w.rp_dirty = true;
  Frame fr = t.frames.back();
  t.frames.pop_back();
  const Function& f = prog.funcs[t.func];
  const CallSite& cs = prog.calls[fr.call];
  for (size_t k = 0; k < f.rets.size() && k < cs.rets.size(); ++k) {
    const Formal& fm = f.rets[k];
    const CallArg& a = cs.rets[k];
    uint64_t v = 0;
    if (fm.is_reg)
      v = t.regs[t.reg_base + fm.slot];
    else
      std::memcpy(&v, &t.local.bytes[t.fp + fm.frame_off], std::min(8u, fm.size));
    if (a.in_frame) {
      if (fm.is_reg) {
        std::memcpy(&t.local.bytes[fr.fp + a.frame_off], &v, std::min(8u, fm.size));
        t.local.mark_init(fr.fp + a.frame_off, std::min(8u, fm.size));
      } else {
        std::memmove(&t.local.bytes[fr.fp + a.frame_off], &t.local.bytes[t.fp + fm.frame_off], fm.size);
        std::memmove(&t.local.init[fr.fp + a.frame_off], &t.local.init[t.fp + fm.frame_off], fm.size);
      }
    } else if (a.value.kind == Opnd::Reg) {
      t.regs[fr.reg_base + a.value.slot] = v;
    }
    if (fm.is_reg && fm.width == 128) {  // the high half of a .b128 return value
      uint64_t hi = t.regs[t.reg_base + fm.slot + 1];
      if (a.in_frame) {
        std::memcpy(&t.local.bytes[fr.fp + a.frame_off + 8], &hi, 8);
        t.local.mark_init(fr.fp + a.frame_off + 8, 8);
      } else if (a.value.kind == Opnd::Reg)
        t.regs[fr.reg_base + a.value.slot + 1] = hi;
    }
  }
  t.regs.resize(t.reg_base);
  t.reg_base = fr.reg_base;
  t.fp = fr.fp;
  t.sp = fr.sp;
  t.func = fr.func;
  t.pc = fr.ret_pc;
}

}  // namespace ptxcheck::interp
