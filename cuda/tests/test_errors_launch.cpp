// Error paths of launches (test_errors.cpp explains the binary): launch
// attributes, cooperative launches, occupancy queries and the deprecated
// execution-control entry points.
#include <cuda.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cuda/tests/shim_test.hpp"

// 1D array copies (exported by the shim; the clean-room header does not
// declare them, their per-thread variants not being provided).
extern "C" CUresult cuMemcpyHtoA_v2(CUarray dst, size_t off, const void* src, size_t n);
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
TEST_CASE("cuLaunchKernelEx: cluster shapes, completion events, refused attributes", "[launch]") {
  Ctx ctx;
  std::string text = std::string(".version 8.0\n.target sm_90\n.address_size 64\n") +
                     ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
                     "ld.param.u64 %rd1, [p];\ncvta.to.global.u64 %rd1, %rd1;\n"
                     "mov.u32 %r1, %cluster_ctarank;\nmov.u32 %r2, %cluster_nctarank;\nmov.u32 %r3, %ctaid.x;\n"
                     "mad.lo.u32 %r4, %r2, 100, %r1;\nmul.wide.u32 %rd2, %r3, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
                     "st.global.u32 [%rd3], %r4;\nret;\n}\n";
  CUmodule m = nullptr;
  REQUIRE(cuModuleLoadData(&m, text.c_str()) == CUDA_SUCCESS);
  CUfunction f;
  REQUIRE(cuModuleGetFunction(&f, m, "k") == CUDA_SUCCESS);
  CUdeviceptr out;
  REQUIRE(cuMemAlloc(&out, 6 * 4) == CUDA_SUCCESS);
  void* args[] = {&out};
  CUevent done;
  REQUIRE(cuEventCreate(&done, 0) == CUDA_SUCCESS);
  CUlaunchAttribute attrs[2] = {};
  attrs[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attrs[0].value.clusterDim.x = 3;
  attrs[0].value.clusterDim.y = 1;
  attrs[0].value.clusterDim.z = 1;
  attrs[1].id = CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT;
  attrs[1].value.launchCompletionEvent.event = done;
  CUlaunchConfig cfg = {};
  cfg.gridDimX = 6;
  cfg.gridDimY = cfg.gridDimZ = 1;
  cfg.blockDimX = 32;
  cfg.blockDimY = cfg.blockDimZ = 1;
  cfg.attrs = attrs;
  cfg.numAttrs = 2;
  CHECK(cuEventQuery(done) == CUDA_SUCCESS);
  REQUIRE(cuLaunchKernelEx(&cfg, f, args, nullptr) == CUDA_SUCCESS);
  REQUIRE(cuCtxSynchronize() == CUDA_SUCCESS);
  unsigned got[6];
  REQUIRE(cuMemcpyDtoH(got, out, sizeof got) == CUDA_SUCCESS);
  for (unsigned i = 0; i < 6; ++i) CHECK(got[i] == 300 + i % 3);  // rank in a 3-CTA cluster
  CUevent start;
  REQUIRE(cuEventCreate(&start, 0) == CUDA_SUCCESS);
  REQUIRE(cuEventRecord(start, nullptr) == CUDA_SUCCESS);
  float ms = 0;
  CHECK(cuEventElapsedTime(&ms, done, start) == CUDA_SUCCESS);  // recorded at completion

  REQUIRE(cuLaunchKernel(f, 6, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr) == CUDA_SUCCESS);
  REQUIRE(cuMemcpyDtoH(got, out, sizeof got) == CUDA_SUCCESS);
  CHECK(got[5] == 100);  // without a cluster shape: 1-CTA clusters

  StderrCapture cap;
  attrs[0].value.clusterDim.x = 4;  // 6 CTAs are not whole 4-CTA clusters
  CHECK(cuLaunchKernelEx(&cfg, f, args, nullptr) == CUDA_ERROR_INVALID_CLUSTER_SIZE);
  attrs[0].value.clusterDim.x = 16;
  cfg.gridDimX = 16;
  CHECK(cuLaunchKernelEx(&cfg, f, args, nullptr) == CUDA_ERROR_INVALID_CLUSTER_SIZE);  // over the portable 8
  attrs[0].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
  attrs[0].value.cooperative = 1;
  cfg.gridDimX = 65;  // 64 CTAs of 32 threads fit on the emulated SM at once (2048 threads)
  CHECK(cuLaunchKernelEx(&cfg, f, args, nullptr) == CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE);
  attrs[1] = attrs[0];
  attrs[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attrs[0].value.clusterDim = {2, 1, 1};
  cfg.gridDimX = 6;
  CHECK(cuLaunchKernelEx(&cfg, f, args, nullptr) == CUDA_ERROR_NOT_SUPPORTED);  // cooperative 2-CTA clusters
  cfg.numAttrs = 1;
  attrs[0].id = static_cast<CUlaunchAttributeID>(15);
  CHECK(cuLaunchKernelEx(&cfg, f, args, nullptr) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuLaunchKernelEx(nullptr, f, args, nullptr) == CUDA_ERROR_INVALID_VALUE);
  cap.text();
  CHECK(cuCtxSynchronize() == CUDA_SUCCESS);  // refused launches leave the context clean
}

// A grid-wide barrier as cooperative groups implement it
// (cooperative_groups/details/sync.h): the grid workspace's barrier word at
// %envreg1:%envreg2 + 4, CTA 0 adding 0x80000001 - nctaid and the others 1,
// each waiting for the top bit to flip. After it, CTA c reads CTA c+1's word.
TEST_CASE("cooperative launches: all CTAs resident, a grid workspace, the occupancy limit", "[launch]") {
  Ctx ctx;
  int v = -1;
  CHECK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH, 0) == CUDA_SUCCESS);
  CHECK(v == 1);
  std::string text =
      std::string(".version 8.0\n.target sm_90\n.address_size 64\n") +
      ".visible .entry gs(.param .u64 p)\n{\n.reg .pred %p<4>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n"
      "ld.param.u64 %rd1, [p];\ncvta.to.global.u64 %rd1, %rd1;\n"
      "mov.u32 %r1, %ctaid.x;\nmov.u32 %r2, %nctaid.x;\nmov.u32 %r3, %tid.x;\n"
      "setp.ne.u32 %p1, %r3, 0;\n@%p1 bra DONE;\n"
      "mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\nadd.u32 %r4, %r1, 1;\nst.global.u32 [%rd3], %r4;\n"
      "mov.u32 %r5, %envreg1;\nmov.u32 %r6, %envreg2;\nmov.b64 %rd4, {%r6, %r5};\nadd.s64 %rd4, %rd4, 4;\n"
      "setp.eq.u32 %p2, %r1, 0;\nsub.u32 %r7, -2147483647, %r2;\nselp.b32 %r8, %r7, 1, %p2;\n"
      "atom.add.release.gpu.u32 %r9, [%rd4], %r8;\n"
      "SPIN:\nld.acquire.gpu.u32 %r10, [%rd4];\nxor.b32 %r11, %r10, %r9;\nsetp.gt.s32 %p3, %r11, -1;\n@%p3 bra SPIN;\n"
      "add.u32 %r12, %r1, 1;\nrem.u32 %r12, %r12, %r2;\nmul.wide.u32 %rd5, %r12, 4;\nadd.s64 %rd5, %rd1, %rd5;\n"
      "ld.global.u32 %r13, [%rd5];\nmul.wide.u32 %rd6, %r2, 4;\nadd.s64 %rd6, %rd3, %rd6;\nst.global.u32 [%rd6], "
      "%r13;\n"
      "DONE:\nret;\n}\n";
  CUmodule m = nullptr;
  REQUIRE(cuModuleLoadData(&m, text.c_str()) == CUDA_SUCCESS);
  CUfunction f;
  REQUIRE(cuModuleGetFunction(&f, m, "gs") == CUDA_SUCCESS);
  int fit = 0;
  CHECK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&fit, f, 256, 0) == CUDA_SUCCESS);
  CHECK(fit == 8);  // 2048 threads per SM
  CUdeviceptr out;
  REQUIRE(cuMemAlloc(&out, 16 * 4) == CUDA_SUCCESS);
  void* args[] = {&out};
  REQUIRE(cuLaunchCooperativeKernel(f, 8, 1, 1, 256, 1, 1, 0, nullptr, args) == CUDA_SUCCESS);
  REQUIRE(cuCtxSynchronize() == CUDA_SUCCESS);
  unsigned got[16];
  REQUIRE(cuMemcpyDtoH(got, out, sizeof got) == CUDA_SUCCESS);
  for (unsigned i = 0; i < 8; ++i) {
    CHECK(got[i] == i + 1);
    CHECK(got[8 + i] == (i + 1) % 8 + 1);  // written by CTA i + 1 before the barrier
  }
  // A second launch finds a fresh workspace; one CTA more than fits is refused.
  REQUIRE(cuLaunchCooperativeKernel(f, 8, 1, 1, 256, 1, 1, 0, nullptr, args) == CUDA_SUCCESS);
  StderrCapture cap;
  CHECK(cuLaunchCooperativeKernel(f, 9, 1, 1, 256, 1, 1, 0, nullptr, args) == CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE);
  CHECK(cap.text().find("9 CTAs cannot all be resident at once: 8 fit") != std::string::npos);
  CHECK(cuCtxSynchronize() == CUDA_SUCCESS);
  // Without a cooperative launch the workspace address is 0: the barrier
  // faults (a real GPU faults likewise; cooperative groups trap first).
  REQUIRE(cuLaunchKernel(f, 2, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr) == CUDA_SUCCESS);
  CHECK(cuCtxSynchronize() == CUDA_ERROR_ILLEGAL_ADDRESS);
}

