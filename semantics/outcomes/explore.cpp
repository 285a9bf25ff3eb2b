// The exploration of a launch's permitted final states (explore.hpp).
#include "semantics/outcomes/explore.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <set>
#include <sstream>

#include "memmodel/relations.hpp"
#include "memmodel/static_relations.hpp"
#include "parser/diagnostic.hpp"
#include "parser/parse.hpp"
#include "semantics/interp/lower.hpp"
#include "semantics/outcomes/hook_impl.hpp"

namespace ptxcheck::outcomes {

namespace {

using Clock = std::chrono::steady_clock;

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    size_t a = l.find_first_not_of(" \t"), b = l.find_last_not_of(" \t\r");
    out.push_back(a == std::string::npos ? "" : l.substr(a, b - a + 1));
  }
  return out;
}

// One finished (or parked) launch turned into a skeleton: the threads with
// memory events, their events in program order, barriers of those threads.
Result::Run make_run(const Hook& h, const Shared& sh, const interp::LaunchSpec& spec,
                     const std::vector<uint64_t>& out_base, const interp::RunResult& rr) {
  Result::Run run;
  run.colls = h.colls;
  mm::Skeleton& s = run.skeleton;
  for (size_t i = 0; i < sh.locs.size(); ++i) {
    mm::Location l;
    l.name = sh.locs[i].name;
    l.physical = static_cast<int>(i);
    l.init = sh.locs[i].init;
    l.size = sh.locs[i].size;
    s.locations.push_back(l);
    mm::Event e;
    e.kind = mm::EventKind::Init;
    e.loc = static_cast<int>(i);
    e.value = l.init;
    e.label = l.name + " = " + std::to_string(l.init);
    s.events.push_back(std::move(e));
    run.sources.emplace_back();
    run.sources.back().text = s.events.back().label;
  }
  // Threads that take part: those with a memory event, and every thread
  // with events of a CTA where some barrier did not gather all live
  // threads (then orders may chain through barrier-only threads).
  std::vector<char> keep(h.th.size(), 0);
  for (size_t g = 0; g < h.th.size(); ++g) {
    const ThreadRec& r = h.th[g];
    for (const auto& e : r.events)
      if (e.kind == mm::EventKind::Read || e.kind == mm::EventKind::Write) keep[g] = 1;
  }
  for (size_t g = 0; g < h.th.size(); ++g) {
    const ThreadRec& r = h.th[g];
    if (!r.t || r.events.empty()) continue;
    auto it = h.cta_partial.find(r.cta_uid);
    if (it != h.cta_partial.end() && it->second) keep[g] = 1;
  }
  for (size_t g = 0; g < h.th.size(); ++g) {
    if (!keep[g]) continue;
    const ThreadRec& r = h.th[g];
    int tix = static_cast<int>(s.threads.size());
    mm::ThreadPlace p;
    p.name = "cta(" + std::to_string(r.cta[0]) + "," + std::to_string(r.cta[1]) + "," + std::to_string(r.cta[2]) +
             ")/t(" + std::to_string(r.tid[0]) + "," + std::to_string(r.tid[1]) + "," +
             std::to_string(r.tid[2]) + ")";
    p.cta = static_cast<int>(r.cta_uid);
    p.cluster = static_cast<int>(r.cluster);
    p.warp = static_cast<int>(r.cta_uid * 64 + r.warp);
    s.threads.push_back(p);
    s.po.emplace_back();
    int base = static_cast<int>(s.events.size());
    size_t next_any = 0;
    for (size_t k = 0; k < r.events.size(); ++k) {
      mm::Event e = r.events[k];
      if (e.kind == mm::EventKind::Barrier && e.bar_id < 0) continue;  // never completed
      run.any_value.resize(s.events.size() + 1, 0);
      while (next_any < r.any_value.size() && static_cast<size_t>(r.any_value[next_any]) < k) ++next_any;
      if (next_any < r.any_value.size() && static_cast<size_t>(r.any_value[next_any]) == k) run.any_value.back() = 1;
      e.thread = tix;
      if (e.rmw_pair >= 0) e.rmw_pair += base;
      s.po.back().push_back(static_cast<int>(s.events.size()));
      s.events.push_back(std::move(e));
      run.sources.push_back(r.src[k]);
    }
  }
  // Output bytes and where each communicating location lies in them.
  run.any_value.resize(s.events.size(), 0);
  for (const auto& name : spec.outputs) {
    size_t b = static_cast<size_t>(spec.buffer_index(name));
    run.buffers.push_back(b < rr.buffers.size() ? rr.buffers[b] : std::vector<uint8_t>{});
  }
  for (size_t i = 0; i < sh.locs.size(); ++i) {
    const CommLoc& l = sh.locs[i];
    for (size_t o = 0; o < out_base.size(); ++o) {
      uint64_t base = out_base[o];
      if (l.key >= base && l.key + l.size <= base + run.buffers[o].size())
        run.placement.push_back({static_cast<int>(i), {o, l.key - base}});
    }
  }
  return run;
}

}  // namespace

