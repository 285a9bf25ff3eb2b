// nvcc's fatbinary container: what a CUDA program embeds for its kernels
// (one PTX and/or SASS entry per target architecture), and the choice of
// the PTX the interpreter runs.
//
// Layout (the container nvcc 12/13 writes; cuda/README.md "Fatbins"):
//   wrapper   {u32 magic 0x466243B1, u32 version (1, or 2 with -rdc),
//              const void* data (the container), const void* filename or
//              prelinked-container list} in .nvFatBinSegment
//   container {u32 magic 0xBA55ED50, u16 version 1, u16 header size,
//              u64 size of the entries that follow}
//   entry     {u16 kind (1 PTX, 2 ELF), u16 version 0x0101, u32 header size,
//              u64 padded payload size, u32 payload size, ..., u32 arch at
//              +0x1c (80 for compute_80 / sm_80), u64 flags at +0x28 (bit 0
//              64-bit, 0x2000 LZ4, 0x8000 zstd, 0x100000 an "a" target such
//              as compute_90a, 0x200000 an "f" target such as compute_100f),
//              u64 uncompressed size at +0x38}, then the payload.
// Contract: parsing never reads outside [data, data + size) and reports
// every malformed container as an error message, never a crash.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace shim::fatbin {

inline constexpr uint32_t kWrapperMagic = 0x466243B1u;
inline constexpr uint32_t kMagic = 0xBA55ED50u;

struct Entry {
  enum Kind : uint16_t { Ptx = 1, Elf = 2 } kind = Ptx;
  unsigned arch = 0;        // 80 for compute_80 / sm_80
  uint64_t flags = 0;
  const uint8_t* payload = nullptr;
  uint64_t payload_size = 0;
  uint64_t uncompressed_size = 0;
};

// The entries of the container at `data` (its header says how long it is;
// `limit` bounds what may be read, SIZE_MAX when the caller does not know).
// Returns false with `err` set when the bytes are not a valid container.
bool parse(const uint8_t* data, size_t limit, std::vector<Entry>& out, std::string& err);

// The payload of `e`, decompressed when the flags say so (LZ4, zstd).
bool payload(const Entry& e, std::string& out, std::string& err);

// The PTX to run on an sm_`device` part: the PTX entry with the highest
// architecture among those the device runs (plain PTX up to the device's
// architecture, "a" PTX of exactly it, "f" PTX of its family up to it). When there is none, `err` explains
// why and names the nvcc option that embeds usable PTX, or, for the fatbin of
// a shared library the program uses (`library`: its file name; empty for the
// program), names that library and only the device as the remedy.
bool choose_ptx(const std::vector<Entry>& entries, unsigned device, std::string& ptx, unsigned& arch,
                std::string& err, const std::string& library = "");

// What a module image is: PTX text, a fatbin container, a fatbin wrapper,
// or an ELF cubin.
enum class ImageKind { Ptx, Container, Wrapper, Elf };
ImageKind classify(const void* image);

}  // namespace shim::fatbin
