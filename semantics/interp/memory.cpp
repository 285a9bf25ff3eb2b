#include "semantics/interp/memory.hpp"

#include <algorithm>

#include "semantics/interp/device_heap.hpp"

namespace ptxcheck::interp {

const char* space_name(Space s) {
  switch (s) {
    case Space::Generic: return "generic";
    case Space::Global: return "global";
    case Space::Shared: return "shared::cta";
    case Space::SharedCluster: return "shared::cluster";
    case Space::Local: return "local";
    case Space::Const: return "const";
    case Space::Param: return "param";
  }
  return "?";
}

uint64_t Memory::add_global(std::string name, std::vector<uint8_t> bytes) {
  Region r;
  r.name = std::move(name);
  r.base = next_global_;
  // Separate allocations by at least one unused 256-byte block so that an
  // overrun of one buffer is reported instead of landing in the next.
  next_global_ += ((bytes.size() + 255) / 256 + 1) * 256;
  r.bytes = std::move(bytes);
  globals_.push_back(std::move(r));
  return globals_.back().base;
}

bool Memory::add_global_at(std::string name, uint64_t base, std::vector<uint8_t> bytes) {
  auto it = std::upper_bound(globals_.begin(), globals_.end(), base,
                             [](uint64_t a, const Region& r) { return a < r.base; });
  uint64_t end = base + std::max<uint64_t>(bytes.size(), 1);
  if (end < base || (it != globals_.end() && end > it->base)) return false;
  if (it != globals_.begin() && std::prev(it)->base + std::max<uint64_t>(std::prev(it)->bytes.size(), 1) > base)
    return false;
  Region r;
  r.name = std::move(name);
  r.base = base;
  r.bytes = std::move(bytes);
  globals_.insert(it, std::move(r));
  return true;
}

bool Memory::remove_global(uint64_t base) {
  auto it = std::lower_bound(globals_.begin(), globals_.end(), base,
                             [](const Region& r, uint64_t a) { return r.base < a; });
  if (it == globals_.end() || it->base != base) return false;
  globals_.erase(it);
  return true;
}

Region* Memory::global_at(uint64_t addr, uint64_t size) {
  auto it = std::upper_bound(globals_.begin(), globals_.end(), addr,
                             [](uint64_t a, const Region& r) { return a < r.base; });
  if (it == globals_.begin()) return nullptr;
  --it;
  uint64_t off = addr - it->base;
  if (off > it->bytes.size() || size > it->bytes.size() - off) return nullptr;
  return &*it;
}

Region* Memory::find_global(uint64_t addr, unsigned size) {
  auto it = std::upper_bound(globals_.begin(), globals_.end(), addr,
                             [](uint64_t a, const Region& r) { return a < r.base; });
  if (it == globals_.begin()) return nullptr;
  --it;
  if (addr - it->base + size > it->bytes.size()) return nullptr;
  return &*it;
}

Space Memory::classify(uint64_t g) const {
  if (g >= kSharedWin && g < kSharedWin + kWinSize) return Space::SharedCluster;
  if (g >= kLocalWin && g < kLocalWin + kWinSize) return Space::Local;
  if (g >= kConstWin && g < kConstWin + kWinSize) return Space::Const;
  if (g >= kParamWin && g < kParamWin + kWinSize) return Space::Param;
  return Space::Global;
}

uint64_t Memory::to_generic(Space s, uint64_t a) {
  switch (s) {
    case Space::Shared:
    case Space::SharedCluster: return kSharedWin + (a & 0xffffffffu);
    case Space::Local: return kLocalWin + (a & 0xffffffffu);
    case Space::Const: return kConstWin + (a & 0xffffffffu);
    case Space::Param: return kParamWin + (a & 0xffffffffu);
    default: return a;
  }
}

uint64_t Memory::from_generic(Space s, uint64_t g) {
  switch (s) {
    case Space::Shared:
    case Space::SharedCluster: return g - kSharedWin;
    case Space::Local: return g - kLocalWin;
    case Space::Const: return g - kConstWin;
    case Space::Param: return g - kParamWin;
    default: return g;
  }
}

bool Memory::is_in_space(Space s, uint64_t g, const ThreadMem& tm) const {
  Space c = classify(g);
  switch (s) {
    case Space::Shared:  // shared::cta: the window part that is the own CTA's
      return c == Space::SharedCluster && ((g - kSharedWin) >> kRankShift) == 0;
    case Space::SharedCluster: return c == Space::SharedCluster;
    case Space::Global: return c == Space::Global;
    default: return c == s;
  }
}

Where Memory::translate(Space space, uint64_t addr, unsigned size, unsigned align, const ThreadMem& tm) {
  Where w;
  if (align > 1 && (addr & (align - 1))) {
    w.fault = Fault::Misaligned;
    return w;
  }
  if (space == Space::Generic) {
    space = classify(addr);
    addr = from_generic(space, addr);
  }
  w.space = space;
  Region* r = nullptr;
  uint64_t off = 0;
  switch (space) {
    case Space::Global:
      r = find_global(addr, size);
      if (r) off = addr - r->base;
      // The device heap: only its live blocks are valid (device_heap.hpp).
      if (r && r->base == kDeviceHeapBase && !heap_bytes_valid(*r, off, size)) r = nullptr;
      break;
    case Space::Shared:
    case Space::SharedCluster: {
      uint64_t rank = addr >> kRankShift;
      int cta = tm.cta_rank;
      if (rank != 0) {
        if (space == Space::Shared || !tm.cluster_shared || rank - 1 >= tm.cluster_shared->size()) break;
        cta = static_cast<int>(rank - 1);
      }
      if (!tm.cluster_shared) break;
      r = (*tm.cluster_shared)[static_cast<size_t>(cta)];
      off = addr & ((1u << kRankShift) - 1);
      w.cta = tm.slot_base + cta;
      if (rank == 0 && tm.reserved && off >= kReservedSmemBegin) {  // the own CTA's reserved shared memory
        r = tm.reserved;
        off -= kReservedSmemBegin;
      }
      if (off + size > r->bytes.size()) r = nullptr;
      break;
    }
    case Space::Local:
      r = tm.local;
      off = addr;
      if (!r || off + size > r->bytes.size()) r = nullptr;
      break;
    case Space::Const:
      r = &const_;
      off = addr;
      if (off + size > r->bytes.size()) r = nullptr;
      break;
    case Space::Param:
      r = &params_;
      off = addr;
      if (off + size > r->bytes.size()) r = nullptr;
      break;
    case Space::Generic: break;
  }
  if (!r) {
    w.fault = Fault::OutOfBounds;
    return w;
  }
  w.region = r;
  w.off = off;
  return w;
}

}  // namespace ptxcheck::interp
