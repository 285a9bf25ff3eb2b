// CTAs on all cores (docs/interpreter.md, "CTAs on all cores").
//
// A launch whose clusters are single CTAs runs its CTAs on worker threads,
// each CTA exactly as the deterministic schedule runs it (the schedule runs
// one CTA at a time, in linear order, each to its end), and merges what
// they report in CTA order. Every global-memory byte range a CTA touches is
// claimed per 4-byte granule (parallel_claim.cpp): read by one CTA, read by
// several, or owned by one CTA that wrote it. A write meeting another CTA's claim, or a read
// meeting another CTA's write, abandons the attempt, as do a CTA that stops
// the launch (a fatal error, a deadlock, the step budget) and a read of the
// clocks (they count the instructions of the CTAs before). Abandoning
// restores the bytes the CTAs wrote (each 4 KiB chunk of an allocation is
// saved before the first write to it; an allocation the launch filled from
// the spec or the module is copied back from there, or filled again from
// the spec buffer's description when the run took its bytes) and runs the
// deterministic schedule from the launch's start.
#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <mutex>
#include <numeric>
#include <thread>
#include <tuple>

#include "semantics/interp/exec_util.hpp"
#include "semantics/interp/machine_state.hpp"
#include "semantics/interp/mma.hpp"
#include "semantics/interp/parallel_analysis.hpp"
#include "semantics/interp/parallel_shared.hpp"
#include "semantics/interp/texture.hpp"
#include "semantics/interp/worker_pool.hpp"

namespace ptxcheck::interp {

namespace {

// Claim words kept between the launches of a process, all zero while
// kept: a launch takes them instead of calloc'ing its claims (glibc's
// calloc clears a block it reuses from the heap, and a fresh mapping
// faults once per page the workers touch: the bench's saxpy claims 4.5
// MiB per run). A launch gives them back clean: only the block words and
// the granule words of split blocks are ever written (claim()), so those
// are cleared, not the whole array. At most kKeep bytes are kept.
class ClaimPool {
 public:
  static ClaimPool& get() {
    static ClaimPool pool;
    return pool;
  }
  // Zero words, at least n; cap = how many; nullptr when there is no memory.
  uint32_t* take(size_t n, size_t& cap) {
    {
      std::lock_guard<std::mutex> g(mu_);
      size_t best = free_.size();
      for (size_t k = 0; k < free_.size(); ++k)
        if (free_[k].second >= n && (best == free_.size() || free_[k].second < free_[best].second)) best = k;
      if (best < free_.size()) {
        uint32_t* p = free_[best].first;
        cap = free_[best].second;
        kept_ -= cap * sizeof(uint32_t);
        free_.erase(free_.begin() + static_cast<std::ptrdiff_t>(best));
        return p;
      }
    }
    cap = std::max<size_t>(n, 1);
    return static_cast<uint32_t*>(std::calloc(cap, sizeof(uint32_t)));
  }
  // Takes back p (cap words, all zero again).
  void give(uint32_t* p, size_t cap) {
    std::lock_guard<std::mutex> g(mu_);
    if (cap * sizeof(uint32_t) > kKeep) {
      std::free(p);
      return;
    }
    while (!free_.empty() && kept_ + cap * sizeof(uint32_t) > kKeep) {  // the oldest go first
      kept_ -= free_.front().second * sizeof(uint32_t);
      std::free(free_.front().first);
      free_.erase(free_.begin());
    }
    free_.emplace_back(p, cap);
    kept_ += cap * sizeof(uint32_t);
  }
  ~ClaimPool() {
    for (auto& f : free_) std::free(f.first);
  }