namespace {
std::vector<int> b2d_calls;
size_t two_hundred_per_thread(int block_size) {
  b2d_calls.push_back(block_size);
  return size_t(200) * static_cast<size_t>(block_size);
}
}  // namespace

// cuOccupancyMaxPotentialBlockSize (matrixMulDrv sizes its launch with it): the largest block size with the most
// resident threads on the one emulated SM (2048 threads, 32 blocks, 228 KiB shared memory, 1 KiB reserved per
// block), whole warps tried from the limit down, and the grid that fills the SM.
TEST_CASE("cuOccupancyMaxPotentialBlockSize: limits, shared memory per block size, errors", "[launch]") {
  Ctx ctx;
  const std::string text =
      ".version 8.0\n.target sm_90\n.address_size 64\n"
      ".visible .entry plain()\n{\nret;\n}\n"
      ".visible .entry capped() .maxntid 96, 1, 1\n{\nret;\n}\n";
  CUmodule m = nullptr;
  REQUIRE(cuModuleLoadData(&m, text.c_str()) == CUDA_SUCCESS);
  CUfunction plain, capped;
  REQUIRE(cuModuleGetFunction(&plain, m, "plain") == CUDA_SUCCESS);
  REQUIRE(cuModuleGetFunction(&capped, m, "capped") == CUDA_SUCCESS);
  int grid = -1, block = -1;
  REQUIRE(cuOccupancyMaxPotentialBlockSize(&grid, &block, plain, nullptr, 0, 0) == CUDA_SUCCESS);
  CHECK((grid == 2 && block == 1024));  // 2 x 1024 threads fill the SM
  // 96 threads: 21 blocks, 2016 threads; 64 threads: 32 blocks, 2048.
  REQUIRE(cuOccupancyMaxPotentialBlockSize(&grid, &block, plain, nullptr, 0, 96) == CUDA_SUCCESS);
  CHECK((grid == 32 && block == 64));
  REQUIRE(cuOccupancyMaxPotentialBlockSize(&grid, &block, capped, nullptr, 0, 0) == CUDA_SUCCESS);
  CHECK((grid == 32 && block == 64));
  // A limit that is not a whole warp is tried as is: 40 threads (2 warps) give 32 blocks, 1280 threads;
  // 32 threads give 32 blocks, 1024.
  REQUIRE(cuOccupancyMaxPotentialBlockSize(&grid, &block, plain, nullptr, 0, 40) == CUDA_SUCCESS);
  CHECK((grid == 32 && block == 40));
  // 100 KiB per block: 2 blocks of 1024 threads no longer fit, one does.
  REQUIRE(cuOccupancyMaxPotentialBlockSize(&grid, &block, plain, nullptr, 100 * 1024, 0) == CUDA_SUCCESS);
  CHECK((grid == 2 && block == 1024));
  REQUIRE(cuOccupancyMaxPotentialBlockSize(&grid, &block, plain, nullptr, 120 * 1024, 0) == CUDA_SUCCESS);
  CHECK((grid == 1 && block == 1024));
  // 200 bytes per thread, asked per block size (dynamicSMemSize ignored): 576 threads (113 KiB + 1 KiB
  // reserved) is the largest size of which 2 blocks fit, 1152 threads; 3 blocks fit only up to 384 threads.
  b2d_calls.clear();
  REQUIRE(cuOccupancyMaxPotentialBlockSize(&grid, &block, plain, two_hundred_per_thread, 1, 0) == CUDA_SUCCESS);
  CHECK((grid == 2 && block == 576));
  REQUIRE(b2d_calls.size() == 32);
  CHECK((b2d_calls.front() == 1024 && b2d_calls[1] == 992 && b2d_calls.back() == 32));
  // Sizes above the function's .maxntid are never asked for.
  b2d_calls.clear();
  REQUIRE(cuOccupancyMaxPotentialBlockSize(&grid, &block, capped, two_hundred_per_thread, 0, 0) == CUDA_SUCCESS);
  // 96 threads: 19,200 + 1,024 bytes, 11 blocks (1056 threads); 64: 16 blocks (1024); 32: 31 (992).
  CHECK((grid == 11 && block == 96));
  CHECK(b2d_calls == std::vector<int>{96, 64, 32});
  REQUIRE(cuOccupancyMaxPotentialBlockSizeWithFlags(&grid, &block, capped, nullptr, 0, 0,
                                                    CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE) == CUDA_SUCCESS);
  CHECK((grid == 32 && block == 64));
  CHECK(cuOccupancyMaxPotentialBlockSizeWithFlags(&grid, &block, plain, nullptr, 0, 0, 2) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuOccupancyMaxPotentialBlockSize(nullptr, &block, plain, nullptr, 0, 0) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuOccupancyMaxPotentialBlockSize(&grid, &block, plain, nullptr, 0, -1) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuOccupancyMaxPotentialBlockSize(&grid, &block, nullptr, nullptr, 0, 0) != CUDA_SUCCESS);
  void* found = nullptr;
  CUdriverProcAddressQueryResult q{};
  CHECK(cuGetProcAddress("cuOccupancyMaxPotentialBlockSize", &found, 12000, 0, &q) == CUDA_SUCCESS);
  CHECK(found == reinterpret_cast<void*>(&cuOccupancyMaxPotentialBlockSize));
  CHECK(cuModuleUnload(m) == CUDA_SUCCESS);
}