std::vector<std::vector<uint8_t>> final_buffers(const Result::Run& r, const mm::Execution& ex) {
  std::vector<std::vector<uint8_t>> out = r.buffers;
  for (const auto& [loc, at] : r.placement) {
    int w = loc < static_cast<int>(ex.final_write.size()) ? ex.final_write[static_cast<size_t>(loc)] : -1;
    uint64_t v = w >= 0 ? r.skeleton.events[static_cast<size_t>(w)].value : r.skeleton.locations[static_cast<size_t>(loc)].init;
    std::memcpy(&out[at.first][at.second], &v, r.skeleton.locations[static_cast<size_t>(loc)].size);
  }
  return out;
}

namespace {

// Rebuilds rmw pairs after barriers that never completed were skipped
// (the two halves of an RMW are adjacent in program order).
void fix_rmw(Result::Run& run, const Hook&) {
  mm::Skeleton& s = run.skeleton;
  for (const auto& po : s.po) {
    for (size_t k = 0; k < po.size(); ++k) {
      mm::Event& e = s.events[static_cast<size_t>(po[k])];
      if (e.rmw_pair < 0) continue;
      // Halves are adjacent in program order (read, then write).
      if (e.kind == mm::EventKind::Read && k + 1 < po.size()) {
        e.rmw_pair = po[k + 1];
        s.events[static_cast<size_t>(po[k + 1])].rmw_pair = po[k];
      }
    }
  }
}

// An execution of a run's skeleton where every read reads from a write of
// the value the run gave it (the engine chooses rf over all writes).
bool reads_their_values(const Result::Run& r, const mm::Execution& ex) {
  const mm::Skeleton& s = r.skeleton;
  for (size_t e = 0; e < s.events.size(); ++e) {
    if (s.events[e].kind != mm::EventKind::Read) continue;
    int w = ex.rf[e];
    if (w < 0) return false;
    if (s.events[static_cast<size_t>(w)].value != s.events[e].value) return false;
  }
  return true;
}

// Calls f() once per valuation of the run's reads of any value (each takes
// the initial value or a value some write of the run stores there); the
// engine matches rf by value, so each valuation is decided on its own.
template <class F>
void for_each_valuation(Result::Run& r, F&& f) {
  mm::Skeleton& s = r.skeleton;
  std::vector<size_t> wild;
  std::vector<std::vector<uint64_t>> cands;
  for (size_t e = 0; e < s.events.size(); ++e) {
    if (!r.any_value[e]) continue;
    const int ph = s.physical(static_cast<int>(e));
    std::set<uint64_t> vals{s.locations[static_cast<size_t>(ph)].init};
    for (size_t w = 0; w < s.events.size(); ++w)
      if (s.events[w].kind == mm::EventKind::Write && s.physical(static_cast<int>(w)) == ph) vals.insert(s.events[w].value);
    wild.push_back(e);
    cands.emplace_back(vals.begin(), vals.end());
  }
  std::vector<size_t> idx(wild.size(), 0);
  for (;;) {
    for (size_t i = 0; i < wild.size(); ++i) s.events[wild[i]].value = cands[i][idx[i]];
    if (!f()) return;
    size_t i = 0;
    while (i < idx.size() && ++idx[i] == cands[i].size()) idx[i++] = 0;
    if (i == idx.size()) return;
  }
}

struct OutKey {
  std::vector<std::vector<uint8_t>> bytes;
  bool operator<(const OutKey& o) const { return bytes < o.bytes; }
};

// What lies between two accesses by lanes of one warp: a bar.warp.sync of
// both lanes (it orders memory among them, PTX ISA 9.7.13.3: no race), or
// only other warp-collective .sync instructions of both lanes (races.hpp:
// the warp-sync-race class; they order no memory), or neither.
enum class Between { Nothing, Collective, WarpBarrier };
Between between(const Result::Run& run, const EventSource& a, const EventSource& b) {
  if (a.cta_uid != b.cta_uid || a.warp != b.warp || a.coll_seq == b.coll_seq) return Between::Nothing;
  auto it = run.colls.find({a.cta_uid, a.warp});
  if (it == run.colls.end()) return Between::Nothing;
  const uint64_t both = (1ull << a.lane) | (1ull << b.lane);
  const uint32_t lo = std::min(a.coll_seq, b.coll_seq), hi = std::max(a.coll_seq, b.coll_seq);
  Between r = Between::Nothing;
  for (uint32_t k = lo; k < hi && k < it->second.size(); ++k)  // the collectives after `lo` accesses, up to `hi`
    if ((it->second[k] & both) == both) {
      if (it->second[k] & kCollOrders) return Between::WarpBarrier;
      r = Between::Collective;
    }
  return r;
}

// 8.7.1: conflicting accesses (overlapping, one a write) of different
// threads that are neither morally strong nor ordered by causality.
void find_races(const Result::Run& run, const mm::StaticRelations& st, const mm::Model& m, const mm::Execution& ex,
                std::vector<Race>& races) {
  const mm::Skeleton& s = run.skeleton;
  mm::CauseInfo ci = mm::compute_cause(st, m, ex.rf, ex.fsc, 0);
  const int n = static_cast<int>(s.events.size());
  for (int a = 0; a < n; ++a) {
    const mm::Event& ea = s.events[static_cast<size_t>(a)];
    if (ea.kind != mm::EventKind::Read && ea.kind != mm::EventKind::Write) continue;
    for (int b = a + 1; b < n; ++b) {
      const mm::Event& eb = s.events[static_cast<size_t>(b)];
      if (eb.kind != mm::EventKind::Read && eb.kind != mm::EventKind::Write) continue;
      if (ea.thread == eb.thread || s.physical(a) != s.physical(b)) continue;
      if (ea.kind != mm::EventKind::Write && eb.kind != mm::EventKind::Write) continue;
      if (st.ms.has(a, b) || ci.cause.has(a, b) || ci.cause.has(b, a)) continue;
      Race r;
      bool swap = run.sources[static_cast<size_t>(b)].line < run.sources[static_cast<size_t>(a)].line;
      int x = swap ? b : a, y = swap ? a : b;
      r.first = run.sources[static_cast<size_t>(x)];
      r.second = run.sources[static_cast<size_t>(y)];
      r.first_write = s.events[static_cast<size_t>(x)].kind == mm::EventKind::Write;
      r.second_write = s.events[static_cast<size_t>(y)].kind == mm::EventKind::Write;
      r.location = s.locations[static_cast<size_t>(ea.loc)].name;
      const Between bw = between(run, r.first, r.second);
      if (bw == Between::WarpBarrier) continue;  // ordered by bar.warp.sync (no event in the skeleton)
      r.warp_sync = bw == Between::Collective;
      bool dup = false;
      for (Race& o : races)
        if (o.first.line == r.first.line && o.first.col == r.first.col && o.second.line == r.second.line &&
            o.second.col == r.second.col && o.location == r.location) {
          dup = true;
          o.warp_sync = o.warp_sync && r.warp_sync;  // a data race in some run is a data race
        }
      if (!dup) races.push_back(std::move(r));
    }
  }
}

}  // namespace

