// A persistent device for the CUDA driver-API shim (cuda/): global memory
// that outlives launches, modules parsed and lowered once, and kernels
// launched with caller-given parameter bytes (LaunchImage, machine.hpp).
//
// Global address map (other spaces as in memory.hpp):
//   heap     alloc(): from kGlobalBase with Memory::add_global's placement
//            rule (256-aligned, >= 256 unused bytes between allocations), so
//            buffers allocated in launch-spec order get the addresses that
//            `ptxcheck run` gives them (for a module without .global
//            variables, which `ptxcheck run` places first). Addresses are never reused: a use
//            after free is an out-of-bounds diagnostic, not silent aliasing.
//   malloc   the device heap of kernels' malloc/free (device_heap.hpp) from
//            kDeviceHeapBase; it persists across the session's launches.
//   modules  module slot k's .global variables from kModuleBase + k * 4 GiB
//            (lower(..., global_base)), so modules loaded together never
//            overlap.
//   fixed    alloc_fixed(): allocations at addresses the caller chooses
//            outside the ranges above and below (the shim's host memory
//            that kernels reach at its host address, cuda/shim/hostmem.cpp).
//   const    module slot k's .const bank is host-visible (var(), host_bytes())
//            at kConstAlias + k * 4 GiB; kernels read it through the const
//            space as usual. The alias exists for host copies only: a kernel
//            that dereferences it faults.
// Contract: no function here lets a bad address or size touch host memory
// outside an allocation; invalid PTX throws InputError (the parser's or the
// lowering's position and message), capacity limits throw LimitError.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "semantics/interp/device_heap.hpp"
#include "semantics/interp/machine.hpp"

namespace ptxcheck::interp {

inline constexpr uint64_t kModuleBase = 0x5000'0000'0000ull;
inline constexpr uint64_t kConstAlias = 0x6000'0000'0000ull;
inline constexpr uint64_t kModuleSlot = 0x1'0000'0000ull;  // 4 GiB per module
inline constexpr uint32_t kMaxModules = 4096;

struct SessionKernel {
  std::string name;
  Program prog;  // lowered for this kernel (the whole module is lowered)
};

struct SessionModule {
  uint32_t slot = 0;
  std::string file;  // name in diagnostics
  unsigned ptx_version = 0;  // .version major * 10 + minor
  std::string target;        // the .target architecture ("sm_90", "sm_90a"; "" when none)
  std::vector<SessionKernel> kernels;
  struct Var {
    std::string name;
    uint64_t addr = 0, size = 0;
    bool is_const = false;  // addr is in the const alias
    uint8_t opaque = 0;  // 1 .texref, 2 .surfref, 3 .samplerref (PTX ISA 5.3); 0 other types
    bool managed = false;  // .global with .attribute(.managed) (PTX ISA 5.4.8; CUDA's __managed__)
  };
  std::vector<Var> vars;            // module-scope .global and .const variables
  std::vector<uint8_t> const_bank;  // the module's const bank (host-writable)
  SessionKernel* kernel(std::string_view name);
  const Var* var(std::string_view name) const;
};

struct LaunchConfig {
  std::array<uint32_t, 3> grid{1, 1, 1}, block{1, 1, 1};
  uint32_t dynamic_shared_bytes = 0;
  std::array<uint32_t, 3> cluster{0, 0, 0};  // 0: the kernel's .reqnctapercluster, else 1x1x1
  bool cooperative = false;                  // LaunchSpec::cooperative
};

class Session {
 public:
  explicit Session(uint64_t capacity_bytes) : capacity_(capacity_bytes) {}
  uint64_t capacity() const { return capacity_; }
  uint64_t used() const { return used_; }

  // A zero-filled heap allocation of `bytes` (> 0) at a multiple of `align`
  // (a power of two >= 256); throws LimitError when it does not fit in the
  // capacity.
  uint64_t alloc(uint64_t bytes, uint64_t align = 256);
  // An address range for a later alloc_at of `bytes` (> 0): the address alloc
  // would give, taken without backing memory (graph allocations: the driver
  // fixes their address when the graph is built, and backs it while a launch
  // holds the allocation).
  uint64_t reserve(uint64_t bytes);
  // A zero-filled heap allocation of `bytes` at `addr` (from reserve, not
  // allocated now); throws LimitError when it does not fit in the capacity.
  void alloc_at(uint64_t addr, uint64_t bytes);
  // A zero-filled allocation of `bytes` (> 0) at `addr`, an address the
  // caller chose: the device side of host memory that kernels reach at its
  // host address (the shim's managed, page-locked and registered memory).
  // Counted in the capacity only when `counted` (LimitError when it does not
  // fit). False when the range overlaps an allocation or the addresses the
  // session keeps for itself: its heap and the device heap (kGlobalBase up to
  // kDeviceHeapBase + kDeviceHeapWin), the generic windows and the grid
  // workspace (memory.hpp). A module loaded later skips the module slots
  // such a range falls in, and the range hides a const alias it overlaps.
  bool alloc_fixed(uint64_t addr, uint64_t bytes, bool counted);
  // The heap allocation or module variable holding `addr`: its base and size.
  bool allocation(uint64_t addr, uint64_t& base, uint64_t& size);
  // Frees the heap allocation starting at `addr`; false if there is none.
  bool free(uint64_t addr);
  // The n host-visible bytes at device address `addr` (a heap allocation, a
  // module's .global variables, or a const alias), all within one
  // allocation; nullptr otherwise.
  uint8_t* host_bytes(uint64_t addr, uint64_t n);
  // The "written" map (Region::init: one byte per byte, 1 when written; empty
  // when all are) of the heap allocation that starts at `base` and is `n`
  // bytes long, or nullptr. A launch reports a load of a byte marked 0 as an
  // uninitialised read and marks the bytes it stores (the shim's discarded
  // managed ranges, cuda/shim/hostmem.cpp).
  std::vector<uint8_t>* init_map(uint64_t base, uint64_t n);

  // The device heap of kernels' malloc/free (cuCtxSetLimit's
  // CU_LIMIT_MALLOC_HEAP_SIZE sets its size before its first use).
  DeviceHeap& device_heap() { return dheap_; }
  // Frees every heap block and the heap itself, back to the default size (a
  // device reset).
  void reset_device_heap() { dheap_.reset(mem_); }

  // Parses `text`, lowers every kernel, and places the module's variables.
  SessionModule& load_module(std::string_view text, const std::string& file);
  // Unloads a module returned by load_module; false if it is not loaded.
  bool unload_module(const SessionModule* m);
  bool is_loaded(const SessionModule* m) const;

  // Runs `k` of `m` over the session's memory. Launch-configuration errors
  // (.reqntid, cluster shape, parameter size) throw InputError.
  RunResult launch(SessionModule& m, SessionKernel& k, const LaunchConfig& cfg, std::vector<uint8_t> params,
                   const RunOptions& opt);

 private:
  Memory mem_;
  std::map<uint32_t, std::unique_ptr<SessionModule>> modules_;  // by slot
  std::map<uint64_t, uint64_t> heap_;                           // base -> size counted in used_
  std::map<uint64_t, uint64_t> fixed_;                          // alloc_fixed: base -> size
  uint64_t next_heap_ = kGlobalBase;
  uint64_t capacity_ = 0, used_ = 0;
  DeviceHeap dheap_;
};

}  // namespace ptxcheck::interp
