// Launch setup, CTA/cluster scheduling, barriers, calls and diagnostics.
#include <chrono>
#include <cstring>

#include "semantics/interp/device_heap.hpp"
#include "semantics/interp/machine_state.hpp"
#include "semantics/interp/mma.hpp"

namespace ptxcheck::interp {

namespace {
constexpr uint32_t kQuantum = 4096;
constexpr uint32_t kMaxLocal = 1u << 20;  // per-thread stack (local memory) bytes
constexpr size_t kMaxFrames = 4096;
constexpr uint64_t kMaxCoopThreads = 1u << 20;  // threads of a cooperative launch, all resident at once
}  // namespace

Machine::~Machine() {
  if (ws_added_) mem.remove_global(grid_ws_);
}

Machine::Machine(const Program& p, const LaunchSpec& s, const RunOptions& o, RunResult& r, LaunchImage* image)
    : prog(p), spec(s), opt(o), res(r), image_(image), mem(image && image->mem ? *image->mem : own_mem_) {
  races.enabled = o.check_races && !o.hook;
  textures_ = o.textures;
  hook_ = o.hook;
  step_hook_ = o.hook && o.hook->wants_steps() ? o.hook : nullptr;
  // Async-proxy checks only when the program has async-proxy operations.
  for (const Inst& in : p.code)
    if (in.op == IrOp::Tensor || in.op == IrOp::BulkCopy || (in.op == IrOp::Mma && p.mma[in.target]->op == MatOp::Wgmma))
      proxy_on_ = true;
}

HookAccess Machine::hook_access(const Inst& in, HookKind k, const Where& wh, const Cta& c, uint64_t byte_off,
                                unsigned size) const {
  HookAccess a;
  a.in = &in;
  a.kind = k;
  a.space = wh.space;
  a.size = size;
  if (wh.space == Space::Global) {
    a.key = wh.region->base + wh.off + byte_off;
  } else {
    const Cta& owner = wh.cta >= 0 && static_cast<size_t>(wh.cta) < ctas.size() ? *ctas[static_cast<size_t>(wh.cta)] : c;
    a.owner_cta = static_cast<int>(owner.uid);
    a.key = kHookSharedKey | (uint64_t{owner.uid} << 32) | (wh.region->base + wh.off + byte_off);
  }
  return a;
}

void Machine::diag(DiagKind kind, bool error, const Cta& c, const Thread& t, const Inst& at,
                   const std::string& msg) {
  auto key = std::make_tuple(kind, at.line, at.col);
  auto it = seen_.find(key);
  if (it != seen_.end()) {
    ++res.diagnostics[it->second].count;
    return;
  }
  Diagnostic d;
  d.kind = diag_kind_name(kind);
  d.severity = error ? "error" : "warning";
  d.kernel = spec.kernel;
  d.cta = c.id;
  d.thread = t.tid;
  d.file = prog.file;
  d.line = at.line;
  d.col = at.col;
  d.message = msg;
  seen_[key] = res.diagnostics.size();
  res.diagnostics.push_back(std::move(d));
  if (error) res.ok = false;
}

// The launch must satisfy the kernel's .reqntid/.maxntid/.reqnctapercluster
// (PTX ISA 11.4); a spec "cluster" overrides the cluster directive only when
// they agree.
void Machine::check_launch() {
  auto dims = [](const std::array<uint32_t, 3>& d) {
    return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
  };
  if (prog.reqntid[0] && prog.reqntid != spec.block)
    throw InputError(spec.file, {1, 1}, "kernel '" + spec.kernel + "' requires .reqntid " + dims(prog.reqntid) +
                                            "; block is " + dims(spec.block));
  if (prog.maxntid[0] &&
      uint64_t{spec.block[0]} * spec.block[1] * spec.block[2] >
          uint64_t{prog.maxntid[0]} * prog.maxntid[1] * prog.maxntid[2])
    throw InputError(spec.file, {1, 1}, "block " + dims(spec.block) + " exceeds the kernel's .maxntid " + dims(prog.maxntid));
  cl_ = spec.cluster;
  explicit_cl_ = spec.explicit_cluster || prog.explicitcluster;
  if (prog.reqnctapercluster[0]) {
    if (spec.explicit_cluster && spec.cluster != prog.reqnctapercluster)
      throw InputError(spec.file, {1, 1}, "\"cluster\" " + dims(spec.cluster) + " differs from the kernel's .reqnctapercluster " +
                                              dims(prog.reqnctapercluster));
    cl_ = prog.reqnctapercluster;
    explicit_cl_ = true;
  }
  for (int d = 0; d < 3; ++d)
    if (!cl_[d] || spec.grid[d] % cl_[d])
      throw InputError(spec.file, {1, 1}, "grid " + dims(spec.grid) + " is not a multiple of the cluster shape " + dims(cl_));
  coop_ = spec.cooperative;
  if (coop_ && cluster_size() != 1)
    throw InputError(spec.file, {1, 1}, "a cooperative launch with clusters of more than one CTA (" + dims(cl_) +
                                            ") is not supported");
  // All CTAs of a cooperative launch are resident at once (run()).
  const uint64_t coop_threads = uint64_t{spec.grid[0]} * spec.grid[1] * spec.grid[2] * spec.block[0] * spec.block[1] * spec.block[2];
  if (coop_ && coop_threads > kMaxCoopThreads)
    throw LimitError("a cooperative launch runs all its CTAs at once: " + std::to_string(coop_threads) +
                     " threads exceed the limit of " + std::to_string(kMaxCoopThreads));
}

void Machine::setup_memory() {
  // The device heap, before anything holds a pointer to a global allocation.
  bool heap = false;
  for (const Function& f : prog.funcs) heap |= !f.defined && (f.name == "malloc" || f.name == "free");
  if (heap) {
    if (!heap_) {
      own_heap_ = std::make_shared<DeviceHeap>();
      heap_ = own_heap_.get();
    }
    if (!image_) {  // after the spec's allocations (finish() finds buffers by index)
      setup_memory_spec();
      heap_->place(mem);
      return;
    }
    heap_->place(mem);
  }
  setup_memory_spec();
}

void Machine::setup_memory_spec() {
  if (image_) {  // caller-owned globals, raw parameter bytes (LaunchImage)
    mem.constant().bytes = prog.const_bytes;
    mem.params().bytes = image_->params;
    mem.params().bytes.resize(prog.kparam_bytes, 0);
    return;
  }
  for (const auto& g : prog.globals) {
    uint64_t a = mem.add_global(g.name, g.bytes);
    if (a != g.addr) throw std::logic_error("global layout mismatch");
  }
  for (const auto& b : spec.buffers) buffer_addr.push_back(mem.add_global(b.name, b.init));
  // The spec's texture and surface objects, over the placed buffers.
  for (const auto& t : spec.textures) {
    TexDesc d = t.desc;
    d.addr += buffer_addr[static_cast<size_t>(spec.buffer_index(t.buffer))];
    spec_textures_[t.handle] = d;
  }
  // "references": a .texref/.surfref/.samplerref variable's address names
  // its binding (texture.hpp: TexSite::handle).
  for (const auto& r : spec.refs) {
    const Program::GlobalVar* g = nullptr;
    for (const auto& v : prog.globals)
      if (v.name == r.var) g = &v;
    if (!g)
      throw InputError(spec.file, r.pos,
                       "the PTX declares no module-scope .texref, .surfref or .samplerref variable '" + r.var + "'");
    spec_textures_[g->addr] = r.sampler ? r.smp : spec_textures_.at(spec.texobj(r.object, r.surface)->handle);
  }
  if (!spec_textures_.empty()) textures_ = &spec_textures_;
  auto ref = [&](const ArgSpec& a) -> uint64_t {
    if (a.is_buffer) return buffer_addr[static_cast<size_t>(spec.buffer_index(a.buffer))];
    return a.texture.empty() ? spec.texobj(a.surface, true)->handle : spec.texobj(a.texture, false)->handle;
  };
  mem.constant().bytes = prog.const_bytes;
  // Kernel parameters: check the argument list against the .param list
  // (PTX ISA 5.1.6.1), then lay the values out.
  const auto& kp = prog.kparams;
  if (spec.args.size() != kp.size())
    throw InputError(spec.file, spec.args_pos,
                     "kernel '" + spec.kernel + "' takes " + std::to_string(kp.size()) + " parameter(s); args gives " +
                         std::to_string(spec.args.size()));
  auto& pb = mem.params().bytes;
  pb.assign(prog.kparam_bytes, 0);
  for (size_t i = 0; i < kp.size(); ++i) {
    const ArgSpec& a = spec.args[i];
    if (a.size() != kp[i].size)
      throw InputError(spec.file, a.pos,
                       "argument " + std::to_string(i + 1) + " has " + std::to_string(a.size()) + " bytes; parameter '" +
                           kp[i].name + "' has " + std::to_string(kp[i].size));
    if (a.size() % kp[i].align && kp[i].align > a.size())
      throw InputError(spec.file, a.pos, "argument " + std::to_string(i + 1) + " cannot satisfy the alignment " +
                                             std::to_string(kp[i].align) + " of parameter '" + kp[i].name + "'");
    if (!a.tensormap.empty()) {  // a tensor-map object by value (tensormap.hpp)
      const TensorMapSpec& t = *spec.tensormap(a.tensormap);
      TensorMap tm = t.tm;
      tm.addr += buffer_addr[static_cast<size_t>(spec.buffer_index(t.buffer))];
      tensormap_encode(tm, &pb[kp[i].offset]);
      continue;
    }
    arg_bytes(a, ref, &pb[kp[i].offset]);
  }
}

void Machine::unconverge(Warp& w) {
  if (!w.conv) return;
  for (uint32_t b = w.group; b; b &= b - 1) w.cta->threads[w.first + static_cast<uint32_t>(__builtin_ctz(b))].pc = w.pc;
  w.conv = false;
}

void Machine::ensure_local(Thread& t, uint32_t bytes) {
  if (t.local.bytes.size() < bytes) {
    size_t n = std::max<size_t>(bytes, t.local.bytes.size() * 2);
    t.local.bytes.resize(n, 0);
    t.local.init.resize(n, 0);
  }
}

void Machine::thread_exit(Cta& c, Thread& t) {
  t.st = TState::Exited;
  ++c.exited;
  if (t.gid < races.exit_gen.size()) races.exit_gen[t.gid] = c.full_gen;
  if (hook_) hook_->exited(t, c);
  // Lanes waiting for this one at a warp collective retry without it.
  Warp& w = c.warps[t.lin / 32];
  for (uint32_t l = 0; l < w.nlanes; ++l) {
    Thread& o = c.threads[w.first + l];
    if (o.st == TState::WarpWait) {
      unconverge(w);
      o.st = TState::Ready;
    }
  }
  for (uint32_t id = 0; id < 16; ++id)
    if (c.bars[id].arrived) check_barrier(c, id);
  if (cluster_arrived) check_cluster_barrier();
}

// PTX ISA 9.7.13.1 bar, barrier: a barrier completes when the expected number of threads
// arrived; without a count, every (non-exited) thread of the CTA.
void Machine::check_barrier(Cta& c, uint32_t id) {
  BarrierState& b = c.bars[id];
  uint32_t live = static_cast<uint32_t>(c.threads.size()) - c.exited;
  uint32_t need = b.expected ? b.expected : live;
  if (b.arrived < need || b.arrived == 0) return;
  if (!b.expected && c.exited) {
    Thread& t0 = c.threads[b.waiting.empty() ? 0 : b.waiting[0]];
    diag(DiagKind::BarrierDivergence, false, c, t0, prog.code[t0.pc ? t0.pc - 1 : 0],
         "barrier " + std::to_string(id) + " completed without " + std::to_string(c.exited) +
             " thread(s) of the CTA that exited before arriving (undefined behaviour, PTX ISA 9.7.13.1 bar, barrier)");
  }
  ++c.bar_generation;
  if (races.enabled) {
    // PTX ISA 8.9.4 item 2: the arrivals synchronize with the waits of this
    // barrier instance. When every running thread waits here, the CTA's
    // generation advances instead of a clock per thread (races.hpp).
    const bool cta_wide = !b.arrive_only && b.waiting.size() == live;
    KnowP k = races.merge(b.rels, cta_wide, c.uid, c.first_gid, static_cast<uint32_t>(c.threads.size()));
    if (cta_wide) ++c.full_gen;
    for (uint32_t ti : b.waiting) c.threads[ti].sync.k = k;
  }
  if (hook_) hook_->barrier_complete(c, id);
  for (uint32_t ti : b.waiting) {
    Thread& t = c.threads[ti];
    if (t.bar_red_pending) {
      uint32_t r = b.red_popc;
      const Inst& in = prog.code[t.pc - 1];
      if (in.mode == 1) r = b.red_and;
      if (in.mode == 2) r = b.red_or;
      t.regs[t.reg_base + t.bar_red_dst] = r;
      t.bar_red_pending = false;
    }
    t.st = TState::Ready;
  }
  for (auto& w : c.warps) unconverge(w);
  b = BarrierState{};
}

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
      std::memcpy(&arg, &t.local.bytes[t.fp + cs.args[0].frame_off], f.params.empty() || !f.params[0].size ? 8u : std::min(8u, f.params[0].size));
    else arg = get(cs.args[0].value, t, lane, w);
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
  if (cs.builtin_vprintf || (!f.defined && f.name == "vprintf")) {
    ThreadMem tm = tmem(t, *w.cta);
    uint64_t fmt = 0, args = 0;
    for (size_t k = 0; k < cs.args.size() && k < 2; ++k) {
      uint64_t v = 0;
      if (cs.args[k].in_frame) std::memcpy(&v, &t.local.bytes[t.fp + cs.args[k].frame_off], 8);
      else v = get(cs.args[k].value, t, lane, w);
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
      if (cs.args[k].in_frame) std::memcpy(&v, &t.local.bytes[t.fp + cs.args[k].frame_off], 8);
      else v = get(cs.args[k].value, t, lane, w);
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
         "device-side assert: " + file + ":" + std::to_string(line) + ": " + func + ": Assertion `" + expr + "` failed.");
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
      if (a.in_frame) std::memcpy(&hi, &t.local.bytes[t.fp + a.frame_off + 8], 8);
      else if (a.value.kind == Opnd::Reg) hi = t.regs[t.reg_base + a.value.slot + 1];
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
    if (fm.is_reg) v = t.regs[t.reg_base + fm.slot];
    else std::memcpy(&v, &t.local.bytes[t.fp + fm.frame_off], std::min(8u, fm.size));
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
      }
      else if (a.value.kind == Opnd::Reg) t.regs[fr.reg_base + a.value.slot + 1] = hi;
    }
  }
  t.regs.resize(t.reg_base);
  t.reg_base = fr.reg_base;
  t.fp = fr.fp;
  t.sp = fr.sp;
  t.func = fr.func;
  t.pc = fr.ret_pc;
}

