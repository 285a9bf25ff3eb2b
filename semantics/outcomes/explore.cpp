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
#include "semantics/outcomes/hook_impl.hpp"

namespace ptxcheck::outcomes {

namespace {

using Clock = std::chrono::steady_clock;

// The most communicating locations whose pairs are checked (pairs grow
// quadratically; each needs a key per trace).
constexpr size_t kPairLocs = 6;

// The fewest compositions under a prefix of units for which the prefix is
// checked with shapes for the other units (one engine call per location or
// pair, memoised, against one memo lookup per composition under it).
constexpr uint64_t kPrefixMin = 64;

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

Result explore(const std::string& spec_path, mm::Engine& engine, const Options& opt) {
  const auto start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  // The memory limit (memory_limit.hpp), checked with the time at most
  // every 10 ms, and by Hook::push as a run's events grow.
  MemoryGuard guard(memory_limit_bytes(opt.max_memory_mib), opt.max_memory_mib);
  double mem_checked = -1;
  auto check_time = [&] {
    const double now = elapsed();
    if (opt.timeout_s > 0 && now > opt.timeout_s)
      throw LimitError("timeout after " + std::to_string(opt.timeout_s) + " s");
    if (now - mem_checked >= 0.01 || mem_checked < 0) {
      mem_checked = now;
      guard.check();
    }
  };
  Result res;
  res.spec = interp::load_launch_spec(spec_path);
  const interp::LaunchSpec& spec = res.spec;
  std::string text;
  try {
    text = interp::read_file_text(spec.ptx_path);
  } catch (const InputError&) {
    throw InputError(spec.file, spec.ptx_pos, "cannot read PTX file '" + spec.ptx_path + "'");
  }
  ast::Module mod = parse_module(text, spec.ptx_path);
  mod.file = spec.ptx_path;
  interp::Program prog = interp::lower(mod, spec.kernel, spec.kernel_pos, spec.file);
  res.ptx_file = spec.ptx_path;

  Shared sh;
  sh.opt = &opt;
  sh.prog = &prog;
  sh.mem = &guard;
  sh.ptx_lines = split_lines(text);
  {  // the launch's global layout, as Machine::setup_memory builds it
    interp::Memory mem;
    for (const auto& g : prog.globals) sh.allocs.push_back({mem.add_global(g.name, g.bytes), g.bytes, g.name, 1});
    for (const auto& b : spec.buffers)
      sh.allocs.push_back({mem.add_global(b.name, b.init), b.init, b.name, interp::elem_size(b.type)});
  }
  std::vector<uint64_t> out_base;
  for (const auto& name : spec.outputs)
    out_base.push_back(sh.allocs[prog.globals.size() + static_cast<size_t>(spec.buffer_index(name))].base);
  const uint64_t nthreads =
      uint64_t{spec.grid[0]} * spec.grid[1] * spec.grid[2] * spec.block[0] * spec.block[1] * spec.block[2];
  if (nthreads > 4096)
    throw LimitError("outcomes explores at most 4096 threads; the launch has " + std::to_string(nthreads));

  // Units (explore.hpp): the CTAs, explored apart, when no cluster joins
  // them; else the whole grid.
  const uint64_t nctas = uint64_t{spec.grid[0]} * spec.grid[1] * spec.grid[2];
  bool decompose = opt.decompose && nctas > 1 && spec.cluster == std::array<uint32_t, 3>{1, 1, 1};
  std::vector<std::vector<uint8_t>> init_out;
  for (const auto& name : spec.outputs)
    init_out.push_back(sh.allocs[prog.globals.size() + static_cast<size_t>(spec.buffer_index(name))].bytes);

  // PTXCHECK_OUTCOMES_NO_CHAIN_BOUND: every written value joins the value
  // sets (the value-chain bound off; for cross-checks of the bound).
  const bool chain_bound = std::getenv("PTXCHECK_OUTCOMES_NO_CHAIN_BOUND") == nullptr;
  sh.no_canon = std::getenv("PTXCHECK_OUTCOMES_NO_CANON") != nullptr;          // hook_canon.cpp
  sh.no_commute = std::getenv("PTXCHECK_OUTCOMES_NO_COMMUTE") != nullptr;      // Hook::commuting_rmw
  sh.no_rmw_chain = std::getenv("PTXCHECK_OUTCOMES_NO_RMW_CHAIN") != nullptr;  // hook_chain.cpp
  sh.no_entry = std::getenv("PTXCHECK_OUTCOMES_NO_ENTRY") != nullptr;          // hook_loop.cpp
  sh.clusters = spec.cluster != std::array<uint32_t, 3>{1, 1, 1};
  interp::RunOptions ro;
  ro.check_races = false;
  ro.max_steps = opt.max_steps;
  std::vector<std::vector<UnitTrace>> traces;  // per unit, of the last round, in depth-first order
  uint32_t nunits = 1;
  int since_restart = 0;  // rounds with the current classification
  for (int round = 1;; ++round) {
    ++since_restart;
    check_time();
    res.stats.rounds = static_cast<uint64_t>(round);
    nunits = decompose ? static_cast<uint32_t>(nctas) : 1;
    sh.decompose = decompose;
    traces.assign(nunits, {});
    // Per unit: its depth-first search, whether it is done, and a path that
    // finishes without stopping the launch (replayed once it is done, so
    // that the units after it run).
    std::vector<Shared::Path> dfs(nunits), replay(nunits);
    std::vector<char> done(nunits, 0), has_replay(nunits, 0);
    std::vector<uint64_t> unit_writes(nunits, 0);
    std::vector<std::vector<uint64_t>> unit_loc_writes(nunits);  // most writes of a trace, per location
    sh.chain_changed = false;
    uint64_t cut = 0, subsumed = 0, nruns = 0;
    bool restart = false;
    for (auto& l : sh.locs) l.written.clear();
    for (;;) {  // launches: each advances the search of every unit that runs
      uint32_t next = 0;
      bool blocked = false;
      while (next < nunits && done[next]) blocked = blocked || !has_replay[next++];
      if (next == nunits || blocked) break;
      check_time();
      if (++nruns > opt.max_runs)
        throw LimitError("more than " + std::to_string(opt.max_runs) + " launches in one round");
      sh.path.assign(nunits, {});
      sh.depth.assign(nunits, 0);
      for (uint32_t u = 0; u < nunits; ++u) sh.path[u] = done[u] ? replay[u] : dfs[u];
      Hook hook(sh, static_cast<uint32_t>(nthreads));
      ro.hook = &hook;
      interp::RunResult rr = interp::run_program(prog, spec, ro);
      ++res.stats.runs;
      if (std::getenv("PTXCHECK_OUTCOMES_DEBUG")) {
        std::fprintf(stderr, "run %llu: restart=%d killed=%d cut=%llu stop=%d diags=%zu path=",
                     (unsigned long long)res.stats.runs, hook.restart, hook.killed, (unsigned long long)hook.cut,
                     rr.stopped_by_hook, rr.diagnostics.size());
        for (uint32_t u = 0; u < nunits; ++u) {
          if (u) std::fprintf(stderr, "| ");
          for (auto [x, y] : sh.path[u]) std::fprintf(stderr, "%u/%u ", x, y);
        }
        for (const auto& d : rr.diagnostics)
          std::fprintf(stderr, " [%s:%u %s]", d.kind.c_str(), d.line, d.message.c_str());
        std::fprintf(stderr, "\n");
      }
      const bool errored = rr.step_limit || std::any_of(rr.diagnostics.begin(), rr.diagnostics.end(),
                                                        [](const auto& d) { return d.severity == "error"; });
      if (hook.restart || !hook.canon_check(errored)) {
        restart = true;
        break;
      }
      if (rr.step_limit)
        throw LimitError("a launch ran more than " + std::to_string(opt.max_steps) + " thread instructions");
      // Every error stops the launch (the Machine runs one cluster at a
      // time): the units after the erring one did not run.
      int stop = -1;
      bool fault = false;
      const std::string deadlock = interp::diag_kind_name(interp::DiagKind::BarrierDeadlock);
      for (const auto& d : rr.diagnostics) {
        if (d.severity != "error") continue;
        if (stop < 0)
          stop = decompose ? static_cast<int>((uint64_t{d.cta[2]} * spec.grid[1] + d.cta[1]) * spec.grid[0] + d.cta[0])
                           : 0;
        if (d.kind != deadlock) fault = true;
        if (d.kind != deadlock && res.stats.first_fault.empty())
          res.stats.first_fault =
              d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.col) + ": " + d.kind + ": " + d.message;
      }
      if (fault && !hook.killed) ++res.stats.faulted;
      // The threads of each unit, and the bytes written deterministically.
      std::vector<std::vector<uint32_t>> gids(nunits);
      std::unordered_set<uint64_t> det_written;
      for (uint32_t g = 0; g < hook.th.size(); ++g) {
        const ThreadRec& r = hook.th[g];
        if (!r.seen) continue;
        gids[decompose ? r.cta_uid : 0].push_back(g);
        if (decompose)
          for (auto [k, n] : r.det_writes)
            for (uint64_t b = k; b < k + n; ++b) det_written.insert(b);
      }
      if (decompose) {
        // A CTA's output bytes must come from its own writes: bytes that
        // change without a write the hook saw make the exploration whole.
        bool unseen = false;
        for (size_t o = 0; o < out_base.size() && !unseen; ++o) {
          const auto& now = rr.buffers[static_cast<size_t>(spec.buffer_index(spec.outputs[o]))];
          for (size_t i = 0; i < now.size() && !unseen; ++i) {
            const uint64_t key = out_base[o] + i;
            unseen = now[i] != init_out[o][i] && !sh.comm_byte.count(key) && !det_written.count(key);
          }
        }
        if (unseen) {
          sh.no_decompose = true;
          restart = true;
          break;
        }
      }
      for (uint32_t u = 0; u < nunits; ++u) {
        if (stop >= 0 && u > static_cast<uint32_t>(stop)) break;  // did not run
        if (done[u]) continue;
        UnitTrace t;
        bool killed = false, cut_here = false;
        for (uint32_t g : gids[u]) {
          ThreadRec r = std::move(hook.th[g]);
          killed = killed || r.killed;
          cut_here = cut_here || r.cut;
          subsumed += r.subsumed;
          for (const auto& e : r.events)
            if (e.kind == mm::EventKind::Write) {
              ++t.writes;
              if (t.loc_writes.size() <= static_cast<size_t>(e.loc))
                t.loc_writes.resize(static_cast<size_t>(e.loc) + 1, 0);
              ++t.loc_writes[static_cast<size_t>(e.loc)];
            }
          for (const auto& [kn, x] : r.exempt)
            for (size_t o = 0; o < out_base.size(); ++o)
              if (kn.first >= out_base[o] && kn.first + kn.second <= out_base[o] + init_out[o].size()) {
                const std::pair<size_t, size_t> at{o, kn.first - out_base[o]};
                auto [it, fresh] = t.exempt.try_emplace(at, kn.second, x.first, x.second);
                if (!fresh && std::get<1>(it->second) == x.first)
                  std::get<2>(it->second) = exempt_combine(x.first, std::get<2>(it->second), x.second, kn.second);
                else if (!fresh)
                  std::get<1>(it->second) = -2;
              }
          for (auto [k, n] : r.det_writes)
            for (uint64_t b = k; b < k + n; ++b)
              for (size_t o = 0; o < out_base.size(); ++o)
                if (b >= out_base[o] && b < out_base[o] + init_out[o].size()) {
                  const size_t off = b - out_base[o];
                  t.det_bytes.push_back(
                      {{o, off}, rr.buffers[static_cast<size_t>(spec.buffer_index(spec.outputs[o]))][off]});
                }
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
          if (!decompose || k == u) t.cta_partial[k] = v;
        for (const auto& [k, v] : hook.colls)
          if (!decompose || k.first == u) t.colls[k] = v;
        if (!decompose)
          for (const auto& name : spec.outputs) {
            size_t b = static_cast<size_t>(spec.buffer_index(name));
            t.buffers.push_back(b < rr.buffers.size() ? rr.buffers[b] : std::vector<uint8_t>{});
          }
        const bool stopped = static_cast<int>(u) == stop;
        if (killed)
          t.st = UnitTrace::St::Killed;
        else if (stopped && fault)
          t.st = UnitTrace::St::Fault;
        else if (cut_here)
          t.st = UnitTrace::St::Cut;
        else if (stopped)
          t.st = UnitTrace::St::Deadlock;
        unit_writes[u] = std::max(unit_writes[u], t.writes);
        std::vector<uint64_t>& ulw = unit_loc_writes[u];
        if (ulw.size() < t.loc_writes.size()) ulw.resize(t.loc_writes.size(), 0);
        for (size_t x = 0; x < t.loc_writes.size(); ++x) ulw[x] = std::max(ulw[x], t.loc_writes[x]);
        // A path that stopped no launch: a finished one, else (until one
        // finishes) a dropped or cut one, whose parked threads end their CTA
        // quietly. Replaying it lets the units after this one run even when
        // no path of it finishes in this round: their writes may give it
        // the values that make one finish in the next.
        if ((t.st == UnitTrace::St::Finished && has_replay[u] != 2) ||
            ((t.st == UnitTrace::St::Killed || t.st == UnitTrace::St::Cut) && !has_replay[u])) {
          replay[u] = sh.path[u];
          has_replay[u] = t.st == UnitTrace::St::Finished ? 2 : 1;
        }
        if (t.st == UnitTrace::St::Cut) {
          for (const auto& [g, r] : t.th) cut += r.cut;
        }
        if (t.st == UnitTrace::St::Deadlock) ++res.stats.deadlocked;
        if (t.st == UnitTrace::St::Finished || t.st == UnitTrace::St::Cut) traces[u].push_back(std::move(t));
        // Next choice sequence of this unit.
        Shared::Path& p = dfs[u];
        p = sh.path[u];
        while (!p.empty() && p.back().first + 1 >= p.back().second) p.pop_back();
        if (p.empty())
          done[u] = 1;
        else
          ++p.back().first;
      }
    }
    if (restart) {
      if (sh.no_decompose) decompose = false;
      since_restart = 0;
      continue;
    }
    // Value chains (explore.hpp): a value whose chain needs more writes to
    // some location than any trace of this round has (summed over the
    // units) is read in no execution; it joins no value set (yet: its
    // bound may fall, or the most writes grow, in a later round).
    std::vector<uint64_t> most_loc_writes(sh.locs.size(), 0);
    for (const auto& ulw : unit_loc_writes)
      for (size_t x = 0; x < ulw.size() && x < most_loc_writes.size(); ++x) most_loc_writes[x] += ulw[x];
    auto within = [&](const std::vector<uint32_t>& c) {
      if (!chain_bound) return true;
      for (size_t x = 0; x < c.size(); ++x)
        if (c[x] > (x < most_loc_writes.size() ? most_loc_writes[x] : 0)) return false;
      return true;
    };
    bool changed = false, pending = false;
    for (size_t li = 0; li < sh.locs.size(); ++li) {
      CommLoc& l = sh.locs[li];
      std::vector<uint64_t> v{l.init};
      std::set<uint64_t> keep;
      for (uint64_t x : l.values)
        if (x != l.init) keep.insert(x);  // once in, a value stays
      for (uint64_t x : l.written)
        if (x != l.init && !keep.count(x)) {
          if (within(sh.chain_of(static_cast<int>(li), x)))
            keep.insert(x);
          else
            pending = true;
        }
      for (uint64_t x : keep) v.push_back(x);
      if (static_cast<int>(v.size()) > opt.max_values)
        throw LimitError("more than " + std::to_string(opt.max_values) + " candidate values for " + l.name);
      changed |= v != l.values;
      l.values = std::move(v);
    }
    // A lower chain bound matters only to a value left out: the next round
    // runs with the bounds lowered in this one.
    changed = changed || (pending && sh.chain_changed);
    if (std::getenv("PTXCHECK_OUTCOMES_DEBUG"))
      for (const CommLoc& l : sh.locs) {
        std::fprintf(stderr, "round %d: %s =", round, l.name.c_str());
        for (uint64_t x : l.values) std::fprintf(stderr, " %#llx", (unsigned long long)x);
        std::fprintf(stderr, "\n");
      }
    res.stats.cut = cut;
    res.stats.subsumed = subsumed;
    // Values found after W+1 rounds need a longer write chain than any
    // execution has (semantics/litmus/traces.hpp): stop there. (W: the
    // most writes of a unit's trace, summed over the units.)
    uint64_t most_writes = 0;
    for (uint64_t w : unit_writes) most_writes += w;
    if (!changed || since_restart > static_cast<int>(most_writes) + 1) break;
  }
  res.stats.units = nunits;
  const bool debug = std::getenv("PTXCHECK_OUTCOMES_DEBUG") != nullptr;
  if (debug) {
    std::fprintf(stderr, "explored in %.3f s, units %u, traces:", elapsed(), nunits);
    for (const auto& l : traces) std::fprintf(stderr, " %zu", l.size());
    std::fprintf(stderr, "\n");
  }

  // The runs: compositions of one trace per unit. A composition whose
  // accesses to some location alone have no consistent execution reading
  // their values has none as a whole (docs/outcomes.md): skipped.
  const Composer comp{sh, out_base, init_out, static_cast<uint32_t>(nthreads)};
  const size_t nlocs = sh.locs.size();
  // Location pairs (x, y) checked after the single locations: the accesses
  // to both with the fences of their threads (docs/outcomes.md, "How the
  // search scales", item 2). With two locations a pair is about the whole
  // run (deciding it costs as much), so only from three; and only up to
  // kPairLocs locations, so that the keys stay few.
  // PTXCHECK_OUTCOMES_NO_PAIRS turns them off (for cross-checks).
  std::vector<std::pair<int, int>> pairs;
  if (opt.prune && nlocs >= 3 && nlocs <= kPairLocs && nunits >= 2 && !std::getenv("PTXCHECK_OUTCOMES_NO_PAIRS"))
    for (size_t x = 0; x < nlocs; ++x)
      for (size_t y = x + 1; y < nlocs; ++y) pairs.emplace_back(static_cast<int>(x), static_cast<int>(y));
  // Prefix checks (docs/outcomes.md, "How the search scales", item 2;
  // Composer::project_prefix argues them) use the same locations and
  // pairs, and with two locations also the pair of both (a lock and the
  // counter it protects: only both together tie the counter's order to the
  // lock's), which then checks compositions too: with the memo keys sorted
  // (below), one check stands for every order of the same traces, cheaper
  // than deciding each run. PTXCHECK_OUTCOMES_NO_PREFIX turns this off (for
  // cross-checks).
  const bool prefixes = opt.prune && nunits >= 2 && !std::getenv("PTXCHECK_OUTCOMES_NO_PREFIX");
  if (prefixes && nlocs == 2 && pairs.empty()) pairs.emplace_back(0, 1);
  const size_t npcons = nlocs + pairs.size();
  // With several units (the CTAs of a launch without clusters, item 1),
  // every two threads of different units are related alike (other CTA,
  // other cluster, same GPU: the scopes of PTX ISA 8.5), and the axioms
  // (8.10) see threads only through these relations and program order:
  // renaming CTAs maps the consistent executions of a check's events onto
  // those of the renamed events. So a check is decided by the multiset of
  // its units' keys, with threads named by their index in their CTA: the
  // memo keys below are sorted.
  const bool local = nunits > 1;
  std::vector<std::map<std::string, int>> key_ids(npcons);
  for (auto& list : traces)
    for (UnitTrace& t : list) {
      t.proj.resize(npcons);
      for (size_t x = 0; x < npcons; ++x) {
        std::string key = x < nlocs ? access_key(t, static_cast<int>(x), -1, local)
                                    : access_key(t, pairs[x - nlocs].first, pairs[x - nlocs].second, local);
        auto [it, fresh] = key_ids[x].emplace(std::move(key), static_cast<int>(key_ids[x].size()));
        t.proj[x] = it->second;
      }
    }
  struct KeyHash {
    size_t operator()(const std::vector<int>& v) const {
      size_t h = v.size();
      for (int x : v) h = h * 1000003u ^ static_cast<size_t>(x);
      return h;
    }
  };
  auto con_name = [&](size_t x) {
    return x < nlocs ? sh.locs[x].name
                     : sh.locs[static_cast<size_t>(pairs[x - nlocs].first)].name + "+" +
                           sh.locs[static_cast<size_t>(pairs[x - nlocs].second)].name;
  };
  std::vector<std::unordered_map<std::vector<int>, bool, KeyHash>> memo(npcons);
  mm::Limits plim;
  std::vector<double> miss_s(npcons, 0);
  std::vector<uint64_t> misses(npcons, 0);
  auto passes = [&](const std::vector<const UnitTrace*>& pick) {
    if (!opt.prune) return true;
    std::vector<int> key(pick.size());
    for (size_t x = 0; x < npcons; ++x) {
      for (size_t u = 0; u < pick.size(); ++u) key[u] = pick[u]->proj[x];
      if (local) std::sort(key.begin(), key.end());
      auto it = memo[x].find(key);
      if (it == memo[x].end()) {
        check_time();
        Result::Run p = x < nlocs ? comp.project(pick, static_cast<int>(x))
                                  : comp.project(pick, pairs[x - nlocs].first, pairs[x - nlocs].second);
        if (opt.timeout_s > 0) plim.timeout_s = std::max(0.001, opt.timeout_s - elapsed());
        const double t0 = debug ? elapsed() : 0;
        it = memo[x].emplace(key, feasible(p, engine, opt.model, plim)).first;
        if (debug) miss_s[x] += elapsed() - t0, ++misses[x];
        if (debug && elapsed() - t0 > 0.1) {
          std::fprintf(stderr, "  slow check %s %.3f s -> %d:", con_name(x).c_str(), elapsed() - t0, (int)it->second);
          for (const auto& e : p.skeleton.events)
            std::fprintf(stderr, " %d:%d%c%llu", e.thread, (int)e.kind, e.rmw_pair >= 0 ? 'r' : ' ',
                         (unsigned long long)e.value);
          std::fprintf(stderr, "\n");
        }
      }
      if (!it->second) {
        ++res.stats.pruned;
        return false;
      }
    }
    return true;
  };
  std::vector<Result::Run> runs;
  // The loop bound is hit if a cut prefix (finished units, then one cut
  // unit; the later units did not run) has a consistent execution whose
  // reads read their values. With decomposed units, a cut unit's threads
  // are parked and the later units run on: a cut prefix of one unit may
  // read what a later unit wrote before it was cut too (a producer and a
  // consumer both in counted loops), so the cut traces are also composed
  // with the finished or cut traces of every other unit.
  res.bound_hit = false;
  res.unroll = opt.unroll;
  for (uint32_t k = 0; k < nunits && !res.bound_hit; ++k) {
    std::vector<UnitTrace> cuts;
    for (const UnitTrace& t : traces[k])
      if (t.st == UnitTrace::St::Cut) cuts.push_back(t);
    if (cuts.empty()) continue;
    for (const bool all : {false, true}) {
      if (res.bound_hit || (all && nunits == 1)) break;
      std::vector<std::vector<UnitTrace>> other(all ? nunits : k);
      for (uint32_t u = 0; u < other.size(); ++u)
        for (const UnitTrace& t : traces[u])
          if (u != k && (t.st == UnitTrace::St::Finished || (all && t.st == UnitTrace::St::Cut))) other[u].push_back(t);
      std::vector<const std::vector<UnitTrace>*> lists;
      for (uint32_t u = 0; u < other.size(); ++u) lists.push_back(u == k ? &cuts : &other[u]);
      if (!all) lists.push_back(&cuts);
      for_each_composition(lists, [&](const std::vector<const UnitTrace*>& pick) {
        check_time();
        if (!passes(pick)) return true;
        Result::Run pr = comp.build(pick);
        mm::Limits lim;
        if (opt.timeout_s > 0) lim.timeout_s = std::max(0.001, opt.timeout_s - elapsed());
        res.bound_hit = feasible(pr, engine, opt.model, lim);
        return !res.bound_hit;
      });
    }
  }
  {
    std::vector<std::vector<UnitTrace>> fin(nunits);
    for (uint32_t u = 0; u < nunits; ++u)
      for (UnitTrace& t : traces[u])
        if (t.st == UnitTrace::St::Finished) fin[u].push_back(std::move(t));
    traces.clear();
    std::vector<const std::vector<UnitTrace>*> lists;
    for (auto& f : fin) lists.push_back(&f);
    if (!prefixes) {
      for_each_composition(lists, [&](const std::vector<const UnitTrace*>& pick) {
        check_time();
        ++res.stats.finished_runs;
        if (passes(pick)) runs.push_back(comp.build(pick));
        return true;
      });
    } else {
      // The same compositions in the same order, depth first over the
      // units, where a prefix of k units under which lie at least
      // kPrefixMin compositions is first checked location by location (and
      // pair by pair) with the shapes of units k.. (compose.hpp) in place of
      // their traces: when a check fails, no composition under the prefix
      // has a consistent execution (Composer::project_prefix), and all of
      // them are skipped. A unit without a shape at a location leaves that
      // check out for the prefixes it is not in.
      std::vector<std::vector<std::optional<UnitShape>>> shape(npcons, std::vector<std::optional<UnitShape>>(nunits));
      for (size_t x = 0; x < npcons; ++x)
        for (uint32_t u = 0; u < nunits; ++u)
          shape[x][u] = x < nlocs ? unit_shape(fin[u], static_cast<int>(x))
                                  : unit_shape(fin[u], pairs[x - nlocs].first, pairs[x - nlocs].second);
      auto product = [&] {
        uint64_t n = 1;
        for (const auto& f : fin) n = f.empty() ? 0 : std::min<uint64_t>(n, UINT64_MAX / f.size()) * f.size();
        return n;
      };
      // First each trace of units 1.. alone with the shapes of all the other
      // units (the order of the units in a composition does not matter to
      // its projections, so the same argument holds): a trace that fails is
      // in no consistent composition and leaves its unit's list (unit 0's
      // traces are the prefixes of length 1 below).
      if (const uint64_t all = product(); all >= kPrefixMin) {
        for (uint32_t u = 1; u < nunits; ++u) {
          std::vector<std::unordered_map<int, bool>> memo1(npcons);
          std::vector<UnitTrace> keep;
          for (UnitTrace& t : fin[u]) {
            bool ok = true;
            for (size_t x = 0; x < npcons && ok; ++x) {
              std::vector<const UnitShape*> rest;
              for (uint32_t v = 0; v < nunits; ++v)
                if (v != u && shape[x][v]) rest.push_back(&*shape[x][v]);
              if (rest.size() + 1 != nunits) continue;
              auto it = memo1[x].find(t.proj[x]);
              if (it == memo1[x].end()) {
                check_time();
                Result::Run p = x < nlocs
                                    ? comp.project_prefix({&t}, rest, static_cast<int>(x))
                                    : comp.project_prefix({&t}, rest, pairs[x - nlocs].first, pairs[x - nlocs].second);
                if (opt.timeout_s > 0) plim.timeout_s = std::max(0.001, opt.timeout_s - elapsed());
                it = memo1[x].emplace(t.proj[x], feasible(p, engine, opt.model, plim)).first;
              }
              ok = it->second;
            }
            if (ok) keep.push_back(std::move(t));
          }
          fin[u] = std::move(keep);
        }
        const uint64_t gone = all - product();
        res.stats.finished_runs += gone;
        res.stats.pruned += gone;
        res.stats.prefix_pruned += gone;
      }
      std::vector<uint64_t> below(nunits + 1, 1);  // compositions under a prefix of k units
      for (size_t k = nunits; k-- > 0;)
        below[k] = fin[k].empty() ? 0 : std::min<uint64_t>(below[k + 1], UINT64_MAX / fin[k].size()) * fin[k].size();
      // Per prefix length and constraint: prefix keys -> check result.
      std::vector<std::vector<std::unordered_map<std::vector<int>, bool, KeyHash>>> pmemo(
          nunits, std::vector<std::unordered_map<std::vector<int>, bool, KeyHash>>(npcons));
      std::vector<const UnitTrace*> pick(nunits);
      auto prefix_passes = [&](size_t k) {
        std::vector<const UnitTrace*> prefix(pick.begin(), pick.begin() + static_cast<std::ptrdiff_t>(k));
        std::vector<int> key(k);
        for (size_t x = 0; x < npcons; ++x) {
          std::vector<const UnitShape*> rest;
          for (size_t u = k; u < nunits && rest.size() == u - k; ++u)
            if (shape[x][u]) rest.push_back(&*shape[x][u]);
          if (rest.size() != nunits - k) continue;
          for (size_t u = 0; u < k; ++u) key[u] = pick[u]->proj[x];
          std::sort(key.begin(), key.end());  // the shapes of units k.. are the same for every prefix
          auto it = pmemo[k][x].find(key);
          if (it == pmemo[k][x].end()) {
            check_time();
            Result::Run p = x < nlocs
                                ? comp.project_prefix(prefix, rest, static_cast<int>(x))
                                : comp.project_prefix(prefix, rest, pairs[x - nlocs].first, pairs[x - nlocs].second);
            if (opt.timeout_s > 0) plim.timeout_s = std::max(0.001, opt.timeout_s - elapsed());
            const double t0 = debug ? elapsed() : 0;
            it = pmemo[k][x].emplace(key, feasible(p, engine, opt.model, plim)).first;
            if (debug) miss_s[x] += elapsed() - t0, ++misses[x];
          }
          if (!it->second) return false;
        }
        return true;
      };
      std::function<void(size_t)> descend = [&](size_t k) {
        if (k == nunits) {
          check_time();
          ++res.stats.finished_runs;
          if (passes(pick)) runs.push_back(comp.build(pick));
          return;
        }
        for (const UnitTrace& t : fin[k]) {
          pick[k] = &t;
          if (k + 1 < nunits && below[k + 1] >= kPrefixMin && !prefix_passes(k + 1)) {
            res.stats.finished_runs += below[k + 1];
            res.stats.pruned += below[k + 1];
            res.stats.prefix_pruned += below[k + 1];
            continue;
          }
          descend(k + 1);
        }
      };
      descend(0);
    }
  }
  res.stats.communicating = sh.locs.size();

  if (debug)
    std::fprintf(stderr, "composed in %.3f s: %llu compositions, %llu pruned, %zu runs\n", elapsed(),
                 (unsigned long long)res.stats.finished_runs, (unsigned long long)res.stats.pruned, runs.size());
  if (debug)
    for (size_t x = 0; x < npcons; ++x)
      std::fprintf(stderr, "  %s: %llu checks, %.3f s\n", con_name(x).c_str(), (unsigned long long)misses[x],
                   miss_s[x]);
  // Decide every finished run.
  std::map<OutKey, Outcome> states;
  for (auto& run : runs) {
    check_time();
    ++res.stats.skeletons;
    res.stats.max_events = std::max<uint64_t>(res.stats.max_events, run.skeleton.events.size());
    mm::Limits lim;
    if (opt.timeout_s > 0) lim.timeout_s = std::max(0.001, opt.timeout_s - elapsed());
    std::optional<mm::StaticRelations> st;
    engine.enumerate(run.skeleton, opt.model, lim, [&](const mm::Execution& ex) {
      guard.tick();
      if (!reads_their_values(run, ex)) return true;
      ++res.stats.executions;
      OutKey k{final_buffers(run, ex)};
      Outcome& o = states[k];
      o.buffers = k.bytes;
      ++o.executions;
      if (!o.witness) o.witness = witness_of(run, ex);
      if (!st) st = mm::build_static(run.skeleton, opt.model);
      if (opt.races) find_races(run, *st, opt.model, ex, res.races);
      return true;
    });
    if (debug) {
      size_t nsc = 0;
      for (const auto& e : run.skeleton.events) nsc += e.kind == mm::EventKind::Fence && e.order == mm::Order::SC;
      std::fprintf(stderr, "decided run %llu: %zu events, %zu sc fences, %llu executions so far, %.3f s\n",
                   (unsigned long long)res.stats.skeletons, run.skeleton.events.size(), nsc,
                   (unsigned long long)res.stats.executions, elapsed());
    }
  }
  for (auto& [k, o] : states) res.outcomes.push_back(std::move(o));
  res.runs = std::move(runs);
  res.stats.seconds = elapsed();
  return res;
}

}  // namespace ptxcheck::outcomes
