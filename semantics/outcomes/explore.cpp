// The exploration of a launch's permitted final states (explore.hpp).
#include "semantics/outcomes/explore.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <set>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "memmodel/relations.hpp"
#include "memmodel/static_relations.hpp"
#include "parser/diagnostic.hpp"
#include "parser/parse.hpp"
#include "semantics/interp/lower.hpp"
#include "semantics/interp/machine.hpp"
#include "semantics/outcomes/compose.hpp"
#include "semantics/outcomes/explorer.hpp"
#include "semantics/outcomes/hook_impl.hpp"

namespace ptxcheck::outcomes {

namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    size_t a = l.find_first_not_of(" \t"), b = l.find_last_not_of(" \t\r");
    out.push_back(a == std::string::npos ? "" : l.substr(a, b - a + 1));
  }
  return out;
}

struct OutKey {
  std::vector<std::vector<uint8_t>> bytes;
  bool operator<(const OutKey& o) const { return bytes < o.bytes; }
};

}  // namespace

void Explorer::set_up(const std::string& spec_path) {
  res_.spec = interp::load_launch_spec(spec_path);
  const interp::LaunchSpec& spec = res_.spec;
  try {
    text_ = interp::read_file_text(spec.ptx_path);
  } catch (const InputError&) {
    throw InputError(spec.file, spec.ptx_pos, "cannot read PTX file '" + spec.ptx_path + "'");
  }
  mod_ = parse_module(text_, spec.ptx_path);
  mod_.file = spec.ptx_path;
  prog_ = interp::lower(mod_, spec.kernel, spec.kernel_pos, spec.file);
  res_.ptx_file = spec.ptx_path;

  sh_.opt = &opt_;
  sh_.prog = &prog_;
  sh_.mem = &guard_;
  sh_.ptx_lines = split_lines(text_);
  {  // the launch's global layout, as Machine::setup_memory builds it
    interp::Memory mem;
    for (const auto& g : prog_.globals) sh_.allocs.push_back({mem.add_global(g.name, g.bytes), g.bytes, g.name, 1});
    for (const auto& b : spec.buffers)
      sh_.allocs.push_back({mem.add_global(b.name, b.init), b.init, b.name, interp::elem_size(b.type)});
  }
  for (const auto& name : spec.outputs) {
    const auto& a = sh_.allocs[prog_.globals.size() + static_cast<size_t>(spec.buffer_index(name))];
    out_base_.push_back(a.base);
    init_out_.push_back(a.bytes);
  }
  nthreads_ = uint64_t{spec.grid[0]} * spec.grid[1] * spec.grid[2] * spec.block[0] * spec.block[1] * spec.block[2];
  if (nthreads_ > 4096)
    throw LimitError("outcomes explores at most 4096 threads; the launch has " + std::to_string(nthreads_));

  // Units (explore.hpp): the clusters (the CTAs, without clusters),
  // explored apart; the whole grid when something joins them.
  nctas_ = uint64_t{spec.grid[0]} * spec.grid[1] * spec.grid[2];
  sh_.cl = prog_.reqnctapercluster[0] ? prog_.reqnctapercluster : spec.cluster;  // as Machine::check_launch
  sh_.grid = spec.grid;
  sh_.no_cluster_units = std::getenv("PTXCHECK_OUTCOMES_NO_CLUSTER_UNITS") != nullptr;
  const std::array<uint32_t, 3>& cl = sh_.cl;
  const bool one_cta = cl == std::array<uint32_t, 3>{1, 1, 1};
  if (!cl[0] || !cl[1] || !cl[2] || spec.grid[0] % cl[0] || spec.grid[1] % cl[1] || spec.grid[2] % cl[2])
    nclusters_ = 1;  // the Machine refuses the launch
  else
    nclusters_ = nctas_ / (uint64_t{cl[0]} * cl[1] * cl[2]);
  sh_.cluster_of.assign(nctas_, 0);
  for (uint32_t z = 0, u = 0; z < spec.grid[2]; ++z)
    for (uint32_t y = 0; y < spec.grid[1]; ++y)
      for (uint32_t x = 0; x < spec.grid[0]; ++x, ++u)
        if (nclusters_ > 1)
          sh_.cluster_of[u] = ((z / cl[2]) * (spec.grid[1] / cl[1]) + y / cl[1]) * (spec.grid[0] / cl[0]) + x / cl[0];
  may_decompose_ = opt_.decompose && nclusters_ > 1 && (one_cta || !sh_.no_cluster_units);
  decompose_ = may_decompose_;

  // PTXCHECK_OUTCOMES_NO_CHAIN_BOUND: every written value joins the value
  // sets (the value-chain bound off; for cross-checks of the bound).
  chain_bound_ = std::getenv("PTXCHECK_OUTCOMES_NO_CHAIN_BOUND") == nullptr;
  sh_.no_canon = std::getenv("PTXCHECK_OUTCOMES_NO_CANON") != nullptr;          // hook_canon.cpp
  sh_.no_commute = std::getenv("PTXCHECK_OUTCOMES_NO_COMMUTE") != nullptr;      // Hook::commuting_rmw
  sh_.no_rmw_chain = std::getenv("PTXCHECK_OUTCOMES_NO_RMW_CHAIN") != nullptr;  // hook_chain.cpp
  sh_.no_entry = std::getenv("PTXCHECK_OUTCOMES_NO_ENTRY") != nullptr;          // hook_loop.cpp
  sh_.no_grid = std::getenv("PTXCHECK_OUTCOMES_NO_GRID") != nullptr;            // hook_grid.cpp
  sh_.no_cas_loop = std::getenv("PTXCHECK_OUTCOMES_NO_CAS_LOOP") != nullptr;    // hook_cas.cpp
  sh_.no_latest = std::getenv("PTXCHECK_OUTCOMES_NO_LATEST") != nullptr;        // hook_latest.cpp
  sh_.no_lazy = std::getenv("PTXCHECK_OUTCOMES_NO_LAZY") != nullptr;            // hook_lazy.cpp
  // hook_wait.cpp (l)
  sh_.no_init_floor = std::getenv("PTXCHECK_OUTCOMES_NO_INIT_FLOOR") != nullptr;
  sh_.no_pipe_sync = std::getenv("PTXCHECK_OUTCOMES_NO_PIPE_SYNC") != nullptr;  // hook_canon.cpp (d2), (e1), (e2)
  sh_.nctas = static_cast<uint32_t>(nctas_);
  ro_.check_races = false;
  ro_.max_steps = opt_.max_steps;
}

