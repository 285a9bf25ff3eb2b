// Stream memory operations of the driver-API shim (cuda/shim/memops.cpp), as
// a host program sees them (only <cuda.h>): writes land in stream order, a
// wait whose condition holds when it is enqueued passes (each condition,
// 32 and 64 bits, the cyclic >=), one that does not is deferred with the
// work after it until a write releases it (cuda/shim/streams.cpp), one that
// nothing releases is reported as a hang with a message, and the documented
// argument errors.
#include <cuda.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdio>
#include <string>

#include "cuda/tests/shim_test.hpp"

namespace {

using shimtest::Ctx;
using shimtest::StderrCapture;

// k(p): p[0] = 7, one thread.
const char* kStore7 =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 p)\n{\n.reg .b64 %rd<2>;\n"
    "ld.param.u64 %rd1, [p];\ncvta.to.global.u64 %rd1, %rd1;\nst.global.u32 [%rd1], 7;\nret;\n}\n";

uint32_t u32(CUdeviceptr p) {
  uint32_t v = 0;
  REQUIRE(cuMemcpyDtoH(&v, p, 4) == CUDA_SUCCESS);
  return v;
}

}  // namespace

TEST_CASE("stream memory operations: writes, waits that hold, deferred waits, errors", "[memops]") {
  Ctx ctx;
  CUstream st = nullptr;
  REQUIRE(cuStreamCreate(&st, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS);
  CUdeviceptr d = 0;
  REQUIRE(cuMemAlloc(&d, 64) == CUDA_SUCCESS);
  REQUIRE(cuMemsetD8(d, 0, 64) == CUDA_SUCCESS);

  // Writes, 32 and 64 bits, on a stream and on the legacy stream.
  CHECK(cuStreamWriteValue32(st, d, 5, 0) == CUDA_SUCCESS);
  CHECK(u32(d) == 5u);
  CHECK(cuStreamWriteValue64(nullptr, d + 8, 0x1122334455667788ull, 0) == CUDA_SUCCESS);
  uint64_t w = 0;
  REQUIRE(cuMemcpyDtoH(&w, d + 8, 8) == CUDA_SUCCESS);
  CHECK(w == 0x1122334455667788ull);

  // A kernel's store is there for a wait enqueued after it.
  CUmodule m = nullptr;
  CUfunction f = nullptr;
  REQUIRE(cuModuleLoadData(&m, kStore7) == CUDA_SUCCESS);
  REQUIRE(cuModuleGetFunction(&f, m, "k") == CUDA_SUCCESS);
  void* args[] = {&d};
  REQUIRE(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, st, args, nullptr) == CUDA_SUCCESS);
  CHECK(cuStreamWaitValue32(st, d, 7, CU_STREAM_WAIT_VALUE_EQ) == CUDA_SUCCESS);
  CHECK(cuStreamWaitValue32(st, d, 6, CU_STREAM_WAIT_VALUE_GEQ) == CUDA_SUCCESS);
  CHECK(cuStreamWaitValue32(st, d, 4, CU_STREAM_WAIT_VALUE_AND) == CUDA_SUCCESS);            // 7 & 4
  CHECK(cuStreamWaitValue32(st, d, 0xfffffff0u, CU_STREAM_WAIT_VALUE_NOR) == CUDA_SUCCESS);  // bit 3 clear in both
  // The cyclic >=: 7 - 0xfffffffe wraps to 9 >= 0, but 7 - 8 is -1.
  CHECK(cuStreamWaitValue32(st, d, 0xfffffffeu, CU_STREAM_WAIT_VALUE_GEQ) == CUDA_SUCCESS);
  CHECK(cuStreamWaitValue64(st, d + 8, 0x1122334455667788ull, CU_STREAM_WAIT_VALUE_EQ) == CUDA_SUCCESS);
  CHECK(cuStreamSynchronize(st) == CUDA_SUCCESS);

  // Waits that do not hold yet, each on a stream of its own: deferred with
  // the write queued after them (the stream is not ready, the write has not
  // run); writes from another stream release them in turn.
  CUstream w1 = nullptr, w2 = nullptr, w3 = nullptr;
  REQUIRE(cuStreamCreate(&w1, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS);
  REQUIRE(cuStreamCreate(&w2, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS);
  REQUIRE(cuStreamCreate(&w3, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS);
  CHECK(cuStreamWaitValue32(w1, d, 0xfffffff8u, CU_STREAM_WAIT_VALUE_NOR) == CUDA_SUCCESS);  // ~(7|~7) == 0
  CHECK(cuStreamWriteValue32(w1, d + 16, 1, 0) == CUDA_SUCCESS);
  CHECK(cuStreamWaitValue64(w2, d + 8, 0x1122334455667789ull, CU_STREAM_WAIT_VALUE_GEQ) == CUDA_SUCCESS);
  CHECK(cuStreamWriteValue32(w2, d + 20, 2, 0) == CUDA_SUCCESS);
  CHECK(cuStreamWaitValue32(w3, d, 8, CU_STREAM_WAIT_VALUE_GEQ) == CUDA_SUCCESS);  // 7 - 8 is -1
  CHECK(cuStreamWriteValue32(w3, d + 24, 3, 0) == CUDA_SUCCESS);
  for (CUstream x : {w1, w2, w3}) CHECK(cuStreamQuery(x) == CUDA_ERROR_NOT_READY);
  CHECK(u32(d + 16) == 0u);
  CHECK(u32(d + 20) == 0u);
  CHECK(u32(d + 24) == 0u);
  CHECK(cuStreamWriteValue64(st, d + 8, 0x1122334455667789ull, 0) == CUDA_SUCCESS);
  CHECK(cuStreamSynchronize(w2) == CUDA_SUCCESS);
  CHECK(u32(d + 20) == 2u);
  CHECK(cuStreamQuery(w1) == CUDA_ERROR_NOT_READY);
  CHECK(cuStreamWriteValue32(st, d, 8, 0) == CUDA_SUCCESS);  // releases w3 (and w1: ~(8|~7) has bit 0)
  CHECK(cuStreamSynchronize(w3) == CUDA_SUCCESS);
  CHECK(cuStreamSynchronize(w1) == CUDA_SUCCESS);
  CHECK(u32(d + 24) == 3u);
  CHECK(u32(d + 16) == 1u);
  CHECK(cuStreamWriteValue32(st, d, 7, 0) == CUDA_SUCCESS);

  // A batch runs in order: the wait sees the batch's own write; a barrier is
  // a no-op; a malformed operation anywhere stops the batch before any runs.
  CUstreamBatchMemOpParams ops[3] = {};
  ops[0].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
  ops[0].writeValue.address = d + 4;
  ops[0].writeValue.value = 42;
  ops[1].memoryBarrier.operation = CU_STREAM_MEM_OP_BARRIER;
  ops[1].memoryBarrier.flags = CU_STREAM_MEMORY_BARRIER_TYPE_GPU;
  ops[2].waitValue.operation = CU_STREAM_MEM_OP_WAIT_VALUE_32;
  ops[2].waitValue.address = d + 4;
  ops[2].waitValue.value = 42;
  ops[2].waitValue.flags = CU_STREAM_WAIT_VALUE_EQ;
  CHECK(cuStreamBatchMemOp(st, 3, ops, 0) == CUDA_SUCCESS);
  CHECK(u32(d + 4) == 42u);
  ops[0].writeValue.value = 43;
  ops[2].waitValue.address = d + 2;  // misaligned
  CHECK(cuStreamBatchMemOp(st, 3, ops, 0) == CUDA_ERROR_INVALID_VALUE);
  CHECK(u32(d + 4) == 42u);  // the write before it did not run
  CHECK(cuStreamBatchMemOp(st, 3, ops, 1) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuStreamBatchMemOp(st, 256, ops, 0) == CUDA_ERROR_INVALID_VALUE);

  // Argument errors: misaligned, managed memory, unknown flags; the v2 write
  // takes no flags; FLUSH needs CAN_FLUSH_REMOTE_WRITES, which is 0.
  CHECK(cuStreamWriteValue32(st, d + 1, 1, 0) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuStreamWriteValue64(st, d + 4, 1, 0) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuStreamWriteValue32(st, d, 1, CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuStreamWaitValue32(st, d, 1, 0x10) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuStreamWaitValue32(st, d, 1, CU_STREAM_WAIT_VALUE_FLUSH) == CUDA_ERROR_NOT_SUPPORTED);
  CUdeviceptr managed = 0;
  REQUIRE(cuMemAllocManaged(&managed, 64, CU_MEM_ATTACH_GLOBAL) == CUDA_SUCCESS);
  CHECK(cuStreamWriteValue32(st, managed, 1, 0) == CUDA_ERROR_INVALID_VALUE);
  int attr = 0;
  CHECK(cuDeviceGetAttribute(&attr, CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS, 0) == CUDA_SUCCESS);
  CHECK(attr == 1);

  // Page-locked memory mapped for the device: the host sees the write.
  void* host = nullptr;
  REQUIRE(cuMemHostAlloc(&host, 64, CU_MEMHOSTALLOC_DEVICEMAP) == CUDA_SUCCESS);
  CUdeviceptr hd = 0;
  REQUIRE(cuMemHostGetDevicePointer(&hd, host, 0) == CUDA_SUCCESS);
  CHECK(cuStreamWriteValue32(st, hd + 12, 99, 0) == CUDA_SUCCESS);
  CHECK(static_cast<uint32_t*>(host)[3] == 99u);
  static_cast<uint32_t*>(host)[4] = 3;  // a host write before the wait is enqueued
  CHECK(cuStreamWaitValue32(st, hd + 16, 3, CU_STREAM_WAIT_VALUE_EQ) == CUDA_SUCCESS);

  // The per-thread and CUDA 8 names, through cuGetProcAddress.
  void* fn = nullptr;
  CHECK(cuGetProcAddress("cuStreamBatchMemOp", &fn, 11070, 0, nullptr) == CUDA_SUCCESS);
  CHECK(fn == reinterpret_cast<void*>(&cuStreamBatchMemOp_v2));
  CHECK(cuGetProcAddress("cuStreamWaitValue32", &fn, 8000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, nullptr) ==
        CUDA_SUCCESS);
  REQUIRE(fn != nullptr);
  using Wait32 = CUresult (*)(CUstream, CUdeviceptr, cuuint32_t, unsigned);
  CHECK(reinterpret_cast<Wait32>(fn)(nullptr, d, 7, CU_STREAM_WAIT_VALUE_EQ) == CUDA_SUCCESS);

  // A capture cannot record them: unsupported, and the capture is invalidated.
  REQUIRE(cuStreamBeginCapture(st, CU_STREAM_CAPTURE_MODE_GLOBAL) == CUDA_SUCCESS);
  CHECK(cuStreamWriteValue32(st, d, 1, 0) == CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
  CUgraph g = nullptr;
  CHECK(cuStreamEndCapture(st, &g) == CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
  CHECK(u32(d) == 7u);
  CHECK(cuMemFreeHost(host) == CUDA_SUCCESS);

  // A wait that nothing releases: the synchronisation reports the hang (the
  // value found) and the context's sticky error.
  CUstream w4 = nullptr;
  REQUIRE(cuStreamCreate(&w4, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS);
  CHECK(cuStreamWaitValue32(w4, d, 8, CU_STREAM_WAIT_VALUE_GEQ) == CUDA_SUCCESS);
  {
    StderrCapture cap;
    CHECK(cuStreamSynchronize(w4) == CUDA_ERROR_LAUNCH_TIMEOUT);
    std::string t = cap.text();
    CHECK(t.find("cuStreamWaitValue32") != std::string::npos);
    CHECK(t.find("is 0x7, which does not satisfy the wait (>= (cyclic) 0x8)") != std::string::npos);
  }
  CHECK(cuStreamDestroy(st) == CUDA_ERROR_LAUNCH_TIMEOUT);
}