// barrier.cluster (PTX ISA 9.7.13.3 barrier.cluster): the phase completes when every live
// thread of the cluster arrived; waiters of the phase are then released.
void Machine::check_cluster_barrier() {
  uint32_t live = 0;
  for (auto& c : ctas) live += static_cast<uint32_t>(c->threads.size()) - c->exited;
  if (cluster_arrived < live || !cluster_arrived) return;
  cluster_arrived = 0;
  if (races.enabled) {  // PTX ISA 8.9.4 item 3: arrive synchronizes with wait
    cluster_done[cluster_phase & 1] = races.merge(cluster_rels, false, 0, 0, 0);
    cluster_rels.clear();
  }
  ++cluster_phase;
  if (hook_) hook_->cluster_complete();
  for (auto& c : ctas) {
    ++c->bar_generation;
    for (auto& t : c->threads)
      if (t.st == TState::ClusterWait) {
        t.st = TState::Ready;
        if (races.enabled && prog.code[t.pc - 1].order != mm::Order::Relaxed) Races::join(t.sync, cluster_done[t.cl_phase & 1]);
      }
    for (auto& w : c->warps) unconverge(w);
  }
}

void Machine::deadlock(Cta& c) {
  for (auto& t : c.threads) {
    if (t.st == TState::Exited) continue;
    const Inst& in = prog.code[t.pc ? t.pc - 1 : 0];
    std::string what = t.st == TState::Barrier      ? "waits at a CTA barrier that can never complete"
                       : t.st == TState::WarpWait   ? "waits for warp lanes that never reach the same .sync instruction"
                       : t.st == TState::ClusterWait ? "waits at a cluster barrier that can never complete"
                                                     : "cannot make progress";
    const Inst& at = t.st == TState::WarpWait ? prog.code[t.pc] : in;
    diag(DiagKind::BarrierDeadlock, true, c, t, at,
         "deadlock: thread " + what + " (" + std::to_string(c.exited) + " of " + std::to_string(c.threads.size()) +
             " threads exited)");
    break;
  }
  stop_ = true;
}