// Rounds of launches until the value sets are stable (or W+1 rounds ran).
void Explorer::explore_units() {
  int since_restart = 0;  // rounds with the current classification
  for (int round = 1;; ++round) {
    ++since_restart;
    check_time();
    res_.stats.rounds = static_cast<uint64_t>(round);
    // A grid counter joins the CTAs while it is one (hook_grid.cpp).
    decompose_ = may_decompose_ && !sh_.no_decompose && !sh_.grid_joined;
    nunits_ = decompose_ ? static_cast<uint32_t>(nclusters_) : 1;
    sh_.decompose = decompose_;
    traces_.assign(nunits_, {});
    Round rd(nunits_);
    sh_.chain_changed = false;
    for (auto& l : sh_.locs) l.written.clear(), l.chosen = false;
    if (!explore_round(rd)) {
      since_restart = 0;
      continue;
    }
    const bool changed = update_values(round, rd);
    res_.stats.cut = rd.cut;
    res_.stats.subsumed = rd.subsumed;
    // Values found after W+1 rounds need a longer write chain than any
    // execution has (semantics/litmus/traces.hpp): stop there. (W: the
    // most writes of a unit's trace, summed over the units.)
    uint64_t most_writes = 0;
    for (uint64_t w : rd.unit_writes) most_writes += w;
    if (!changed || since_restart > static_cast<int>(most_writes) + 1) break;
  }
  res_.stats.units = nunits_;
  if (debug_) {
    std::fprintf(stderr, "explored in %.3f s, units %u, traces:", elapsed(), nunits_);
    for (const auto& l : traces_) std::fprintf(stderr, " %zu", l.size());
    std::fprintf(stderr, "\n");
  }
}

