// Spin detection and the clock model of a launch (machine.cpp run_cluster,
// exec.cpp step, exec_sreg.cpp; docs/interpreter.md "Clocks" and "Spins
// without progress").
//
// A round of the round-robin that executes only operations that change
// nothing but the state of their own lanes (own_state_only, spin_own_op)
// leaves memory and every thread it did not run as they were. SpinWatch
// compares the cluster's thread states at the ends of consecutive such
// rounds (Brent's cycle detection). Two states that are equal except for a
// set D of register and .local words (poll counters, clock readings) are
// checked by one more cycle of the same length, run with dynamic taint:
// the words of D are tainted, a clock read is tainted, a destination takes
// the taint of its sources, and a tainted branch condition, guard, address,
// call argument or collective operand is noted (taint_step). If nothing was
// noted and the cycle ends in a state that equals the checked one outside
// D, with no taint outside D, then the instruction trace of that cycle is
// the same for every value of D and of the clocks: by induction the threads
// repeat it forever and write no memory (a livelock, or a wait for a CTA
// that never runs). If only clock-tainted values decided something, the
// cluster is polling the clock alone: the clocks skip ahead (clock_skip), so
// that a timeout loop ends.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "semantics/interp/machine_state.hpp"

namespace ptxcheck::interp {

// Taint colors.
constexpr uint8_t kTaintVar = 1;    // a word of D (differs between the two states)
constexpr uint8_t kTaintClock = 2;  // a reading of %clock, %clock64 or %globaltimer

struct ThreadTaint {
  std::vector<uint8_t> regs;   // per absolute register slot (Thread::regs)
  std::vector<uint8_t> local;  // per .local byte (Thread::local)
};

struct SpinState {
  // Added to `steps` for the clocks (exec_sreg.cpp); grows only.
  uint64_t clock_skip = 0;
  uint64_t clock_reads = 0;  // lane reads of a clock so far
  // The taint of a check cycle, per thread of the cluster (index: CTA slot *
  // threads per CTA + Thread::lin), and the colors of the tainted values
  // that decided something (taint_step).
  std::vector<ThreadTaint> taint;
  uint32_t per_cta = 0;
  uint8_t decided = 0;
  // Set by a converged warp's unguarded mbarrier test_wait/try_wait that
  // found the phase incomplete in every lane (exec_async.cpp, not under an
  // ExecHook); run_cluster then ends the warp's quantum and clears it.
  bool wait_failed = false;
};

// Brent's cycle detection over the cluster's thread states at the ends of
// consecutive rounds that ran only own-state operations, and the check
// cycle that follows a pair of similar states (machine.cpp run_cluster).
class SpinWatch {
 public:
  uint64_t rounds = 0;  // rounds of the cluster so far (spin detection arms after some)
  // At the end of an armed round; `own`: the round ran only own-state
  // operations. Repeats: the cluster is proven to spin forever; ClockOnly:
  // only clock readings change what it does, and the clocks skipped 2^62.
  enum class Spin { No, Repeats, ClockOnly };
  Spin round_end(Machine& mc, const std::vector<std::unique_ptr<Cta>>& ctas, bool own);
  // Ends a check cycle in progress (the taint is off afterwards).
  void stop(Machine& mc);

 private:
  // A thread's register and .local words in a snapshot.
  struct Span {
    uint32_t thread;         // taint index (SpinState::taint)
    uint32_t regs, nregs;    // position and count of its registers
    uint32_t local, nlocal;  // position and count of its .local words (8 bytes each)
  };
  struct Snap {
    std::vector<uint64_t> words;
    std::vector<uint8_t> data;  // per word: a register or .local word (else: PCs, states, shapes)
    std::vector<Span> spans;
  };
  void snap(const std::vector<std::unique_ptr<Cta>>& ctas, Snap& s, uint32_t per_cta);
  void reset() {
    have_ = false;
    power_ = 1;
    lam_ = 0;
  }
  Snap saved_, cur_, base_;
  std::vector<uint8_t> in_d_;  // per word of base_: in D
  bool have_ = false, checking_ = false;
  uint64_t saved_reads_ = 0;                             // SpinState::clock_reads when saved_ was taken
  uint64_t power_ = 1, lam_ = 0, left_ = 0, cycle_ = 0;  // Brent; rounds left in a check of two cycles of cycle_ rounds
  uint64_t hold_ = 0, backoff_ = 0;  // rounds without snapshots after a failed check, and the next such wait
  uint64_t skip_ = 0;                // the last clock skip (0: none since memory was written)
  uint8_t decided1_ = 0;             // SpinState::decided of the check's first cycle
};

// For spin detection (exec.cpp Machine::step): an operation that changes
// nothing but the state of the lanes `g` that execute it, beyond
// own_state_only (spin.cpp explains which), and an atom that writes back the
// value it reads in every lane of `g` (a read for spin detection).
bool spin_own_op(const Inst& in, const Thread* T, uint32_t g);
bool idempotent_atom(const Inst& in, const Thread* T, uint32_t g);

// True for the clock registers (%clock, %clock_hi, %clock64, %globaltimer*).
bool is_clock(SReg s);

// Before the instruction `in` runs for the lanes `g` of warp w (`m`: those
// whose guard holds): propagates the taint to its destinations and notes
// tainted operands that decide control flow, an address or another lane's
// value in SpinState::decided.
void taint_step(Machine& mc, Warp& w, const Inst& in, uint32_t g, uint32_t m);

}  // namespace ptxcheck::interp