void Machine::run_cluster(const std::vector<std::array<uint32_t, 3>>& ids, const std::array<uint32_t, 3>& cid) {
  // Finished CTAs go back to a pool: their vectors keep their capacity, so a
  // large grid does not allocate per thread.
  for (auto& c : ctas) {
    // The next CTA's shared memory (its reserved part too) starts afresh: no
    // race history, generic-proxy write history or mbarrier transaction
    // counts of the CTA before.
    for (const Region* sh : {c->shared.get(), c->reserved.get()}) {
      races.forget(sh);
      gwrites_.erase(sh);
      for (auto it = txcount_.lower_bound({sh, 0}); it != txcount_.end() && it->first.first == sh;) it = txcount_.erase(it);
    }
    pool_.push_back(std::move(c));
  }
  ctas.clear();
  cluster_shared.clear();
  cluster_arrived = 0;
  cluster_rels.clear();
  cluster_done[0].reset();
  cluster_done[1].reset();
  const Function& kf = prog.funcs[prog.kernel];
  uint32_t nthreads = spec.block[0] * spec.block[1] * spec.block[2];
  uint32_t shared_bytes = prog.static_shared_bytes + spec.dynamic_shared_bytes;
  for (uint32_t r = 0; r < ids.size(); ++r) {
    std::unique_ptr<Cta> c;
    if (pool_.empty()) {
      c = std::make_unique<Cta>();
      c->shared = std::make_unique<Region>();
      c->reserved = std::make_unique<Region>();
      c->reserved->name = "shared (reserved)";
      c->reserved->base = kReservedSmemBegin;  // its offset in the shared window
    } else {
      c = std::move(pool_.back());
      pool_.pop_back();
    }
    c->warps.clear();
    for (auto& b : c->bars) b = BarrierState{};
    c->exited = 0;
    c->bar_generation = 0;
    c->wg_arrive.clear();
    c->full_gen = 0;
    c->first_gid = next_gid_;
    c->id = ids[r];
    c->cluster_id = cid;
    c->rank = coop_ ? 0 : r;  // a cooperative launch: one-CTA clusters
    c->slot = r;
    if (coop_) c->cluster_id = ids[r];
    for (int d = 0; d < 3; ++d) c->cluster_ctaid[d] = ids[r][d] % cl_[d];
    c->shared->name = "shared";
    c->shared->bytes.assign(shared_bytes, 0);
    c->shared->init.assign(shared_bytes, 0);
    c->reserved->bytes.assign(kReservedSmemBytes, 0);  // zeroed, initialised (memory.hpp)
    uint32_t cta_uid = static_cast<uint32_t>((uint64_t{ids[r][2]} * spec.grid[1] + ids[r][1]) * spec.grid[0] + ids[r][0]);
    c->threads.resize(nthreads);
    for (uint32_t i = 0; i < nthreads; ++i) {
      Thread& t = c->threads[i];
      t.st = TState::Ready;
      t.frames.clear();
      t.reg_base = 0;
      t.fp = 0;
      t.bar_red_pending = false;
      t.cl_phase = 0;
      t.wg_ops.clear();
      t.wg_busy.clear();
      t.lin = i;
      t.tid = {i % spec.block[0], (i / spec.block[0]) % spec.block[1], i / (spec.block[0] * spec.block[1])};
      t.regs.assign(kf.nregs, 0);
      t.pc = kf.entry_pc;
      t.func = prog.kernel;
      t.local.name = "local";
      t.local.bytes.assign(kf.frame_bytes + 16, 0);
      t.local.init.assign(kf.frame_bytes + 16, 0);
      t.sp = kf.frame_bytes;
      t.gid = next_gid_++;
      t.sync.reset();
    }
    c->uid = cta_uid;
    c->cluster_uid = coop_ || r == 0 ? cta_uid : ctas.front()->uid;
    c->own_shared.assign(1, c->shared.get());
    for (uint32_t wi = 0; wi * 32 < nthreads; ++wi) {
      Warp w;
      w.cta = c.get();
      w.first = wi * 32;
      w.nlanes = std::min(32u, nthreads - wi * 32);
      w.index = wi;
      w.gwarp = next_gwarp_++;
      c->warps.push_back(w);
    }
    cluster_shared.push_back(c->shared.get());
    ctas.push_back(std::move(c));
  }
  if (races.enabled) {
    if (races.exit_gen.size() < next_gid_) races.exit_gen.resize(next_gid_, ~0u);
    for (auto& c : ctas) {
      if (c->uid < races.cluster_of.size()) races.cluster_of[c->uid] = c->cluster_uid;
      if (!par_) races.run_cta.push_back(c->uid);  // c->first_gid / nthreads (a worker's is the identity)
    }
  }
  // Round-robin over every warp of the cluster.
  for (;;) {
    bool progress = false, live = false;
    for (auto& c : ctas) {
      for (auto& w : c->warps) {
        for (uint32_t q = 0; q < kQuantum && !stop_; ++q) {
          if (!step(w)) break;
          progress = true;
        }
        if (stop_ || (par_ && par_poll())) return;
        for (uint32_t l = 0; l < w.nlanes; ++l)
          if (c->threads[w.first + l].st != TState::Exited) live = true;
      }
    }
    if (!live) return;
    if (!progress) {
      // A thread parked by an ExecHook (outcomes: a dropped spin, a path cut
      // by the loop bound) ends its cluster quietly: the hook has already
      // dropped or cut the path, and the clusters after it still run (their
      // writes feed the value sets of the other threads' choices).
      for (auto& c : ctas)
        for (auto& t : c->threads)
          if (t.st == TState::Parked) return;
      // Cluster barrier waiters are released when every live thread waits.
      for (auto& c : ctas) deadlock(*c);
      return;
    }
  }
}

