// The memory of one kernel launch: state spaces (PTX ISA 9.2 5.1) and the
// generic address space that windows onto them (PTX ISA 9.2 6.4.1.1).
//
// Address map (documented in docs/interpreter.md):
//   global    each allocation (launch-spec buffer or module .global variable)
//             at its own 256-aligned base from 0x1'0000'0000; generic == global.
//   shared    shared::cta addresses are offsets [0, size) into the executing
//             CTA's shared memory; shared::cluster addresses are offsets for
//             the own CTA or ((rank + 1) << 24) | offset for CTA `rank` of the
//             cluster (what mapa returns). Generic window: kSharedWin + addr.
//   local     per-thread offsets [0, size); generic window kLocalWin + addr.
//   const     module .const variables; generic window kConstWin + addr.
//   param     kernel parameter buffer (read-only); generic kParamWin + addr.
// Contract: translate() never touches host memory outside a region; every
// failure is returned as an Access::Fault code for the caller to diagnose.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace ptxcheck::interp {

enum class Space : uint8_t { Generic, Global, Shared, SharedCluster, Local, Const, Param };
const char* space_name(Space s);

inline constexpr uint64_t kGlobalBase = 0x1'0000'0000ull;
inline constexpr uint64_t kSharedWin = 0x7000'0000'0000ull;
inline constexpr uint64_t kLocalWin = 0x7100'0000'0000ull;
inline constexpr uint64_t kConstWin = 0x7200'0000'0000ull;
inline constexpr uint64_t kParamWin = 0x7300'0000'0000ull;
inline constexpr uint64_t kWinSize = 0x1'0000'0000ull;
inline constexpr uint32_t kRankShift = 24;
// The CTA's reserved shared memory (PTX ISA 10.29 %reserved_smem_offset_*:
// shared memory reserved for NVIDIA system software; cooperative groups keep
// their multi-warp tile barriers there on sm_80+). 1 KiB per CTA, as
// CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK says, placed at
// shared offset 227 KiB: above the most a CTA's own shared memory can reach
// (sm_90's opt-in limit), so it never overlaps it. It is a region of its own
// and starts zeroed and initialised: cooperative groups skip initialising
// their barriers there on sm_80+ (cooperative_groups.h, thread_block).
inline constexpr uint32_t kReservedSmemBegin = 227 * 1024, kReservedSmemBytes = 1024;
// The grid workspace of a cooperative launch (%envreg1:%envreg2), a global
// allocation above the generic windows.
inline constexpr uint64_t kGridWorkspace = 0x7400'0000'0000ull;

// One contiguous block of bytes with an optional per-byte "written" map used
// to report reads of uninitialised memory.
struct Region {
  std::string name;
  uint64_t base = 0;  // address of byte 0 in its own space
  std::vector<uint8_t> bytes;
  std::vector<uint8_t> init;  // empty: all bytes initialised
  bool read_only = false;
  void mark_init(uint64_t off, unsigned n) {
    if (!init.empty()) std::memset(&init[off], 1, n);
  }
  bool is_init(uint64_t off, unsigned n) const {
    if (init.empty()) return true;
    if (n == 4) {  // the common case, one load (bytes of `init` are 0 or 1)
      uint32_t v;
      std::memcpy(&v, &init[off], 4);
      return v == 0x01010101u;
    }
    for (unsigned i = 0; i < n; ++i)
      if (!init[off + i]) return false;
    return true;
  }
};

enum class Fault : uint8_t { None, OutOfBounds, Misaligned, ReadOnly, BadSpace };

struct Where {
  Region* region = nullptr;
  uint64_t off = 0;
  Space space = Space::Global;  // the resolved (non-generic) space
  int cta = -1;                 // shared: index of the owning CTA in the machine's running CTAs
  Fault fault = Fault::None;
};

// Everything a memory access needs to know about the accessing thread.
struct ThreadMem {
  Region* local = nullptr;
  std::vector<Region*>* cluster_shared = nullptr;  // shared memory of each CTA of the cluster
  int cta_rank = 0;                                  // rank of the own CTA in its cluster
  int slot_base = 0;  // index of the cluster's rank 0 among the machine's running CTAs
  Region* reserved = nullptr;  // the own CTA's reserved shared memory (kReservedSmemBegin)
};

class Memory {
 public:
  // Adds a global allocation; returns its base address.
  uint64_t add_global(std::string name, std::vector<uint8_t> bytes);
  // Persistent device memory (session.hpp, the driver-API shim): an
  // allocation at a caller-chosen base (false when it would overlap one),
  // its removal, and the allocation holding [addr, addr + size) (nullptr
  // when none holds all of it).
  bool add_global_at(std::string name, uint64_t base, std::vector<uint8_t> bytes);
  bool remove_global(uint64_t base);
  Region* global_at(uint64_t addr, uint64_t size);
  Region& global(size_t i) { return globals_[i]; }
  size_t global_count() const { return globals_.size(); }
  Region& constant() { return const_; }
  Region& params() { return params_; }

  // Resolve `size` bytes at `addr` in `space`. Alignment must be `align`.
  Where translate(Space space, uint64_t addr, unsigned size, unsigned align, const ThreadMem& tm);

  // Generic-address helpers (PTX ISA 9.7.9.19 isspacep, 9.7.9.20 cvta).
  static uint64_t to_generic(Space s, uint64_t addr);
  static uint64_t from_generic(Space s, uint64_t gaddr);
  bool is_in_space(Space s, uint64_t gaddr, const ThreadMem& tm) const;
  Space classify(uint64_t gaddr) const;

 private:
  Region* find_global(uint64_t addr, unsigned size);
  std::vector<Region> globals_;  // sorted by base (appended in increasing order)
  Region const_{"const", 0, {}, {}, true};
  Region params_{"kernel params", 0, {}, {}, true};
  uint64_t next_global_ = kGlobalBase;
};

}  // namespace ptxcheck::interp