 private:
  static constexpr size_t kKeep = size_t{64} << 20;
  std::mutex mu_;
  std::vector<std::pair<uint32_t*, size_t>> free_;
  size_t kept_ = 0;
};

}  // namespace

ParShared::~ParShared() {
  for (void* p : zeroed_) std::free(p);
  // Clear what claim() wrote (the workers have stopped): every block word,
  // and the granule words of the blocks that were split (kFine).
  for (const Words& w : words_) {
    uint32_t* const bl = w.p;
    uint32_t* const cl = w.p + w.nblocks;
    if (split[w.alloc])
      for (uint32_t* f = bl; (f = std::find(f, bl + w.nblocks, kFine)) != bl + w.nblocks; ++f)
        std::memset(cl + (f - bl) * kBlockGranules, 0, kBlockGranules * sizeof(uint32_t));
    std::memset(bl, 0, w.nblocks * sizeof(uint32_t));
    ClaimPool::get().give(w.p, w.cap);
  }
}

bool parse_jobs(const char* s, unsigned& n) {
  if (!s || *s < '0' || *s > '9') return false;
  char* end = nullptr;
  const unsigned long v = std::strtoul(s, &end, 10);
  if (*end || v == 0 || v > 4096) return false;
  n = static_cast<unsigned>(v);
  return true;
}

unsigned default_jobs() {
  unsigned n = 0;
  if (parse_jobs(std::getenv("PTXCHECK_JOBS"), n)) return n;
  n = std::thread::hardware_concurrency();
  return n ? n : 1;
}

Machine::Machine(const Machine& parent, RunResult& r, ParShared& ps, size_t index)
    : prog(parent.prog), spec(parent.spec), opt(parent.opt), res(r), image_(nullptr), mem(parent.mem) {
  races.enabled = parent.races.enabled;
  // With budget_since_exit each worker counts from its own last exit: it
  // runs one CTA at a time, as the deterministic schedule does, and a CTA's
  // last event is a thread exit, so each count equals that schedule's.
  step_limit_ = opt.max_steps;
  races.nthreads = parent.races.nthreads;
  if (races.enabled) {
    // A single-CTA cluster is its own; thread numbers follow the CTA's
    // linear number, as in the deterministic schedule (run_cluster).
    races.cluster_of.assign(ps.nctas, 0);
    races.run_cta.resize(ps.nctas);
    std::iota(races.run_cta.begin(), races.run_cta.end(), 0u);
  }
  textures_ = parent.textures_;
  proxy_on_ = parent.proxy_on_;
  cl_ = parent.cl_;
  explicit_cl_ = parent.explicit_cl_;
  pc_hot_.assign(prog.code.size(), nullptr);
  par_ = &ps;
  par_index_ = index;
}

void Machine::par_order_dependent(const char* why) const { par_->fail(why); }

bool Machine::par_poll() {
  ParShared& ps = *par_;
  if (steps - par_published_ >= ParShared::kPublish) {
    const uint64_t total =
        ps.steps.fetch_add(steps - par_published_, std::memory_order_relaxed) + (steps - par_published_);
    par_published_ = steps;
    if (total > opt.max_steps && !opt.budget_since_exit) ps.fail("the step budget ran out");
  }
  if (!ps.abort.load(std::memory_order_relaxed)) return false;
  stop_ = true;
  return true;
}

void Machine::par_work() {
  ParShared& ps = *par_;
  ParShared::Worker& me = *ps.workers[par_index_];
  try {
    uint64_t k = 0, end = 0;  // the worker's CTAs [k, end)
    for (;; ++k) {
      if (ps.abort.load(std::memory_order_relaxed)) return;
      if (k == end) {
        // Consecutive CTAs, a quarter of the CTAs left per worker, from 1
        // to 64 (guided self-scheduling): neighbouring CTAs mostly touch
        // neighbouring memory, so the workers share fewer cache lines of
        // claim words and pages of race shadow the fewer boundaries their
        // parts of the grid have (a 512x512 stencil of 8x8 CTAs: a row of
        // 64 CTAs holds 16 claim words per line, which 8 CTAs at a time
        // split between the workers); the parts shrink towards the end,
        // so that the workers finish together, and one that gets no core
        // for a while holds back at most 64 CTAs.
        const uint64_t left = ps.nctas - std::min(ps.nctas, ps.next.load(std::memory_order_relaxed));
        const uint64_t n = std::clamp<uint64_t>(left / (4 * uint64_t{ps.nworkers}), 1, 64);
        k = ps.next.fetch_add(n, std::memory_order_relaxed);
        if (k >= ps.nctas) break;
        end = std::min(k + n, ps.nctas);
      }
      const std::array<uint32_t, 3> id{static_cast<uint32_t>(k % ps.grid[0]),
                                       static_cast<uint32_t>(k / ps.grid[0] % ps.grid[1]),
                                       static_cast<uint32_t>(k / (uint64_t{ps.grid[0]} * ps.grid[1]))};
      par_cta_ = static_cast<uint32_t>(k + 1);
      // The numbers the deterministic schedule gives this CTA's threads and warps.
      next_gid_ = static_cast<uint32_t>(k * ps.nthreads);
      next_gwarp_ = static_cast<uint32_t>(k * ps.nwarps);
      run_cluster({id}, id);
      if (stop_) {
        ps.fail("CTA " + std::to_string(k) +
                " stopped the launch (an error that ends it, a deadlock or the step budget)");
        return;
      }
      if (!res.diagnostics.empty() || !res.printf_output.empty()) {
        me.outs.push_back(ParShared::CtaOut{k, std::move(res.diagnostics), std::move(res.printf_output)});
        res.diagnostics.clear();
        res.printf_output.clear();
        seen_.clear();
      }
    }
  } catch (...) {
    me.error = std::current_exception();
    ps.fail("an exception");
  }
}

// True when the launch ran in parallel (res then holds its result); false
// when it must run on the deterministic schedule (memory is as it was).
bool Machine::run_parallel() {
  const uint64_t nctas = uint64_t{spec.grid[0]} * spec.grid[1] * spec.grid[2];
  if (opt.jobs < 2 || hook_ || coop_ || nctas < 2 || uint64_t{cl_[0]} * cl_[1] * cl_[2] != 1 || nctas >= (1u << 30) - 2)
    return false;
  ParShared ps;
  ps.nctas = nctas;
  ps.grid = spec.grid;
  ps.nthreads = spec.block[0] * spec.block[1] * spec.block[2];
  ps.nwarps = (ps.nthreads + 31) / 32;
  ps.nglobal = mem.global_count();
  ps.gbase = ps.nglobal ? reinterpret_cast<uintptr_t>(&mem.global(0)) : 0;
  // The machine's own memory holds the module's globals, then the spec's
  // buffers (setup_memory_spec), each a copy of bytes the caller keeps
  // (nothing writes them before the launch runs; no initialisation flags),
  // or the bytes of a spec buffer the run took (run_program_taking).
  auto spec_buffer = [&](size_t i) -> const BufferSpec* {
    const size_t b = i - prog.globals.size();
    return !image_ && i >= prog.globals.size() && b < spec.buffers.size() && b < buffer_addr.size() &&
                   mem.global(i).base == buffer_addr[b] && mem.global(i).init.empty()
               ? &spec.buffers[b]
               : nullptr;
  };
  auto pristine = [&](size_t i) -> const uint8_t* {
    if (image_) return nullptr;
    const Region& r = mem.global(i);
    const std::vector<uint8_t>* src = nullptr;
    if (i < prog.globals.size() && r.base == prog.globals[i].addr) src = &prog.globals[i].bytes;
    if (const BufferSpec* b = spec_buffer(i); b && !taken_) src = &b->init;
    return src && r.init.empty() && src->size() == r.bytes.size() ? src->data() : nullptr;
  };
  // A taken spec buffer's bytes are made again from its description
  // (not for a "file": those are saved chunk by chunk as others).
  auto refill = [&](size_t i) -> const BufferSpec* {
    const BufferSpec* b = taken_ ? spec_buffer(i) : nullptr;
    return b && b->fill.kind != BufferFill::Kind::Bytes && b->count * elem_size(b->type) == mem.global(i).bytes.size()
               ? b
               : nullptr;
  };
  const uint64_t written = written_allocations(prog, mem);
  ps.ld_write = loads_then_stored(prog);
  ps.ro.assign(ps.nglobal, 0);
  ps.split.assign(ps.nglobal, 0);
  for (size_t i = 0; i < ps.nglobal; ++i) {
    if (!(written & kAnyAlloc) && i < 62 && !(written >> i & 1)) {
      ps.ro[i] = 1;  // no claims, nothing saved
      ps.claims.push_back(nullptr);
      ps.blocks.push_back(nullptr);
      ps.saved.emplace_back();
      continue;
    }
    // The claim words come zero from the pool (ClaimPool); the saved
    // bytes are only read where a chunk was saved.
    const Region& r = mem.global(i);
    const size_t n = r.bytes.size();
    // (whole blocks: splitting one writes all its granules' words)
    const size_t nblocks = (n + 3) / 4 / ParShared::kBlockGranules + 1;
    ParShared::Words wd;
    wd.nblocks = nblocks;
    wd.alloc = i;
    wd.p = ClaimPool::get().take(nblocks * (1 + ParShared::kBlockGranules), wd.cap);
    if (wd.p) ps.words_.push_back(wd);
    uint32_t* const bk = wd.p;
    uint32_t* const c = wd.p ? wd.p + nblocks : nullptr;
    ps.claims.push_back(c);
    ps.blocks.push_back(bk);
    ParShared::Saved& sv = ps.saved.emplace_back();
    sv.pristine = pristine(i);
    sv.fill = sv.pristine ? nullptr : refill(i);
    if (!c || !bk) {
      res.schedule = "sequential after a parallel attempt: no memory for the claims";
      return false;
    }
    if (sv.pristine || sv.fill) continue;
    sv.state = ps.zeroed<uint32_t>(n / ParShared::kChunk + 1);
    sv.bytes = ps.unset(n);  // only saved chunks are read (restore())
    if (!r.init.empty()) sv.init = ps.unset(n);
    if (!c || !bk || !sv.state || !sv.bytes || (!r.init.empty() && !sv.init)) {
      res.schedule = "sequential after a parallel attempt: no memory for the claims";
      return false;
    }
  }
  const unsigned nw = static_cast<unsigned>(std::min<uint64_t>(opt.jobs, nctas));
  ps.nworkers = nw;
  // Each worker makes its machine on its own thread, so that what the
  // machine allocates comes from that thread's malloc arena: machines made
  // one after the other on one thread share cache lines at the edges of
  // their objects and vectors, which both workers write (bench saxpy, 2
  // jobs: the two workers' CPU time 63-77 ms in all, 59-64 ms with the
  // machines made on their own threads; one job: 56-60 ms).
  for (unsigned i = 0; i < nw; ++i) ps.workers.push_back(std::make_unique<ParShared::Worker>());
  auto work = [this, &ps](unsigned i) {
    ParShared::Worker& me = *ps.workers[i];
    try {
      me.m = std::make_unique<Machine>(*this, me.res, ps, i);
    } catch (...) {
      me.error = std::current_exception();
      ps.fail("an exception");
      return;
    }
    me.m->par_work();
    // The machine ends here too, on its thread, while the others may still
    // run: after the join it was serial work (bench saxpy, 2 jobs: 0.31 M
    // instructions a launch for the two machines).
    me.steps = me.m->steps;
    me.m.reset();
  };
  // On the process's kept threads (worker_pool.hpp); a worker without a
  // thread runs after the caller's, and finds no CTA left.
  run_jobs(nw, work);
  uint64_t total = 0;
  for (auto& w : ps.workers) total += w->steps;
  if (!ps.abort.load() && total > opt.max_steps && !opt.budget_since_exit) ps.fail("the step budget ran out");
  if (ps.abort.load()) {
    ps.restore(mem);
    res.schedule = "sequential after a parallel attempt: " + ps.reason;
    return false;
  }
  // Merge in CTA order, folding as diag() folds: the first report of a
  // (kind, line, column) stays, later ones add to its count.
  std::vector<ParShared::CtaOut*> outs;
  for (auto& w : ps.workers)
    for (auto& o : w->outs) outs.push_back(&o);
  std::sort(outs.begin(), outs.end(),
            [](const ParShared::CtaOut* a, const ParShared::CtaOut* b) { return a->uid < b->uid; });
  std::map<std::tuple<std::string, uint32_t, uint32_t>, size_t> seen;
  for (ParShared::CtaOut* o : outs) {
    for (Diagnostic& d : o->diags) {
      auto [it, fresh] = seen.try_emplace(std::make_tuple(d.kind, d.line, d.col), res.diagnostics.size());
      if (!fresh) {
        res.diagnostics[it->second].count += d.count;
        continue;
      }
      if (d.severity == "error") res.ok = false;
      res.diagnostics.push_back(std::move(d));
    }
    res.printf_output += o->out;
  }
  steps = total;
  res.schedule = "parallel";
  return true;
}

}  // namespace ptxcheck::interp
