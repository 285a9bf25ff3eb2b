// CTAs on all cores (docs/interpreter.md): every kernel spec of the corpus
// (corpus/kernels, corpus/kernels/features, tests/interp/faults) runs with one
// job and with four, and both runs print the same report byte for byte
// (--json and text; the wall time is the one field that may differ). Kernels
// whose CTAs are independent run in parallel; kernels whose CTAs
// communicate (atomics on one counter, the last-block pattern, a CTA that
// stops the launch, clocks) fall back to the deterministic schedule.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <latch>
#include <map>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "checker/run_report.hpp"
#include "semantics/interp/json_pos.hpp"
#include "semantics/interp/run.hpp"
#include "semantics/interp/worker_pool.hpp"
#include "tests/interp/support/spec_files.hpp"

using namespace ptxcheck;
using namespace ptxcheck::interp;
namespace fs = std::filesystem;
using ptxcheck::test::specs_in;
using ptxcheck::test::src_dir;

namespace {

// Both reports of a run with the time zeroed, and what the reports do not
// show (the final bytes of every buffer, the step-limit flag).
std::string everything(RunReport r) {
  r.result.seconds = 0;
  std::string s = cli::format_json(r) + cli::format_text(r) + (r.result.step_limit ? "step-limit\n" : "") +
                  (r.result.ok ? "ok\n" : "error\n");
  for (const auto& b : r.result.buffers) s += std::string(b.begin(), b.end()) + "\n";
  return s;
}

}  // namespace

TEST_CASE("parallel CTAs print what the deterministic schedule prints", "[parallel]") {
  const fs::path src(src_dir());
  std::vector<fs::path> specs = specs_in(src / "corpus" / "kernels");
  REQUIRE(!specs.empty());
  for (const auto& dir : {src / "corpus" / "kernels" / "features", src / "tests" / "interp" / "faults",
                          src / "tests" / "interp" / "parallel"})
    for (const auto& p : specs_in(dir)) specs.push_back(p);
  std::map<std::string, std::string> schedule;  // spec file name -> RunResult::schedule
  for (const auto& spec : specs) {
    const bool fault = spec.parent_path().filename() == "faults" || spec.parent_path().filename() == "parallel";
    RunOptions opt;
    opt.max_steps = fault ? 1'000'000 : 200'000'000;
    if (fault) {
      JNode root = parse_json(spec.string(), read_file_text(spec.string()));
      const JNode* races = root.find("_races");
      opt.strict_races = races && races->text == "strict";
      if (const JNode* ms = root.find("_max_steps")) opt.max_steps = std::stoull(ms->text);
    }
    RunReport seq = run_spec_file(spec.string(), opt);
    opt.jobs = 4;
    // As `ptxcheck run` runs: the spec's bytes move into the run, and a
    // fallback makes them again from their description (or from the chunks
    // saved, for a "file").
    RunReport par = run_spec_file(spec.string(), opt, SpecBytes::Move);
    INFO(spec.filename().string() << ": " << par.result.schedule);
    CHECK(seq.result.schedule == (seq.spec.cooperative ? "cooperative" : "sequential"));
    CHECK(everything(seq) == everything(par));
    if (par.result.schedule.rfind("sequential after", 0) == 0) {
      // The spec's bytes kept: a fallback copies them back from there.
      RunReport kept = run_spec_file(spec.string(), opt);
      INFO("bytes kept: " << kept.result.schedule);
      CHECK(everything(seq) == everything(kept));
    }
    schedule[spec.filename().string()] = par.result.schedule;
  }
  auto ran = [&](const char* name) {
    auto it = schedule.find(name);
    REQUIRE(it != schedule.end());
    return it->second;
  };
  const std::string fallback = "sequential after a parallel attempt: ";
  // CTA-independent kernels (each CTA reads its inputs and writes its own
  // outputs) ran in parallel.
  for (const char* name :
       {"saxpy.json", "vecadd_f32.json", "matmul_tiled.json", "stencil2d.json", "grid3d.json", "reverse_block.json",
        "scan_block.json", "loops.json", "par_mix.json",
        // CTAs that share a 32-byte claim block without a conflict
        "block_split_store.json", "block_shared_read.json", "block_shared_part.json", "block_own_rw.json"}) {
    INFO(name);
    CHECK(ran(name) == "parallel");
  }
  // CTAs that communicate through global memory fell back (whether the
  // write or the read came first depends on the threads' timing).
  for (const char* name :
       {"histogram.json", "atomic_ref_counters.json", "user_mix.json", "last_block.json", "spin_cta0.json",
        // buffers read from files (saved chunk by chunk, put back on the fallback)
        "atomic_file.json",
        // one granule of a block another CTA claimed whole
        "block_read_write.json", "block_write_read.json", "block_write_part.json",
        // a CTA writes a window it claimed for reading, which another CTA reads
        "held_read_write.json",
        // a lane's store outside its warp's claimed window
        "window_gap.json",
        // a load's lanes in an allocation read without claims, then in one written
        "ro_hot.json"}) {
    INFO(name);
    CHECK(ran(name).rfind(fallback, 0) == 0);
  }
  // A CTA that reads a clock, and a CTA that stops the launch while a later
  // one may have run: fallbacks with one possible reason.
  CHECK(ran("clock.json") == fallback + "a CTA read a clock (%clock, %clock64, %globaltimer)");
  CHECK(ran("oob_late_cta.json") ==
        fallback + "CTA 2 stopped the launch (an error that ends it, a deadlock or the step budget)");
  // Two CTAs' coalesced stores overlap.
  CHECK(ran("overlap_store.json") == fallback + "a CTA wrote global memory that another CTA accessed");
  // A store into an allocation the kernel's code was not seen to write
  // (read without claims).
  CHECK(ran("ro_stray.json") == fallback + "a CTA wrote global memory that the kernel's code was not seen to write");
  // A cooperative launch keeps its one schedule of all CTAs at once.
  CHECK(ran("grid_sync.json") == "cooperative");
  size_t parallel = 0;
  for (const auto& [n, s] : schedule) parallel += s == "parallel";
  WARN(parallel << " of " << schedule.size() << " specs ran their CTAs in parallel");
  CHECK(parallel >= 20);
}

