// Running a lowered Program on a launch spec: threads, warps, CTAs, clusters.
//
// Scheduling policy (docs/interpreter.md): CTAs run one cluster at a time in
// linear cluster order; within a cluster, warps take turns round-robin, each
// running until it blocks, exits or spends a quantum of 4096 warp steps.
// Within a warp every thread has its own PC (independent thread scheduling,
// PTX ISA 9.2 3.2); each step executes the instruction at the minimum PC
// among the warp's runnable threads for all runnable threads at that PC.
// Threads at equal PCs therefore execute in lock step, and a diverged warp
// reconverges at the first PC both paths reach (for structured code: the
// immediate post-dominator). Everything is deterministic.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "semantics/interp/hook.hpp"
#include "semantics/interp/ir.hpp"
#include "semantics/interp/launch_spec.hpp"
#include "semantics/interp/memory.hpp"

namespace ptxcheck::interp {

struct TexDesc;  // texture.hpp

// The diagnostic kinds (one table: diag_kinds.def).
enum class DiagKind : uint8_t {
#define DIAG_KIND(id, spelling, cu, fatal) id,
#include "semantics/interp/diag_kinds.def"
#undef DIAG_KIND
};
const char* diag_kind_name(DiagKind k);

// One access of a race: who made it, where, and how (docs/races.md).
struct RaceAccess {
  std::array<uint32_t, 3> cta{0, 0, 0}, thread{0, 0, 0};
  uint32_t warp = 0, lane = 0;  // warp in the CTA, lane in the warp
  uint32_t line = 0, col = 0;   // PTX line and column
  std::string source;           // `.loc` position "file:line", or ""
  bool write = false;
  uint32_t size = 0;
  uint64_t address = 0;         // in `space`
  std::string order;            // "weak", or order.scope: "relaxed.gpu", "acquire.cta", ...
};

struct RaceInfo {
  std::string space;  // one name per location: "global", "shared::cta" ("shared::cluster" in cluster launches)
  bool shared = false;
  std::array<uint32_t, 3> owner{0, 0, 0};  // the CTA whose shared memory it is
  RaceAccess first, second;                // the earlier and the later access
};

struct Diagnostic {
  std::string kind;      // diag_kind_name(): out-of-bounds, misaligned, data-race, ... (diag_kinds.def)
  std::string severity;  // "error" or "warning"
  std::string kernel;
  std::array<uint32_t, 3> cta{0, 0, 0}, thread{0, 0, 0};
  std::string file;
  uint32_t line = 0, col = 0;  // of the PTX instruction
  std::string message;
  uint64_t count = 1;    // occurrences folded into this one (same kind and line)
  std::shared_ptr<const RaceInfo> race;  // data-race, warp-sync-race
};

struct RunOptions {
  uint64_t max_steps = 2'000'000'000ull;  // thread instructions
  // What max_steps bounds. false (ptxcheck run, the outcomes explorer): all
  // the thread instructions of the launch. true (the driver shim, and so
  // ptxcheck exec): the thread instructions run since a thread of the launch
  // last exited, or since it started. A long launch that keeps finishing
  // threads then runs to its end, while one that hangs (a spin-wait nothing
  // releases, an endless loop: no thread exits any more) still stops after
  // max_steps more (cuda/README.md, docs/interpreter.md).
  bool budget_since_exit = false;
  bool check_races = true;
  // A warp-sync-race (accesses ordered only by a warp-collective .sync
  // instruction) is an error instead of a warning (--races=strict).
  bool strict_races = false;
  ExecHook* hook = nullptr;  // observation points (hook.hpp); races are not checked with a hook
  // Texture and surface objects by handle (texture.hpp; the shim's
  // cuTexObjectCreate/cuSurfObjectCreate); none without.
  const std::map<uint64_t, TexDesc>* textures = nullptr;
  // Worker threads for the CTAs of a launch (docs/interpreter.md, "CTAs on
  // all cores"): 1 runs the deterministic schedule alone; more run the CTAs
  // of a launch whose result cannot depend on their interleaving in
  // parallel, with the same result byte for byte. default_jobs() is what
  // the CLI and the driver shim use.
  unsigned jobs = 1;
};

// PTXCHECK_JOBS when it is a positive number, else the number of cores.
unsigned default_jobs();
// A job count as PTXCHECK_JOBS and --jobs spell it: 1 to 4096; false otherwise.
bool parse_jobs(const char* s, unsigned& n);

struct RunResult {
  bool ok = true;
  bool step_limit = false;
  bool stopped_by_hook = false;
  // The launch ended at a spin without progress (step_limit) before any of
  // its threads did anything but change their own registers, .local bytes
  // and PCs: no store outside .local, atomic, barrier, mbarrier update,
  // texture or surface access, printf, malloc or trap since it started, in
  // one sequential run. Nothing of it can be observed, so running it again
  // from its start later is a schedule in which it started later (the
  // driver-API shim defers such a launch until its stream is synchronised).
  bool spin_without_effect = false;
  std::vector<Diagnostic> diagnostics;
  uint64_t thread_instructions = 0;
  double seconds = 0;
  std::vector<std::vector<uint8_t>> buffers;  // final bytes of every spec buffer
  std::string printf_output;
  // How the CTAs ran: "sequential", "parallel", or "sequential after a
  // parallel attempt: REASON" (never part of a report: the reports are the
  // same either way).
  std::string schedule;
};

// Runs `prog` (lowered for spec.kernel) as the spec says. Argument mismatches
// against the kernel's .param list throw InputError(spec file, ...).
RunResult run_program(const Program& prog, const LaunchSpec& spec, const RunOptions& opt);
// The same, moving the bytes of the spec's buffers into the run instead of
// copying them: afterwards each spec.buffers[i].init is empty (the result's
// buffers hold the final bytes).
RunResult run_program_taking(const Program& prog, LaunchSpec& spec, const RunOptions& opt);

// A launch over memory the caller owns (session.hpp, the driver-API shim):
// every global allocation, the module's .global variables included, already
// sits in `*mem` at its address and stays there afterwards; `params` are the
// kernel's parameter bytes laid out as its .param list says (kparam_bytes
// long, checked by the caller). The spec gives kernel, grid, block, cluster
// and dynamic shared size; its buffers and args are not used, and
// RunResult::buffers stays empty.
struct LaunchImage {
  Memory* mem = nullptr;
  std::vector<uint8_t> params;
};
RunResult run_program(const Program& prog, const LaunchSpec& spec, const RunOptions& opt, LaunchImage& image);

}  // namespace ptxcheck::interp