TEST_CASE("deprecated entry points: CUDA 3 execution control, attachment, properties, bus id, 1D arrays", "[launch]") {
  Ctx ctx;
  // Each thread stores a + (int)b to out[its linear index], through dynamic shared memory.
  CUmodule m = load(
      ".extern .shared .align 4 .b8 dyn[];\n"
      ".visible .entry lk(.param .u64 out, .param .u32 a, .param .f32 b)\n{\n"
      ".reg .b32 %r<9>;\n.reg .b64 %rd<4>;\n.reg .f32 %f<2>;\n"
      "ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd1, %rd1;\nld.param.u32 %r1, [a];\n"
      "ld.param.f32 %f1, [b];\ncvt.rzi.u32.f32 %r2, %f1;\nadd.u32 %r1, %r1, %r2;\n"
      "mov.u32 %r3, %tid.x;\nmov.u32 %r4, %ntid.x;\nmov.u32 %r5, %ctaid.x;\nmov.u32 %r6, %ctaid.y;\n"
      "mov.u32 %r7, %nctaid.x;\nmad.lo.u32 %r6, %r6, %r7, %r5;\nmad.lo.u32 %r6, %r6, %r4, %r3;\n"
      "mov.u32 %r8, dyn;\nmad.lo.u32 %r8, %r3, 4, %r8;\nst.shared.u32 [%r8], %r1;\nld.shared.u32 %r1, [%r8];\n"
      "mul.wide.u32 %rd2, %r6, 4;\nadd.u64 %rd2, %rd1, %rd2;\nst.global.u32 [%rd2], %r1;\nret;\n}\n");
  CUfunction f = nullptr;
  REQUIRE(cuModuleGetFunction(&f, m, "lk") == CUDA_SUCCESS);
  CUdeviceptr out = 0;
  REQUIRE(cuMemAlloc(&out, 32 * 4) == CUDA_SUCCESS);
  auto values = [&] {
    std::vector<unsigned> h(32);
    REQUIRE(cuMemcpyDtoH(h.data(), out, 32 * 4) == CUDA_SUCCESS);
    return h;
  };
  auto count = [](const std::vector<unsigned>& h, unsigned v) { return std::count(h.begin(), h.end(), v); };
  REQUIRE(cuMemsetD32(out, 0, 32) == CUDA_SUCCESS);
  CHECK(cuLaunchGrid(f, 1, 1) == CUDA_ERROR_INVALID_VALUE);  // no block shape yet
  REQUIRE(cuParamSetv(f, 0, &out, sizeof out) == CUDA_SUCCESS);
  REQUIRE(cuParamSeti(f, 8, 7) == CUDA_SUCCESS);
  REQUIRE(cuParamSetf(f, 12, 2.5f) == CUDA_SUCCESS);
  REQUIRE(cuParamSetSize(f, 16) == CUDA_SUCCESS);
  REQUIRE(cuFuncSetBlockShape(f, 4, 1, 1) == CUDA_SUCCESS);
  REQUIRE(cuFuncSetSharedSize(f, 16) == CUDA_SUCCESS);
  REQUIRE(cuLaunchGrid(f, 2, 3) == CUDA_SUCCESS);  // 6 blocks of 4 threads
  std::vector<unsigned> h = values();
  CHECK(count(h, 9) == 24);
  CHECK(h[24] == 0);
  REQUIRE(cuParamSeti(f, 8, 100) == CUDA_SUCCESS);
  CUstream st = nullptr;
  REQUIRE(cuStreamCreate(&st, 0) == CUDA_SUCCESS);
  REQUIRE(cuLaunchGridAsync(f, 1, 1, st) == CUDA_SUCCESS);
  REQUIRE(cuStreamSynchronize(st) == CUDA_SUCCESS);
  h = values();
  CHECK((count(h, 102) == 4 && count(h, 9) == 20));
  REQUIRE(cuParamSeti(f, 8, 200) == CUDA_SUCCESS);
  REQUIRE(cuLaunch(f) == CUDA_SUCCESS);
  CHECK(count(values(), 202) == 4);
  CHECK(cuParamSetSize(f, 8) == CUDA_SUCCESS);
  CHECK(cuLaunch(f) != CUDA_SUCCESS);  // 8 parameter bytes for a 16-byte list
  CHECK(cuFuncSetBlockShape(f, 0, 1, 1) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuParamSeti(f, -4, 1) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuFuncSetSharedMemConfig(f, CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE) == CUDA_SUCCESS);

  // Shared memory banks: four bytes wide, whatever is set.
  CUsharedconfig sc = CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE;
  REQUIRE(cuCtxSetSharedMemConfig(CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE) == CUDA_SUCCESS);
  REQUIRE(cuCtxGetSharedMemConfig(&sc) == CUDA_SUCCESS);
  CHECK(sc == CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE);
  CHECK(cuCtxSetSharedMemConfig(static_cast<CUsharedconfig>(7)) == CUDA_ERROR_INVALID_VALUE);

  // Device properties are the attributes.
  CUdevprop p{};
  REQUIRE(cuDeviceGetProperties(&p, 0) == CUDA_SUCCESS);
  int v = 0;
  REQUIRE(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, 0) == CUDA_SUCCESS);
  CHECK((p.maxThreadsPerBlock == 1024 && p.maxThreadsDim[2] == 64 && p.maxGridSize[1] == v && p.SIMDWidth == 32));
  REQUIRE(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, 0) == CUDA_SUCCESS);
  CHECK((p.sharedMemPerBlock == v && p.textureAlign == 512 && p.clockRate > 0));
  CHECK(cuDeviceGetProperties(&p, 1) == CUDA_ERROR_INVALID_DEVICE);

  // The bus id round trip.
  char bus[32] = {};
  REQUIRE(cuDeviceGetPCIBusId(bus, sizeof bus, 0) == CUDA_SUCCESS);
  CUdevice d = -1;
  CHECK((cuDeviceGetByPCIBusId(&d, bus) == CUDA_SUCCESS && d == 0));
  d = -1;
  CHECK((cuDeviceGetByPCIBusId(&d, "00:00.0") == CUDA_SUCCESS && d == 0));
  CHECK(cuDeviceGetByPCIBusId(&d, "0000:01:00.0") == CUDA_ERROR_INVALID_DEVICE);
  CHECK(cuDeviceGetByPCIBusId(&d, "bus") == CUDA_ERROR_INVALID_VALUE);

  // Attachment: creation is the first use; the last detach destroys.
  CUcontext c2 = nullptr, a = nullptr;
  REQUIRE(cuCtxCreate(&c2, nullptr, 0, 0) == CUDA_SUCCESS);
  REQUIRE(cuCtxAttach(&a, 0) == CUDA_SUCCESS);
  CHECK(a == c2);
  CHECK(cuCtxAttach(&a, 1) == CUDA_ERROR_INVALID_VALUE);
  unsigned api = 0;
  REQUIRE(cuCtxDetach(c2) == CUDA_SUCCESS);
  CHECK(cuCtxGetApiVersion(c2, &api) == CUDA_SUCCESS);
  REQUIRE(cuCtxDetach(c2) == CUDA_SUCCESS);
  CHECK(cuCtxGetApiVersion(c2, &api) == CUDA_ERROR_INVALID_CONTEXT);
  CHECK(cuCtxSetCurrent(ctx.c) == CUDA_SUCCESS);

  // The CUDA 2/3 names (cuGetProcAddress at their versions) and the 1D array copies.
  void* fn = nullptr;
  CUdriverProcAddressQueryResult q = CU_GET_PROC_ADDRESS_SUCCESS;
  REQUIRE(cuGetProcAddress("cuStreamDestroy", &fn, 3020, 0, &q) == CUDA_SUCCESS);
  CHECK(fn != reinterpret_cast<void*>(&cuStreamDestroy_v2));
  CHECK(reinterpret_cast<CUresult (*)(CUstream)>(fn)(st) == CUDA_SUCCESS);
  CHECK(cuStreamQuery(st) == CUDA_ERROR_INVALID_HANDLE);
  CUDA_ARRAY_DESCRIPTOR ad{};
  ad.Width = 8;
  ad.Format = CU_AD_FORMAT_UNSIGNED_INT32;
  ad.NumChannels = 1;
  CUarray x = nullptr, y = nullptr;
  REQUIRE(cuArrayCreate(&x, &ad) == CUDA_SUCCESS);
  REQUIRE(cuArrayCreate(&y, &ad) == CUDA_SUCCESS);
  void *h2a = nullptr, *a2a = nullptr, *a2h = nullptr;
  REQUIRE(cuGetProcAddress("cuMemcpyHtoAAsync", &h2a, 13000, 0, &q) == CUDA_SUCCESS);
  REQUIRE(cuGetProcAddress("cuMemcpyAtoA", &a2a, 13000, 0, &q) == CUDA_SUCCESS);
  REQUIRE(cuGetProcAddress("cuMemcpyAtoHAsync", &a2h, 13000, 0, &q) == CUDA_SUCCESS);
  const unsigned src[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  unsigned back[8] = {};
  REQUIRE(reinterpret_cast<CUresult (*)(CUarray, size_t, const void*, size_t, CUstream)>(h2a)(x, 4, src, 12, nullptr) ==
          0);
  REQUIRE(cuMemcpyHtoA_v2(y, 0, back, sizeof back) == CUDA_SUCCESS);  // zeros
  REQUIRE(reinterpret_cast<CUresult (*)(CUarray, size_t, CUarray, size_t, size_t)>(a2a)(y, 8, x, 4, 12) == 0);
  REQUIRE(reinterpret_cast<CUresult (*)(void*, CUarray, size_t, size_t, CUstream)>(a2h)(back, y, 0, 32, nullptr) == 0);
  const unsigned want[8] = {0, 0, 1, 2, 3, 0, 0, 0};
  CHECK(std::equal(back, back + 8, want));
  CHECK(reinterpret_cast<CUresult (*)(CUarray, size_t, CUarray, size_t, size_t)>(a2a)(y, 28, x, 0, 8) ==
        CUDA_ERROR_INVALID_VALUE);  // past y's 32 bytes
  CHECK(cuArrayDestroy(x) == CUDA_SUCCESS);
  CHECK(cuArrayDestroy(y) == CUDA_SUCCESS);
  CHECK(cuMemFree(out) == CUDA_SUCCESS);
}
