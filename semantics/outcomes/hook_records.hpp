// Internal to semantics/outcomes: the records the Hook (hook_impl.hpp) keeps
// of one replayed launch: communicating locations, the state shared by all
// threads, and each thread's events and dependencies.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "semantics/interp/machine_state.hpp"
#include "semantics/outcomes/explore.hpp"
#include "semantics/outcomes/memory_limit.hpp"

namespace ptxcheck::outcomes {

// The keys of the virtual locations of cluster barrier phases
// (hook_barrier.cpp): bit 62 clear (not shared memory), bit 63 set.
inline constexpr uint64_t kClusterBarKey = 2ull << 62;

// A communicating location: `size` bytes from `key` (hook.hpp keys).
struct CommLoc {
  uint64_t key = 0;
  unsigned size = 0;
  std::string name;
  uint64_t init = 0;
  std::vector<uint64_t> values;  // may be read: init first, then sorted
  std::set<uint64_t> written;    // written in the current round
  // Per value written (any round): a lower bound on the number of writes to
  // each location (by locs index; missing entries 0) that a chain of reads
  // and dependent writes producing it has (explore.hpp "Value chains").
  std::map<uint64_t, std::vector<uint32_t>> chain;
  // The reads of mbarrier.arrive operations here make no choice: a run's
  // arrives update it in the machine's order (hook_canon.cpp); false once a
  // run broke a condition of that argument.
  bool canon = true;
  // The waits on it (test_wait/try_wait) whose failed result only leads to
  // a dropped spin iteration or to an equal wait are offered only the
  // values that complete their phase (hook_wait.cpp), and unrolled ld polls
  // only the values that end their wait (Shared::poll_unrolled); false once
  // a run that relied on it stopped on an error.
  bool wait_canon = true;
  // Those waits whose failed polls only spin back to an equal wait
  // (Shared::wait_spins) read the machine's memory: a failed poll leaves no
  // event and the thread spins until the machine completes the phase
  // (hook_wait.cpp, "Blocking waits"); false once such a spin starved.
  bool wait_block = true;
  // An arrive here after a blocking wait on another mbarrier stays
  // canonical (hook_canon.cpp (k1)); false once such a run broke (j): the
  // arrive then turns this run's arrives to choices, as without (k1).
  bool cross_wait = true;
  // The scalar atomic updates here (but cas and an exch whose result is
  // dead) read the latest write the machine has executed, at a time the
  // search chooses: Hook::rmw_wait may park the thread until another write
  // of the location (hook_chain.cpp); false once a run broke a condition of
  // that argument (the updates then choose values).
  bool rmw_chain = true;
  // The CTA of every write here in any launch (-1 none, -2 several) and
  // whether an update ran under rmw_chain (a condition across launches:
  // CTAs explored apart, explore.hpp).
  int64_t writer_cta = -1;
  bool had_chain = false;
  // Grid counters (hook_grid.cpp): 1 the location is one (its updates chain
  // across CTAs, its polls read the machine's chain and synchronize with
  // its release updates); 0 not yet seen as one; -1 a run broke a condition.
  int grid = 0;
  int64_t gw_cta = -1;     // the CTA of every write seen (-1 none, -2 several)
  bool gw_bad = false;     // a write that is neither an update nor a plain store (GridRun)
  bool gw_narrow = false;  // an update of scope narrower than .gpu
  bool gw_plain = false;   // a plain store (a flag, hook_grid.cpp (f))
  bool gw_upd = false;     // an update (a flag of one CTA has none, hook_grid.cpp (f))
  bool polled = false;     // a strong read in a spin loop of its own (Shared::poll_at)
  bool grid_round = true;  // its updates run in the machine's order by rounds (hook_round.cpp)
  bool ticket = false;     // an update whose result is used (hook_grid_sync.cpp (t))
  // A read chose among `values` in this round (a grid counter whose reads
  // all read the machine's chain needs no other round when they grow).
  bool chosen = false;
  // Some write of any run wrote `init` (hook_wait.cpp (l): the value is then
  // not the initial contents' alone), and some canonical wait left `init`
  // out of its candidates because of (l).
  bool init_written = false;
  bool init_dropped = false, plain_read = true;  // plain_read: hook_canon.cpp (e2)
  // Plain reads ordered after every write so far read the machine's value
  // (hook_latest.cpp); false once a run broke a condition, and the PCs of
  // the reads that broke (c). latest_cta: the CTA of every write in any
  // launch (-1 none, -2 several); latest_used: some read relied on it.
  bool latest = true, latest_used = false;
  int64_t latest_cta = -1;
  std::set<uint32_t> latest_off;
  // An mbarrier operation accessed it: its loads choose values (no lazy
  // loads, hook_lazy.cpp).
  bool mbar = false;
};

// Shared by all runs of an exploration.
struct Shared {
  const Options* opt = nullptr;
  const interp::Program* prog = nullptr;
  MemoryGuard* mem = nullptr;  // the memory limit (Hook::push counts the growth of the runs' events)
  std::vector<CommLoc> locs;
  std::map<uint64_t, int> loc_at;               // first byte key -> locs index
  std::unordered_map<uint64_t, int> comm_byte;  // byte key -> locs index
  std::vector<std::string> ptx_lines;
  bool chain_changed = false;  // a CommLoc::chain entry was added or lowered in this round
  // PTXCHECK_OUTCOMES_NO_CANON: every arrive and wait read chooses (hook_canon.cpp).
  bool no_canon = false;
  // PTXCHECK_OUTCOMES_NO_ENTRY: no loop entry states (Hook::loop_step).
  bool no_entry = false;
  // PTXCHECK_OUTCOMES_NO_COMMUTE: no update stays deterministic when it meets another (Hook::commuting_rmw).
  bool no_commute = false;
  // PTXCHECK_OUTCOMES_NO_RMW_CHAIN: every atomic update's read chooses a value (hook_chain.cpp).
  bool no_rmw_chain = false;
  // PTXCHECK_OUTCOMES_NO_NATURAL_LOOP: pure_loop takes only the paths from a
  // backward jump's target to it, not the natural loop around its header.
  bool no_natural_loop = std::getenv("PTXCHECK_OUTCOMES_NO_NATURAL_LOOP") != nullptr;
  // PTXCHECK_OUTCOMES_NO_CROSS_WAIT: hook_canon.cpp (k) off (an arrive after a
  // blocking wait on another mbarrier, or without its own wait between two
  // arrives, turns the mbarrier back to choices).
  bool no_cross_wait = std::getenv("PTXCHECK_OUTCOMES_NO_CROSS_WAIT") != nullptr;
  // The launch's cluster shape (the kernel's .reqnctapercluster, else the
  // spec's "cluster") and grid, and the cluster (its linear index, the
  // order the Machine runs them in) of each CTA by uid: the units of an
  // exploration that decomposes (explore.hpp).
  std::array<uint32_t, 3> cl{1, 1, 1}, grid{1, 1, 1};
  std::vector<uint32_t> cluster_of;
  // PTXCHECK_OUTCOMES_NO_CLUSTER_UNITS: a launch with clusters of several
  // CTAs is explored whole (one unit), and a barrier.cluster makes any
  // launch whole, with phases numbered over the grid (explore.cpp).
  bool no_cluster_units = false;
  // PTXCHECK_OUTCOMES_NO_GRID: no grid counters (hook_grid.cpp).
  bool no_grid = false;
  // PTXCHECK_OUTCOMES_NO_FLAG: grid counters only as before flags
  // (hook_grid.cpp (f)): updates of scope .gpu or wider by two CTAs.
  bool no_flag = std::getenv("PTXCHECK_OUTCOMES_NO_FLAG") != nullptr;
  // PTXCHECK_OUTCOMES_NO_POLL_UNROLL: an unrolled poll's failing values stay
  // choices (Shared::poll_unrolled).
  bool no_poll_unroll = std::getenv("PTXCHECK_OUTCOMES_NO_POLL_UNROLL") != nullptr;
  // PTXCHECK_OUTCOMES_NO_CLUSTER_COUNTER: no counters in a cluster's shared
  // memory updated by several CTAs (hook_grid.cpp (g5), (f6)).
  bool no_cluster_counter = std::getenv("PTXCHECK_OUTCOMES_NO_CLUSTER_COUNTER") != nullptr;
  // PTXCHECK_OUTCOMES_NO_TICKET: no grid counters without polls (tickets,
  // hook_grid_sync.cpp (t)).
  bool no_ticket = std::getenv("PTXCHECK_OUTCOMES_NO_TICKET") != nullptr;
  // PTXCHECK_OUTCOMES_NO_CAS_LOOP: a CAS retry loop's CAS reads a chosen value (hook_cas.cpp).
  bool no_cas_loop = false;
  bool no_latest = false;  // PTXCHECK_OUTCOMES_NO_LATEST (hook_latest.cpp)
  // PTXCHECK_OUTCOMES_NO_POLL_FILTER: a grid counter's poll is offered the
  // positions whose value fails its loop's test too (hook_poll.cpp).
  bool no_poll_filter = std::getenv("PTXCHECK_OUTCOMES_NO_POLL_FILTER") != nullptr;
  // PTXCHECK_OUTCOMES_NO_GRID_ROUND: a grid counter's updates choose their
  // order even when only their top bits are used (hook_round.cpp).
  bool no_grid_round = std::getenv("PTXCHECK_OUTCOMES_NO_GRID_ROUND") != nullptr;
  // PTXCHECK_OUTCOMES_NO_INIT_FLOOR: a canonical wait also reads the initial
  // contents after an init its thread's clock covers (hook_wait.cpp (l)).
  bool no_init_floor = false;
  bool no_pipe_sync = false;  // PTXCHECK_OUTCOMES_NO_PIPE_SYNC: hook_canon.cpp (d2), (e1), (e2), hook_wait.cpp (m)
  // Lazy loads (hook_lazy.cpp): PTXCHECK_OUTCOMES_NO_LAZY turns them off;
  // the (thread gid, code index) of the loads whose value a run used, which
  // choose a value from then on; whether the Arith at a code index is selp.
  bool no_lazy = false;
  std::set<std::pair<uint32_t, uint32_t>> eager;
  std::vector<int8_t> selp_at;
  bool is_selp(uint32_t pc);
  // The atom.cas at code index `pc` of function `func` is the CAS of a CAS
  // retry loop (hook_cas.cpp (s1)-(s4)): its loop head, backward jump,
  // compare register, the setp that decides the jump and the seed load
  // before the loop. Cached; nullptr when it is none.
  struct CasLoop {
    bool ok = false;
    uint32_t head = 0, back = 0, cmp = 0, setp = 0, seed = 0;
  };
  const CasLoop* cas_loop_at(uint32_t func, uint32_t pc);
  std::map<std::pair<uint32_t, uint32_t>, CasLoop> cas_cache;
  bool grid_any = false;     // some location is a grid counter
  bool grid_joined = false;  // a grid counter joins the CTAs: one unit (explore.cpp)
  uint32_t nctas = 1;
  // The load at code index `pc` of function `func` is a poll: it lies in a
  // pure loop (pure_loop) whose other instructions only compute registers
  // or branch, so a failed iteration comes back to it with nothing done
  // (hook_grid.cpp). Cached.
  bool poll_at(uint32_t func, uint32_t pc);
  std::map<std::pair<uint32_t, uint32_t>, bool> poll_cache;
  // The chain bound of value `v` of location `li` (CommLoc::chain; the
  // initial value: none).
  const std::vector<uint32_t>& chain_of(int li, uint64_t v) const;
  // Choice sequences of the current run, one per unit (explore.hpp: the
  // clusters (CTAs without clusters) when the launch decomposes, else one
  // for the whole grid):
  // (taken, count) per choice point, in the unit's schedule order.
  using Path = std::vector<std::pair<uint32_t, uint32_t>>;
  std::vector<Path> path{Path{}};
  std::vector<size_t> depth{0};
  bool decompose = false;     // units are the clusters (of one CTA without clusters; explore.hpp)
  bool no_decompose = false;  // a launch showed that its clusters are not independent
  uint32_t unit_of(const interp::Cta& c) const { return unit_of_uid(c.uid); }
  uint32_t unit_of_uid(uint32_t uid) const { return decompose && uid < cluster_of.size() ? cluster_of[uid] : 0; }
  // Deterministic global bytes by the units that accessed them in any launch
  // (decomposition: a conflict between two CTAs, in any two launches, makes
  // the bytes communicating). Writer, reader and exempt updater (the units
  // of Hook::commuting_rmw's updates, of class `xcls`, -2 mixed; at least
  // scope `xscope`): -1 none, -2 several.
  struct DetUnits {
    int w = -1, rd = -1, x = -1;
    // The units of exempt updates that may end a release pattern and of
    // those an acquire pattern may start with (Hook::det_access).
    int xrel = -1, xacq = -1;
    int64_t xcls = -1;
    mm::Scope xscope = mm::Scope::Sys;
  };
  std::unordered_map<uint64_t, DetUnits> det_units;
  // Initial memory: global allocations (base, bytes, name, element size).
  struct Alloc {
    uint64_t base = 0;
    std::vector<uint8_t> bytes;
    std::string name;
    unsigned elem = 1;
  };
  std::vector<Alloc> allocs;
  std::string loc_name(uint64_t key) const;
  // Register slots of function `func` live at code index `head` (read
  // before written on some path from it); nullptr: all of them (the
  // analysis does not see through the code there). Cached.
  const std::vector<char>* live_at(uint32_t func, uint32_t head);
  std::map<std::pair<uint32_t, uint32_t>, std::optional<std::vector<char>>> live_cache;
  // Whether a path from code index `pc` (included) of function `func` may
  // reach an instruction that ends an acquire pattern (PTX ISA 8.8 forms 2
  // and 3: an operation or fence with acquire, acq_rel or sc semantics,
  // here or in a function it calls): 1; else 2 when it may return to the
  // caller (not from the kernel), 0 when not. Cached.
  int acquire_from(uint32_t func, uint32_t pc);
  std::map<std::pair<uint32_t, uint32_t>, int> acq_cache;
  bool calls_acquire(uint32_t callee);
  std::map<uint32_t, bool> callee_acq_cache;
  // The same for the bytes of function `func`'s static frame (by offset
  // from its frame pointer): 1 where a byte may be read before it is
  // written on some path from `head`. Followed only for the .param
  // variables of its call sequences and its own .param formals whose
  // address the code never takes; every other byte is live. nullptr: all
  // of them. Cached.
  const std::vector<char>* frame_live_at(uint32_t func, uint32_t head);
  std::map<std::pair<uint32_t, uint32_t>, std::optional<std::vector<char>>> frame_live_cache;
  // The loop of the backward jump from `from` to `head` in function `func`
  // (the code on the paths from `head` to `from`, wherever it lies) is a
  // loop after whose failed iterations the thread goes on as from the
  // iteration's start (Hook::back_jump): it only reads memory, fences and
  // computes; it has one entry, its header (`head`, or where the code
  // before it jumps in, when every path from `head` reaches that header
  // without leaving the loop: nvcc places a poll counter's increment
  // before the header it falls into); the registers it may change (and
  // the time registers) flow into no read, fence or loop exit and are
  // dead where the loop is left. Cached, with the loop's code indices.
  // Where those paths alone are no pure loop (nvcc -O3 moves a poll's
  // backoff blocks, which jump back to the poll, after other code), the
  // natural loop of the innermost loop header that dominates `head` and
  // whose loop holds `from` (natural_loop) is tried as the loop.
  bool pure_loop(uint32_t func, uint32_t head, uint32_t from);
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, bool> pure_cache;
  // Immediate dominators of function `func`'s code (index - entry_pc;
  // ~0u: unreachable from its entry; the entry: itself). Cached.
  const std::vector<uint32_t>& dominators(uint32_t func);
  std::map<uint32_t, std::vector<uint32_t>> dom_cache;
  // The natural loop of the backward jump from `from` to `head`: for the
  // first header H on the dominator chain of `head` (head itself first)
  // whose natural loop (H and the code that reaches a jump back to H,
  // from code H dominates, without passing H) holds `from`, that loop's
  // code; empty when there is none or it has over 513 instructions.
  std::vector<uint32_t> natural_loop(uint32_t func, uint32_t head, uint32_t from);
  // pure_loop's checks on one candidate loop (its code, a flag per code
  // index of the function, the function's predecessors); sets loop_code.
  bool pure_body(uint32_t func, uint32_t head, uint32_t from, std::vector<uint32_t> body,
                 const std::vector<char>& in_loop, const std::vector<std::vector<uint32_t>>& pred);
  // The loop's code indices, sorted, for a pure loop (pure_loop).
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::vector<uint32_t>> loop_code;
  bool in_pure_loop(uint32_t func, uint32_t head, uint32_t from, uint32_t pc) const;
  // Loop heads (the targets of backward bra), by code index: the backward
  // jumps to each, and whether the entry state is worth recording there
  // (Hook::loop_step: one of them is no pure loop). Built on first use.
  std::vector<char> head_kind;  // 0 no head, 1 not yet known, 2 entry recorded, 3 pure loops only
  std::vector<char> step_kind;  // 0: computes registers only (Hook::loop_step has nothing to follow)
  bool entry_at(uint32_t func, uint32_t pc);
  // The mbarrier wait at code index `pc` of function `func` is redundant
  // when it fails (hook_wait.cpp): every path from it with its predicate
  // false computes registers only, until it ends the iteration of a pure
  // spin loop or an equal wait succeeds and rejoins the path of its
  // success with the same live registers. Cached.
  bool wait_redundant(uint32_t func, uint32_t pc);
  std::map<std::pair<uint32_t, uint32_t>, bool> wait_cache;
  // The same wait, redundant, and every path from it with its predicate
  // false, also past the backward jumps it reaches, computes registers only
  // until an equal wait (hook_wait.cpp, "Blocking waits"). Cached.
  bool wait_spins(uint32_t func, uint32_t pc);
  std::map<std::pair<uint32_t, uint32_t>, bool> spin_cache;
  // The backward jumps (head, from) the failure paths of the wait at `pc`
  // reach (filled by wait_redundant).
  std::map<std::pair<uint32_t, uint32_t>, std::vector<std::pair<uint32_t, uint32_t>>> wait_backs;
  // Unrolled polls (wait_analysis.cpp): the ld at `pc` of function `func`,
  // run with the frame registers `regs`, reads only the values (indices into
  // `values`, the location's value set) in `cand`: its failing values lead,
  // through register-only code, to an equal ld further on, and every way
  // out of those polls rejoins the path of the value read last. False: no
  // reduction. Cached by the registers live at `pc` and the values.
  bool poll_unrolled(uint32_t func, uint32_t pc, const uint64_t* regs, const std::vector<uint64_t>& values,
                     std::vector<uint32_t>& cand);
  std::map<std::vector<uint64_t>, std::optional<std::vector<uint32_t>>> unroll_cache;
  // Some path of function `func` from code index `pc` may write memory of
  // a location in shared memory (`shared`) or global memory: a store, an
  // atomic or another writing instruction whose state space may be it, a
  // call, or a return to a caller (hook_chain.cpp). With `other`, an
  // update (atom or red, not cas or exch) whose scope includes every thread
  // that may access such a location (.gpu or wider; for shared memory
  // .cluster, or any without clusters) does not count (hook_grid.cpp (f6)).
  // Cached.
  bool may_write(uint32_t func, uint32_t pc, bool shared, bool other = false);
  std::map<std::tuple<uint32_t, uint32_t, bool, bool>, bool> write_cache;
  // The writes of global memory that may_write(func, pc, false) counts,
  // by address: `sites`, each with a register whose value at pc its
  // address register holds when it runs (not written on any path from pc,
  // or only copied there from such a register by mov or cvta of global
  // addresses; ~0u: an absolute address), so that the thread's registers
  // at pc give its addresses, and whether may_write(.., true) leaves it
  // out (an update of .gpu or .sys scope); `unknown`, some other one (or a
  // call, a return).
  struct GlobalWrites {
    bool unknown = false;
    std::vector<std::tuple<const interp::Inst*, uint32_t, bool>> sites;
  };
  const GlobalWrites& global_writes(uint32_t func, uint32_t pc);
  std::map<std::pair<uint32_t, uint32_t>, GlobalWrites> gwrite_cache;
  uint64_t initial(uint64_t key, unsigned size) const;
  // Makes [key, key+size) communicating; throws on a mixed-size overlap.
  int promote(uint64_t key, unsigned size, uint32_t line);
};

// Exempt updates of several CTAs (Hook::commuting_rmw, Composer::build):
// the value of `size` bytes after an update of class `cls` with operand `b`
// applied to `x` (also two operands combined: the operations commute and
// associate).
uint64_t exempt_combine(int64_t cls, uint64_t x, uint64_t b, unsigned size);

// Reads (indices into ThreadRec::events) a value depends on, sorted.
using Deps = std::vector<int>;

// Operations that compute their destination registers from their source
// operands only: no memory access, no synchronization, no control flow.
// Hook::step gives their results the dependencies of their sources;
// Shared::wait_redundant and wait_spins walk over them (wait_analysis.cpp).
inline bool computes_registers(interp::IrOp op) {
  switch (op) {
    case interp::IrOp::Arith:
    case interp::IrOp::Mov:
    case interp::IrOp::Pack:
    case interp::IrOp::Unpack:
    case interp::IrOp::Cvta:
    case interp::IrOp::Isspacep:
    case interp::IrOp::Mapa:
    case interp::IrOp::Getctarank: return true;
    default: return false;
  }
}

struct ThreadRec {
  const interp::Thread* t = nullptr;  // valid only during the launch
  bool seen = false;                  // the thread reached the hook
  bool killed = false, cut = false;   // parked: redundant spin / loop bound
  uint64_t subsumed = 0;
  std::vector<std::pair<uint64_t, unsigned>> det_writes;  // deterministic writes (key, size)
  std::array<uint32_t, 3> cta{0, 0, 0}, tid{0, 0, 0};
  uint32_t cta_uid = 0, cluster = 0, warp = 0;
  uint32_t rank = 0;         // the CTA's rank in its cluster
  std::vector<uint32_t> vc;  // vector clock over barrier arrivals
  std::vector<mm::Event> events;
  std::vector<EventSource> src;
  std::vector<int> any_value;                     // events whose value is not used (Result::Run::any_value)
  int pending_rmw = -1;                           // read half waiting for its write half
  uint64_t det_rmw_value = 0;                     // what a deterministic RMW (pending_rmw -2) read
  bool rmw_floored = false;                       // its read read `init` under hook_wait.cpp (l)
  std::vector<std::vector<uint32_t>> read_chain;  // per event: the chain bound of the value a read read
  // Dependencies (PTX ISA 8.10.4), followed through the registers along the
  // executed path as semantics/litmus follows them (Hook::step): the reads
  // each register's value depends on (by absolute slot), the reads the
  // control flow depends on so far, and the edges (from read, to event) of
  // addr, data and ctrl, as indices into `events`. Before its first
  // communicating read a thread has no dependency (tracking false).
  bool tracking = false;
  std::vector<Deps> rdeps;
  // Lazy loads (hook_lazy.cpp): per absolute register slot, the code indices
  // of the lazy loads of this thread its value was computed from (sorted);
  // `lazy`: the thread made one in this run.
  bool lazy = false;
  std::vector<std::vector<uint32_t>> lazy_regs;
  // The reads each byte of the thread's own memory (Thread::local: .local
  // variables, the .param variables of call sequences and callee frames,
  // alloca'd stack) depends on, by byte offset; bytes without any are
  // absent (Hook::step, local_*).
  std::map<uint64_t, Deps> ldeps;
  // The same for the deterministic global/shared bytes (hook keys) this
  // thread wrote last (Hook::write, Hook::read; Hook::shadow_ says who
  // wrote a byte last).
  std::map<uint64_t, Deps> gdeps;
  Deps ctrl_on;
  std::vector<std::pair<int, int>> dep_addr, dep_data, dep_ctrl;
  // The executing instruction (Hook::step serial): its address and
  // per-element data dependencies, taken before it writes any register,
  // and the reads and writes it reported so far.
  uint64_t snap = 0, counted = 0;
  Deps cur_addr;
  std::array<Deps, 4> cur_data;
  unsigned cur_reads = 0, cur_writes = 0;
  uint64_t side = 0, comm_reads = 0, choices = 0;
  // Communicating reads but a weak ld (no acquire pattern, morally strong
  // with nothing: it gives the thread no synchronization, PTX ISA 8.8, 8.7,
  // 8.9.2): hook_wait.cpp (j3) compares them.
  uint64_t sync_reads = 0;
  uint64_t bars = 0;              // CTA barriers arrived at (each also counted in side)
  uint32_t last_choice_pc = ~0u;  // code index of the latest read that made a choice
  std::vector<std::pair<uint64_t, unsigned>> det_reads;
  std::vector<uint32_t> det_read_pcs;  // code index of each det_reads entry
  struct Arrival {
    std::vector<uint64_t> regs;
    std::vector<uint8_t> local;  // the thread's .local bytes
    uint32_t reg_base = 0, fp = 0, sp = 0;
    size_t frames = 0;
    uint64_t side = 0, comm_reads = 0, choices = 0, bars = 0;
    size_t det_reads = 0;
    uint64_t quiet_iters = 0;        // iterations without a choice (unbounded; checked for det spins)
    std::vector<Deps> rdeps;         // ThreadRec::rdeps at the arrival
    std::map<uint64_t, Deps> ldeps;  // ThreadRec::ldeps at the arrival
    std::vector<Arrival> older;      // earlier arrivals with no side effect since, latest first (Hook::back_jump)
    size_t wcoll = 0;                // Hook::colls of the warp then (hook_warp.cpp)
    uint64_t ucoll = 0, rw = 0;      // ThreadRec::ucoll then; the RegWatch begun here
  };
  std::map<uint32_t, Arrival> arrivals;
  std::map<uint32_t, int> back;  // head -> bounded backward jumps taken
  // Loop entries (hook_loop.cpp, Hook::loop_step): the state at each loop
  // head the thread reached last other than by a backward jump, until its
  // first backward jump there compares with it (Hook::back_jump).
  std::map<uint32_t, Arrival> entries;
  uint32_t jumped_to = ~0u;  // the head of the backward jump just taken
  // A failed first iteration whose end state differs from the entry state
  // only in .local bytes `bytes` (hook_loop.cpp, "Entry states"): the path
  // is dropped once the thread has overwritten all of them without reading
  // one, with nothing with a side effect since and the loop's frame live.
  struct Pending {
    uint64_t side = 0;
    size_t frames = 0, det_lo = 0, det_hi = 0;
    uint64_t comm_lo = 0, comm_hi = 0;
    std::vector<uint64_t> bytes;  // sorted local offsets
    size_t wcoll = 0;             // the entry's Arrival::wcoll, ucoll
    uint64_t ucoll = 0;
  };
  std::optional<Pending> pend;
  // The first iteration after the latest loop entry (Hook::loop_step): per
  // .local byte, how the thread first accessed it since (1 read, 2 written
  // while nothing it did depended on a read since the entry (clean), 3
  // written later); `ev` the thread's events at the entry.
  struct Watch {
    uint32_t head = 0;
    size_t frames = 0, ev = 0;
    uint64_t side = 0;
    bool clean = true;
    std::vector<uint8_t> first;
  };
  std::optional<Watch> watch;
  // Registers written first in the iteration since the latest arrival or
  // entry (hook_loop.cpp (R)), and activemask or legacy vote/shfl
  // executions (a coupling of lanes the colls log lacks, hook_warp.cpp).
  struct RegWatch {
    uint32_t head = 0, reg_base = 0;
    size_t frames = 0, ev = 0, det = 0;
    uint64_t id = 0;
    bool live = true;            // still clean: first writes count
    std::vector<uint8_t> first;  // per slot of the frame: 1 read first, 2 written first while clean
  };
  std::optional<RegWatch> rwatch;
  uint64_t rw_seq = 0, ucoll = 0;
  int cluster_phase_arrived = -1;
  // Where the thread last began to wait (a barrier, a parked poll or
  // update; hook_grid.cpp (f6)): function and code index (none: ~0u).
  uint32_t stuck_func = 0, stuck_pc = ~0u;
  // Global bytes [lo, hi) a path from there may write, and whether by an
  // update of .gpu or .sys scope (Shared::global_writes with the thread's
  // registers then; Hook::stuck_at); stuck_known false: not computed, or
  // some write's address is not known.
  std::vector<std::tuple<uint64_t, uint64_t, bool>> stuck_writes;
  bool stuck_known = false;
  // Canonical arrives (hook_canon.cpp): the thread may have synchronized
  // with another one through memory (a communicating read, fence.sc, a
  // cluster barrier; joined over CTA barriers); the location of its pending
  // canonical arrive read; locations it arrived on canonically and has not
  // read since, and where the latest such arrives were in their chain
  // ((d2): 0 first, 1 first of a later phase, 2 elsewhere; the most).
  bool sync_in = false;
  int canon_li = -1;
  std::vector<std::pair<int, int>> canon_pending;
  // A release pattern may start before its next write (PTX ISA 8.8 forms
  // 2 and 3): it executed a release, acq_rel or sc fence or write
  // (Hook::commuting_rmw).
  bool released = false;
  // Exempt updates of global bytes (Hook::commuting_rmw): the operand of
  // the pending one, and per (key, size) its class and the thread's
  // operands combined (exempt_combine), for the composition of CTAs that
  // update the same bytes (Composer::build).
  uint64_t exempt_b = 0;
  std::map<std::pair<uint64_t, unsigned>, std::pair<int64_t, uint64_t>> exempt;
  // Registers (absolute slots) holding the state a canonical arrive on
  // location `second` returned, used only as a wait's state operand so far
  // (hook_canon.cpp, condition (a)).
  std::vector<std::pair<uint32_t, int>> canon_tok;
  // hook_round.cpp (r2): registers (absolute slot) holding a value of grid
  // counter li used only through its top bit, and their bits that may differ.
  struct RoundTok {
    uint32_t slot = 0;
    int li = -1;
    uint64_t unk = 0;
  };
  std::vector<RoundTok> round_tok;
  // Blocking waits (hook_canon.cpp): the location whose wait failed in the
  // machine at the thread's latest poll (-1: none).
  int spin_li = -1;
  uint64_t spin_serial = 0;  // Hook::writes_ at that poll
  bool block_read = false;   // the read being reported is a blocking wait's (canon_read)
  // Locations of the thread's successful blocking waits (-1 none, -2
  // several): they leave sync_in alone; an arrive on another location
  // counts them as synchronization (hook_canon.cpp (e)).
  int block_in = -1;
  // The value the event of the access being reported carries instead of
  // the machine's (hook_canon.cpp (j5): a position of an mbarrier chain).
  bool ev_tag = false;
  uint64_t ev_value = 0;
  // RMW chains (hook_chain.cpp): the location whose update Hook::rmw_wait
  // let run (its read takes the machine's value; -1 none), and whether
  // that update could have waited (a choice, for the loop bound).
  int chain_li = -1;
  bool chain_chose = false;
  // CAS retry loops (hook_cas.cpp): the instruction of the latest event,
  // and the backward jump (from, to) that ends the iteration of a CAS that
  // failed in the chain (~0u: none): the thread is dropped there.
  const interp::Inst* last_in = nullptr;
  uint32_t cas_fail_from = ~0u, cas_fail_to = ~0u;
  // Grid counters (hook_grid.cpp): the poll whose event waits until the
  // thread leaves its loop (li -1: none): the value, its position in the
  // location's chain (0 the initial value), whether that was the latest
  // write, the instruction and the writes_ count when it read.
  struct Poll {
    int li = -1;
    uint64_t v = 0;
    uint32_t pos = 0;
    bool latest = false;
    bool wait = false;  // (f3) the search chose to wait for a newer write: the poll must fail
    const interp::Inst* in = nullptr;
    uint64_t serial = 0;
    uint32_t pc = 0;
  } poll;
  std::map<int, uint32_t> grid_floor;  // per location: the least chain position its polls may read
  int want_li = -1;                    // the poll about to run reads position `want` of location want_li
  uint32_t want = 0;
  // The clock at its latest release fence of .gpu scope or wider (8.8 form
  // 3), and the clocks a relaxed poll synchronizes with at its next acquire
  // fence (8.8 acquire form 3).
  std::vector<uint32_t> rel_vc, acq_pending;
  std::vector<uint32_t> rel_wide;  // rel_vc of its latest release fence of scope .gpu or wider
  bool acq_wide = false;           // acq_pending holds a write of another CTA: the fence needs .gpu
  // cp.async and cp.async.bulk operations (PTX ISA 8.9.1.1;
  // Hook::async_issue, hook_async.cpp): where each was issued (events.size()
  // then), the clock, dependencies (address, control) and byte ranges (hook
  // keys) at its issue, its memory events (not in program order), the
  // record index of each wait that completed it, if any (and whether the
  // wait was a cp.async.bulk.wait_group.read), whether its reads and all
  // of it completed for its thread, and for a bulk copy its implicit proxy
  // fence and the write of its complete_tx (events, -1 none).
  struct Async {
    size_t issue_at = 0;
    std::vector<uint32_t> vc;
    Deps addr, ctrl;
    std::pair<uint64_t, unsigned> dst{0, 0}, src{0, 0};
    std::vector<int> mem;
    int last_read = -1;  // the event of the element read last: its write's data dependency
    std::vector<std::pair<size_t, bool>> waits;
    bool done = false, rdone = false;
    bool bulk = false;     // a cp.async.bulk (async proxy)
    bool on_mbar = false;  // completes on an mbarrier: never done for its thread (async_conflict)
    int fence = -1, ctx = -1;
  };
  std::vector<Async> async;
};

// Adds the reads of `from` to the sorted set `into`.
inline void merge(Deps& into, const Deps& from) {
  if (from.empty()) return;
  if (into.empty()) {
    into = from;
    return;
  }
  Deps out;
  std::set_union(into.begin(), into.end(), from.begin(), from.end(), std::back_inserter(out));
  into = std::move(out);
}
}  // namespace ptxcheck::outcomes
