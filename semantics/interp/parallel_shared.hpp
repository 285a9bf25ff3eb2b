// The state the workers of a parallel launch share (parallel.cpp: the
// workers and their schedule; parallel_claim.cpp: the claims of global
// memory). Included by those two files only.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "semantics/interp/machine_state.hpp"

namespace ptxcheck::interp {

struct ParShared {
  // Each global allocation's bytes (and initialisation flags) as they were
  // before the launch, saved per chunk before the first write to it: the
  // claim of a write saves the granule's chunk unless it is saved already,
  // and no byte of a chunk is written before it is saved (every global
  // write claims first). A chunk's state: 0 not saved, 1 being saved, 2 saved.
  static constexpr size_t kChunk = 4096;
  struct Saved {
    // The allocation's bytes before the launch, kept by the caller: the
    // launch spec's buffer or the module global it was copied from (then
    // nothing is saved, and abandoning copies it all back); or the spec
    // buffer's description, when the run took its bytes (then abandoning
    // makes them again: fill_elements).
    const uint8_t* pristine = nullptr;
    const BufferSpec* fill = nullptr;
    uint32_t* state = nullptr;  // one word per chunk (zeroed())
    uint8_t* bytes = nullptr;   // the allocation's size (unset(): only saved chunks are read)
    uint8_t* init = nullptr;    // the same for Region::init, when the allocation tracks it
  };
  struct CtaOut {  // what one CTA reported
    uint64_t uid;
    std::vector<Diagnostic> diags;
    std::string out;
  };
  // The window [lo, hi) of allocation r (byte offsets) that CTA cta
  // claimed last (par_window), for writing when `write`.
  struct Held {
    const Region* r = nullptr;
    uint64_t lo = 0, hi = 0;
    uint32_t cta = 0;
    bool write = false;
  };
  struct alignas(64) Worker {  // (no cache line shared with another worker's)
    Held held;
    RunResult res;
    std::unique_ptr<Machine> m;  // (reset when its CTAs are done)
    uint64_t steps = 0;          // the machine's thread instructions
    std::vector<CtaOut> outs;
    std::exception_ptr error;
  };
  // Claim words, one per 4-byte granule of each global allocation: 0 no
  // claim; (uid + 1) << 2 | kRead / kWrite; kShared: read by several CTAs.
  // A word per block of kBlockGranules granules says whether all of them are
  // in one state, that word's (then their own words are not used: a
  // coalesced access claims a block with one operation), or each is in the
  // state of its own word (kFine). kLocked: being split (the granules' words
  // get the block's state). A block never returns to uniform.
  static constexpr uint32_t kRead = 1, kWrite = 2, kShared = ~0u & ~kWrite;
  static constexpr uint32_t kFine = ~0u & ~1u, kLocked = ~0u, kFail = 3;  // kFail: no state (a conflict)
  static constexpr uint64_t kBlockGranules = 8;                           // 32 bytes
  uintptr_t gbase = 0;                                                    // &Memory::global(0)
  size_t nglobal = 0;
  std::vector<uint32_t*> claims;
  std::vector<uint32_t*> blocks;  // per global allocation, as claims
  std::vector<Saved> saved;       // per global allocation, as claims
  // Per global allocation: 1 when the kernel's code was not seen to write
  // it (written_allocations): reads of it claim nothing, and a write to it
  // abandons the attempt.
  std::vector<uint8_t> ro;
  // Per instruction: 1 for a load that claims its bytes as written, because
  // a store to the same address follows it (loads_then_stored).
  std::vector<uint8_t> ld_write;
  uint64_t nctas = 0;
  std::array<uint32_t, 3> grid{1, 1, 1};
  uint32_t nthreads = 0, nwarps = 0;
  unsigned nworkers = 1;
  // Each on a cache line of its own: a worker reads `abort` after every
  // warp's quantum, and a write to `next` (per part of the grid) or to
  // `steps` (per kPublish instructions) on the same line would make the other
  // worker's next read of it a miss.
  alignas(64) std::atomic<uint64_t> next{0};   // the next CTA to start
  alignas(64) std::atomic<uint64_t> steps{0};  // published thread instructions
  // A worker adds its thread instructions to `steps` once it has run this
  // many since it last did (par_poll). Both workers' adds move the line
  // between the cores: per 4096 instructions, they were 0.9% of the bench's
  // 2-job saxpy samples (perf), about all of them at the lock xadd. A
  // launch over its step budget is found this many instructions per worker
  // later at most, or after the workers end (run_parallel).
  static constexpr uint64_t kPublish = uint64_t{1} << 16;
  alignas(64) std::atomic<bool> abort{false};
  alignas(64) char after_abort_ = 0;  // (nothing else on abort's line)
  std::mutex mu;
  std::string reason;  // why the attempt was abandoned (the first reason)
  std::vector<std::unique_ptr<Worker>> workers;