Result explore(const std::string& spec_path, mm::Engine& engine, const Options& opt) {
  const auto start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  auto check_time = [&] {
    if (opt.timeout_s > 0 && elapsed() > opt.timeout_s)
      throw LimitError("timeout after " + std::to_string(opt.timeout_s) + " s");
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
  sh.ptx_lines = split_lines(text);
  {  // the launch's global layout, as Machine::setup_memory builds it
    interp::Memory mem;
    for (const auto& g : prog.globals) sh.allocs.push_back({mem.add_global(g.name, g.bytes), g.bytes, g.name, 1});
    for (const auto& b : spec.buffers)
      sh.allocs.push_back({mem.add_global(b.name, b.init), b.init, b.name, interp::elem_size(b.type)});
  }
  std::vector<uint64_t> out_base;
  for (const auto& name : spec.outputs) out_base.push_back(sh.allocs[prog.globals.size() + static_cast<size_t>(spec.buffer_index(name))].base);
  const uint64_t nthreads = uint64_t{spec.grid[0]} * spec.grid[1] * spec.grid[2] * spec.block[0] * spec.block[1] * spec.block[2];
  if (nthreads > 4096)
    throw LimitError("outcomes explores at most 4096 threads; the launch has " + std::to_string(nthreads));

  interp::RunOptions ro;
  ro.check_races = false;
  ro.max_steps = opt.max_steps;
  std::vector<Result::Run> runs;
  int since_restart = 0;  // rounds with the current classification
  for (int round = 1;; ++round) {
    ++since_restart;
    check_time();
    res.stats.rounds = static_cast<uint64_t>(round);
    runs.clear();
    res.bound_hit = false;
    uint64_t cut = 0, subsumed = 0, most_writes = 0, nruns = 0;
    bool restart = false;
    for (auto& l : sh.locs) l.written.clear();
    sh.path.clear();
    for (;;) {  // depth-first over choice sequences
      check_time();
      if (++nruns > opt.max_runs)
        throw LimitError("more than " + std::to_string(opt.max_runs) + " launches in one round");
      sh.depth = 0;
      Hook hook(sh, static_cast<uint32_t>(nthreads));
      ro.hook = &hook;
      interp::RunResult rr = interp::run_program(prog, spec, ro);
      ++res.stats.runs;
      if (std::getenv("PTXCHECK_OUTCOMES_DEBUG")) {
        std::fprintf(stderr, "run %llu: restart=%d killed=%d cut=%llu stop=%d diags=%zu path=", (unsigned long long)res.stats.runs,
                     hook.restart, hook.killed, (unsigned long long)hook.cut, rr.stopped_by_hook, rr.diagnostics.size());
        for (auto [a, b] : sh.path) std::fprintf(stderr, "%u/%u ", a, b);
        for (const auto& d : rr.diagnostics) std::fprintf(stderr, " [%s:%u %s]", d.kind.c_str(), d.line, d.message.c_str());
        std::fprintf(stderr, "\n");
      }
      if (hook.restart) {
        restart = true;
        break;
      }
      subsumed += hook.subsumed;
      if (rr.step_limit)
        throw LimitError("a launch ran more than " + std::to_string(opt.max_steps) + " thread instructions");
      bool fault = false, deadlock = false;
      for (const auto& d : rr.diagnostics) {
        if (d.severity != "error") continue;
        if (d.kind == "barrier-deadlock") deadlock = true;
        else fault = true;
        if (d.kind != "barrier-deadlock" && res.stats.first_fault.empty())
          res.stats.first_fault =
              d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.col) + ": " + d.kind + ": " + d.message;
      }
      {  // writes on any path feed the value sets and their bound
        size_t writes = 0;
        for (const auto& r : hook.th)
          for (const auto& e : r.events) writes += e.kind == mm::EventKind::Write;
        most_writes = std::max<uint64_t>(most_writes, writes);
      }
      if (!hook.killed && !fault) {
        if (hook.cut) {
          // The loop bound parked a thread: the bound is hit if this prefix
          // has a consistent execution (an infeasible path is no loss).
          cut += hook.cut;
          if (!res.bound_hit) {
            Result::Run pr = make_run(hook, sh, spec, out_base, rr);
            fix_rmw(pr, hook);
            bool any = false;
            for_each_valuation(pr, [&] {
              engine.enumerate(pr.skeleton, opt.model, {}, [&](const mm::Execution& ex) {
                any = reads_their_values(pr, ex);
                return !any;
              });
              return !any;
            });
            res.bound_hit = any;
          }
        } else if (deadlock) {
          ++res.stats.deadlocked;
        } else {
          ++res.stats.finished_runs;
          runs.push_back(make_run(hook, sh, spec, out_base, rr));
          fix_rmw(runs.back(), hook);
        }
      } else if (fault) {
        ++res.stats.faulted;
      }
      // Next choice sequence.
      while (!sh.path.empty() && sh.path.back().first + 1 >= sh.path.back().second) sh.path.pop_back();
      if (sh.path.empty()) break;
      ++sh.path.back().first;
    }
    if (restart) {
      since_restart = 0;
      continue;
    }
    bool changed = false;
    for (auto& l : sh.locs) {
      std::vector<uint64_t> v{l.init};
      for (uint64_t x : l.values) if (x != l.init) l.written.insert(x);
      for (uint64_t x : l.written)
        if (x != l.init) v.push_back(x);
      if (static_cast<int>(v.size()) > opt.max_values)
        throw LimitError("more than " + std::to_string(opt.max_values) + " candidate values for " + l.name);
      changed |= v != l.values;
      l.values = std::move(v);
    }
    res.stats.cut = cut;
    res.stats.subsumed = subsumed;
    // Values found after W+1 rounds need a longer write chain than any
    // execution has (semantics/litmus/traces.hpp): stop there.
    if (!changed || since_restart > static_cast<int>(most_writes) + 1) break;
  }
  res.stats.communicating = sh.locs.size();

  // Decide every finished run.
  std::map<OutKey, Outcome> states;
  for (auto& run : runs) {
    check_time();
    ++res.stats.skeletons;
    res.stats.max_events = std::max<uint64_t>(res.stats.max_events, run.skeleton.events.size());
    mm::Limits lim;
    if (opt.timeout_s > 0) lim.timeout_s = std::max(0.001, opt.timeout_s - elapsed());
    for_each_valuation(run, [&] {
      std::optional<mm::StaticRelations> st;
      engine.enumerate(run.skeleton, opt.model, lim, [&](const mm::Execution& ex) {
        const mm::Skeleton& s = run.skeleton;
        if (!reads_their_values(run, ex)) return true;
        ++res.stats.executions;
        OutKey k{final_buffers(run, ex)};
        Outcome& o = states[k];
        o.buffers = k.bytes;
        ++o.executions;
        if (!o.witness) o.witness = Witness{s, ex, run.sources};
        if (!st) st = mm::build_static(s, opt.model);
        if (opt.races) find_races(run, *st, opt.model, ex, res.races);
        return true;
      });
      return true;
    });
  }
  for (auto& [k, o] : states) res.outcomes.push_back(std::move(o));
  res.runs = std::move(runs);
  res.stats.seconds = elapsed();
  return res;
}

}  // namespace ptxcheck::outcomes
