// Internal state of a running launch (machine.cpp, exec*.cpp, warp_ops.cpp
// with vprintf, mma_exec.cpp): threads, warps, CTAs and their Machine.
#pragma once
#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "semantics/arith/fast_form.hpp"
#include "semantics/interp/machine.hpp"
#include "semantics/interp/races.hpp"

namespace ptxcheck::interp {

struct ParShared;  // parallel.cpp
class DeviceHeap;  // device_heap.hpp
struct SpinState;  // spin.hpp

// Spin detection (docs/interpreter.md, "Spins without progress"). An
// operation here changes nothing but the state of the lanes that execute
// it (registers, PC): no memory, no barrier, no other thread. A round of
// the round-robin that executes only these leaves memory and every thread
// it did not run as they were; if the cluster's threads then come back to
// a state they had earlier in such a run of rounds, the schedule is
// deterministic and repeats that cycle forever. The operations that are
// such only for some operands or lanes (.local stores, calls of defined
// functions and returns, warp collectives, mbarrier polls) are checked per
// step by spin_own_op (spin.cpp, called by exec.cpp); a call of an external function (vprintf,
// malloc, free, __assertfail) makes its round no such round.
inline bool own_state_only(IrOp op) {
  switch (op) {
    case IrOp::Nop:
    case IrOp::Arith:
    case IrOp::Mov:
    case IrOp::Pack:
    case IrOp::Unpack:
    case IrOp::Ld:
    case IrOp::Bra:
    case IrOp::BrxIdx:
    case IrOp::Fence:
    case IrOp::Cvta:
    case IrOp::Isspacep:
    case IrOp::Mapa:
    case IrOp::Getctarank:
    case IrOp::Activemask: return true;
    default: return false;
  }
}

// Parked: stopped for good by an ExecHook (a path cut by a loop bound).
enum class TState : uint8_t { Ready, Barrier, WarpWait, ClusterWait, Exited, Parked };

struct Frame {
  uint32_t ret_pc, reg_base, fp, sp, func, call;
};

// A wgmma.mma_async of this thread in flight (wgmma_exec.cpp): its results,
// written at the wgmma.wait_group that completes its group (0: not yet
// committed), and the A-fragment registers it holds; absolute slot indices.
struct WgOp {
  uint32_t group = 0;
  uint32_t line = 0;
  std::vector<std::pair<uint32_t, uint64_t>> d;
  std::vector<uint32_t> a;
};

// A cp.async of this thread in flight (PTX ISA 8.9.1.1 Asynchronous
// operations: its reads and writes are "not part of the program order"):
// issued, not yet completed by a cp.async.wait_group / wait_all, a
// cp.async.mbarrier.arrive or the thread's exit (Machine::cp_complete,
// exec_async.cpp). Kept only when the race detector or a hook watches
// (the data then moves at completion for a hook, at issue for races).
// A cp.async.bulk (in->op == IrOp::BulkCopy, PTX ISA 9.7.9.25.4.1) is kept
// the same way: its group counts Thread::bulk_commits (the bulk
// async-group), or with `on_mbar` it completes on the mbarrier at
// shared::cluster address `mbar` (complete_tx, performed at its completion;
// Machine::cp_complete).
struct CpCopy {
  const Inst* in = nullptr;
  Where dst, src;              // resolved at issue (access())
  uint32_t n = 0, srcn = 0;    // cp-size, and the bytes read from the source (src-size)
  uint32_t group = 0;          // its cp.async-group: Thread::cp_commits at issue
  uint32_t hook_id = 0;        // ExecHook::async_issue's number
  KnowP k;                     // races: the thread's knowledge, generation and clock at issue
  uint32_t gen = 0, clock = 0;
  bool on_mbar = false;        // a bulk copy that completes on an mbarrier
  bool moved = false;          // a bulk copy whose reads a wait_group.read completed
  std::vector<uint8_t> staged; // with a hook: the bytes those reads read, written at completion
  uint64_t mbar = 0;           // its mbarrier's shared::cluster address
  Where mbw;                   // the mbarrier, resolved at issue
};

struct Thread {
  uint32_t pc = 0;
  TState st = TState::Ready;
  std::array<uint32_t, 3> tid{0, 0, 0};
  uint32_t lin = 0;                // linear index in the CTA
  uint32_t reg_base = 0;
  std::vector<uint64_t> regs;
  Region local;
  uint32_t fp = 0, sp = 0;         // local frame pointer / stack pointer
  std::vector<Frame> frames;
  uint32_t func = 0;
  uint32_t bar_red_dst = 0;        // bar.red destination slot while waiting
  bool bar_red_pending = false;
  uint32_t gid = 0;                // global thread number (race shadow)
  uint32_t cl_phase = 0;           // cluster barrier phase of the last arrive
  std::vector<WgOp> wg_ops;        // wgmma.mma_async in flight, oldest first
  std::vector<uint16_t> wg_busy;   // per absolute slot: in-flight wgmma operations using it
  std::vector<uint64_t> wg_val;    // per absolute slot: the newest in-flight accumulator value
  ThreadSync sync;                 // vector clock of the race detector (races.hpp)
  std::vector<CpCopy> cp_ops;      // cp.async in flight, oldest first
  uint32_t cp_commits = 0;         // cp.async.commit_group count
  uint32_t bulk_commits = 0;       // cp.async.bulk.commit_group count
};

struct Cta;
struct Warp {
  Cta* cta = nullptr;
  uint32_t first = 0;              // index of lane 0 in cta->threads
  uint32_t nlanes = 0;
  uint32_t index = 0;              // warp id in the CTA
  bool conv = false;               // group == all runnable lanes (fast path)
  uint32_t gwarp = 0;              // global warp number
  WarpColl coll;                   // warp-collective .sync instructions executed (races.hpp)
  uint32_t pc = 0;                 // group PC
  uint32_t group = 0;              // lanes executing the current PC
  // !conv: the least PC of the ready lanes outside group at the last re-pick
  // (~0u: none), and whether the steps since then moved only group's lanes,
  // together (exec.cpp step: then group keeps the least PC while pc < rest_pc).
  uint32_t rest_pc = ~0u;
  bool rest_ok = false;
  uint64_t* rp[32] = {};           // register frame of each lane
  bool rp_dirty = true;            // a call/ret moved some lane's frame
  bool wg_fenced = false;          // wgmma.fence since the last access to a wgmma register
  uint32_t wg_committed = 0;       // wgmma.commit_group count
};

struct BarrierState {
  uint32_t arrived = 0;
  uint32_t expected = 0;           // 0: all non-exited threads of the CTA
  uint32_t red_popc = 0;
  bool red_and = true, red_or = false;
  std::vector<uint32_t> waiting;   // thread indices
  std::vector<Rel> rels;           // the arrivals' clocks (races.hpp)
  bool arrive_only = false;        // some thread arrived without waiting (bar.arrive)
};

struct Cta {
  std::array<uint32_t, 3> id{0, 0, 0};
  std::array<uint32_t, 3> cluster_id{0, 0, 0}, cluster_ctaid{0, 0, 0};
  uint32_t rank = 0;               // in the cluster
  uint32_t slot = 0;               // index in Machine::ctas
  uint32_t uid = 0;                // linear CTA number in the grid
  uint32_t cluster_uid = 0;        // uid of its cluster's rank 0
  std::vector<Thread> threads;
  std::vector<Warp> warps;
  std::unique_ptr<Region> shared;
  std::unique_ptr<Region> reserved;  // reserved shared memory (memory.hpp kReservedSmemBegin)
  BarrierState bars[16];
  uint32_t exited = 0;
  uint32_t bar_generation = 0;
  std::vector<std::pair<uint32_t, uint8_t>> wg_arrive;  // per warpgroup: wgmma.mma_async PC, warps arrived
  uint32_t full_gen = 0;           // completed barriers that every running thread waited at (races.hpp)
  uint32_t first_gid = 0;          // gid of threads[0]
  std::vector<Region*> own_shared; // a cooperative launch's one-CTA cluster: its shared memory
};

class Machine {
 public:
  Machine(const Program& p, const LaunchSpec& s, const RunOptions& o, RunResult& r, LaunchImage* image = nullptr);
  // A worker of a parallel run (parallel.cpp): `parent`'s launch, options
  // and memory, its own everything else.
  Machine(const Machine& parent, RunResult& r, ParShared& ps, size_t index);
  ~Machine();
  void run();

