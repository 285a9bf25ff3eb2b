#include "semantics/interp/device_heap.hpp"

#include <cstring>
#include <stdexcept>
#include <vector>

namespace ptxcheck::interp {

bool DeviceHeap::set_limit(uint64_t bytes) {
  if (placed_ || bytes > kDeviceHeapWin) return false;
  limit_ = bytes;
  return true;
}

void DeviceHeap::place(Memory& mem) {
  if (placed_) return;
  placed_ = true;
  if (limit_ == 0) return;  // every malloc returns NULL
  if (limit_ > kDeviceHeapWin) throw LimitError("malloc heap size over 1 GiB");
  if (!mem.add_global_at("malloc heap", kDeviceHeapBase, std::vector<uint8_t>(limit_, 0)))
    throw std::logic_error("malloc heap overlaps another allocation");
  if (Region* r = mem.global_at(kDeviceHeapBase, limit_)) r->init.assign(limit_, kHeapGap);
}

void DeviceHeap::reset(Memory& mem) {
  if (placed_ && limit_ != 0) mem.remove_global(kDeviceHeapBase);
  placed_ = false;
  blocks_.clear();
  used_ = 0;
  limit_ = kDefaultMallocHeapBytes;
}

uint64_t DeviceHeap::malloc(uint64_t bytes, Memory& mem) {
  if (bytes == 0 || !placed_ || bytes > limit_) return 0;  // malloc(0): C allows NULL
  const uint64_t need = (bytes + 15) / 16 * 16 + kHeapRedZone;
  uint64_t off = 0;  // first fit over the gaps between blocks
  for (const auto& [b, n] : blocks_) {
    if (b - off >= need) break;
    off = b + n;
  }
  if (off > limit_ || limit_ - off < need) return 0;
  blocks_[off] = need;
  used_ += need;
  if (Region* r = mem.global_at(kDeviceHeapBase, limit_)) std::memset(&r->init[off], 0, bytes);  // valid, uninitialised
  return kDeviceHeapBase + off;
}

bool DeviceHeap::free(uint64_t addr, Memory& mem) {
  if (addr < kDeviceHeapBase) return false;
  auto it = blocks_.find(addr - kDeviceHeapBase);
  if (it == blocks_.end()) return false;
  if (Region* r = mem.global_at(kDeviceHeapBase, limit_)) std::memset(&r->init[it->first], kHeapGap, it->second);
  used_ -= it->second;
  blocks_.erase(it);
  return true;
}

}  // namespace ptxcheck::interp
