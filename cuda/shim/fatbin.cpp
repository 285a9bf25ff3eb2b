// nvcc's fatbinary container (fatbin.hpp).
#include "cuda/shim/fatbin.hpp"

#include <lz4.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>

namespace shim::fatbin {

namespace {

constexpr uint64_t kFlagLz4 = 0x2000;
constexpr uint64_t kFlagZstd = 0x8000;
// nvcc 13 marks an entry for an architecture-specific target (compute_90a)
// with 0x100000 and a family-specific one (compute_100f) with 0x200000
// (read from the fatbins it writes for -gencode arch=compute_XXa/f).
constexpr uint64_t kFlagArchSpecific = 0x100000;
constexpr uint64_t kFlagFamilySpecific = 0x200000;

const char* suffix(const Entry& e) {
  return e.flags & kFlagArchSpecific ? "a" : e.flags & kFlagFamilySpecific ? "f" : "";
}

// Whether PTX of `e` runs on an sm_`device` part, by the rule of a
// driver's JIT (cuda/shim/memory.cpp target_runs_on): plain PTX on its
// architecture and newer ones, "a" PTX only on its own architecture, "f" PTX
// on its architecture and newer ones of the same major version.
bool runs_on(const Entry& e, unsigned device) {
  if (e.flags & kFlagArchSpecific) return e.arch == device;
  if (e.flags & kFlagFamilySpecific) return e.arch <= device && e.arch / 10 == device / 10;
  return e.arch <= device;
}
constexpr uint64_t kMaxPayload = 1ull << 30;  // 1 GiB of PTX is not a real program

template <class T>
T rd(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

std::string arch_list(const std::vector<Entry>& es, Entry::Kind k, const char* prefix) {
  std::vector<std::pair<unsigned, std::string>> a;
  for (const auto& e : es)
    if (e.kind == k) a.emplace_back(e.arch, suffix(e));
  std::sort(a.begin(), a.end());
  a.erase(std::unique(a.begin(), a.end()), a.end());
  std::string s;
  for (const auto& [x, sfx] : a) s += (s.empty() ? "" : ", ") + std::string(prefix) + std::to_string(x) + sfx;
  return s;
}

}  // namespace

namespace {
// Whether the image starts with the 4 bytes of `magic` (none of them 0), read
// one at a time so that a NUL-terminated PTX string shorter than 4 bytes is
// never overrun.
bool starts_with(const uint8_t* p, const uint8_t (&magic)[4]) {
  for (int i = 0; i < 4; ++i)
    if (p[i] != magic[i]) return false;
  return true;
}
}  // namespace

ImageKind classify(const void* image) {
  const auto* p = static_cast<const uint8_t*>(image);
  static constexpr uint8_t wrapper[4] = {0xB1, 0x43, 0x62, 0x46}, container[4] = {0x50, 0xED, 0x55, 0xBA},
                           elf[4] = {0x7f, 'E', 'L', 'F'};
  if (starts_with(p, wrapper)) return ImageKind::Wrapper;
  if (starts_with(p, container)) return ImageKind::Container;
  if (starts_with(p, elf)) return ImageKind::Elf;
  return ImageKind::Ptx;
}

bool parse(const uint8_t* data, size_t limit, std::vector<Entry>& out, std::string& err) {
  out.clear();
  if (limit < 16 || rd<uint32_t>(data) != kMagic) {
    err = "not a fatbin container (magic 0xBA55ED50 expected)";
    return false;
  }
  uint16_t version = rd<uint16_t>(data + 4), hsize = rd<uint16_t>(data + 6);
  uint64_t size = rd<uint64_t>(data + 8);
  if (version != 1 || hsize < 16) {
    err = "fatbin container version " + std::to_string(version) + " with a " + std::to_string(hsize) +
          "-byte header is not supported (version 1 expected)";
    return false;
  }
  if (size > limit - hsize) {
    err = "fatbin container claims " + std::to_string(size) + " bytes of entries, more than it holds";
    return false;
  }
  const uint8_t* p = data + hsize;
  const uint8_t* end = p + size;
  while (end - p >= 0x40) {
    uint16_t kind = rd<uint16_t>(p);
    uint32_t ehsize = rd<uint32_t>(p + 4);
    uint64_t padded = rd<uint64_t>(p + 8);
    if (ehsize < 0x40 || ehsize > static_cast<uint64_t>(end - p) || padded > static_cast<uint64_t>(end - p) - ehsize) {
      err = "fatbin entry at offset " + std::to_string(p - data) + " overruns its container";
      return false;
    }
    Entry e;
    e.payload = p + ehsize;
    e.payload_size = std::min<uint64_t>(rd<uint32_t>(p + 0x10), padded);
    e.arch = rd<uint32_t>(p + 0x1c);
    e.flags = rd<uint64_t>(p + 0x28);
    e.uncompressed_size = rd<uint64_t>(p + 0x38);
    if (kind == Entry::Ptx || kind == Entry::Elf) {
      e.kind = static_cast<Entry::Kind>(kind);
      out.push_back(e);
    }  // other kinds (e.g. NVVM IR for LTO) are not code the driver runs
    p += ehsize + padded;
  }
  return true;
}

bool payload(const Entry& e, std::string& out, std::string& err) {
  const char* src = reinterpret_cast<const char*>(e.payload);
  if (e.flags & kFlagZstd) {
    unsigned long long n = ZSTD_getFrameContentSize(src, e.payload_size);
    if (n == ZSTD_CONTENTSIZE_ERROR) {
      err = "zstd-compressed fatbin entry is corrupt";
      return false;
    }
    if (n == ZSTD_CONTENTSIZE_UNKNOWN) n = e.uncompressed_size;
    if (n > kMaxPayload) {
      err = "fatbin entry decompresses to more than 1 GiB";
      return false;
    }
    out.assign(n, '\0');
    size_t r = ZSTD_decompress(out.data(), out.size(), src, e.payload_size);
    if (ZSTD_isError(r)) {
      err = std::string("zstd-compressed fatbin entry: ") + ZSTD_getErrorName(r);
      return false;
    }
    out.resize(r);
  } else if (e.flags & kFlagLz4) {
    if (e.uncompressed_size == 0 || e.uncompressed_size > kMaxPayload || e.payload_size > INT32_MAX) {
      err = "LZ4-compressed fatbin entry has no valid uncompressed size";
      return false;
    }
    out.assign(e.uncompressed_size, '\0');
    int r = LZ4_decompress_safe(src, out.data(), static_cast<int>(e.payload_size), static_cast<int>(out.size()));
    if (r < 0) {
      err = "LZ4-compressed fatbin entry is corrupt";
      return false;
    }
    out.resize(static_cast<size_t>(r));
  } else {
    out.assign(src, e.payload_size);
  }
  if (e.kind == Entry::Ptx)
    while (!out.empty() && out.back() == '\0') out.pop_back();
  return true;
}

bool choose_ptx(const std::vector<Entry>& entries, unsigned device, std::string& ptx, unsigned& arch, std::string& err,
                const std::string& library) {
  const Entry* best = nullptr;
  for (const auto& e : entries)
    if (e.kind == Entry::Ptx && runs_on(e, device) && (!best || e.arch > best->arch)) best = &e;
  std::string dev = "sm_" + std::to_string(device);
  if (!best) {
    std::string ptxs = arch_list(entries, Entry::Ptx, "compute_"), sass = arch_list(entries, Entry::Elf, "sm_");
    unsigned fix = device;
    for (const auto& e : entries)  // the newest architecture the program was built for that the device has
      if (e.arch <= device && (fix == device || e.arch > fix)) fix = e.arch;
    std::string flag = "-gencode arch=compute_" + std::to_string(fix) + ",code=compute_" + std::to_string(fix);
    // A shared library's fatbin (libcublas, libcurand, ...): the program's
    // user cannot rebuild it, so only the device can be changed.
    const std::string who = library.empty() ? "the program" : library + " (a library the program uses)";
    const std::string rebuild = library.empty() ? ", or rebuild with " + flag : "";
    bool specific = false;  // some PTX is architecture- or family-specific for another part
    for (const auto& e : entries)
      specific = specific || (e.kind == Entry::Ptx && (e.flags & (kFlagArchSpecific | kFlagFamilySpecific)));
    if (!ptxs.empty() && specific)
      err = who + " embeds PTX only for " + ptxs + ", which the emulated " + dev +
            " cannot run (architecture- or family-specific PTX runs only on its own architecture or family; "
            "choose the device with PTXCHECK_DEVICE or ptxcheck exec --device" +
            rebuild + ")";
    else if (!ptxs.empty())
      err = who + " embeds PTX only for " + ptxs + ", newer than the emulated " + dev +
            " (choose the device with PTXCHECK_DEVICE or ptxcheck exec --device" + rebuild + ")";
    else if (!sass.empty())
      err = who + " embeds only SASS (" + sass + ") and no PTX; the interpreter runs PTX" +
            (library.empty() ? ": rebuild with " + flag : ", so the kernels of this library cannot run here");
    else
      err = "the fatbin holds no PTX and no SASS";
    return false;
  }
  arch = best->arch;
  return payload(*best, ptx, err);
}

}  // namespace shim::fatbin