// Race detection off: ld/st take the global fast path; with it on, through
// access(). Either way a warp's coalesced accesses are claimed as ranges
// before any lane accesses (Machine::par_claim_lanes).
TEST_CASE("parallel CTAs without race detection", "[parallel]") {
  const fs::path src(src_dir());
  const std::string fallback = "sequential after a parallel attempt: ";
  const std::pair<fs::path, const char*> cases[] = {
      {src / "corpus/kernels/saxpy.json", "parallel"},
      {src / "corpus/kernels/stencil2d.json", "parallel"},
      {src / "corpus/kernels/matmul_tiled.json", "parallel"},
      {src / "corpus/kernels/reverse_block.json", "parallel"},
      {src / "tests/interp/parallel/overlap_store.json", "a CTA wrote global memory that another CTA accessed"},
      {src / "tests/interp/parallel/spin_cta0.json", nullptr},  // either reason: timing
      {src / "tests/interp/parallel/block_split_store.json", "parallel"},
      {src / "tests/interp/parallel/block_shared_part.json", "parallel"},
      {src / "tests/interp/parallel/block_own_rw.json", "parallel"},
      {src / "tests/interp/parallel/block_read_write.json", nullptr},
      {src / "tests/interp/parallel/block_write_read.json", nullptr},
      {src / "tests/interp/parallel/block_write_part.json", "a CTA wrote global memory that another CTA accessed"},
      {src / "tests/interp/parallel/held_read_write.json", nullptr},
      {src / "tests/interp/parallel/ro_hot.json", nullptr},
      {src / "tests/interp/parallel/ro_stray.json",
       "a CTA wrote global memory that the kernel's code was not seen to write"},
      // a lane outside the window its warp's store claimed whole (par_window)
      {src / "tests/interp/parallel/window_gap.json", "a CTA wrote global memory that another CTA accessed"},
  };
  for (const auto& [spec, want] : cases) {
    INFO(spec.filename().string());
    RunOptions opt;
    opt.check_races = false;
    opt.max_steps = 1'000'000;
    RunReport seq = run_spec_file(spec.string(), opt);
    opt.jobs = 4;
    RunReport par = run_spec_file(spec.string(), opt);
    INFO(par.result.schedule);
    CHECK(everything(seq) == everything(par));
    if (want && std::string(want) == "parallel")
      CHECK(par.result.schedule == "parallel");
    else if (want)
      CHECK(par.result.schedule == fallback + want);
    else
      CHECK(par.result.schedule.rfind(fallback, 0) == 0);
  }
}

// The process's kept threads (semantics/interp/worker_pool.hpp): every job
// runs once, job 0 on the caller, and a second call runs its jobs on the
// threads of the first (the idle threads are taken last-in first-out). The
// jobs of a call wait for each other, so that each has a thread of its own.
TEST_CASE("run_jobs runs each job once and keeps its threads", "[parallel]") {
  static thread_local int ran = 0;  // jobs this thread ran in this test
  const auto caller = std::this_thread::get_id();
  std::vector<int> first(4, -1), second(4, -1);
  std::vector<std::thread::id> who(4);
  {
    std::latch all(4);
    run_jobs(4, [&](unsigned i) {
      all.arrive_and_wait();
      first[i] = ran++;
      who[i] = std::this_thread::get_id();
    });
  }
  {
    std::latch all(4);
    run_jobs(4, [&](unsigned i) {
      all.arrive_and_wait();
      second[i] = ran++;
    });
  }
  CHECK(who[0] == caller);
  for (unsigned i = 0; i < 4; ++i) {
    INFO("job " << i);
    CHECK(first[i] == 0);
    CHECK(second[i] == 1);  // its thread ran a job of the first call
    if (i) CHECK(who[i] != caller);
  }
  std::vector<int> count(100, 0);
  run_jobs(100, [&](unsigned i) { ++count[i]; });
  CHECK(std::count(count.begin(), count.end(), 1) == 100);
}
