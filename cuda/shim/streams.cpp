// Deferred streams (state.hpp, "deferred streams"; cuda/README.md "Streams
// and deferred work"). Work normally runs when it is issued. A launch that
// spins before it changes anything (RunResult::spin_without_effect: its
// threads only polled memory) has had no observable effect, so it is the
// same as a launch that has not started yet, which a GPU allows at any time:
// the shim keeps it as a deferred operation of its stream, and queues the
// work that CUDA orders after it instead of running it:
// - later work of the same stream (CUDA Runtime API, "Streams": stream
//   operations run in issue order);
// - work on the legacy NULL stream after deferred work of a blocking stream,
//   and work on a blocking stream (or the per-thread default stream) after
//   deferred work on the legacy stream ("Implicit Synchronization", the
//   driver API's "Stream synchronization behavior"; non-blocking streams do
//   not synchronise with the legacy stream);
// - work after cuStreamWaitEvent on an event whose record is deferred;
// - a stream memory wait (cuStreamWaitValue*) whose condition does not hold
//   yet, and what follows it.
// Synchronising calls (cuStreamSynchronize, cuEventSynchronize,
// cuCtxSynchronize, synchronous copies and memsets, cuMemFree and the calls
// that release memory or modules, the end of the program) run deferred work
// in issue order, each operation once every operation it waits for is done:
// a deferred launch runs again from its start (the host may have written its
// flag since), a wait checks its condition again. When nothing can run any
// more, the oldest operation that could not finish runs a last time and
// reports its hang (a launch: its spin diagnostic; a wait: the value found),
// and the context gets CUDA_ERROR_LAUNCH_TIMEOUT as its sticky error, as a
// livelock did before. cuStreamQuery and cuEventQuery try the same without
// the last attempt and answer CUDA_ERROR_NOT_READY while work is left.
#include <algorithm>
#include <cstdlib>

#include "cuda/shim/state.hpp"

using namespace shim;

namespace {

// The thread's role while deferred work runs.
thread_local bool t_running = false;  // a deferred operation runs (its entry point must run it now)
thread_local bool t_final = false;    // its last attempt
thread_local bool t_blocked = false;  // it could not finish
thread_local int t_no_defer = 0;      // inside a graph launch

CUstream key(CUstream st) { return st == nullptr ? CU_STREAM_LEGACY : st; }
bool is_legacy(CUstream k) { return k == CU_STREAM_LEGACY; }
// A blocking stream: synchronises with the legacy stream.
bool is_blocking(CUstream k) {
  return k == CU_STREAM_PER_THREAD || (!is_legacy(k) && !(k->flags & CU_STREAM_NON_BLOCKING));
}
bool same_stream(const Pending& p, CUstream k) {
  return p.stream == k && (k != CU_STREAM_PER_THREAD || p.thread == std::this_thread::get_id());
}

// The deferred operations that an operation issued now on st must wait for:
// the last one of each stream that orders it.
std::vector<std::shared_ptr<Pending>> waits_for(State& s, CUcontext c, CUstream st) {
  const CUstream k = key(st);
  std::vector<std::shared_ptr<Pending>> out;
  std::vector<std::pair<CUstream, std::thread::id>> seen;
  for (auto it = s.pending.rbegin(); it != s.pending.rend(); ++it) {
    const Pending& p = **it;
    if (p.done || p.ctx != c) continue;
    const bool orders =
        same_stream(p, k) || (is_legacy(k) && is_blocking(p.stream)) || (is_blocking(k) && is_legacy(p.stream));
    if (!orders) continue;
    const auto id = std::make_pair(p.stream, p.stream == CU_STREAM_PER_THREAD ? p.thread : std::thread::id{});
    if (std::find(seen.begin(), seen.end(), id) != seen.end()) continue;
    seen.push_back(id);
    out.push_back(*it);
  }
  return out;
}

bool ready(const Pending& p) {
  return std::all_of(p.deps.begin(), p.deps.end(), [](const auto& d) { return d->done; });
}

}  // namespace

bool shim::has_deferred_work(const State& s, CUstream st) {
  const CUstream k = key(st);
  return std::any_of(s.pending.begin(), s.pending.end(), [&](const auto& p) { return !p->done && p->stream == k; });
}