// The launches of one round: each advances the search of every unit that
// runs. False when the round must restart (a location changed class).
bool Explorer::explore_round(Round& rd) {
  for (;;) {
    uint32_t next = 0;
    bool blocked = false;
    while (next < nunits_ && rd.done[next]) blocked = blocked || !rd.has_replay[next++];
    if (next == nunits_ || blocked) return true;
    check_time();
    if (++rd.nruns > opt_.max_runs)
      throw LimitError("more than " + std::to_string(opt_.max_runs) + " launches in one round");
    if (!launch(rd)) return false;
  }
}

// One launch along the units' current paths; records each unit's trace and
// advances its search. False when the round must restart.
bool Explorer::launch(Round& rd) {
  const interp::LaunchSpec& spec = res_.spec;
  sh_.path.assign(nunits_, {});
  sh_.depth.assign(nunits_, 0);
  for (uint32_t u = 0; u < nunits_; ++u) sh_.path[u] = rd.done[u] ? rd.replay[u] : rd.dfs[u];
  Hook hook(sh_, static_cast<uint32_t>(nthreads_));
  ro_.hook = &hook;
  // A grid counter or ticket that joins the CTAs of a launch without
  // clusters (hook_grid.cpp, hook_grid_sync.cpp (t)): its updates and polls
  // wait for writes of other CTAs (parked, then woken), so the CTAs take
  // turns in one round-robin, as a cooperative launch's do, instead of
  // running one after another (where a CTA that parked never ran again).
  // That is one schedule a GPU may run (the memory model orders events,
  // not schedules, PTX ISA 8.10); every run is still checked by the axioms.
  struct CoResident {  // restored also when the launch throws (a limit)
    interp::LaunchSpec& s;
    bool on;
    ~CoResident() {
      if (on) s.cooperative = false;
    }
  } co{res_.spec, sh_.grid_joined && !spec.cooperative && sh_.cl == std::array<uint32_t, 3>{1, 1, 1}};
  if (co.on) res_.spec.cooperative = true;
  interp::RunResult rr = interp::run_program(prog_, spec, ro_);
  ++res_.stats.runs;
  if (debug_) {
    std::fprintf(stderr,
                 "run %llu: restart=%d killed=%d cut=%llu stop=%d diags=%zu path=", (unsigned long long)res_.stats.runs,
                 hook.restart, hook.killed, (unsigned long long)hook.cut, rr.stopped_by_hook, rr.diagnostics.size());
    for (uint32_t u = 0; u < nunits_; ++u) {
      if (u) std::fprintf(stderr, "| ");
      for (auto [x, y] : sh_.path[u]) std::fprintf(stderr, "%u/%u ", x, y);
    }
    for (const auto& d : rr.diagnostics) std::fprintf(stderr, " [%s:%u %s]", d.kind.c_str(), d.line, d.message.c_str());
    std::fprintf(stderr, "\n");
  }
  const bool errored = rr.step_limit || std::any_of(rr.diagnostics.begin(), rr.diagnostics.end(),
                                                    [](const auto& d) { return d.severity == "error"; });
  if (hook.restart || !hook.canon_check(errored) || !hook.latest_check(errored || rr.stopped_by_hook)) return false;
  if (rr.step_limit)
    throw LimitError("a launch ran more than " + std::to_string(opt_.max_steps) + " thread instructions");
  // Every error stops the launch (the Machine runs one cluster at a time,
  // in the order of the units): the units after the erring one did not run.
  int stop = -1;
  bool fault = false;
  const std::string deadlock = interp::diag_kind_name(interp::DiagKind::BarrierDeadlock);
  for (const auto& d : rr.diagnostics) {
    if (d.severity != "error") continue;
    if (stop < 0)
      stop = static_cast<int>(sh_.unit_of_uid(
          static_cast<uint32_t>((uint64_t{d.cta[2]} * spec.grid[1] + d.cta[1]) * spec.grid[0] + d.cta[0])));
    if (d.kind != deadlock) fault = true;
    if (d.kind != deadlock && res_.stats.first_fault.empty())
      res_.stats.first_fault =
          d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.col) + ": " + d.kind + ": " + d.message;
  }
  if (fault && !hook.killed) ++res_.stats.faulted;
  // The threads of each unit, and the bytes written deterministically.
  std::vector<std::vector<uint32_t>> gids(nunits_);
  std::unordered_set<uint64_t> det_written;
  for (uint32_t g = 0; g < hook.th.size(); ++g) {
    const ThreadRec& r = hook.th[g];
    if (!r.seen) continue;
    gids[sh_.unit_of_uid(r.cta_uid)].push_back(g);
    if (decompose_)
      for (auto [k, n] : r.det_writes)
        for (uint64_t b = k; b < k + n; ++b) det_written.insert(b);
  }
  if (decompose_) {
    // A CTA's output bytes must come from its own writes: bytes that
    // change without a write the hook saw make the exploration whole.
    for (size_t o = 0; o < out_base_.size(); ++o) {
      const auto& now = rr.buffers[static_cast<size_t>(spec.buffer_index(spec.outputs[o]))];
      for (size_t i = 0; i < now.size(); ++i) {
        const uint64_t key = out_base_[o] + i;
        if (now[i] != init_out_[o][i] && !sh_.comm_byte.count(key) && !det_written.count(key)) {
          sh_.no_decompose = true;
          return false;
        }
      }
    }
  }
  for (uint32_t u = 0; u < nunits_; ++u) {
    if (stop >= 0 && u > static_cast<uint32_t>(stop)) break;  // did not run
    if (rd.done[u]) continue;
    const bool stopped = static_cast<int>(u) == stop;
    UnitTrace t = take_trace(hook, rr, gids[u], u,
                             !stopped ? UnitTrace::St::Finished
                             : fault  ? UnitTrace::St::Fault
                                      : UnitTrace::St::Deadlock,
                             rd);
    rd.unit_writes[u] = std::max(rd.unit_writes[u], t.writes);
    std::vector<uint64_t>& ulw = rd.unit_loc_writes[u];
    if (ulw.size() < t.loc_writes.size()) ulw.resize(t.loc_writes.size(), 0);
    for (size_t x = 0; x < t.loc_writes.size(); ++x) ulw[x] = std::max(ulw[x], t.loc_writes[x]);
    // A path that stopped no launch: a finished one, else (until one
    // finishes) a dropped or cut one, whose parked threads end their CTA
    // quietly. Replaying it lets the units after this one run even when
    // no path of it finishes in this round: their writes may give it the
    // values that make one finish in the next.
    if ((t.st == UnitTrace::St::Finished && rd.has_replay[u] != 2) ||
        ((t.st == UnitTrace::St::Killed || t.st == UnitTrace::St::Cut) && !rd.has_replay[u])) {
      rd.replay[u] = sh_.path[u];
      rd.has_replay[u] = t.st == UnitTrace::St::Finished ? 2 : 1;
    }
    if (t.st == UnitTrace::St::Cut)
      for (const auto& [g, r] : t.th) rd.cut += r.cut;
    if (t.st == UnitTrace::St::Deadlock) ++res_.stats.deadlocked;
    if (t.st == UnitTrace::St::Finished || t.st == UnitTrace::St::Cut) traces_[u].push_back(std::move(t));
    // Next choice sequence of this unit.
    Shared::Path& p = rd.dfs[u];
    p = sh_.path[u];
    while (!p.empty() && p.back().first + 1 >= p.back().second) p.pop_back();
    if (p.empty())
      rd.done[u] = 1;
    else
      ++p.back().first;
  }
  return true;
}

