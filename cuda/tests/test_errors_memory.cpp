// Error paths of the shim's memory calls (test_errors.cpp explains the
// binary): addresses and sizes, mapped, registered and managed host memory,
// stream-ordered pools and graph memory nodes.
#include <cuda.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cuda/tests/shim_test.hpp"

namespace {

// The same small limits as test_errors.cpp: the three files make one test
// binary, whose tags each run in their own process (cuda/tests/meson.build).

using shimtest::Ctx;
using shimtest::kernel;
using shimtest::kHeader;
using shimtest::launch;
using shimtest::load;
using shimtest::StderrCapture;

}  // namespace
TEST_CASE("memory calls check addresses and sizes", "[memory]") {
  Ctx ctx;
  CUdeviceptr p = 0, q = 0;
  CHECK(cuMemAlloc(&p, 0) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuMemAlloc(&p, size_t{1} << 40) == CUDA_ERROR_OUT_OF_MEMORY);
  REQUIRE(cuMemAlloc(&p, 100) == CUDA_SUCCESS);
  REQUIRE(cuMemAlloc(&q, 100) == CUDA_SUCCESS);
  size_t free_b = 0, total = 0;
  CHECK(cuMemGetInfo(&free_b, &total) == CUDA_SUCCESS);
  CHECK(total == 64u << 20);
  CHECK(free_b == total - 200);
  std::vector<unsigned char> buf(200, 0xab);
  CHECK(cuMemcpyHtoD(p, buf.data(), 100) == CUDA_SUCCESS);
  CHECK(cuMemcpyHtoD(p, buf.data(), 101) == CUDA_ERROR_INVALID_VALUE);  // past the end
  CHECK(cuMemcpyHtoD(p + 50, buf.data(), 51) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuMemcpyHtoD(p - 1, buf.data(), 1) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuMemcpyHtoD(p, nullptr, 4) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuMemcpyDtoH(buf.data(), 0x1234, 4) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuMemsetD32(p + 2, 1, 4) == CUDA_ERROR_INVALID_VALUE);  // misaligned
  CHECK(cuMemsetD16(p + 2, 0x1234, 3) == CUDA_SUCCESS);
  CHECK(cuMemsetD8(q, 0x11, 100) == CUDA_SUCCESS);
  CHECK(cuMemcpyDtoD(p + 8, q, 4) == CUDA_SUCCESS);
  CHECK(cuMemcpyDtoD(p + 20, p + 10, 30) == CUDA_SUCCESS);  // overlapping
  std::vector<unsigned char> got(100);
  REQUIRE(cuMemcpyDtoH(got.data(), p, 100) == CUDA_SUCCESS);
  CHECK((got[0] == 0xab && got[2] == 0x34 && got[3] == 0x12 && got[8] == 0x11 && got[11] == 0x11));
  CHECK((got[20] == 0x11 && got[21] == 0x11 && got[22] == 0xab && got[49] == 0xab));  // old bytes 10..39
  void* host = nullptr;
  REQUIRE(cuMemAllocHost(&host, 100) == CUDA_SUCCESS);
  CHECK(cuMemcpyDtoH(host, q, 100) == CUDA_SUCCESS);
  CHECK(static_cast<unsigned char*>(host)[99] == 0x11);
  CHECK(cuMemFreeHost(host) == CUDA_SUCCESS);
  CHECK(cuMemFreeHost(host) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuMemFreeHost(got.data()) == CUDA_ERROR_INVALID_VALUE);  // not from cuMemAllocHost
  size_t limit = 0;
  CHECK(cuCtxGetLimit(&limit, CU_LIMIT_PRINTF_FIFO_SIZE) == CUDA_SUCCESS);
  CHECK(limit > 0);
  CHECK(cuCtxSetLimit(static_cast<CUlimit>(7), 1) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuMemFree(p + 4) == CUDA_ERROR_INVALID_VALUE);  // not an allocation's base
  CHECK(cuMemFree(p) == CUDA_SUCCESS);
  CHECK(cuMemFree(p) == CUDA_ERROR_INVALID_VALUE);  // double free
  CHECK(cuMemcpyDtoH(got.data(), p, 4) == CUDA_ERROR_INVALID_VALUE);
  // A kernel using the freed pointer faults: addresses are not reused.
  CUmodule m = load(kernel("st.global.u32 [%rd1], 1;\n"));
  StderrCapture cap;
  CHECK(launch(m, p) == CUDA_SUCCESS);
  CHECK(cuCtxSynchronize() == CUDA_ERROR_ILLEGAL_ADDRESS);
  cap.text();
}