void Machine::run() {
  auto t0 = std::chrono::steady_clock::now();
  check_launch();
  setup_memory();
  if (coop_) {
    // The grid workspace a cooperative launch's kernel finds through
    // %envreg1:%envreg2: {wsSize, barrier} as cooperative groups declare it
    // (cooperative_groups/details/driver_abi.h, struct grid_workspace); the
    // barrier word starts at 0, wsSize holds the struct's size, 8 (cooperative
    // groups do not read it; our choice). Caller-owned memory gets it for the
    // launch only (~Machine). It sorts after every other allocation, so the
    // spec buffers keep their indices.
    std::vector<uint8_t> ws(8, 0);
    ws[0] = 8;
    if (!mem.add_global_at("grid workspace", kGridWorkspace, std::move(ws)))
      throw std::logic_error("the grid workspace address is taken");
    grid_ws_ = kGridWorkspace;
    ws_added_ = image_ != nullptr;
  }
  pc_hot_.assign(prog.code.size(), nullptr);
  std::array<uint32_t, 3> ncl{spec.grid[0] / cl_[0], spec.grid[1] / cl_[1],
                              spec.grid[2] / cl_[2]};
  uint64_t nctas = uint64_t{spec.grid[0]} * spec.grid[1] * spec.grid[2];
  if (nctas > (1u << 22)) races.enabled = false;  // shadow state would not fit
  if (races.enabled) {
    races.cluster_of.assign(nctas, 0);
    races.nthreads = std::max(1u, spec.block[0] * spec.block[1] * spec.block[2]);
  }
  if (run_parallel()) {
    finish(t0);
    return;
  }
  if (res.schedule.empty()) res.schedule = coop_ ? "cooperative" : "sequential";
  if (coop_) {
    // A cooperative launch (CUDA programming guide, "Grid Synchronization":
    // its CTAs are guaranteed to be co-resident): all CTAs take turns in one
    // round-robin, in linear order, so a grid-wide barrier's spin-wait sees
    // every other CTA arrive. Each CTA is a cluster of one CTA.
    std::vector<std::array<uint32_t, 3>> ids;
    for (uint32_t z = 0; z < spec.grid[2]; ++z)
      for (uint32_t y = 0; y < spec.grid[1]; ++y)
        for (uint32_t x = 0; x < spec.grid[0]; ++x) ids.push_back({x, y, z});
    run_cluster(ids, {0, 0, 0});
    finish(t0);
    return;
  }
  for (uint32_t cz = 0; cz < ncl[2] && !stop_; ++cz)
    for (uint32_t cy = 0; cy < ncl[1] && !stop_; ++cy)
      for (uint32_t cx = 0; cx < ncl[0] && !stop_; ++cx) {
        std::vector<std::array<uint32_t, 3>> ids;
        for (uint32_t z = 0; z < cl_[2]; ++z)
          for (uint32_t y = 0; y < cl_[1]; ++y)
            for (uint32_t x = 0; x < cl_[0]; ++x)
              ids.push_back({cx * cl_[0] + x, cy * cl_[1] + y, cz * cl_[2] + z});
        run_cluster(ids, {cx, cy, cz});
      }
  finish(t0);
}