// Unit u's trace of the launch: its threads' records (moved out of the
// hook), writes per location, exempt and deterministic output bytes.
// `stop_st`: Fault or Deadlock when an error in this unit stopped the
// launch, else Finished; a killed or cut thread comes first but for a fault.
UnitTrace Explorer::take_trace(Hook& hook, const interp::RunResult& rr, const std::vector<uint32_t>& gids, uint32_t u,
                               UnitTrace::St stop_st, Round& rd) {
  const interp::LaunchSpec& spec = res_.spec;
  UnitTrace t;
  bool killed = false, cut_here = false;
  for (uint32_t g : gids) {
    ThreadRec r = std::move(hook.th[g]);
    killed = killed || r.killed;
    cut_here = cut_here || r.cut;
    rd.subsumed += r.subsumed;
    for (const auto& e : r.events)
      if (e.kind == mm::EventKind::Write) {
        ++t.writes;
        if (t.loc_writes.size() <= static_cast<size_t>(e.loc)) t.loc_writes.resize(static_cast<size_t>(e.loc) + 1, 0);
        ++t.loc_writes[static_cast<size_t>(e.loc)];
      }
    for (const auto& [kn, x] : r.exempt)
      for (size_t o = 0; o < out_base_.size(); ++o)
        if (kn.first >= out_base_[o] && kn.first + kn.second <= out_base_[o] + init_out_[o].size()) {
          const std::pair<size_t, size_t> at{o, kn.first - out_base_[o]};
          auto [it, fresh] = t.exempt.try_emplace(at, kn.second, x.first, x.second);
          if (!fresh && std::get<1>(it->second) == x.first)
            std::get<2>(it->second) = exempt_combine(x.first, std::get<2>(it->second), x.second, kn.second);
          else if (!fresh)
            std::get<1>(it->second) = -2;
        }
    for (auto [k, n] : r.det_writes)
      for (uint64_t b = k; b < k + n; ++b)
        for (size_t o = 0; o < out_base_.size(); ++o)
          if (b >= out_base_[o] && b < out_base_[o] + init_out_[o].size()) {
            const size_t off = b - out_base_[o];
            t.det_bytes.push_back({{o, off}, rr.buffers[static_cast<size_t>(spec.buffer_index(spec.outputs[o]))][off]});
          }
    // What only the exploration needed.
    r.t = nullptr;
    r.vc.clear();
    r.arrivals.clear();
    r.det_reads.clear();
    r.det_read_pcs.clear();
    r.det_writes.clear();
    r.back.clear();
    r.rdeps.clear();
    r.ctrl_on.clear();
    r.read_chain.clear();
    r.cur_addr.clear();
    for (Deps& d : r.cur_data) d.clear();
    t.th.emplace_back(g, std::move(r));
  }
  for (const auto& [k, v] : hook.cta_partial)
    if (sh_.unit_of_uid(k) == u) t.cta_partial[k] = v;
  for (const auto& [k, v] : hook.colls)
    if (sh_.unit_of_uid(k.first) == u) t.colls[k] = v;
  if (!decompose_)
    for (const auto& name : spec.outputs) {
      size_t b = static_cast<size_t>(spec.buffer_index(name));
      t.buffers.push_back(b < rr.buffers.size() ? rr.buffers[b] : std::vector<uint8_t>{});
    }
  // A spin dropped as redundant beside a thread the loop bound cut counts
  // as cut: the write that would end the spin may lie beyond the bound, and
  // then no sibling path finishes either (the bound, not the redundancy,
  // hides those states).
  if (killed && !cut_here)
    t.st = UnitTrace::St::Killed;
  else if (killed)
    t.st = UnitTrace::St::Cut;
  else if (stop_st == UnitTrace::St::Fault)
    t.st = stop_st;
  else if (cut_here)
    t.st = UnitTrace::St::Cut;
  else
    t.st = stop_st;
  return t;
}