TEST_CASE("mapped host memory: device pointers, kernel writes, bounds, error codes", "[memory]") {
  Ctx ctx;
  int v = 0;
  CHECK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY, 0) == CUDA_SUCCESS);
  CHECK(v == 1);
  // Unified addressing: kernels reach page-locked and registered memory at
  // its host address (hostmem.cpp), also under ASan.
  CHECK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, 0) == CUDA_SUCCESS);
  CHECK(v == 1);
  // CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM (91; not named in cuda/include/cuda.h)
  CHECK(cuDeviceGetAttribute(&v, static_cast<CUdevice_attribute>(91), 0) == CUDA_SUCCESS);
  CHECK(v == 1);
  size_t free0 = 0, free1 = 0, total = 0;
  CHECK(cuMemGetInfo(&free0, &total) == CUDA_SUCCESS);
  CUmodule m = load(kernel("st.global.u32 [%rd1], 7;\n"));
  // cuMemHostAlloc(DEVICEMAP): the device pointer is the host pointer.
  void* h = nullptr;
  REQUIRE(cuMemHostAlloc(&h, 100, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE) == CUDA_SUCCESS);
  CUdeviceptr d = 0;
  CHECK(cuMemHostGetDevicePointer(&d, h, 1) == CUDA_ERROR_INVALID_VALUE);  // flags must be 0
  REQUIRE(cuMemHostGetDevicePointer(&d, static_cast<char*>(h) + 8, 0) == CUDA_SUCCESS);
  CHECK(d == reinterpret_cast<CUdeviceptr>(h) + 8);
  unsigned flags = 0;
  CHECK(cuMemHostGetFlags(&flags, h) == CUDA_SUCCESS);
  CHECK(flags == (CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
  CHECK(launch(m, d) == CUDA_SUCCESS);
  CHECK(cuCtxSynchronize() == CUDA_SUCCESS);
  CHECK(static_cast<unsigned*>(h)[2] == 7u);                               // the kernel's write, seen by the host
  CHECK(cuMemHostUnregister(h) == CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED);  // allocated, not registered
  // Pinned without DEVICEMAP: mapped all the same under unified addressing
  // (cuda.h, cuMemAllocHost: the device pointer "is always equal to the
  // returned host pointer"), and the memory is not device memory.
  void* unmapped = nullptr;
  REQUIRE(cuMemAllocHost(&unmapped, 1 << 20) == CUDA_SUCCESS);
  CHECK(cuMemGetInfo(&free1, &total) == CUDA_SUCCESS);
  CHECK(free1 == free0);
  REQUIRE(cuMemHostGetDevicePointer(&d, static_cast<char*>(unmapped) + 4, 0) == CUDA_SUCCESS);
  CHECK(d == reinterpret_cast<CUdeviceptr>(unmapped) + 4);
  void* wc = nullptr;  // write-combined, not DEVICEMAP: the call "must be used"
  REQUIRE(cuMemHostAlloc(&wc, 64, CU_MEMHOSTALLOC_WRITECOMBINED) == CUDA_SUCCESS);
  REQUIRE(cuMemHostGetDevicePointer(&d, wc, 0) == CUDA_SUCCESS);
  CHECK(d == reinterpret_cast<CUdeviceptr>(wc));
  CHECK(cuMemFreeHost(wc) == CUDA_SUCCESS);
  CHECK(launch(m, reinterpret_cast<CUdeviceptr>(unmapped) + 12) == CUDA_SUCCESS);
  CHECK(cuCtxSynchronize() == CUDA_SUCCESS);
  CHECK(static_cast<unsigned*>(unmapped)[3] == 7u);
  CHECK(cuMemsetD32(reinterpret_cast<CUdeviceptr>(unmapped), 5, 4) == CUDA_SUCCESS);
  CHECK(static_cast<unsigned*>(unmapped)[3] == 5u);
  // Not pinned at all: no device pointer.
  std::vector<unsigned char> buf(256, 0);
  CHECK(cuMemHostGetDevicePointer(&d, buf.data(), 0) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuMemHostGetFlags(&flags, buf.data()) == CUDA_ERROR_INVALID_VALUE);
  // A registered range, not page-aligned: its device pointer is its host
  // pointer.
  unsigned char* r = buf.data() + 4;
  REQUIRE(cuMemHostRegister(r, 64, CU_MEMHOSTREGISTER_DEVICEMAP) == CUDA_SUCCESS);
  CHECK(cuMemHostRegister(r, 64, CU_MEMHOSTREGISTER_DEVICEMAP) == CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
  CHECK(cuMemHostRegister(r + 60, 16, 0) == CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED);  // overlaps
  CHECK(cuMemHostRegister(r - 4, 8, 0) == CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
  CHECK(cuMemHostRegister(r + 64, 4, CU_MEMHOSTREGISTER_READ_ONLY) == CUDA_ERROR_NOT_SUPPORTED);
  REQUIRE(cuMemHostGetDevicePointer(&d, r + 8, 0) == CUDA_SUCCESS);
  CHECK(d == reinterpret_cast<CUdeviceptr>(r + 8));
  CHECK(cuMemHostGetFlags(&flags, r) == CUDA_ERROR_INVALID_VALUE);  // not from cuMemHostAlloc
  unsigned type = 0;
  void* host = nullptr;
  CHECK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d) == CUDA_SUCCESS);
  CHECK(type == CU_MEMORYTYPE_HOST);
  CHECK(cuPointerGetAttribute(&host, CU_POINTER_ATTRIBUTE_HOST_POINTER, d) == CUDA_SUCCESS);
  CHECK(host == r + 8);
  CUdeviceptr dp = 0;
  CHECK(cuPointerGetAttribute(&dp, CU_POINTER_ATTRIBUTE_DEVICE_POINTER, reinterpret_cast<CUdeviceptr>(r + 8)) ==
        CUDA_SUCCESS);
  CHECK(dp == d);
  r[8] = 1;  // a host write before the launch is overwritten by the kernel's
  CHECK(launch(m, d) == CUDA_SUCCESS);
  CHECK(cuCtxSynchronize() == CUDA_SUCCESS);
  unsigned got = 0;
  std::memcpy(&got, r + 8, 4);
  CHECK(got == 7u);
  CHECK(cuMemcpyDtoH(&got, d, 4) == CUDA_SUCCESS);  // a copy from the device pointer reads the host's bytes
  CHECK(got == 7u);
  CHECK(cuMemHostUnregister(buf.data()) == CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED);  // not the range's start
  CHECK(cuMemHostUnregister(r) == CUDA_SUCCESS);
  CHECK(cuMemHostUnregister(r) == CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED);
  CHECK(cuMemHostGetDevicePointer(&d, r + 8, 0) == CUDA_ERROR_INVALID_VALUE);
  // Registered without DEVICEMAP: the kernel stores through the host
  // pointer itself.
  REQUIRE(cuMemHostRegister(r, 64, 0) == CUDA_SUCCESS);
  CHECK(cuMemHostGetDevicePointer(&d, r, 0) == CUDA_ERROR_INVALID_VALUE);
  CHECK(launch(m, reinterpret_cast<CUdeviceptr>(r + 16)) == CUDA_SUCCESS);
  CHECK(cuCtxSynchronize() == CUDA_SUCCESS);
  std::memcpy(&got, r + 16, 4);
  CHECK(got == 7u);
  CHECK(cuMemGetInfo(&free1, &total) == CUDA_SUCCESS);
  CHECK(free1 == free0);
  CHECK(cuMemHostUnregister(r) == CUDA_SUCCESS);
  CHECK(cuMemFreeHost(unmapped) == CUDA_SUCCESS);
  CHECK(cuMemFreeHost(h) == CUDA_SUCCESS);
  CHECK(cuMemFreeHost(h) == CUDA_ERROR_INVALID_VALUE);
  // A kernel store past a registered range is out of bounds.
  REQUIRE(cuMemHostRegister(r, 64, CU_MEMHOSTREGISTER_DEVICEMAP) == CUDA_SUCCESS);
  REQUIRE(cuMemHostGetDevicePointer(&d, r + 60, 0) == CUDA_SUCCESS);
  CUmodule past = load(kernel("st.global.u32 [%rd1+4], 7;\n"));
  StderrCapture cap;
  CHECK(launch(past, d) == CUDA_SUCCESS);
  CHECK(cuCtxSynchronize() == CUDA_ERROR_ILLEGAL_ADDRESS);
  CHECK(cap.text().find("out-of-bounds") != std::string::npos);
  // The faulted context refuses the release too (as real drivers answer
  // cudaHostUnregister then); destroying the context releases the range.
  CHECK(cuMemHostUnregister(r) == CUDA_ERROR_ILLEGAL_ADDRESS);
}

// Host-visible ranges (hostmem.cpp): a context's page-locked memory is
// freed and its registered ranges unregistered with it (cuCtxDestroy); a
// registered buffer unmapped without cuMemHostUnregister is reported and
// dropped at the next launch instead of crashing the shim; after a launch
// only the bytes it changed are written back, so a registered page made
// read-only by the program is left alone when no kernel wrote it.
TEST_CASE("host memory ranges: released with their context, unmapped or read-only buffers", "[memory]") {
  REQUIRE(cuInit(0) == CUDA_SUCCESS);
  CUcontext c = nullptr;
  REQUIRE(cuCtxCreate(&c, nullptr, 0, 0) == CUDA_SUCCESS);
  void* pinned = nullptr;
  REQUIRE(cuMemAllocHost(&pinned, 4096) == CUDA_SUCCESS);
  std::vector<unsigned char> buf(128, 0);
  REQUIRE(cuMemHostRegister(buf.data(), buf.size(), 0) == CUDA_SUCCESS);
  REQUIRE(cuCtxDestroy(c) == CUDA_SUCCESS);
  Ctx ctx;
  CHECK(cuMemHostRegister(buf.data(), buf.size(), 0) == CUDA_SUCCESS);  // unregistered with its context
  CHECK(cuMemHostUnregister(buf.data()) == CUDA_SUCCESS);
  CHECK(cuMemFreeHost(pinned) == CUDA_ERROR_INVALID_VALUE);  // freed with its context

  CUmodule m = load(kernel("st.global.u32 [%rd1], 7;\n"));
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  void* other = nullptr;
  REQUIRE(cuMemAllocHost(&other, 64) == CUDA_SUCCESS);
  // A registered page the program makes read-only: kernels only read it.
  void* ro = mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  REQUIRE(ro != MAP_FAILED);
  static_cast<unsigned*>(ro)[0] = 5;
  REQUIRE(cuMemHostRegister(ro, page, 0) == CUDA_SUCCESS);
  REQUIRE(mprotect(ro, page, PROT_READ) == 0);
  {
    StderrCapture cap;
    CHECK(launch(m, reinterpret_cast<CUdeviceptr>(other)) == CUDA_SUCCESS);
    CHECK(cuCtxSynchronize() == CUDA_SUCCESS);
    CHECK(cap.text().find("no longer mapped") == std::string::npos);
  }
  CHECK(static_cast<unsigned*>(other)[0] == 7u);
  CHECK(cuMemHostUnregister(ro) == CUDA_SUCCESS);
  // Two registered pages unmapped without cuMemHostUnregister.
  void* gone = mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  REQUIRE(gone != MAP_FAILED);
  REQUIRE(cuMemHostRegister(gone, 2 * page, 0) == CUDA_SUCCESS);
  CHECK(launch(m, reinterpret_cast<CUdeviceptr>(gone) + 8) == CUDA_SUCCESS);
  CHECK(cuCtxSynchronize() == CUDA_SUCCESS);
  CHECK(static_cast<unsigned*>(gone)[2] == 7u);
  REQUIRE(munmap(gone, 2 * page) == 0);
  static_cast<unsigned*>(other)[0] = 0;
  {
    StderrCapture cap;
    CHECK(launch(m, reinterpret_cast<CUdeviceptr>(other)) == CUDA_SUCCESS);
    CHECK(cuCtxSynchronize() == CUDA_SUCCESS);
    CHECK(cap.text().find("is no longer mapped") != std::string::npos);
  }
  CHECK(static_cast<unsigned*>(other)[0] == 7u);
  CHECK(cuMemHostUnregister(gone) == CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED);  // dropped
  CHECK(cuMemFreeHost(other) == CUDA_SUCCESS);
  munmap(ro, page);
}

// Managed memory has its host pages wherever mmap puts them and the
// device allocation at the same address (hostmem.cpp); under ASan the
// session's own heap addresses are in ASan's shadow gap, so this also checks
// that managed memory does not need them.
TEST_CASE("managed memory: one address for host and kernels, bounds", "[memory]") {
  Ctx ctx;
  CUmodule m = load(kernel("st.global.u32 [%rd1], 7;\n"));
  CUdeviceptr p = 0;
  CHECK(cuMemAllocManaged(&p, 0, CU_MEM_ATTACH_GLOBAL) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuMemAllocManaged(&p, 64, 3) == CUDA_ERROR_INVALID_VALUE);
  REQUIRE(cuMemAllocManaged(&p, 64, CU_MEM_ATTACH_GLOBAL) == CUDA_SUCCESS);
  auto* host = reinterpret_cast<unsigned*>(p);
  host[2] = 1;
  CHECK(launch(m, p + 8) == CUDA_SUCCESS);
  CHECK(cuCtxSynchronize() == CUDA_SUCCESS);
  CHECK(host[2] == 7u);
  int managed = 0;
  CHECK(cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, p + 4) == CUDA_SUCCESS);
  CHECK(managed == 1);
  CUdeviceptr base = 0;
  size_t size = 0;
  CHECK(cuMemGetAddressRange(&base, &size, p + 4) == CUDA_SUCCESS);
  CHECK((base == p && size == 64));
  unsigned got = 0;
  CHECK(cuMemcpyDtoH(&got, p + 8, 4) == CUDA_SUCCESS);
  CHECK(got == 7u);
  CHECK(cuMemFree(p) == CUDA_SUCCESS);
  CHECK(cuMemGetAddressRange(&base, &size, p) == CUDA_ERROR_NOT_FOUND);
  // A store just past the allocation is out of bounds (the host pages are
  // page-rounded; the device allocation is exact).
  REQUIRE(cuMemAllocManaged(&p, 60, CU_MEM_ATTACH_GLOBAL) == CUDA_SUCCESS);
  StderrCapture cap;
  CHECK(launch(m, p + 60) == CUDA_SUCCESS);
  CHECK(cuCtxSynchronize() == CUDA_ERROR_ILLEGAL_ADDRESS);
  CHECK(cap.text().find("out-of-bounds") != std::string::npos);
}