namespace {

// Marks p done: its event record completes, a destroyed stream whose work
// is all done is released.
void finish(State& s, Pending& p) {
  p.done = true;
  p.deps.clear();
  if (CUevent e = p.records; e && e->pending.get() == &p) {
    e->pending.reset();
    e->recorded = true;
    e->when = std::chrono::steady_clock::now();
  }
  CUstream k = p.stream;
  if (k != CU_STREAM_LEGACY && k != CU_STREAM_PER_THREAD && k->destroyed && !has_deferred_work(s, k)) {
    k->ctx->streams.erase(k);
    s.live.erase(k);
  }
}

// One attempt at p (lock held); true when it finished.
bool attempt(State& s, Pending& p, bool final) {
  const bool r0 = t_running, f0 = t_final, b0 = t_blocked;
  t_running = true;
  t_final = final;
  t_blocked = false;
  ctx_stack().push_back(p.ctx);  // its entry point runs in its own context
  const CUresult r = p.run();
  ctx_stack().pop_back();
  const bool blocked_now = t_blocked && !final;
  t_running = r0;
  t_final = f0;
  t_blocked = b0;
  if (blocked_now) return false;
  if (r != CUDA_SUCCESS && !p.ctx->sticky)
    report(p.what + " (deferred until the work before it in its stream could run) failed with error " +
           std::to_string(r));
  finish(s, p);
  return true;
}

// Runs the deferred operations that can run until `done` holds or none can;
// with `final`, then the oldest one that could not finish makes its last
// attempt (reporting its hang), and so on.
template <class Done>
bool progress(State& s, Done done, bool final) {
  if (t_running) return done();  // not from inside deferred work (a host function)
  for (;;) {
    if (done()) return true;
    bool changed = false;
    Pending* first_blocked = nullptr;
    const std::vector<std::shared_ptr<Pending>> snap = s.pending;  // an operation may queue more
    for (const auto& p : snap) {
      if (p->done || !ready(*p)) continue;
      if (p->ctx->sticky) {  // after a fault a context runs nothing more
        finish(s, *p);
        changed = true;
        continue;
      }
      if (attempt(s, *p, false))
        changed = true;
      else if (!first_blocked)
        first_blocked = p.get();
    }
    std::erase_if(s.pending, [](const auto& p) { return p->done; });
    if (changed) continue;
    if (done()) return true;
    if (!final || !first_blocked) return false;
    attempt(s, *first_blocked, true);
    std::erase_if(s.pending, [](const auto& p) { return p->done; });
  }
}

// At the end of the program, deferred work left runs (a hang is reported,
// as a livelock was when it ran at its launch).
void drain_at_exit() {
  State& s = state();
  std::lock_guard lk(s.mu);
  drain_all(s);
}

}  // namespace

bool shim::running_deferred() { return t_running; }
bool shim::final_attempt() { return t_final; }
void shim::blocked() { t_blocked = true; }
shim::NoDefer::NoDefer() { ++t_no_defer; }
shim::NoDefer::~NoDefer() { --t_no_defer; }
bool shim::defer_allowed() { return t_no_defer == 0 && !t_final; }

bool shim::deferred_on(State& s, CUcontext c, CUstream st) {
  return !t_running && !s.pending.empty() && !waits_for(s, c, st).empty();
}

std::shared_ptr<Pending> shim::defer(State& s, CUcontext c, CUstream st, const char* what,
                                     std::function<CUresult()> run, bool always, std::shared_ptr<Pending> also) {
  if (t_running) return nullptr;
  std::vector<std::shared_ptr<Pending>> deps = waits_for(s, c, st);
  if (also && !also->done) deps.push_back(also);
  if (deps.empty() && !always) return nullptr;
  static const bool registered = std::atexit(drain_at_exit) == 0;
  (void)registered;
  auto p = std::make_shared<Pending>();
  p->ctx = c;
  p->stream = key(st);
  p->thread = std::this_thread::get_id();
  p->deps = std::move(deps);
  p->run = std::move(run);
  p->what = what;
  s.pending.push_back(p);
  return p;
}

bool shim::drain_stream(State& s, CUcontext c, CUstream st, bool final) {
  const CUstream k = key(st);
  return progress(
      s,
      [&] {
        return std::none_of(s.pending.begin(), s.pending.end(),
                            [&](const auto& p) { return !p->done && p->ctx == c && same_stream(*p, k); });
      },
      final);
}

bool shim::drain_event(State& s, CUevent e, bool final) {
  return progress(
      s, [&] { return !e->pending || e->pending->done; }, final);
}

void shim::drain_all(State& s) {
  if (!t_running)
    progress(
        s, [&] { return s.pending.empty(); }, true);
}

bool shim::drain_ctx(State& s, CUcontext c, bool final) {
  return progress(
      s, [&] { return std::none_of(s.pending.begin(), s.pending.end(), [&](const auto& p) { return p->ctx == c; }); },
      final);
}

bool shim::host_visible(const State& s, const void* p, size_t n) {
  return host_side(s, reinterpret_cast<uint64_t>(p), n ? n : 1) != nullptr;
}

bool shim::settle(State& s, CUcontext c, CUstream st) {
  if (t_running || s.pending.empty()) return true;
  return progress(
      s, [&] { return waits_for(s, c, st).empty(); }, true);
}

shim::SyncCall::SyncCall(CUstream st) : lk(state().mu) {
  State& s = state();
  if (ctx_stack().empty() || !is_live(s, ctx_stack().back(), Kind::Ctx)) return;
  settle(s, ctx_stack().back(), st);
}
