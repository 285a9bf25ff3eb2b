// One exploration of `ptxcheck outcomes` (explore.hpp), split by phase:
// explore.cpp sets up, explores the units and judges the runs;
// explore_compose.cpp composes the units' traces into runs. Internal to
// semantics/outcomes.
#pragma once
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "parser/ast.hpp"
#include "semantics/interp/machine.hpp"
#include "semantics/outcomes/compose.hpp"
#include "semantics/outcomes/explore.hpp"
#include "semantics/outcomes/hook_impl.hpp"

namespace ptxcheck::outcomes {

// The most communicating locations whose pairs are checked (pairs grow
// quadratically; each needs a key per trace).
inline constexpr size_t kPairLocs = 6;
// The most location pairs checked with more than kPairLocs locations.
inline constexpr size_t kMaxPairs = 36;

// The fewest compositions under a prefix of units for which the prefix is
// checked with shapes for the other units (one engine call per location or
// pair, memoised, against one memo lookup per composition under it).
inline constexpr uint64_t kPrefixMin = 64;
// The checks of one prefix length and constraint that must all pass, and
// their least mean cost, before that length and constraint is no longer
// checked (explore_compose.cpp).
inline constexpr size_t kPrefixTries = 16;
inline constexpr double kPrefixCheckCost = 0.002;  // seconds

struct KeyHash {
  size_t operator()(const std::vector<int>& v) const {
    size_t h = v.size();
    for (int x : v) h = h * 1000003u ^ static_cast<size_t>(x);
    return h;
  }
};

// One exploration, in four phases (Explorer::run): set_up reads the spec
// and PTX; explore_units runs the launches, round by round, until the value
// sets are stable, leaving the traces of each unit; compose builds the runs
// (compositions of one trace per unit, pruned by the location, pair and
// prefix checks) and checks the loop bound; judge decides every run.
class Explorer {
 public:
  using Clock = std::chrono::steady_clock;

  Explorer(mm::Engine& engine, const Options& opt)
      : engine_(engine), opt_(opt), guard_(memory_limit_bytes(opt.max_memory_mib), opt.max_memory_mib) {}

  Result run(const std::string& spec_path) {
    set_up(spec_path);
    explore_units();
    std::vector<Result::Run> runs = compose();
    judge(runs);
    res_.runs = std::move(runs);
    res_.stats.seconds = elapsed();
    return std::move(res_);
  }

 private:
  // The search state of one round, per unit: its depth-first search,
  // whether it is done, and a path that finishes without stopping the
  // launch (replayed once it is done, so that the units after it run).
  struct Round {
    explicit Round(uint32_t n)
        : dfs(n), replay(n), done(n, 0), has_replay(n, 0), unit_writes(n, 0), unit_loc_writes(n) {}
    std::vector<Shared::Path> dfs, replay;
    std::vector<char> done, has_replay;
    std::vector<uint64_t> unit_writes;
    std::vector<std::vector<uint64_t>> unit_loc_writes;  // most writes of a trace, per location
    uint64_t cut = 0, subsumed = 0, nruns = 0;
  };

  double elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

  // The time limit, and the memory limit (memory_limit.hpp) at most every
  // 10 ms (Hook::push checks it too as a run's events grow).
  void check_time() {
    const double now = elapsed();
    if (opt_.timeout_s > 0 && now > opt_.timeout_s)
      throw LimitError("timeout after " + std::to_string(opt_.timeout_s) + " s");
    if (now - mem_checked_ >= 0.01 || mem_checked_ < 0) {
      mem_checked_ = now;
      guard_.check();
    }
  }

  mm::Limits limits_left() const {
    mm::Limits lim;
    if (opt_.timeout_s > 0) lim.timeout_s = std::max(0.001, opt_.timeout_s - elapsed());
    return lim;
  }

  void set_up(const std::string& spec_path);
  void explore_units();
  bool explore_round(Round& rd);
  bool launch(Round& rd);
  UnitTrace take_trace(Hook& hook, const interp::RunResult& rr, const std::vector<uint32_t>& gids, uint32_t u,
                       UnitTrace::St stop_st, Round& rd);
  bool update_values(int round, const Round& rd);
  void index_checks();
  bool passes(const std::vector<const UnitTrace*>& pick);
  std::string con_name(size_t x) const;
  Result::Run project(size_t x, const std::vector<const UnitTrace*>& pick) const;
  Result::Run project_prefix(size_t x, const std::vector<const UnitTrace*>& prefix,
                             const std::vector<const UnitShape*>& rest) const;
  std::vector<Result::Run> compose();
  void check_bound();
  void compose_with_prefixes(std::vector<std::vector<UnitTrace>>& fin, std::vector<Result::Run>& runs);
  void judge(std::vector<Result::Run>& runs);

  mm::Engine& engine_;
  const Options& opt_;
  const Clock::time_point start_ = Clock::now();
  MemoryGuard guard_;
  double mem_checked_ = -1;
  const bool debug_ = std::getenv("PTXCHECK_OUTCOMES_DEBUG") != nullptr;
  Result res_;
  std::string text_;  // the PTX
  ast::Module mod_;
  interp::Program prog_;
  Shared sh_;
  std::vector<uint64_t> out_base_;              // base address of each output
  std::vector<std::vector<uint8_t>> init_out_;  // initial bytes of each output
  uint64_t nthreads_ = 0, nctas_ = 0, nclusters_ = 1;
  bool decompose_ = false, may_decompose_ = false;  // clusters explored apart (now; unless they are joined)
  bool chain_bound_ = true;
  interp::RunOptions ro_;
  uint32_t nunits_ = 1;
  std::vector<std::vector<UnitTrace>> traces_;  // per unit, of the last round, in depth-first order

  // The composition checks (compose): locations, then location pairs.
  std::optional<Composer> comp_;
  size_t nlocs_ = 0, npcons_ = 0;
  std::vector<std::pair<int, int>> pairs_;
  std::vector<char> skip_;  // per check: left out (cluster barrier phases, index_checks)
  bool prefixes_ = false, local_ = false;
  std::vector<std::unordered_map<std::vector<int>, bool, KeyHash>> memo_;
  std::vector<double> miss_s_;
  std::vector<uint64_t> misses_;
};

}  // namespace ptxcheck::outcomes