// A .global .attribute(.managed) variable (CUDA's __managed__): the host
// reads and writes it at its device address (hostmem.cpp), from its initial
// value on; kernels see the host's writes and the host theirs; the pages go
// with the module. Plain module variables are not managed.
TEST_CASE("managed module variables: host pages at their address, gone with the module", "[memory]") {
  Ctx ctx;
  const std::string text = std::string(kHeader) +
                           ".global .attribute(.managed) .align 4 .u32 counter = 5;\n"
                           ".global .attribute(.managed) .align 8 .b8 big[8192];\n"
                           ".global .align 4 .u32 plain = 3;\n" +
                           kernel(
                               "ld.global.u32 %r1, [counter];\nadd.u32 %r1, %r1, 10;\nst.global.u32 [counter], %r1;\n"
                               "st.global.u32 [big+8188], %r1;\n");
  CUmodule m = nullptr;
  REQUIRE(cuModuleLoadData(&m, text.c_str()) == CUDA_SUCCESS);
  CUdeviceptr c = 0, b = 0, pl = 0;
  size_t n = 0;
  REQUIRE(cuModuleGetGlobal(&c, &n, m, "counter") == CUDA_SUCCESS);
  CHECK(n == 4);
  REQUIRE(cuModuleGetGlobal(&b, &n, m, "big") == CUDA_SUCCESS);
  CHECK(n == 8192);
  REQUIRE(cuModuleGetGlobal(&pl, nullptr, m, "plain") == CUDA_SUCCESS);
  int managed = 0;
  CHECK(cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, c) == CUDA_SUCCESS);
  CHECK(managed == 1);
  CHECK(cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, b + 100) == CUDA_SUCCESS);
  CHECK(managed == 1);
  CHECK(cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, pl) == CUDA_SUCCESS);
  CHECK(managed == 0);
  void* hp = nullptr;
  CHECK(cuPointerGetAttribute(&hp, CU_POINTER_ATTRIBUTE_HOST_POINTER, c) == CUDA_SUCCESS);
  CHECK(hp == reinterpret_cast<void*>(c));
  auto* host = reinterpret_cast<unsigned*>(c);
  CHECK(*host == 5u);  // its initial value
  *host = 7;
  CHECK(launch(m, 0) == CUDA_SUCCESS);
  CHECK(cuCtxSynchronize() == CUDA_SUCCESS);
  CHECK(*host == 17u);
  CHECK(reinterpret_cast<unsigned*>(b)[2047] == 17u);
  unsigned v = 40;
  CHECK(cuMemcpyHtoD(c, &v, 4) == CUDA_SUCCESS);
  CHECK(*host == 40u);
  CHECK(cuModuleUnload(m) == CUDA_SUCCESS);
  errno = 0;
  CHECK(msync(reinterpret_cast<void*>(c / 4096 * 4096), 4096, MS_ASYNC) == -1);
  CHECK(errno == ENOMEM);  // its pages are unmapped
  CHECK(cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, c) == CUDA_ERROR_INVALID_VALUE);
  // cuLibraryGetManaged (how the runtime finds a __managed__ variable).
  CUlibrary lib = nullptr;
  REQUIRE(cuLibraryLoadData(&lib, text.c_str(), nullptr, nullptr, 0, nullptr, nullptr, 0) == CUDA_SUCCESS);
  CUdeviceptr d = 0;
  CHECK(cuLibraryGetManaged(&d, &n, lib, "counter") == CUDA_SUCCESS);
  CHECK(n == 4);
  CHECK(*reinterpret_cast<unsigned*>(d) == 5u);
  CHECK(cuLibraryGetManaged(&d, &n, lib, "plain") == CUDA_ERROR_NOT_FOUND);
  CHECK(cuLibraryGetManaged(&d, &n, lib, "none") == CUDA_ERROR_NOT_FOUND);
  CHECK(cuLibraryUnload(lib) == CUDA_SUCCESS);
}