// Value chains (explore.hpp): a value whose chain needs more writes to some
// location than any trace of this round has (summed over the units) is
// read in no execution; it joins no value set (yet: its bound may fall, or
// the most writes grow, in a later round). True when a value set changed.
bool Explorer::update_values(int round, const Round& rd) {
  std::vector<uint64_t> most_loc_writes(sh_.locs.size(), 0);
  for (const auto& ulw : rd.unit_loc_writes)
    for (size_t x = 0; x < ulw.size() && x < most_loc_writes.size(); ++x) most_loc_writes[x] += ulw[x];
  auto within = [&](const std::vector<uint32_t>& c) {
    if (!chain_bound_) return true;
    for (size_t x = 0; x < c.size(); ++x)
      if (c[x] > (x < most_loc_writes.size() ? most_loc_writes[x] : 0)) return false;
    return true;
  };
  bool changed = false, pending = false;
  for (size_t li = 0; li < sh_.locs.size(); ++li) {
    CommLoc& l = sh_.locs[li];
    std::vector<uint64_t> v{l.init};
    std::set<uint64_t> keep;
    for (uint64_t x : l.values)
      if (x != l.init) keep.insert(x);  // once in, a value stays
    for (uint64_t x : l.written)
      if (x != l.init && !keep.count(x)) {
        if (within(sh_.chain_of(static_cast<int>(li), x)))
          keep.insert(x);
        else
          pending = true;
      }
    for (uint64_t x : keep) v.push_back(x);
    if (static_cast<int>(v.size()) > opt_.max_values)
      throw LimitError("more than " + std::to_string(opt_.max_values) + " candidate values for " + l.name);
    // A grid counter's values matter to another round only if a read
    // chose among them (hook_grid.cpp: its chain reads and polls read the
    // machine's chain).
    changed |= v != l.values && (l.grid != 1 || sh_.decompose || l.chosen);
    l.values = std::move(v);
  }
  if (debug_)
    for (const CommLoc& l : sh_.locs) {
      std::fprintf(stderr, "round %d: %s =", round, l.name.c_str());
      for (uint64_t x : l.values) std::fprintf(stderr, " %#llx", (unsigned long long)x);
      std::fprintf(stderr, "\n");
    }
  // A lower chain bound matters only to a value left out: the next round
  // runs with the bounds lowered in this one.
  return changed || (pending && sh_.chain_changed);
}