  // CTAs on all cores (parallel.cpp). In a worker: the run it works for,
  // its index there, and the running CTA's uid + 1. claim() records that
  // the running CTA reads or writes global bytes [off, off + size) of `r`;
  // false (the run is abandoned, stop_ set) when another CTA wrote one of
  // them or this write meets another CTA's access. par_order_dependent():
  // the running CTA observed something that depends on the schedule.
  ParShared* par_ = nullptr;
  size_t par_index_ = 0;
  uint32_t par_cta_ = 0;
  bool claim(const Region* r, uint64_t off, unsigned size, bool write);
  // ld/st: claims each run of the lanes' consecutive accesses to `hot` (when
  // null: the allocation of the first lane's address) as one range;
  // `claimed` when every lane's access lies in it (then par_claimed_ = &in:
  // access() does not claim them again). False on a conflict.
  bool par_claim_lanes(Warp& w, const Inst& in, uint32_t m, Region* hot, unsigned total, bool st, bool& claimed);
  const Inst* par_claimed_ = nullptr;
  void par_order_dependent(const char* why) const;

  // exec.cpp
  bool step(Warp& w);              // one warp step; false when nothing ran
  // exec_mem.cpp: ld/st; exec_atomic.cpp: atom/red; exec_async.cpp: cp.async{.bulk},
  // cp.reduce.async.bulk, st.bulk, mbarrier; true when the step stopped
  bool exec_ldst(Warp& w, const Inst& in, uint32_t m);
  bool exec_atomic(Warp& w, const Inst& in, uint32_t m);
  bool exec_async(Warp& w, const Inst& in, uint32_t m);
  // warp_ops.cpp
  void exec_warp_op(Warp& w, const Inst& in, uint32_t m);
  // mma_exec.cpp: wmma/mma/ldmatrix/stmatrix/movmatrix; true when it set the PCs
  bool exec_mma(Warp& w, const Inst& in, uint32_t m);
  void exec_tex(Warp& w, const Inst& in, uint32_t m);  // texture_exec.cpp
  // wgmma_exec.cpp: wgmma.*; the check of Inst::wg_reg instructions
  bool exec_wgmma(Warp& w, const Inst& in, uint32_t m);
  // exec_tensor.cpp: cp.async.bulk.tensor, cp.reduce.async.bulk.tensor, tensormap.replace
  bool exec_tensor(Warp& w, const Inst& in, uint32_t m);
  // `hook_id`: the bulk copy (ExecHook::async_issue's number + 1) whose
  // completion this is, reported to the hook as its accesses; 0 none.
  bool mbar_complete_tx(Warp& w, Thread& t, const Inst& in, uint64_t ma, int64_t bytes, uint32_t hook_id = 0);
  bool async_proxy_ = false;  // the access() in progress is made by the async proxy
  bool reduce_access_ = false;  // the atomic access() in progress is a cp.reduce.async.bulk{.tensor} reduction
  bool cp_defer_ = false;  // the access() in progress is a cp.async's at issue: races see it at completion
  // cp.async completion (PTX ISA 8.9.1.1; exec_async.cpp): the copies of
  // thread t of warp w in flight whose group is below `groups` (~0u: all),
  // performed now; `waited`: by a wait or cp.async.mbarrier.arrive of the
  // thread (else its exit). False when the step stopped (the hook).
  // `which`: the copies it completes (CpWhich); a bulk copy on an
  // mbarrier completes only with All (exit) or Mbar (`mb`: a wait of some
  // thread on that mbarrier is about to read it, with a hook).
  enum class CpWhich : uint8_t { Cp, Bulk, BulkRead, All, Mbar };
  bool cp_complete(Warp& w, Thread& t, uint32_t groups, bool waited, CpWhich which = CpWhich::Cp,
                   const Where* mb = nullptr);
  // With a hook: the threads (CTA, index) that have bulk copies on an
  // mbarrier in flight; mbar_copies_done completes those on `mb`.
  std::vector<std::pair<Cta*, uint32_t>> mbar_copies_;
  bool mbar_copies_done(const Where& mb);
  // The race detector (docs/races.md item 7): an access of thread t to
  // bytes of one of its own copies in flight (the destination; the source
  // when it writes) races with the copy, whose accesses are outside program
  // order (PTX ISA 8.9.1.1); reported with both instructions.
  void own_copy_race(Warp& w, Thread& t, const Inst& in, const Where& wh, unsigned size, bool write,
                     const AccessInfo& a);
  // The race detector's view of a completed copy: its source read and
  // destination write at the thread's clock now, checked against the
  // accesses its issue was not ordered after.
  // `reads`, `writes`: the parts it checks (a wait_group.read completes the
  // reads of a bulk copy first).
  void cp_races(Warp& w, Thread& t, const CpCopy& cp, bool reads = true, bool writes = true);
  // Async-proxy checks (exec_tensor.cpp): per shared-memory byte, its last
  // generic-proxy write as (writer gid + 1) << 32 | the writer's count of
  // fence.proxy.async at that time, and the write's line.
  bool proxy_on_ = false;
  std::map<const Region*, std::pair<std::vector<uint64_t>, std::vector<uint32_t>>> gwrites_;
  std::vector<uint32_t> proxy_fences_;  // per gid: fence.proxy.async executed
  void proxy_note(Warp& w, Thread& t, const Inst& in, const Where& wh, unsigned size, bool write);
  void wg_touch(Warp& w, const Inst& in, uint32_t m);
  void collective(Warp& w, const Inst& in, uint32_t part, uint32_t mm, const Inst* const* at);
  void vprintf(Thread& t, const ThreadMem& tm, uint64_t fmt, uint64_t args, const Inst& in);