TEST_CASE("stream-ordered allocation and memory pools: error codes and accounting", "[memory]") {
  Ctx ctx;
  CUstream st = nullptr;
  REQUIRE(cuStreamCreate(&st, 0) == CUDA_SUCCESS);
  int supported = 0, handles = -1;
  CHECK(cuDeviceGetAttribute(&supported, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, 0) == CUDA_SUCCESS);
  CHECK(cuDeviceGetAttribute(&handles, CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES, 0) == CUDA_SUCCESS);
  CHECK((supported == 1 && handles == CU_MEM_HANDLE_TYPE_NONE));
  CUdeviceptr p = 0, q = 0;
  CHECK(cuMemAllocAsync(nullptr, 16, st) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuMemAllocAsync(&p, 0, st) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuMemAllocAsync(&p, size_t{1} << 40, st) == CUDA_ERROR_OUT_OF_MEMORY);
  CHECK(cuMemAllocAsync(&p, 16, reinterpret_cast<CUstream>(&p)) == CUDA_ERROR_INVALID_HANDLE);
  REQUIRE(cuMemAllocAsync(&p, 4096, st) == CUDA_SUCCESS);
  REQUIRE(cuMemAllocAsync(&q, 4096, nullptr) == CUDA_SUCCESS);
  size_t free_b = 0, total = 0;
  CHECK(cuMemGetInfo(&free_b, &total) == CUDA_SUCCESS);
  CHECK(free_b == total - 8192);
  CHECK(cuMemFreeAsync(p + 4, st) == CUDA_ERROR_INVALID_VALUE);  // not an allocation's base
  CHECK(cuMemFreeAsync(p, st) == CUDA_SUCCESS);
  CHECK(cuMemFreeAsync(p, st) == CUDA_ERROR_INVALID_VALUE);  // freed twice
  CHECK(cuMemFree(q) == CUDA_SUCCESS);                       // cuMemFree frees it too
  CHECK(cuMemGetInfo(&free_b, &total) == CUDA_SUCCESS);
  CHECK(free_b == total - 8192);  // still reserved by the default pool (threshold 0)
  CHECK(cuStreamSynchronize(st) == CUDA_SUCCESS);
  CHECK(cuMemGetInfo(&free_b, &total) == CUDA_SUCCESS);
  CHECK(free_b == total);  // released at the synchronisation
  CUdeviceptr r = 0;
  REQUIRE(cuMemAlloc(&r, 64) == CUDA_SUCCESS);
  CHECK(cuMemFreeAsync(r, st) == CUDA_SUCCESS);  // cuMemAlloc memory, freed in stream order
  CHECK(cuMemFree(r) == CUDA_ERROR_INVALID_VALUE);

  CUmemoryPool def = nullptr, cur = nullptr, pool = nullptr;
  CHECK(cuDeviceGetDefaultMemPool(&def, 1) == CUDA_ERROR_INVALID_DEVICE);
  REQUIRE(cuDeviceGetDefaultMemPool(&def, 0) == CUDA_SUCCESS);
  CHECK(cuMemPoolDestroy(def) == CUDA_ERROR_INVALID_VALUE);
  CUmemPoolProps props{};
  CHECK(cuMemPoolCreate(&pool, &props) == CUDA_ERROR_INVALID_VALUE);  // no allocation type
  props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  props.location.id = 1;
  CHECK(cuMemPoolCreate(&pool, &props) == CUDA_ERROR_INVALID_DEVICE);
  props.location.id = 0;
  props.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  CHECK(cuMemPoolCreate(&pool, &props) == CUDA_ERROR_NOT_SUPPORTED);  // no IPC
  props.handleTypes = CU_MEM_HANDLE_TYPE_NONE;
  props.maxSize = 8192;
  REQUIRE(cuMemPoolCreate(&pool, &props) == CUDA_SUCCESS);
  CHECK(cuMemAllocFromPoolAsync(&p, 8192, pool, st) == CUDA_SUCCESS);
  CHECK(cuMemAllocFromPoolAsync(&q, 16, pool, st) == CUDA_ERROR_OUT_OF_MEMORY);  // maxSize
  CHECK(cuMemAllocFromPoolAsync(&q, 16, nullptr, st) == CUDA_ERROR_INVALID_VALUE);
  cuuint64_t v = 0;
  CHECK(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &v) == CUDA_ERROR_INVALID_VALUE);
  v = 1;
  CHECK(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &v) == CUDA_ERROR_INVALID_VALUE);  // only 0
  int reuse = 0;
  CHECK(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC, &reuse) == CUDA_SUCCESS);
  reuse = 7;
  CHECK(cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC, &reuse) == CUDA_SUCCESS);
  CHECK(reuse == 0);
  CHECK(cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &v) == CUDA_SUCCESS);
  CHECK(v == 8192);
  CUmemAccessDesc acc{};
  acc.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READ;
  CHECK(cuMemPoolSetAccess(pool, &acc, 1) == CUDA_ERROR_INVALID_VALUE);  // the own device keeps read-write
  acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  CHECK(cuMemPoolSetAccess(pool, &acc, 1) == CUDA_SUCCESS);
  CUmemAccess_flags fl = CU_MEM_ACCESS_FLAGS_PROT_NONE;
  CHECK(cuMemPoolGetAccess(&fl, pool, &acc.location) == CUDA_SUCCESS);
  CHECK(fl == CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
  REQUIRE(cuDeviceSetMemPool(0, pool) == CUDA_SUCCESS);
  CHECK(cuDeviceGetMemPool(&cur, 0) == CUDA_SUCCESS);
  CHECK(cur == pool);
  CHECK(cuMemAllocAsync(&q, 16, st) == CUDA_ERROR_OUT_OF_MEMORY);  // from the current pool, full
  // Destroying a pool with an outstanding allocation: its handle goes now,
  // the allocation stays until freed, and the default pool is current again.
  CHECK(cuMemPoolDestroy(pool) == CUDA_SUCCESS);
  CHECK(cuMemPoolDestroy(pool) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuMemPoolTrimTo(pool, 0) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuDeviceGetMemPool(&cur, 0) == CUDA_SUCCESS);
  CHECK(cur == def);
  CHECK(cuMemsetD8(p, 1, 8192) == CUDA_SUCCESS);
  CHECK(cuMemFreeAsync(p, st) == CUDA_SUCCESS);
  CHECK(cuMemsetD8(p, 1, 1) == CUDA_ERROR_INVALID_VALUE);  // freed
  // A kernel using a freed stream-ordered allocation faults.
  REQUIRE(cuMemAllocAsync(&p, 64, st) == CUDA_SUCCESS);
  REQUIRE(cuMemFreeAsync(p, st) == CUDA_SUCCESS);
  CUmodule m = load(kernel("st.global.u32 [%rd1], 1;\n"));
  StderrCapture cap;
  CHECK(launch(m, p) == CUDA_SUCCESS);
  CHECK(cuCtxSynchronize() == CUDA_ERROR_ILLEGAL_ADDRESS);
  cap.text();
}

