// The runtime's integrity check (cuGetExportTable UUID
// d4082055-bde6-704b-8d34-ba123c66e1f2, proc.cpp): libcudart 13 asks the
// driver for a 16-byte digest of (driver version, runtime version, process,
// thread, the addresses of two private tables and of this function, a
// timestamp, each device's UUID and PCI location) and refuses to start when
// it differs from its own. The digest is HMAC-MD2 (RFC 2104 over RFC 1319,
// block size 16) under a fixed key; runtime versions ending in 0 or 1 expect
// fixed values instead. Facts from independent driver reimplementations
// (ZLUDA and others); the MD2 below is written from RFC 1319 (and agrees
// with its test vectors: MD2("") = 8350e5a3e24c153df2275c9f80692773).
#include <pthread.h>
#include <unistd.h>

#include <array>
#include <cstring>

#include "cuda/shim/state.hpp"

namespace shim {

namespace {

// RFC 1319's permutation of 0..255 constructed from the digits of pi.
constexpr uint8_t kPi[256] = {
    0x29, 0x2e, 0x43, 0xc9, 0xa2, 0xd8, 0x7c, 0x01, 0x3d, 0x36, 0x54, 0xa1, 0xec, 0xf0, 0x06, 0x13, 0x62, 0xa7, 0x05,
    0xf3, 0xc0, 0xc7, 0x73, 0x8c, 0x98, 0x93, 0x2b, 0xd9, 0xbc, 0x4c, 0x82, 0xca, 0x1e, 0x9b, 0x57, 0x3c, 0xfd, 0xd4,
    0xe0, 0x16, 0x67, 0x42, 0x6f, 0x18, 0x8a, 0x17, 0xe5, 0x12, 0xbe, 0x4e, 0xc4, 0xd6, 0xda, 0x9e, 0xde, 0x49, 0xa0,
    0xfb, 0xf5, 0x8e, 0xbb, 0x2f, 0xee, 0x7a, 0xa9, 0x68, 0x79, 0x91, 0x15, 0xb2, 0x07, 0x3f, 0x94, 0xc2, 0x10, 0x89,
    0x0b, 0x22, 0x5f, 0x21, 0x80, 0x7f, 0x5d, 0x9a, 0x5a, 0x90, 0x32, 0x27, 0x35, 0x3e, 0xcc, 0xe7, 0xbf, 0xf7, 0x97,
    0x03, 0xff, 0x19, 0x30, 0xb3, 0x48, 0xa5, 0xb5, 0xd1, 0xd7, 0x5e, 0x92, 0x2a, 0xac, 0x56, 0xaa, 0xc6, 0x4f, 0xb8,
    0x38, 0xd2, 0x96, 0xa4, 0x7d, 0xb6, 0x76, 0xfc, 0x6b, 0xe2, 0x9c, 0x74, 0x04, 0xf1, 0x45, 0x9d, 0x70, 0x59, 0x64,
    0x71, 0x87, 0x20, 0x86, 0x5b, 0xcf, 0x65, 0xe6, 0x2d, 0xa8, 0x02, 0x1b, 0x60, 0x25, 0xad, 0xae, 0xb0, 0xb9, 0xf6,
    0x1c, 0x46, 0x61, 0x69, 0x34, 0x40, 0x7e, 0x0f, 0x55, 0x47, 0xa3, 0x23, 0xdd, 0x51, 0xaf, 0x3a, 0xc3, 0x5c, 0xf9,
    0xce, 0xba, 0xc5, 0xea, 0x26, 0x2c, 0x53, 0x0d, 0x6e, 0x85, 0x28, 0x84, 0x09, 0xd3, 0xdf, 0xcd, 0xf4, 0x41, 0x81,
    0x4d, 0x52, 0x6a, 0xdc, 0x37, 0xc8, 0x6c, 0xc1, 0xab, 0xfa, 0x24, 0xe1, 0x7b, 0x08, 0x0c, 0xbd, 0xb1, 0x4a, 0x78,
    0x88, 0x95, 0x8b, 0xe3, 0x63, 0xe8, 0x6d, 0xe9, 0xcb, 0xd5, 0xfe, 0x3b, 0x00, 0x1d, 0x39, 0xf2, 0xef, 0xb7, 0x0e,
    0x66, 0x58, 0xd0, 0xe4, 0xa6, 0x77, 0x72, 0xf8, 0xeb, 0x75, 0x4b, 0x0a, 0x31, 0x44, 0x50, 0xb4, 0x8f, 0xed, 0x1f,
    0x1a, 0xdb, 0x99, 0x8d, 0x33, 0x9f, 0x11, 0x83, 0x14};

}  // namespace

void Md2::update(const void* data, size_t n) {
  const auto* p = static_cast<const uint8_t*>(data);
  for (size_t i = 0; i < n; ++i) {
    uint8_t c = p[i];
    block_[fill_] = c;
    checksum_[fill_] ^= kPi[c ^ last_];
    last_ = checksum_[fill_];
    if (++fill_ == 16) {
      compress();
      fill_ = 0;
    }
  }
}

void Md2::compress() {
  uint8_t x[48];
  for (int j = 0; j < 16; ++j) {
    x[j] = state_[j];
    x[16 + j] = block_[j];
    x[32 + j] = block_[j] ^ state_[j];
  }
  uint8_t t = 0;
  for (int round = 0; round < 18; ++round) {
    for (uint8_t& b : x) t = b ^= kPi[t];
    t = static_cast<uint8_t>(t + round);
  }
  std::memcpy(state_, x, 16);
}

std::array<uint8_t, 16> Md2::digest() {
  uint8_t pad = static_cast<uint8_t>(16 - fill_);
  for (int i = 0; i < pad; ++i) update(&pad, 1);
  uint8_t sum[16];
  std::memcpy(sum, checksum_, 16);
  for (uint8_t b : sum) {  // the checksum block is compressed without updating the checksum
    block_[fill_] = b;
    if (++fill_ == 16) {
      compress();
      fill_ = 0;
    }
  }
  std::array<uint8_t, 16> out;
  std::memcpy(out.data(), state_, 16);
  return out;
}

namespace {

struct CheckInput {
  uint32_t driver_version, runtime_version, process, thread;
  const void *cudart_table, *integrity_table, *function;
  uint64_t unix_seconds;
};
struct DeviceInput {
  char uuid[16];
  int32_t pci_domain, pci_bus, pci_device;
};
static_assert(sizeof(CheckInput) == 48 && sizeof(DeviceInput) == 28);

constexpr uint8_t kKey[16] = {0x14, 0x6a, 0xdd, 0xae, 0x53, 0xa9, 0xa7, 0x52,
                              0xaa, 0x08, 0x41, 0x36, 0x0b, 0xf5, 0x5a, 0x9f};

CUresult integrity_check(uint32_t version, uint64_t unix_seconds, uint64_t result[2]);
CUresult integrity_enable(int) { return CUDA_SUCCESS; }

const void* const kIntegrityTable[] = {reinterpret_cast<const void*>(uintptr_t{3 * sizeof(void*)}),
                                       reinterpret_cast<const void*>(&integrity_check),
                                       reinterpret_cast<const void*>(&integrity_enable)};

CUresult integrity_check(uint32_t version, uint64_t unix_seconds, uint64_t result[2]) {
  if (!result) return CUDA_ERROR_INVALID_VALUE;
  if (version % 10 < 2) {
    result[0] = version % 10 == 0 ? 0x3341181c03cb675cull : 0x1841181c03cb675cull;
    result[1] = 0x8ed383aa1f4cd1e8ull;
    return CUDA_SUCCESS;
  }
  uint8_t ipad[16], opad[16];
  for (int i = 0; i < 16; ++i) {
    ipad[i] = kKey[i] ^ 0x36;
    opad[i] = kKey[i] ^ 0x5c;
  }
  Md2 inner;
  inner.update(ipad, 16);
  pthread_t self = pthread_self();
  uintptr_t tid = 0;
  std::memcpy(&tid, &self, std::min(sizeof self, sizeof tid));
  CheckInput in{CUDA_VERSION, version,           static_cast<uint32_t>(getpid()),
                static_cast<uint32_t>(tid), cudart_interface(), kIntegrityTable,
                reinterpret_cast<const void*>(&integrity_check), unix_seconds};
  inner.update(&in, sizeof in);
  int count = 0;
  if (CUresult r = cuDeviceGetCount(&count)) return r;
  for (int d = 0; d < count; ++d) {
    DeviceInput dev{};
    CUuuid u;
    if (CUresult r = cuDeviceGetUuid_v2(&u, d)) return r;
    std::memcpy(dev.uuid, u.bytes, 16);
    cuDeviceGetAttribute(&dev.pci_domain, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, d);
    cuDeviceGetAttribute(&dev.pci_bus, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, d);
    cuDeviceGetAttribute(&dev.pci_device, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, d);
    inner.update(&dev, sizeof dev);
  }
  std::array<uint8_t, 16> h = inner.digest();
  Md2 outer;
  outer.update(opad, 16);
  outer.update(h.data(), 16);
  h = outer.digest();
  std::memcpy(result, h.data(), 16);
  return CUDA_SUCCESS;
}

}  // namespace

const void* const* integrity_table() { return kIntegrityTable; }

}  // namespace shim