// Decides every finished run: each consistent execution that reads the
// run's values gives a final state (with a witness) and its races.
void Explorer::judge(std::vector<Result::Run>& runs) {
  std::map<OutKey, Outcome> states;
  for (auto& run : runs) {
    check_time();
    ++res_.stats.skeletons;
    res_.stats.max_events = std::max<uint64_t>(res_.stats.max_events, run.skeleton.events.size());
    std::optional<mm::StaticRelations> st;
    engine_.enumerate(run.skeleton, opt_.model, limits_left(), [&](const mm::Execution& ex) {
      guard_.tick();
      if (!reads_their_values(run, ex)) return true;
      ++res_.stats.executions;
      OutKey k{final_buffers(run, ex)};
      Outcome& o = states[k];
      o.buffers = k.bytes;
      ++o.executions;
      if (!o.witness) o.witness = witness_of(run, ex);
      if (!st) st = mm::build_static(run.skeleton, opt_.model);
      if (opt_.races) find_races(run, *st, opt_.model, ex, res_.races);
      return true;
    });
    if (debug_) {
      size_t nsc = 0;
      for (const auto& e : run.skeleton.events) nsc += e.kind == mm::EventKind::Fence && e.order == mm::Order::SC;
      std::fprintf(stderr, "decided run %llu: %zu events, %zu sc fences, %llu executions so far, %.3f s\n",
                   (unsigned long long)res_.stats.skeletons, run.skeleton.events.size(), nsc,
                   (unsigned long long)res_.stats.executions, elapsed());
    }
  }
  for (auto& [k, o] : states) res_.outcomes.push_back(std::move(o));
}

Result explore(const std::string& spec_path, mm::Engine& engine, const Options& opt) {
  return Explorer(engine, opt).run(spec_path);
}

}  // namespace ptxcheck::outcomes