TEST_CASE("graph memory nodes: addresses, ownership rules, relaunch", "[memory]") {
  Ctx ctx;
  CUstream st = nullptr;
  REQUIRE(cuStreamCreate(&st, 0) == CUDA_SUCCESS);
  CUgraph g = nullptr, g2 = nullptr, clone = nullptr;
  REQUIRE(cuGraphCreate(&g, 0) == CUDA_SUCCESS);
  REQUIRE(cuGraphCreate(&g2, 0) == CUDA_SUCCESS);
  CUDA_MEM_ALLOC_NODE_PARAMS ap{};
  ap.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  ap.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  ap.bytesize = 256;
  CUgraphNode alloc = nullptr, use = nullptr, fr = nullptr, other = nullptr;
  ap.poolProps.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  CHECK(cuGraphAddMemAllocNode(&alloc, g, nullptr, 0, &ap) == CUDA_ERROR_INVALID_VALUE);  // no IPC
  ap.poolProps.handleTypes = CU_MEM_HANDLE_TYPE_NONE;
  REQUIRE(cuGraphAddMemAllocNode(&alloc, g, nullptr, 0, &ap) == CUDA_SUCCESS);
  const CUdeviceptr p = ap.dptr;
  CHECK(p != 0);
  CHECK(cuMemsetD8(p, 0, 1) == CUDA_ERROR_INVALID_VALUE);  // not backed before a launch
  CUDA_MEM_ALLOC_NODE_PARAMS got{};
  CHECK(cuGraphMemAllocNodeGetParams(alloc, &got) == CUDA_SUCCESS);
  CHECK((got.dptr == p && got.bytesize == 256));
  CUDA_MEMSET_NODE_PARAMS ms{};
  ms.dst = p;
  ms.value = 0x5a;
  ms.elementSize = 1;
  ms.width = 256;
  ms.height = 1;
  REQUIRE(cuGraphAddMemsetNode(&use, g, &alloc, 1, &ms, ctx.c) == CUDA_SUCCESS);
  CHECK(cuGraphAddMemFreeNode(&fr, g, nullptr, 0, p) == CUDA_ERROR_INVALID_VALUE);   // not after the allocation
  CHECK(cuGraphAddMemFreeNode(&fr, g, &use, 1, p + 4) == CUDA_ERROR_INVALID_VALUE);  // not an allocation
  REQUIRE(cuGraphAddMemFreeNode(&fr, g, &use, 1, p) == CUDA_SUCCESS);
  CHECK(cuGraphAddMemFreeNode(&other, g, &fr, 1, p) == CUDA_ERROR_INVALID_VALUE);       // twice in the graph
  CHECK(cuGraphAddMemFreeNode(&other, g2, nullptr, 0, p) == CUDA_ERROR_INVALID_VALUE);  // freed in its own graph
  CUdeviceptr fp = 0;
  CHECK(cuGraphMemFreeNodeGetParams(fr, &fp) == CUDA_SUCCESS);
  CHECK(fp == p);
  CHECK(cuGraphMemFreeNodeGetParams(alloc, &fp) == CUDA_ERROR_INVALID_VALUE);  // wrong node type
  CHECK(cuGraphClone(&clone, g) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuGraphDestroyNode(use) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuGraphRemoveDependencies(g, &alloc, &use, nullptr, 1) == CUDA_ERROR_INVALID_VALUE);
  CUgraphNode child = nullptr;
  CHECK(cuGraphAddChildGraphNode(&child, g2, nullptr, 0, g) == CUDA_ERROR_INVALID_VALUE);
  CUgraphExec x = nullptr, x2 = nullptr;
  REQUIRE(cuGraphInstantiateWithFlags(&x, g, 0) == CUDA_SUCCESS);
  CHECK(cuGraphInstantiateWithFlags(&x2, g, 0) == CUDA_ERROR_INVALID_VALUE);  // one instance at a time
  CHECK(cuGraphLaunch(x, st) == CUDA_SUCCESS);
  CHECK(cuGraphLaunch(x, st) == CUDA_SUCCESS);  // freed by its own free node
  CHECK(cuMemsetD8(p, 0, 1) == CUDA_ERROR_INVALID_VALUE);
  cuuint64_t v = 0;
  CHECK(cuDeviceGetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT, &v) == CUDA_SUCCESS);
  CHECK(v == 256);
  CHECK(cuDeviceSetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT, &v) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuDeviceGraphMemTrim(1) == CUDA_ERROR_INVALID_DEVICE);
  CHECK(cuDeviceGetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT, &v) == CUDA_SUCCESS);
  CHECK(v == 256);  // what the launches mapped stays with the graphs
  CHECK(cuDeviceGraphMemTrim(0) == CUDA_SUCCESS);
  CHECK(cuDeviceGetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT, &v) == CUDA_SUCCESS);
  CHECK(v == 0);
  CHECK(cuDeviceGetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, &v) == CUDA_SUCCESS);
  CHECK(v == 256);
  v = 0;
  CHECK(cuDeviceSetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, &v) == CUDA_SUCCESS);
  CHECK(cuDeviceGetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, &v) == CUDA_SUCCESS);
  CHECK(v == 0);  // reset to the current amount
  CHECK(cuGraphExecDestroy(x) == CUDA_SUCCESS);
  REQUIRE(cuGraphInstantiateWithFlags(&x2, g, 0) == CUDA_SUCCESS);

  // An allocation freed in another graph: its launch frees it; a second
  // launch of that graph has nothing to free.
  CUgraph g3 = nullptr;
  REQUIRE(cuGraphCreate(&g3, 0) == CUDA_SUCCESS);
  ap.bytesize = 64;
  REQUIRE(cuGraphAddMemAllocNode(&alloc, g3, nullptr, 0, &ap) == CUDA_SUCCESS);
  const CUdeviceptr q = ap.dptr;
  REQUIRE(cuGraphAddMemFreeNode(&other, g2, nullptr, 0, q) == CUDA_SUCCESS);
  CHECK(cuGraphAddMemFreeNode(&fr, g3, &alloc, 1, q) == CUDA_ERROR_INVALID_VALUE);  // freed elsewhere
  CUgraphExec x3 = nullptr, xf = nullptr;
  REQUIRE(cuGraphInstantiateWithFlags(&x3, g3, 0) == CUDA_SUCCESS);
  REQUIRE(cuGraphInstantiateWithFlags(&xf, g2, 0) == CUDA_SUCCESS);
  CHECK(cuGraphLaunch(x3, st) == CUDA_SUCCESS);
  CHECK(cuMemsetD8(q, 1, 64) == CUDA_SUCCESS);
  CHECK(cuGraphLaunch(x3, st) == CUDA_ERROR_INVALID_VALUE);  // its allocation is unfreed
  CHECK(cuGraphLaunch(xf, st) == CUDA_SUCCESS);
  CHECK(cuMemsetD8(q, 1, 64) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuGraphLaunch(xf, st) == CUDA_ERROR_INVALID_VALUE);  // nothing to free
  CHECK(cuGraphLaunch(x3, st) == CUDA_SUCCESS);
  CHECK(cuMemFreeAsync(q, st) == CUDA_SUCCESS);
  CHECK(cuMemFreeAsync(q, st) == CUDA_ERROR_INVALID_VALUE);
  cuuint64_t flags = 9;
  CHECK(cuGraphExecGetFlags(x3, &flags) == CUDA_SUCCESS);
  CHECK(flags == 0);
  CHECK(cuGraphExecDestroy(x3) == CUDA_SUCCESS);
  CHECK(cuGraphInstantiateWithFlags(
            &x3, g3, CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH | CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH) ==
        CUDA_ERROR_INVALID_VALUE);
  REQUIRE(cuGraphInstantiateWithFlags(&x3, g3, CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH) == CUDA_SUCCESS);
  CHECK(cuGraphExecGetFlags(x3, &flags) == CUDA_SUCCESS);
  CHECK(flags == CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH);
  CHECK(cuGraphLaunch(x3, st) == CUDA_SUCCESS);
  CHECK(cuGraphLaunch(x3, st) == CUDA_SUCCESS);  // frees the last launch's allocation first
  CHECK(cuDeviceGetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT, &v) == CUDA_SUCCESS);
  CHECK(v == 64);
  CHECK(cuMemFree(q) == CUDA_SUCCESS);

  // Capture: an allocation node, and a free node only of a graph allocation.
  CUdeviceptr plain = 0, c = 0;
  REQUIRE(cuMemAlloc(&plain, 64) == CUDA_SUCCESS);
  CUstream cs = nullptr;
  REQUIRE(cuStreamCreate(&cs, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS);
  REQUIRE(cuStreamBeginCapture(cs, CU_STREAM_CAPTURE_MODE_GLOBAL) == CUDA_SUCCESS);
  REQUIRE(cuMemAllocAsync(&c, 128, cs) == CUDA_SUCCESS);
  CHECK(cuMemFreeAsync(plain, cs) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuMemFreeAsync(c, cs) == CUDA_SUCCESS);
  CUgraph captured = nullptr;
  REQUIRE(cuStreamEndCapture(cs, &captured) == CUDA_SUCCESS);
  size_t count = 0;
  CHECK(cuGraphGetNodes(captured, nullptr, &count) == CUDA_SUCCESS);
  CHECK(count == 2);
  CUgraphNode nodes[2];
  CUgraphNodeType t0, t1;
  CHECK(cuGraphGetNodes(captured, nodes, &count) == CUDA_SUCCESS);
  CHECK(cuGraphNodeGetType(nodes[0], &t0) == CUDA_SUCCESS);
  CHECK(cuGraphNodeGetType(nodes[1], &t1) == CUDA_SUCCESS);
  CHECK((t0 == CU_GRAPH_NODE_TYPE_MEM_ALLOC && t1 == CU_GRAPH_NODE_TYPE_MEM_FREE));
  CHECK(cuMemFree(plain) == CUDA_SUCCESS);
}