  // Diagnostics; an error with `fatal` stops the launch.
  // `at`: the instruction whose line and column the diagnostic names.
  void diag(DiagKind kind, bool error, const Cta& c, const Thread& t, const Inst& at, const std::string& msg);
  bool stopped() const { return stop_; }

  const Program& prog;
  const LaunchSpec& spec;
  const RunOptions& opt;
  RunResult& res;
  LaunchImage* image_;  // caller-owned memory (session.hpp), or nullptr
  // run_program_taking: the spec (the same as `spec`) whose buffers' bytes
  // move into memory instead of being copied; nullptr: they are copied.
  LaunchSpec* taken_ = nullptr;
  Memory own_mem_;
  Memory& mem;          // own_mem_, or image_->mem
  // The device heap of malloc/free (device_heap.hpp): the session's, or one
  // of the launch's own made at the first call.
  DeviceHeap* heap_ = nullptr;
  std::shared_ptr<DeviceHeap> own_heap_;
  void setup_memory_spec();
  void device_alloc_call(Warp& w, Thread& t, uint32_t lane, const Inst& in, const CallSite& cs, const Function& f);
  Races races;
  // The running cluster; in a cooperative launch, every CTA of the grid
  // (each its own cluster of one CTA, machine.cpp run).
  std::vector<std::unique_ptr<Cta>> ctas;
  std::vector<Region*> cluster_shared;
  uint64_t steps = 0;
  // step() stops the launch when steps exceeds this: opt.max_steps, or with
  // opt.budget_since_exit, max_steps past the steps at the last thread exit
  // (progress(), at each exit).
  uint64_t step_limit_ = 0;
  void progress() {
    if (opt.budget_since_exit) step_limit_ = steps + std::min(opt.max_steps, ~steps);
  }
  uint32_t cluster_arrived = 0;    // barrier.cluster arrivals of the current phase
  uint32_t cluster_phase = 0;
  std::vector<Rel> cluster_rels;   // barrier.cluster arrivals of the current phase (races.hpp)
  KnowP cluster_done[2];           // what a wait learns, by phase parity
  Who who(const Thread& t, const Cta& c) const { return Who{t.gid, c.uid, c.cluster_uid, c.full_gen}; }
  uint32_t cluster_size() const { return cl_[0] * cl_[1] * cl_[2]; }
  // A cooperative launch (LaunchSpec::cooperative): all CTAs run together,
  // and %envreg1:%envreg2 give grid_ws_, its grid workspace (kGridWorkspace).
  bool coop_ = false;
  uint64_t grid_ws_ = 0;
  bool ws_added_ = false;  // grid_ws_ was added to caller-owned memory; removed by finish()
  // `why`: the reason the message gives (nullptr: not morally strong nor
  // ordered by causality order).
  void race_report(Warp& w, Thread& t, const Inst& in, const Where& wh, unsigned size, bool write,
                   const AccessInfo& a, const RaceHit& h, const char* why = nullptr);
  void check_cluster_barrier();
  // ExecHook plumbing (hook.hpp): the stable key of a resolved access, and a
  // stop requested by the hook.
  ExecHook* hook_ = nullptr;
  ExecHook* step_hook_ = nullptr;  // hook_ if it wants every executed instruction (ExecHook::step)
  // Spin detection (machine.cpp, run_cluster): while spin_watch_, step()
  // clears spin_own_only_ when it executes an operation that may change
  // more than its own lanes' registers (own_state_only).
  bool spin_watch_ = false, spin_own_only_ = true;
  // Set by step() at the launch's first operation other than an exit that
  // may change more than its own lanes' registers, .local bytes and PCs
  // (spin_own_op; an external call: do_call): until then the launch has
  // changed no memory, no barrier and no output
  // (RunResult::spin_without_effect).
  bool effect_ = false;
  // Spin detection modulo poll counters and clocks, and the clock model
  // (spin.hpp, docs/interpreter.md "Clocks" and "Spins without progress"):
  // made by the first run_cluster of the launch; the clocks read
  // steps + spin_->clock_skip. While taint_on_, step() calls taint_step
  // (spin.cpp) before each instruction.
  std::shared_ptr<SpinState> spin_;
  bool taint_on_ = false;
  HookAccess hook_access(const Inst& in, HookKind k, const Where& wh, const Cta& c, uint64_t byte_off, unsigned size) const;
  bool hook_stop() {
    res.stopped_by_hook = true;
    stop_ = true;
    return true;
  }
  std::vector<uint64_t> buffer_addr;
  // Texture and surface objects: RunOptions::textures, else the spec's
  // "textures" and "surfaces" (placed in spec_textures_), else none.
  TexTable spec_textures_;
  const TexTable* textures_ = nullptr;
  Region* hot_ = nullptr;
  std::vector<Region*> pc_hot_;    // per instruction: the global allocation it last accessed (fast path)
  // exec_fast.cpp: per instruction, the inline form of an Arith one and the
  // lane loop that runs it with the instruction's operands (run null when
  // it has none; made at the first Arith step); arith_fast() runs a step of
  // one, false when it has none.
  struct FastArith {
    arith::fast::Form f;
    void (*run)(Warp&, const Inst&, uint32_t, const arith::fast::Form&) = nullptr;
  };
  std::vector<FastArith> fast_;
  bool arith_fast(Warp& w, const Inst& in, uint32_t m);
  std::array<uint32_t, 3> cl_{1, 1, 1};  // cluster shape: spec "cluster", else .reqnctapercluster
  bool explicit_cl_ = false;          // last global allocation accessed (fast path)