void Machine::finish(std::chrono::steady_clock::time_point t0) {
  // The machine's own memory ends with it: the buffers move out.
  for (size_t i = 0; i < spec.buffers.size() && !image_; ++i)
    res.buffers.push_back(std::move(mem.global(prog.globals.size() + i).bytes));
  res.thread_instructions = steps;
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

RunResult run_program(const Program& prog, const LaunchSpec& spec, const RunOptions& opt) {
  RunResult r;
  Machine m(prog, spec, opt, r);
  m.run();
  return r;
}

RunResult run_program(const Program& prog, const LaunchSpec& spec, const RunOptions& opt, LaunchImage& image) {
  RunResult r;
  Machine m(prog, spec, opt, r, &image);
  m.run();
  return r;
}

RunResult run_program(const Program& prog, const LaunchSpec& spec, const RunOptions& opt, LaunchImage& image,
                      DeviceHeap& heap) {
  RunResult r;
  Machine m(prog, spec, opt, r, &image);
  m.heap_ = &heap;
  m.run();
  return r;
}

const char* diag_kind_name(DiagKind k) {
  static const char* const names[] = {
#define DIAG_KIND(id, spelling, cu, fatal) spelling,
#include "semantics/interp/diag_kinds.def"
#undef DIAG_KIND
  };
  return names[static_cast<size_t>(k)];
}

}  // namespace ptxcheck::interp
