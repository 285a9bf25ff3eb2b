// CUDA device-side dynamic allocation: the extern `.func malloc` and
// `.func free` that nvcc emits for device malloc/free/new/delete (CUDA C++
// Programming Guide, "Dynamic Global Memory Allocation and Operations").
//
// The heap has a fixed size (limit(), default 8 MiB, set before its first
// use as cudaDeviceSetLimit(cudaLimitMallocHeapSize) does); malloc returns 0
// (NULL) when a request does not fit. The heap is one global allocation of
// limit() bytes at kDeviceHeapBase (loads, stores, races and out-of-bounds
// checks as for any other global memory), placed by place() before a launch
// that calls malloc or free runs (a launch never adds or removes global
// allocations while it runs). Blocks are placed first-fit at 16-byte
// aligned offsets (the guide's alignment) and start uninitialised (the guide
// leaves their contents unspecified); a freed block's bytes may be handed
// out again, with a fresh race-detector history (the caller's job).
//
// Only the bytes of live blocks are valid: the heap region's `init` map
// (memory.hpp Region) holds kHeapGap for every other byte (never-used space,
// freed blocks, the padding that rounds a block up to 16 bytes, and the red
// zone after each block), and
// Memory::translate reports an access touching one as out of bounds, so an
// overrun from one block into the next, or a use after free(), is caught
// like an overrun of a cuMemAlloc buffer. A
// Session owns one heap for all its launches (blocks persist across
// launches); `ptxcheck run` gives each launch a fresh one.
#pragma once
#include <cstdint>
#include <map>

#include "semantics/interp/machine.hpp"
#include "semantics/interp/memory.hpp"

namespace ptxcheck::interp {

inline constexpr uint64_t kDeviceHeapBase = 0x4000'0000'0000ull;
inline constexpr uint64_t kDeviceHeapWin = uint64_t{1} << 30;  // the largest heap
inline constexpr uint64_t kDefaultMallocHeapBytes = uint64_t{8} << 20;
// Bytes left unused after each block (beside its rounding to 16), so that a
// small overrun lands outside every block instead of in the next one (as
// Memory::add_global leaves 256 bytes between buffers).
inline constexpr uint64_t kHeapRedZone = 16;
// The heap region's `init` value of a byte outside every live block (0 and 1
// are Region's uninitialised and initialised).
inline constexpr uint8_t kHeapGap = 2;
// Whether [off, off + n) of the heap region `r` lies inside live blocks.
inline bool heap_bytes_valid(const Region& r, uint64_t off, uint64_t n) {
  if (r.init.empty()) return true;
  for (uint64_t i = 0; i < n; ++i)
    if (r.init[off + i] == kHeapGap) return false;
  return true;
}

class DeviceHeap {
 public:
  uint64_t limit() const { return limit_; }
  uint64_t used() const { return used_; }
  // False once the heap was placed (the CUDA runtime rejects a new size
  // after a launch used the heap), or over kDeviceHeapWin.
  bool set_limit(uint64_t bytes);
  // Adds the heap's allocation to `mem` unless it is there already.
  void place(Memory& mem);
  // A new block of `bytes`, or 0 when bytes is 0 or no free range fits it;
  // its bytes become valid (uninitialised) in `mem`'s heap region.
  uint64_t malloc(uint64_t bytes, Memory& mem);
  // Frees the block at `addr` (which malloc returned and was not freed yet);
  // false if there is none. Its bytes become invalid in `mem`'s heap region.
  bool free(uint64_t addr, Memory& mem);
  // Forgets every block and the heap's allocation in `mem`, and restores the
  // default size: a device reset (cudaDeviceReset) or the end of the last
  // context.
  void reset(Memory& mem);

 private:
  uint64_t limit_ = kDefaultMallocHeapBytes, used_ = 0;
  bool placed_ = false;
  std::map<uint64_t, uint64_t> blocks_;  // offset -> bytes taken (a multiple of 16)
};

// run_program (machine.hpp) over `image` with `heap` as the launch's device heap.
RunResult run_program(const Program& prog, const LaunchSpec& spec, const RunOptions& opt, LaunchImage& image,
                      DeviceHeap& heap);

}  // namespace ptxcheck::interp