  uint64_t get(const Opnd& o, Thread& t, uint32_t lane, const Warp& w) const;
  uint64_t sreg(SReg s, const Thread& t, uint32_t lane, const Warp& w) const;
  ThreadMem tmem(Thread& t, Cta& c) {
    if (coop_) return ThreadMem{&t.local, &c.own_shared, 0, static_cast<int>(c.slot), c.reserved.get()};
    return ThreadMem{&t.local, &cluster_shared, static_cast<int>(c.rank), 0, c.reserved.get()};
  }
  bool access(Warp& w, Thread& t, const Inst& in, Space sp, uint64_t addr, unsigned size, bool write,
              bool atomic, Where& out);
  void ensure_local(Thread& t, uint32_t bytes);
  void unconverge(Warp& w);  // leave the fast path, writing the group PC back
  void check_barrier(Cta& c, uint32_t id);
  void thread_exit(Cta& c, Thread& t);
  void do_call(Warp& w, Thread& t, uint32_t lane, const Inst& in);
  void do_ret(Warp& w, Thread& t, const Inst& in);

 private:
  void check_launch();
  void setup_memory();
  void run_cluster(const std::vector<std::array<uint32_t, 3>>& ids, const std::array<uint32_t, 3>& cid);
  void deadlock(Cta& c);
  void finish(std::chrono::steady_clock::time_point t0);  // buffers, counts, time
  bool run_parallel();   // parallel.cpp: true when the launch ran in parallel
  void par_work();       // a worker's loop over CTAs
  bool par_poll();       // publishes steps; true when the run was abandoned
  uint64_t par_published_ = 0;
  std::map<std::tuple<DiagKind, uint32_t, uint32_t>, size_t> seen_;  // (kind, line, col) -> index
  std::vector<std::unique_ptr<Cta>> pool_;
public:
  std::map<std::pair<const Region*, uint64_t>, int64_t> txcount_;  // mbarrier transaction bytes
private:
  bool stop_ = false;
  uint32_t next_gid_ = 0;
  uint32_t next_gwarp_ = 0;
};

inline uint32_t lanes_of(const Warp& w) { return w.nlanes == 32 ? 0xffffffffu : (1u << w.nlanes) - 1; }

}  // namespace ptxcheck::interp
