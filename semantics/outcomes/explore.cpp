// The exploration of a launch's permitted final states (explore.hpp).
#include "semantics/outcomes/explore.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <set>
#include <unordered_map>
#include <unordered_set>
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
// The threads, barrier facts and warp collectives of one run (a launch, or a
// composition of units' traces).
struct RunView {
  const std::vector<ThreadRec>& th;
  const std::map<uint32_t, bool>& cta_partial;
  const std::map<std::pair<uint32_t, uint32_t>, std::vector<uint64_t>>& colls;
};

Result::Run make_run(const RunView& h, const Shared& sh, const std::vector<std::vector<uint8_t>>& buffers,
                     const std::vector<uint64_t>& out_base) {
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
    if (!r.seen || r.events.empty()) continue;
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
  run.buffers = buffers;
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
void fix_rmw(Result::Run& run) {
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

// What one unit (explore.hpp: a CTA, or the whole grid) did in one launch:
// its threads' records, barrier facts, warp collectives and the output
// bytes it wrote deterministically.
struct UnitTrace {
  enum class St { Finished, Cut, Killed, Deadlock, Fault } st = St::Finished;
  std::vector<std::pair<uint32_t, ThreadRec>> th;  // (gid, record)
  std::map<uint32_t, bool> cta_partial;
  std::map<std::pair<uint32_t, uint32_t>, std::vector<uint64_t>> colls;
  std::vector<std::pair<std::pair<size_t, size_t>, uint8_t>> det_bytes;  // ((output, offset), byte)
  std::vector<std::vector<uint8_t>> buffers;  // the whole grid as one unit: the launch's output bytes
  uint64_t writes = 0;
  std::vector<int> proj;  // per communicating location: id of this trace's accesses there
};

// The composition of one trace per unit, as the launch that made these
// choices in every unit would have recorded it.
struct Composer {
  const Shared& sh;
  const std::vector<uint64_t>& out_base;
  const std::vector<std::vector<uint8_t>>& init_out;  // initial output bytes
  uint32_t nthreads;

  Result::Run build(const std::vector<const UnitTrace*>& pick) const {
    std::vector<ThreadRec> th(nthreads);
    std::map<uint32_t, bool> partial;
    std::map<std::pair<uint32_t, uint32_t>, std::vector<uint64_t>> colls;
    std::vector<std::vector<uint8_t>> bufs = init_out;
    for (const UnitTrace* u : pick) {
      for (const auto& [g, r] : u->th) th[g] = r;
      for (const auto& kv : u->cta_partial) partial.insert(kv);
      for (const auto& kv : u->colls) colls.insert(kv);
      if (!u->buffers.empty()) bufs = u->buffers;
      for (const auto& [at, b] : u->det_bytes) bufs[at.first][at.second] = b;
    }
    Result::Run run = make_run(RunView{th, partial, colls}, sh, bufs, out_base);
    fix_rmw(run);
    return run;
  }

  // The accesses of the composition to communicating location `x` alone
  // (with every location's initial write), but reads of any value: what
  // the location check decides. The skeleton of build(pick) restricted to
  // those events.
  Result::Run project(const std::vector<const UnitTrace*>& pick, int x) const {
    Result::Run p;
    mm::Skeleton& q = p.skeleton;
    for (size_t i = 0; i < sh.locs.size(); ++i) {
      mm::Location l;
      l.physical = static_cast<int>(i);
      l.init = sh.locs[i].init;
      l.size = sh.locs[i].size;
      q.locations.push_back(l);
      mm::Event e;
      e.kind = mm::EventKind::Init;
      e.loc = static_cast<int>(i);
      e.value = l.init;
      q.events.push_back(std::move(e));
    }
    p.any_value.assign(q.events.size(), 0);
    for (const UnitTrace* u : pick)
      for (const auto& [g, r] : u->th) {
        int tix = -1;
        size_t next_any = 0;
        bool unpair = false;
        for (size_t k = 0; k < r.events.size(); ++k) {
          const mm::Event& ev = r.events[k];
          if ((ev.kind != mm::EventKind::Read && ev.kind != mm::EventKind::Write) || ev.loc != x) continue;
          while (next_any < r.any_value.size() && static_cast<size_t>(r.any_value[next_any]) < k) ++next_any;
          if (next_any < r.any_value.size() && static_cast<size_t>(r.any_value[next_any]) == k) {
            // A read of any value is left out (docs/outcomes.md: a subset of
            // the events is still a necessary condition); its write half
            // stays, as a plain write.
            unpair = ev.rmw_pair >= 0;
            continue;
          }
          if (tix < 0) {
            tix = static_cast<int>(q.threads.size());
            mm::ThreadPlace tp;
            tp.cta = static_cast<int>(r.cta_uid);
            tp.cluster = static_cast<int>(r.cluster);
            tp.warp = static_cast<int>(r.cta_uid * 64 + r.warp);
            q.threads.push_back(tp);
            q.po.emplace_back();
          }
          p.any_value.push_back(0);
          q.po.back().push_back(static_cast<int>(q.events.size()));
          q.events.push_back(ev);
          q.events.back().thread = tix;
          if (unpair && ev.kind == mm::EventKind::Write) q.events.back().rmw_pair = -1;
          unpair = false;
          q.events.back().label.clear();
        }
      }
    fix_rmw(p);
    return p;
  }
};

// Some execution of `r` is consistent and reads the values the run read.
bool feasible(Result::Run& r, mm::Engine& engine, const mm::Model& m, const mm::Limits& lim) {
  // First a necessary condition without the engine: each read (but those
  // of any value) has a write of its value at its location (the initial
  // write included) to read from.
  const mm::Skeleton& s = r.skeleton;
  for (size_t e = 0; e < s.events.size(); ++e) {
    const mm::Event& rd = s.events[e];
    if (rd.kind != mm::EventKind::Read || rd.async_op >= 0 || (e < r.any_value.size() && r.any_value[e])) continue;
    const int ph = s.physical(static_cast<int>(e));
    bool src = false;
    for (size_t w = 0; w < s.events.size() && !src; ++w) {
      const mm::Event& wr = s.events[w];
      src = (wr.kind == mm::EventKind::Write || wr.kind == mm::EventKind::Init) && wr.value == rd.value &&
            s.physical(static_cast<int>(w)) == ph;
    }
    if (!src) return false;
  }
  bool any = false;
  for_each_valuation(r, [&] {
    engine.enumerate(r.skeleton, m, lim, [&](const mm::Execution& ex) {
      any = reads_their_values(r, ex);
      return !any;
    });
    return !any;
  });
  return any;
}

// What a trace does at location `loc`, as a key: the run's projection on
// `loc` is a function of these keys of its units' traces (threads are
// placed by their gid).
std::string access_key(const UnitTrace& t, int loc) {
  std::string k;
  for (const auto& [g, r] : t.th) {
    bool head = false;
    size_t next_any = 0;
    for (size_t i = 0; i < r.events.size(); ++i) {
      const mm::Event& e = r.events[i];
      if ((e.kind != mm::EventKind::Read && e.kind != mm::EventKind::Write) || e.loc != loc) continue;
      while (next_any < r.any_value.size() && static_cast<size_t>(r.any_value[next_any]) < i) ++next_any;
      const bool any = next_any < r.any_value.size() && static_cast<size_t>(r.any_value[next_any]) == i;
      if (!head) k += "T" + std::to_string(g) + ":", head = true;
      k += std::to_string(static_cast<int>(e.kind)) + "," + std::to_string(e.value) + "," +
           std::to_string(static_cast<int>(e.order)) + "," + std::to_string(static_cast<int>(e.scope)) + "," +
           std::to_string(static_cast<int>(e.proxy)) + "," +
           (e.rmw_pair >= 0 ? "r" : "-") + (e.reduction ? "d" : "-") + (any ? "a" : "-") + ";";
    }
  }
  return k;
}

// Calls f(pick) for each composition of one trace from each list, the first
// list most significant (the order of the whole product's depth-first
// search); stops when f returns false.
template <class F>
void for_each_composition(const std::vector<const std::vector<UnitTrace>*>& lists, F&& f) {
  for (const auto* l : lists)
    if (l->empty()) return;
  std::vector<size_t> idx(lists.size(), 0);
  std::vector<const UnitTrace*> pick(lists.size());
  for (;;) {
    for (size_t u = 0; u < lists.size(); ++u) pick[u] = &(*lists[u])[idx[u]];
    if (!f(pick)) return;
    size_t u = lists.size();
    while (u > 0 && ++idx[u - 1] == lists[u - 1]->size()) idx[--u] = 0;
    if (u == 0) return;
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

  // Units (explore.hpp): the CTAs, explored apart, when no cluster joins
  // them; else the whole grid.
  const uint64_t nctas = uint64_t{spec.grid[0]} * spec.grid[1] * spec.grid[2];
  bool decompose = opt.decompose && nctas > 1 && spec.cluster == std::array<uint32_t, 3>{1, 1, 1};
  std::vector<std::vector<uint8_t>> init_out;
  for (const auto& name : spec.outputs) init_out.push_back(sh.allocs[prog.globals.size() + static_cast<size_t>(spec.buffer_index(name))].bytes);

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
        std::fprintf(stderr, "run %llu: restart=%d killed=%d cut=%llu stop=%d diags=%zu path=", (unsigned long long)res.stats.runs,
                     hook.restart, hook.killed, (unsigned long long)hook.cut, rr.stopped_by_hook, rr.diagnostics.size());
        for (uint32_t u = 0; u < nunits; ++u) {
          if (u) std::fprintf(stderr, "| ");
          for (auto [x, y] : sh.path[u]) std::fprintf(stderr, "%u/%u ", x, y);
        }
        for (const auto& d : rr.diagnostics) std::fprintf(stderr, " [%s:%u %s]", d.kind.c_str(), d.line, d.message.c_str());
        std::fprintf(stderr, "\n");
      }
      if (hook.restart) {
        restart = true;
        break;
      }
      if (rr.step_limit)
        throw LimitError("a launch ran more than " + std::to_string(opt.max_steps) + " thread instructions");
      // Every error stops the launch (the Machine runs one cluster at a
      // time): the units after the erring one did not run.
      int stop = -1;
      bool fault = false;
      for (const auto& d : rr.diagnostics) {
        if (d.severity != "error") continue;
        if (stop < 0)
          stop = decompose ? static_cast<int>((uint64_t{d.cta[2]} * spec.grid[1] + d.cta[1]) * spec.grid[0] + d.cta[0]) : 0;
        if (d.kind != "barrier-deadlock") fault = true;
        if (d.kind != "barrier-deadlock" && res.stats.first_fault.empty())
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
          for (const auto& e : r.events) t.writes += e.kind == mm::EventKind::Write;
          for (auto [k, n] : r.det_writes)
            for (uint64_t b = k; b < k + n; ++b)
              for (size_t o = 0; o < out_base.size(); ++o)
                if (b >= out_base[o] && b < out_base[o] + init_out[o].size()) {
                  const size_t off = b - out_base[o];
                  t.det_bytes.push_back({{o, off}, rr.buffers[static_cast<size_t>(spec.buffer_index(spec.outputs[o]))][off]});
                }
          r.t = nullptr;
          r.vc.clear();
          r.arrivals.clear();
          r.det_reads.clear();
          r.det_writes.clear();
          r.back.clear();
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
        if (killed) t.st = UnitTrace::St::Killed;
        else if (stopped && fault) t.st = UnitTrace::St::Fault;
        else if (cut_here) t.st = UnitTrace::St::Cut;
        else if (stopped) t.st = UnitTrace::St::Deadlock;
        unit_writes[u] = std::max(unit_writes[u], t.writes);
        if (t.st == UnitTrace::St::Finished && !has_replay[u]) {
          replay[u] = sh.path[u];
          has_replay[u] = 1;
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
        if (p.empty()) done[u] = 1;
        else ++p.back().first;
      }
    }
    if (restart) {
      if (sh.no_decompose) decompose = false;
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
  std::vector<std::map<std::string, int>> key_ids(nlocs);
  for (auto& list : traces)
    for (UnitTrace& t : list) {
      t.proj.resize(nlocs);
      for (size_t x = 0; x < nlocs; ++x) {
        auto [it, fresh] = key_ids[x].emplace(access_key(t, static_cast<int>(x)), static_cast<int>(key_ids[x].size()));
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
  std::vector<std::unordered_map<std::vector<int>, bool, KeyHash>> memo(nlocs);
  mm::Limits plim;
  std::vector<double> miss_s(nlocs, 0);
  std::vector<uint64_t> misses(nlocs, 0);
  auto passes = [&](const std::vector<const UnitTrace*>& pick) {
    if (!opt.prune) return true;
    std::vector<int> key(pick.size());
    for (size_t x = 0; x < nlocs; ++x) {
      for (size_t u = 0; u < pick.size(); ++u) key[u] = pick[u]->proj[x];
      auto it = memo[x].find(key);
      if (it == memo[x].end()) {
        check_time();
        Result::Run p = comp.project(pick, static_cast<int>(x));
        if (opt.timeout_s > 0) plim.timeout_s = std::max(0.001, opt.timeout_s - elapsed());
        const double t0 = debug ? elapsed() : 0;
        it = memo[x].emplace(key, feasible(p, engine, opt.model, plim)).first;
        if (debug) miss_s[x] += elapsed() - t0, ++misses[x];
        if (debug && elapsed() - t0 > 0.1) {
          std::fprintf(stderr, "  slow check %s %.3f s -> %d:", sh.locs[x].name.c_str(), elapsed() - t0, (int)it->second);
          for (const auto& e : p.skeleton.events) std::fprintf(stderr, " %d:%d%c%llu", e.thread, (int)e.kind, e.rmw_pair >= 0 ? 'r' : ' ', (unsigned long long)e.value);
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
  // reads read their values.
  res.bound_hit = false;
  for (uint32_t k = 0; k < nunits && !res.bound_hit; ++k) {
    std::vector<UnitTrace> cuts;
    for (const UnitTrace& t : traces[k])
      if (t.st == UnitTrace::St::Cut) cuts.push_back(t);
    if (cuts.empty()) continue;
    std::vector<std::vector<UnitTrace>> fin(k);
    for (uint32_t u = 0; u < k; ++u)
      for (const UnitTrace& t : traces[u])
        if (t.st == UnitTrace::St::Finished) fin[u].push_back(t);
    std::vector<const std::vector<UnitTrace>*> lists;
    for (auto& f : fin) lists.push_back(&f);
    lists.push_back(&cuts);
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
  {
    std::vector<std::vector<UnitTrace>> fin(nunits);
    for (uint32_t u = 0; u < nunits; ++u)
      for (UnitTrace& t : traces[u])
        if (t.st == UnitTrace::St::Finished) fin[u].push_back(std::move(t));
    traces.clear();
    std::vector<const std::vector<UnitTrace>*> lists;
    for (auto& f : fin) lists.push_back(&f);
    for_each_composition(lists, [&](const std::vector<const UnitTrace*>& pick) {
      check_time();
      ++res.stats.finished_runs;
      if (passes(pick)) runs.push_back(comp.build(pick));
      return true;
    });
  }
  res.stats.communicating = sh.locs.size();

  if (debug)
    std::fprintf(stderr, "composed in %.3f s: %llu compositions, %llu pruned, %zu runs\n", elapsed(),
                 (unsigned long long)res.stats.finished_runs, (unsigned long long)res.stats.pruned, runs.size());
  if (debug)
    for (size_t x = 0; x < nlocs; ++x)
      std::fprintf(stderr, "  %s: %llu checks, %.3f s\n", sh.locs[x].name.c_str(), (unsigned long long)misses[x], miss_s[x]);
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