  void fail(const std::string& why) {
    {
      std::lock_guard<std::mutex> g(mu);
      if (reason.empty()) reason = why;
    }
    abort.store(true, std::memory_order_release);
  }
  // Saves the chunk of allocation i (region r) that holds granule g, or
  // waits until the thread saving it is done.
  void save(size_t i, const Region* r, uint64_t g) {
    const Saved& sv = saved[i];
    if (sv.pristine || sv.fill) return;
    const uint64_t c = g * 4 / kChunk;
    std::atomic_ref<uint32_t> st(sv.state[c]);
    uint32_t v = st.load(std::memory_order_acquire);
    if (v == 2) return;
    if (v == 0 && st.compare_exchange_strong(v, 1, std::memory_order_acq_rel, std::memory_order_acquire)) {
      const size_t b = c * kChunk, n = std::min(kChunk, r->bytes.size() - b);
      std::memcpy(sv.bytes + b, r->bytes.data() + b, n);
      if (sv.init) std::memcpy(sv.init + b, r->init.data() + b, n);
      st.store(2, std::memory_order_release);
      return;
    }
    while (st.load(std::memory_order_acquire) != 2) std::this_thread::yield();
  }
  // Puts back every saved chunk (after the workers have stopped).
  void restore(Memory& mem) {
    for (size_t i = 0; i < saved.size(); ++i) {
      if (ro[i]) continue;  // never written
      Region& r = mem.global(i);
      if (saved[i].pristine) {
        if (!r.bytes.empty()) std::memcpy(r.bytes.data(), saved[i].pristine, r.bytes.size());
        continue;
      }
      if (const BufferSpec* b = saved[i].fill) {
        fill_elements(b->fill, b->type, r.bytes.data(), 0, b->count);
        continue;
      }
      for (size_t c = 0, nc = (r.bytes.size() + kChunk - 1) / kChunk; c < nc; ++c) {
        if (saved[i].state[c] != 2) continue;
        const size_t b = c * kChunk, n = std::min(kChunk, r.bytes.size() - b);
        std::memcpy(r.bytes.data() + b, saved[i].bytes + b, n);
        if (saved[i].init) std::memcpy(r.init.data() + b, saved[i].init + b, n);
      }
    }
  }
  // n zero bytes (calloc), freed with the ParShared; nullptr when there is
  // no memory. (Anonymous mappings, whose pages cost nothing until
  // touched, were slower: every claim page the workers touch faults, and
  // unmapping pages two threads touched interrupts the other core; bench
  // stencil2d 2 jobs 0.025-0.027 s -> 0.032-0.035 s.)
  std::vector<void*> zeroed_;
  template <class T>
  T* zeroed(size_t count) {
    void* p = std::calloc(std::max<size_t>(count, 1), sizeof(T));
    if (p) zeroed_.push_back(p);
    return static_cast<T*>(p);
  }
  // n bytes of any value (malloc), freed with the ParShared: the saved
  // bytes, of which only the saved chunks are ever read.
  uint8_t* unset(size_t n) {
    void* p = std::malloc(std::max<size_t>(n, 1));
    if (p) zeroed_.push_back(p);
    return static_cast<uint8_t*>(p);
  }
  // The claim words of each claimed allocation: its block words, then its
  // granule words (`blocks`, `claims`), zero, from the process's ClaimPool.
  struct Words {
    uint32_t* p = nullptr;
    size_t cap = 0;  // words
    size_t nblocks = 0;
    size_t alloc = 0;  // the global allocation's index
  };
  // Per global allocation: 1 once a block of it was split (kFine; claim()
  // stores it), so that ~ParShared looks for the granule words to clear
  // only there (bench saxpy, 2 jobs: scanning the 128 Ki block words of
  // its 4 MiB output took 0.1-0.2 ms after the workers, serial).
  std::vector<uint8_t> split;
  std::vector<Words> words_;
  ~ParShared();
};

}  // namespace ptxcheck::interp
