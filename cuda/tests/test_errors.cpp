// Error paths of the driver-API shim, exercised as a host program sees them
// (only <cuda.h>): invalid handles and arguments yield error codes, invalid
// PTX yields CUDA_ERROR_INVALID_PTX with the parser's message, and a
// faulting kernel poisons its context with the GPU's error code.
// Each tag runs in its own process (cuda/tests/meson.build).
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
extern "C" CUresult cuMemcpyAtoH_v2(void* dst, CUarray src, size_t off, size_t n);
// The CUDA 10.2 signature of cuGraphExecUpdate (cuda.h maps the name to _v2;
// this file calls cuGraphExecUpdate_v2 by that name).
#undef cuGraphExecUpdate
extern "C" CUresult cuGraphExecUpdate(CUgraphExec x, CUgraph g, CUgraphNode* err, CUgraphExecUpdateResult* result);

namespace {

// Invalid enum arguments below stay inside each enum's value range (the
// smallest bit-field holding its enumerators): outside it the conversion is
// undefined behaviour, which UBSan rightly reports in the caller.

// Small limits for every test of this binary: set before cuInit reads them.
const bool kEnv = [] {
  setenv("PTXCHECK_SHIM_MAX_STEPS", "2000000", 1);
  setenv("PTXCHECK_SHIM_SM", "sm_100a", 1);
  setenv("PTXCHECK_SHIM_MEM_MB", "64", 1);
  return true;
}();

using shimtest::Ctx;
using shimtest::kernel;
using shimtest::kHeader;
using shimtest::launch;
using shimtest::load;
using shimtest::StderrCapture;

}  // namespace

TEST_CASE("invalid handles and arguments give error codes", "[handles]") {
  int n = -1;
  CHECK(cuDeviceGetCount(&n) == CUDA_ERROR_NOT_INITIALIZED);
  CUcontext none = nullptr;
  CHECK(cuCtxGetCurrent(&none) == CUDA_ERROR_NOT_INITIALIZED);
  REQUIRE(cuInit(0) == CUDA_SUCCESS);
  CHECK(cuInit(1) == CUDA_ERROR_INVALID_VALUE);
  const char* s = nullptr;
  CHECK(cuGetErrorName(CUDA_ERROR_ILLEGAL_ADDRESS, &s) == CUDA_SUCCESS);
  CHECK(std::string(s) == "CUDA_ERROR_ILLEGAL_ADDRESS");
  CHECK(cuGetErrorString(static_cast<CUresult>(1000), &s) == CUDA_ERROR_INVALID_VALUE);
  CHECK(s == nullptr);
  CUdevice d = -1;
  CHECK(cuDeviceGet(&d, 1) == CUDA_ERROR_INVALID_DEVICE);
  REQUIRE(cuDeviceGet(&d, 0) == CUDA_SUCCESS);
  char name[8];
  CHECK(cuDeviceGetName(name, sizeof name, d) == CUDA_SUCCESS);
  CHECK(std::string(name) == "ptxchec");  // truncated to the buffer
  int major = 0, minor = 0;
  CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d) == CUDA_SUCCESS);
  CHECK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d) == CUDA_SUCCESS);
  CHECK((major == 10 && minor == 0));  // PTXCHECK_SHIM_SM=sm_100a
  CHECK(cuDeviceGetAttribute(&major, static_cast<CUdevice_attribute>(999), d) == CUDA_ERROR_INVALID_VALUE);

  CUdeviceptr p = 0;
  CHECK(cuMemAlloc(&p, 16) == CUDA_ERROR_INVALID_CONTEXT);  // no current context
  CHECK(cuCtxSetCurrent(reinterpret_cast<CUcontext>(&p)) == CUDA_ERROR_INVALID_CONTEXT);
  {
    Ctx ctx;
    CUfunction f = nullptr;
    int local = 0;
    CHECK(cuModuleGetFunction(&f, nullptr, "k") == CUDA_ERROR_INVALID_HANDLE);
    CHECK(cuModuleGetFunction(&f, reinterpret_cast<CUmodule>(&local), "k") == CUDA_ERROR_INVALID_HANDLE);
    CHECK(cuModuleGetFunction(&f, reinterpret_cast<CUmodule>(0x1234), "k") == CUDA_ERROR_INVALID_HANDLE);
    CHECK(cuLaunchKernel(reinterpret_cast<CUfunction>(&local), 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr) ==
          CUDA_ERROR_INVALID_HANDLE);
    CUmodule m = load(kernel("st.global.u32 [%rd1], 7;\n"));
    CHECK(cuModuleGetFunction(&f, m, "nope") == CUDA_ERROR_NOT_FOUND);
    CUdeviceptr g;
    CHECK(cuModuleGetGlobal(&g, nullptr, m, "nope") == CUDA_ERROR_NOT_FOUND);
    REQUIRE(cuModuleGetFunction(&f, m, "k") == CUDA_SUCCESS);
    REQUIRE(cuMemAlloc(&p, 4) == CUDA_SUCCESS);
    void* args[] = {&p};
    CHECK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuLaunchKernel(f, 0, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuLaunchKernel(f, 1, 1, 1, 2048, 1, 1, 0, nullptr, args, nullptr) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 64 * 1024, nullptr, args, nullptr) == CUDA_ERROR_INVALID_VALUE);
    CHECK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 64 * 1024) == CUDA_SUCCESS);
    CHECK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 64 * 1024, nullptr, args, nullptr) == CUDA_SUCCESS);
    CHECK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, reinterpret_cast<CUstream>(&local), args, nullptr) ==
          CUDA_ERROR_INVALID_HANDLE);
    unsigned v = 0;
    CHECK(cuMemcpyDtoH(&v, p, 4) == CUDA_SUCCESS);
    CHECK(v == 7);
    CUstream st;
    REQUIRE(cuStreamCreate(&st, 0) == CUDA_SUCCESS);
    CHECK(cuStreamDestroy(st) == CUDA_SUCCESS);
    CHECK(cuStreamDestroy(st) == CUDA_ERROR_INVALID_HANDLE);
    CUevent a, b;
    REQUIRE(cuEventCreate(&a, 0) == CUDA_SUCCESS);
    REQUIRE(cuEventCreate(&b, CU_EVENT_DISABLE_TIMING) == CUDA_SUCCESS);
    float ms = 0;
    CHECK(cuEventElapsedTime(&ms, a, a) == CUDA_ERROR_INVALID_HANDLE);  // never recorded
    CHECK(cuEventRecord(a, nullptr) == CUDA_SUCCESS);
    CHECK(cuEventRecord(b, nullptr) == CUDA_SUCCESS);
    CHECK(cuEventElapsedTime(&ms, a, b) == CUDA_ERROR_INVALID_HANDLE);  // timing disabled
    CHECK(cuModuleUnload(m) == CUDA_SUCCESS);
    CHECK(cuModuleUnload(m) == CUDA_ERROR_INVALID_HANDLE);
    CHECK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr) == CUDA_ERROR_INVALID_HANDLE);
  }
  CHECK(cuMemAlloc(&p, 16) == CUDA_ERROR_INVALID_CONTEXT);  // destroyed, no longer current
}

TEST_CASE("invalid PTX is CUDA_ERROR_INVALID_PTX with the parser's message", "[ptx]") {
  Ctx ctx;
  CUmodule m = nullptr;
  std::string bad = std::string(kHeader) + ".visible .entry k()\n{\n  add.u32 %r1, %r2;\n  ret;\n}\n";
  char log[1024] = "";
  CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* vals[] = {log, reinterpret_cast<void*>(static_cast<uintptr_t>(sizeof log))};
  StderrCapture cap;
  CUresult r = cuModuleLoadDataEx(&m, bad.c_str(), 2, opts, vals);
  std::string err = cap.text();
  CHECK(r == CUDA_ERROR_INVALID_PTX);
  CHECK(err.find("error:") != std::string::npos);
  CHECK(err.find(":6:") != std::string::npos);  // line of the bad instruction
  CHECK(std::string(log).find(":6:") != std::string::npos);
  CHECK(reinterpret_cast<uintptr_t>(vals[1]) == std::strlen(log) + 1);

  // Resolution errors found while lowering are invalid PTX too.
  std::string unresolved = std::string(kHeader) + kernel("bra NOWHERE;\n");
  StderrCapture cap2;
  CHECK(cuModuleLoadData(&m, unresolved.c_str()) == CUDA_ERROR_INVALID_PTX);
  CHECK(cap2.text().find("NOWHERE") != std::string::npos);

  CHECK(cuModuleLoad(&m, "/nonexistent/file.ptx") == CUDA_ERROR_FILE_NOT_FOUND);
  const char elf[] =
      "\x7f"
      "ELF\x02\x01\x01";
  StderrCapture cap3;
  CHECK(cuModuleLoadData(&m, elf) == CUDA_ERROR_NO_BINARY_FOR_GPU);  // SASS: no PTX to run
  cap3.text();
}

// .texref/.surfref variables through the deprecated driver API (CUDA 13's
// cuda.h still declares it): cuModuleGetTexRef + cuTexRefSetArray or
// cuTexRefSetFormat/cuTexRefSetAddress, cuModuleGetSurfRef +
// cuSurfRefSetArray; the kernel names the variables directly (unified mode).
TEST_CASE("texture and surface references bind module variables", "[ptx]") {
  Ctx ctx;
  std::string text = std::string(kHeader) +
                     ".global .texref t;\n.global .texref t2;\n.global .surfref s;\n.global .u32 plain;\n" +
                     kernel(
                         "mov.u32 %r1, %tid.x;\n"
                         "tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [t, {%r1}];\n"
                         "tex.1d.v4.f32.s32 {%f5, %f6, %f7, %f8}, [t2, {%r1}];\n"
                         "add.rn.f32 %f9, %f1, %f5;\n"
                         "mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
                         "st.global.f32 [%rd3], %f9;\n"
                         "shl.b32 %r2, %r1, 2;\n"
                         "suld.b.1d.b32.trap {%r3}, [s, {%r2}];\n"
                         "add.s32 %r3, %r3, 100;\n"
                         "sust.b.1d.b32.trap [s, {%r2}], {%r3};\n"
                         "setp.eq.u32 %p1, %r1, 0;\n"
                         "txq.width.b32 %r4, [t];\n"
                         "@%p1 st.global.u32 [%rd1+16], %r4;\n");
  text.insert(text.find("{\n.reg .b32") + 2, ".reg .f32 %f<12>;\n");
  CUmodule m = nullptr;
  REQUIRE(cuModuleLoadData(&m, text.c_str()) == CUDA_SUCCESS);
  CUtexref t = nullptr, t2 = nullptr, bad = nullptr;
  CUsurfref sr = nullptr, sbad = nullptr;
  REQUIRE(cuModuleGetTexRef(&t, m, "t") == CUDA_SUCCESS);
  REQUIRE(cuModuleGetTexRef(&t2, m, "t2") == CUDA_SUCCESS);
  REQUIRE(cuModuleGetSurfRef(&sr, m, "s") == CUDA_SUCCESS);
  CHECK(cuModuleGetTexRef(&bad, m, "plain") == CUDA_ERROR_NOT_FOUND);  // not a .texref
  CHECK(cuModuleGetTexRef(&bad, m, "s") == CUDA_ERROR_NOT_FOUND);
  CHECK(cuModuleGetSurfRef(&sbad, m, "t") == CUDA_ERROR_NOT_FOUND);
  CHECK(cuModuleGetTexRef(&bad, m, "nosuch") == CUDA_ERROR_NOT_FOUND);
  // t: a 4-texel float array; t2: linear memory (format first).
  CUDA_ARRAY_DESCRIPTOR ad = {4, 0, CU_AD_FORMAT_FLOAT, 1};
  CUarray arr;
  REQUIRE(cuArrayCreate(&arr, &ad) == CUDA_SUCCESS);
  const float tv[4] = {1.5f, -2.0f, 8.25f, 100.0f};
  REQUIRE(cuMemcpyHtoA_v2(arr, 0, tv, sizeof tv) == CUDA_SUCCESS);
  REQUIRE(cuTexRefSetArray(t, arr, CU_TRSA_OVERRIDE_FORMAT) == CUDA_SUCCESS);
  REQUIRE(cuTexRefSetFilterMode(t, CU_TR_FILTER_MODE_POINT) == CUDA_SUCCESS);
  CUdeviceptr lin;
  const float lv[4] = {0.25f, 0.5f, 0.75f, 1.0f};
  REQUIRE(cuMemAlloc(&lin, sizeof lv) == CUDA_SUCCESS);
  REQUIRE(cuMemcpyHtoD(lin, lv, sizeof lv) == CUDA_SUCCESS);
  size_t off = 99;
  CHECK(cuTexRefSetAddress(&off, t2, lin, sizeof lv) == CUDA_ERROR_INVALID_VALUE);  // no format yet
  REQUIRE(cuTexRefSetFormat(t2, CU_AD_FORMAT_FLOAT, 1) == CUDA_SUCCESS);
  REQUIRE(cuTexRefSetAddress(&off, t2, lin, sizeof lv) == CUDA_SUCCESS);
  CHECK(off == 0);
  // s: a 4-element int array created for surface loads and stores.
  CUDA_ARRAY3D_DESCRIPTOR sd = {};
  sd.Width = 4;
  sd.Format = CU_AD_FORMAT_SIGNED_INT32;
  sd.NumChannels = 1;
  CUarray sarr;
  REQUIRE(cuArray3DCreate(&sarr, &sd) == CUDA_SUCCESS);
  CHECK(cuSurfRefSetArray(sr, sarr, 0) == CUDA_ERROR_INVALID_VALUE);  // without CUDA_ARRAY3D_SURFACE_LDST
  sd.Flags = CUDA_ARRAY3D_SURFACE_LDST;
  REQUIRE(cuArray3DCreate(&sarr, &sd) == CUDA_SUCCESS);
  const int sv[4] = {7, -3, 0, 42};
  REQUIRE(cuMemcpyHtoA_v2(sarr, 0, sv, sizeof sv) == CUDA_SUCCESS);
  REQUIRE(cuSurfRefSetArray(sr, sarr, 0) == CUDA_SUCCESS);
  CUdeviceptr out;
  REQUIRE(cuMemAlloc(&out, 20) == CUDA_SUCCESS);
  REQUIRE(launch(m, out, 4) == CUDA_SUCCESS);
  REQUIRE(cuCtxSynchronize() == CUDA_SUCCESS);
  float got[5];
  REQUIRE(cuMemcpyDtoH(got, out, sizeof got) == CUDA_SUCCESS);
  for (int i = 0; i < 4; ++i) CHECK(got[i] == tv[i] + lv[i]);
  uint32_t width;
  std::memcpy(&width, &got[4], 4);
  CHECK(width == 4);
  int back[4];
  REQUIRE(cuMemcpyAtoH_v2(back, sarr, 0, sizeof back) == CUDA_SUCCESS);
  for (int i = 0; i < 4; ++i) CHECK(back[i] == sv[i] + 100);
  // The getters return what was set, the bound resource, or INVALID_VALUE.
  CUarray ga = nullptr;
  CUdeviceptr gp = 0;
  CUmipmappedArray gm = nullptr;
  CHECK(cuTexRefGetArray(&ga, t) == CUDA_SUCCESS);
  CHECK(ga == arr);
  CHECK(cuTexRefGetArray(&ga, t2) == CUDA_ERROR_INVALID_VALUE);  // t2 is bound to linear memory
  CHECK(cuTexRefGetAddress(&gp, t2) == CUDA_SUCCESS);
  CHECK(gp == lin);
  CHECK(cuTexRefGetAddress(&gp, t) == CUDA_ERROR_INVALID_VALUE);  // t is bound to an array
  CHECK(cuTexRefGetMipmappedArray(&gm, t) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuSurfRefGetArray(&ga, sr) == CUDA_SUCCESS);
  CHECK(ga == sarr);
  REQUIRE(cuTexRefSetAddressMode(t, 1, CU_TR_ADDRESS_MODE_BORDER) == CUDA_SUCCESS);
  REQUIRE(cuTexRefSetFilterMode(t2, CU_TR_FILTER_MODE_LINEAR) == CUDA_SUCCESS);
  REQUIRE(cuTexRefSetFlags(t2, CU_TRSF_NORMALIZED_COORDINATES) == CUDA_SUCCESS);
  REQUIRE(cuTexRefSetMipmapFilterMode(t, CU_TR_FILTER_MODE_LINEAR) == CUDA_SUCCESS);
  REQUIRE(cuTexRefSetMipmapLevelBias(t, 0.5f) == CUDA_SUCCESS);
  REQUIRE(cuTexRefSetMipmapLevelClamp(t, 1.0f, 3.0f) == CUDA_SUCCESS);
  REQUIRE(cuTexRefSetMaxAnisotropy(t, 1) == CUDA_SUCCESS);
  float border[4] = {0.5f, 1, 2, -1};
  REQUIRE(cuTexRefSetBorderColor(t, border) == CUDA_SUCCESS);
  CUaddress_mode am{};
  CHECK(cuTexRefGetAddressMode(&am, t, 0) == CUDA_SUCCESS);
  CHECK(am == CU_TR_ADDRESS_MODE_CLAMP);  // the default
  CHECK(cuTexRefGetAddressMode(&am, t, 1) == CUDA_SUCCESS);
  CHECK(am == CU_TR_ADDRESS_MODE_BORDER);
  CHECK(cuTexRefGetAddressMode(&am, t, 3) == CUDA_ERROR_INVALID_VALUE);
  CUfilter_mode fm{};
  CHECK(cuTexRefGetFilterMode(&fm, t) == CUDA_SUCCESS);
  CHECK(fm == CU_TR_FILTER_MODE_POINT);
  CHECK(cuTexRefGetFilterMode(&fm, t2) == CUDA_SUCCESS);
  CHECK(fm == CU_TR_FILTER_MODE_LINEAR);
  CHECK(cuTexRefGetMipmapFilterMode(&fm, t) == CUDA_SUCCESS);
  CHECK(fm == CU_TR_FILTER_MODE_LINEAR);
  unsigned fl = 99;
  CHECK(cuTexRefGetFlags(&fl, t2) == CUDA_SUCCESS);
  CHECK(fl == CU_TRSF_NORMALIZED_COORDINATES);
  CHECK(cuTexRefGetFlags(&fl, t) == CUDA_SUCCESS);
  CHECK(fl == 0);
  CUarray_format fmt{};
  int nch = 0;
  CHECK(cuTexRefGetFormat(&fmt, &nch, t) == CUDA_SUCCESS);  // the bound array's
  CHECK((fmt == CU_AD_FORMAT_FLOAT && nch == 1));
  CHECK(cuTexRefGetFormat(&fmt, nullptr, t2) == CUDA_SUCCESS);  // as set; a null pointer is ignored
  CHECK(fmt == CU_AD_FORMAT_FLOAT);
  float v = 0, lo = 0, hi = 0;
  CHECK(cuTexRefGetMipmapLevelBias(&v, t) == CUDA_SUCCESS);
  CHECK(v == 0.5f);
  CHECK(cuTexRefGetMipmapLevelClamp(&lo, &hi, t) == CUDA_SUCCESS);
  CHECK((lo == 1.0f && hi == 3.0f));
  int an = -1;
  CHECK(cuTexRefGetMaxAnisotropy(&an, t) == CUDA_SUCCESS);
  CHECK(an == 1);
  float bc[4] = {};
  CHECK(cuTexRefGetBorderColor(bc, t) == CUDA_SUCCESS);
  for (int k = 0; k < 4; ++k) CHECK(bc[k] == border[k]);
  CHECK(cuTexRefGetFlags(nullptr, t) == CUDA_ERROR_INVALID_VALUE);
  void* fn = nullptr;
  CUdriverProcAddressQueryResult qst = CU_GET_PROC_ADDRESS_SUCCESS;
  CHECK(cuGetProcAddress("cuTexRefGetFormat", &fn, 13000, 0, &qst) == CUDA_SUCCESS);
  CHECK(fn == reinterpret_cast<void*>(&cuTexRefGetFormat));
  // A reference whose module is gone is an invalid handle.
  REQUIRE(cuModuleUnload(m) == CUDA_SUCCESS);
  CHECK(cuTexRefSetFilterMode(t, CU_TR_FILTER_MODE_LINEAR) == CUDA_ERROR_INVALID_HANDLE);
  CHECK(cuTexRefGetFilterMode(&fm, t) == CUDA_ERROR_INVALID_HANDLE);
  CHECK(cuSurfRefGetArray(&ga, sr) == CUDA_ERROR_INVALID_HANDLE);
}

// The emulated device of this binary is sm_100 (PTXCHECK_SHIM_SM above).
TEST_CASE("PTX for a target the device cannot run fails to load, naming target and device", "[ptx]") {
  Ctx ctx;
  auto with_target = [](const char* t) {
    return std::string(".version 8.8\n.target ") + t + "\n.address_size 64\n" + kernel("");
  };
  CUmodule m = nullptr;
  char log[1024] = "";
  CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* vals[] = {log, reinterpret_cast<void*>(static_cast<uintptr_t>(sizeof log))};
  std::string newer = with_target("sm_120");
  StderrCapture cap;
  CHECK(cuModuleLoadDataEx(&m, newer.c_str(), 2, opts, vals) == CUDA_ERROR_INVALID_PTX);
  std::string err = cap.text();
  CHECK(err.find(".target sm_120 is newer than the emulated device sm_100") != std::string::npos);
  CHECK(std::string(log).find(".target sm_120") != std::string::npos);
  // Architecture-specific PTX runs only on its own architecture.
  std::string other_a = with_target("sm_90a");
  StderrCapture cap2;
  CHECK(cuModuleLoadData(&m, other_a.c_str()) == CUDA_ERROR_INVALID_PTX);
  CHECK(cap2.text().find(
            ".target sm_90a (architecture- or family-specific) does not run on the emulated device sm_100") !=
        std::string::npos);
  // Older plain targets and the device's own "a" target load.
  for (const char* ok : {"sm_90", "sm_100", "sm_100a"}) {
    INFO(ok);
    std::string text = with_target(ok);
    CHECK(cuModuleLoadData(&m, text.c_str()) == CUDA_SUCCESS);
  }
}

TEST_CASE("module .global and .const variables are host-visible and per module", "[ptx]") {
  Ctx ctx;
  std::string vars = ".global .align 4 .u32 counter = 5;\n.const .align 4 .u32 scale = 3;\n";
  CUmodule m1 = load(vars + kernel("ld.const.u32 %r1, [scale];\nld.global.u32 %r2, [counter];\n"
                                   "mul.lo.u32 %r3, %r1, %r2;\nst.global.u32 [%rd1], %r3;\n"
                                   "add.u32 %r2, %r2, 1;\nst.global.u32 [counter], %r2;\n"));
  CUmodule m2 = load(vars + kernel("ld.global.u32 %r2, [counter];\nst.global.u32 [%rd1], %r2;\n"));
  CUdeviceptr c1, c2, s1;
  size_t size = 0;
  REQUIRE(cuModuleGetGlobal(&c1, &size, m1, "counter") == CUDA_SUCCESS);
  CHECK(size == 4);
  REQUIRE(cuModuleGetGlobal(&c2, nullptr, m2, "counter") == CUDA_SUCCESS);
  REQUIRE(cuModuleGetGlobal(&s1, &size, m1, "scale") == CUDA_SUCCESS);
  CHECK(c1 != c2);
  unsigned seven = 7;
  REQUIRE(cuMemcpyHtoD(s1, &seven, 4) == CUDA_SUCCESS);  // a host write to a .const variable
  CUdeviceptr out;
  REQUIRE(cuMemAlloc(&out, 4) == CUDA_SUCCESS);
  REQUIRE(launch(m1, out) == CUDA_SUCCESS);
  unsigned v = 0, cnt = 0;
  REQUIRE(cuMemcpyDtoH(&v, out, 4) == CUDA_SUCCESS);
  CHECK(v == 35);  // 7 * 5
  REQUIRE(cuMemcpyDtoH(&cnt, c1, 4) == CUDA_SUCCESS);
  CHECK(cnt == 6);  // the kernel's increment persists
  REQUIRE(launch(m2, out) == CUDA_SUCCESS);
  REQUIRE(cuMemcpyDtoH(&v, out, 4) == CUDA_SUCCESS);
  CHECK(v == 5);  // m2's own counter
  CHECK(cuModuleUnload(m1) == CUDA_SUCCESS);
  CHECK(cuMemcpyDtoH(&cnt, c1, 4) == CUDA_ERROR_INVALID_VALUE);  // gone with its module
}

TEST_CASE("faulting kernels poison the context with the GPU's error code", "[faults]") {
  struct Case {
    const char* what;
    std::string body;
    unsigned threads;
    CUresult code;
    const char* kind;
  };
  std::vector<Case> cases = {
      {"out of bounds", "st.global.u32 [%rd1+4096], 1;\n", 1, CUDA_ERROR_ILLEGAL_ADDRESS, "out-of-bounds"},
      {"misaligned", "st.global.u32 [%rd1+2], 1;\n", 1, CUDA_ERROR_MISALIGNED_ADDRESS, "misaligned"},
      {"trap", "trap;\n", 1, CUDA_ERROR_LAUNCH_FAILED, "trap"},
      {"deadlock", "bar.sync 0, 64;\n", 32, CUDA_ERROR_LAUNCH_TIMEOUT, "barrier-deadlock"},
      {"runaway loop", "LOOP:\nbra LOOP;\n", 1, CUDA_ERROR_LAUNCH_TIMEOUT, "step-limit"},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    Ctx ctx;
    CUmodule m = load(kernel(c.body));
    CUdeviceptr p;
    REQUIRE(cuMemAlloc(&p, 64) == CUDA_SUCCESS);
    StderrCapture cap;
    CHECK(launch(m, p, c.threads) == CUDA_SUCCESS);  // asynchronous launch: the fault shows later
    CHECK(cuCtxSynchronize() == c.code);
    std::string err = cap.text();
    CHECK(err.find(c.kind) != std::string::npos);
    unsigned v;
    CHECK(cuMemcpyDtoH(&v, p, 4) == c.code);  // sticky
    CUdeviceptr q;
    CHECK(cuMemAlloc(&q, 4) == c.code);
  }
  Ctx fresh;  // a new context works again
  CUdeviceptr p;
  CHECK(cuMemAlloc(&p, 4) == CUDA_SUCCESS);
}

// Exported for CUDA_API_PER_THREAD_DEFAULT_STREAM builds (not declared in this build).
extern "C" CUresult cuMemcpyHtoD_v2_ptds(CUdeviceptr, const void*, size_t);

// cuGraphExecUpdate against the topology the instance was made from, not the
// graph's current one; both signatures; the error node; the update is
// applied (a host node's user data) or nothing is.
TEST_CASE("cuGraphExecUpdate: instantiation topology, both signatures, error nodes", "[handles]") {
  Ctx ctx;
  static int seen = 0;
  CUDA_HOST_NODE_PARAMS hp{[](void* u) { seen = *static_cast<int*>(u); }, nullptr};
  int one = 1, two = 2, three = 3;
  auto host_graph = [&](int* user, int nodes) {
    CUgraph g = nullptr;
    REQUIRE(cuGraphCreate(&g, 0) == CUDA_SUCCESS);
    CUgraphNode prev = nullptr, n = nullptr;
    for (int i = 0; i < nodes; ++i) {
      hp.userData = user;
      REQUIRE(cuGraphAddHostNode(&n, g, prev ? &prev : nullptr, prev ? 1 : 0, &hp) == CUDA_SUCCESS);
      prev = n;
    }
    return g;
  };
  CUgraph g1 = host_graph(&one, 1), g2 = host_graph(&two, 1), g3 = host_graph(&three, 2);
  CUgraphExec x = nullptr;
  REQUIRE(cuGraphInstantiateWithFlags(&x, g1, 0) == CUDA_SUCCESS);
  CUgraphNode extra = nullptr;  // g1 changes after instantiation; the instance does not
  REQUIRE(cuGraphAddEmptyNode(&extra, g1, nullptr, 0) == CUDA_SUCCESS);
  CUgraphExecUpdateResultInfo info{};
  CHECK(cuGraphExecUpdate_v2(x, g2, &info) == CUDA_SUCCESS);
  CHECK(info.result == CU_GRAPH_EXEC_UPDATE_SUCCESS);
  CHECK(cuGraphLaunch(x, nullptr) == CUDA_SUCCESS);
  CHECK(cuCtxSynchronize() == CUDA_SUCCESS);
  CHECK(seen == 2);
  CUgraphNode err = extra;
  CUgraphExecUpdateResult result = CU_GRAPH_EXEC_UPDATE_SUCCESS;
  CHECK(cuGraphExecUpdate(x, g3, &err, &result) == CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE);  // 2 nodes, not 1
  CHECK(result == CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED);
  CHECK(err == nullptr);
  CHECK(cuGraphExecUpdate(x, g1, &err, &result) == CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE);  // g1 has 2 now
  CHECK(cuGraphLaunch(x, nullptr) == CUDA_SUCCESS);
  CHECK(cuCtxSynchronize() == CUDA_SUCCESS);
  CHECK(seen == 2);      // unchanged
  CUgraph g4 = nullptr;  // an empty node where the instance has a host node
  REQUIRE(cuGraphCreate(&g4, 0) == CUDA_SUCCESS);
  CUgraphNode e4 = nullptr;
  REQUIRE(cuGraphAddEmptyNode(&e4, g4, nullptr, 0) == CUDA_SUCCESS);
  CHECK(cuGraphExecUpdate_v2(x, g4, &info) == CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE);
  CHECK(info.result == CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED);
  CHECK(info.errorNode == e4);
  CHECK(cuGraphExecUpdate_v2(x, nullptr, &info) == CUDA_ERROR_INVALID_VALUE);
  CHECK(info.result == CU_GRAPH_EXEC_UPDATE_ERROR);
  CHECK(cuGraphExecDestroy(x) == CUDA_SUCCESS);
  for (CUgraph g : {g1, g2, g3, g4}) CHECK(cuGraphDestroy(g) == CUDA_SUCCESS);
}

TEST_CASE("cuGetProcAddress: versions, per-thread variants, unknown names", "[handles]") {
  void* fn = nullptr;
  CUdriverProcAddressQueryResult st = CU_GET_PROC_ADDRESS_SUCCESS;
  CHECK(cuGetProcAddress("cuMemAlloc", &fn, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &st) == CUDA_SUCCESS);
  CHECK((fn == reinterpret_cast<void*>(&cuMemAlloc_v2) && st == CU_GET_PROC_ADDRESS_SUCCESS));
  // The version picks the ABI: cuCtxGetDevice gained a context parameter in 13.0.
  CHECK(cuGetProcAddress("cuCtxGetDevice", &fn, 12080, 0, &st) == CUDA_SUCCESS);
  CHECK(fn == reinterpret_cast<void*>(&cuCtxGetDevice));
  CHECK(cuGetProcAddress("cuCtxGetDevice", &fn, 13000, 0, &st) == CUDA_SUCCESS);
  CHECK(fn == reinterpret_cast<void*>(&cuCtxGetDevice_v2));
  // Per-thread variants only when asked for; the legacy one when there is none.
  CHECK(cuGetProcAddress("cuMemcpyHtoD", &fn, 13000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &st) == 0);
  CHECK(fn == reinterpret_cast<void*>(&cuMemcpyHtoD_v2_ptds));
  CHECK(cuGetProcAddress("cuMemcpyHtoD", &fn, 13000, CU_GET_PROC_ADDRESS_LEGACY_STREAM, &st) == 0);
  CHECK(fn == reinterpret_cast<void*>(&cuMemcpyHtoD_v2));
  CHECK(cuGetProcAddress("cuMemAlloc", &fn, 13000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &st) == 0);
  CHECK(fn == reinterpret_cast<void*>(&cuMemAlloc_v2));
  // Unknown names and too-old versions: NOT_FOUND, a null pointer, and the reason.
  fn = &st;
  CHECK(cuGetProcAddress("cuNoSuchThing", &fn, 13000, 0, &st) == CUDA_ERROR_NOT_FOUND);
  CHECK((fn == nullptr && st == CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND));
  CHECK(cuGetProcAddress("", &fn, 0, 0, &st) == CUDA_ERROR_NOT_FOUND);
  CHECK(cuGetProcAddress("cuLibraryLoadData", &fn, 11080, 0, &st) == CUDA_ERROR_NOT_FOUND);
  CHECK((fn == nullptr && st == CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT));
  CHECK(cuGetProcAddress("cuMemAlloc", &fn, 13000, 4, &st) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuGetProcAddress(nullptr, &fn, 13000, 0, &st) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuGetProcAddress("cuMemAlloc", &fn, 13000, 0, nullptr) == CUDA_SUCCESS);  // the status is optional
  // Unknown private tables are refused.
  CUuuid id{};
  const void* table = &id;
  CHECK(cuGetExportTable(&table, &id) == CUDA_ERROR_NOT_FOUND);
  CHECK(table == nullptr);
}

// The JIT linker (cuda/shim/link.cpp): one PTX input links to an image that
// cuModuleLoadData, cuModuleLoadDataEx and cuLibraryLoadData load; the log
// and wall-time options are written; SASS inputs, several PTX inputs and
// bad handles or pointers are refused.
TEST_CASE("cuLink*: one PTX input links to a loadable image; SASS, several inputs, bad handles refused", "[ptx]") {
  Ctx ctx;
  const std::string ptx = kHeader + kernel(
                                        "mov.u32 %r1, %tid.x;\nmul.lo.u32 %r2, %r1, 3;\nadd.u32 %r2, %r2, 11;\n"
                                        "mul.wide.u32 %rd2, %r1, 4;\nadd.u64 %rd3, %rd1, %rd2;\n"
                                        "st.global.u32 [%rd3], %r2;\n");
  char info[256], error[256];
  std::memset(info, 'x', sizeof info);
  std::memset(error, 'x', sizeof error);
  CUjit_option opts[] = {CU_JIT_WALL_TIME,
                         CU_JIT_INFO_LOG_BUFFER,
                         CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                         CU_JIT_ERROR_LOG_BUFFER,
                         CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                         CU_JIT_OPTIMIZATION_LEVEL,
                         CU_JIT_LOG_VERBOSE};
  void* vals[] = {reinterpret_cast<void*>(uintptr_t{0xdeadbeef}),
                  info,
                  reinterpret_cast<void*>(uintptr_t{sizeof info}),
                  error,
                  reinterpret_cast<void*>(uintptr_t{sizeof error}),
                  reinterpret_cast<void*>(uintptr_t{4}),
                  reinterpret_cast<void*>(uintptr_t{1})};
  CUlinkState link = nullptr;
  REQUIRE(cuLinkCreate(7, opts, vals, &link) == CUDA_SUCCESS);
  REQUIRE(cuLinkAddData(link, CU_JIT_INPUT_PTX, const_cast<char*>(ptx.c_str()), ptx.size() + 1, "linked.ptx", 0,
                        nullptr, nullptr) == CUDA_SUCCESS);
  void* image = nullptr;
  size_t size = 0;
  REQUIRE(cuLinkComplete(link, &image, &size) == CUDA_SUCCESS);
  REQUIRE(image != nullptr);
  CHECK(size == std::strlen(static_cast<const char*>(image)) + 1);
  CHECK(size == ptx.size() + 1);
  CHECK(std::string(info).find("linked.ptx") != std::string::npos);  // the info log says what was linked
  CHECK(reinterpret_cast<uintptr_t>(vals[2]) == std::strlen(info) + 1);
  CHECK(error[0] == '\0');
  CHECK(reinterpret_cast<uintptr_t>(vals[4]) == 1);
  float ms = -1;
  std::memcpy(&ms, &vals[0], sizeof ms);  // CU_JIT_WALL_TIME overwrites its value with a float
  CHECK((ms >= 0 && ms < 60000));

  // The image loads as a module (plain and with options) and as a library; each runs the kernel.
  CUdeviceptr out;
  REQUIRE(cuMemAlloc(&out, 4 * 32) == CUDA_SUCCESS);
  auto check_out = [&] {
    std::vector<unsigned> v(32, 0);
    REQUIRE(cuMemcpyDtoH(v.data(), out, 4 * 32) == CUDA_SUCCESS);
    for (unsigned i = 0; i < 32; ++i) CHECK(v[i] == 3 * i + 11);
    REQUIRE(cuMemsetD32(out, 0, 32) == CUDA_SUCCESS);
  };
  CUmodule m = nullptr, mx = nullptr;
  REQUIRE(cuModuleLoadData(&m, image) == CUDA_SUCCESS);
  REQUIRE(launch(m, out, 32) == CUDA_SUCCESS);
  check_out();
  REQUIRE(cuModuleLoadDataEx(&mx, image, 0, nullptr, nullptr) == CUDA_SUCCESS);
  REQUIRE(launch(mx, out, 32) == CUDA_SUCCESS);
  check_out();
  CUlibrary lib = nullptr;
  REQUIRE(cuLibraryLoadData(&lib, image, nullptr, nullptr, 0, nullptr, nullptr, 0) == CUDA_SUCCESS);
  CUkernel kern = nullptr;
  REQUIRE(cuLibraryGetKernel(&kern, lib, "k") == CUDA_SUCCESS);
  void* args[] = {&out};
  REQUIRE(cuLaunchKernel(reinterpret_cast<CUfunction>(kern), 1, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr) ==
          CUDA_SUCCESS);
  check_out();
  CHECK(cuLibraryUnload(lib) == CUDA_SUCCESS);

  // Bad handles and pointers.
  CHECK(cuLinkComplete(link, nullptr, &size) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuLinkAddData(link, CU_JIT_INPUT_PTX, nullptr, 4, nullptr, 0, nullptr, nullptr) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuLinkAddFile(link, CU_JIT_INPUT_PTX, nullptr, 0, nullptr, nullptr) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuLinkAddFile(link, CU_JIT_INPUT_PTX, "/nonexistent/k.ptx", 0, nullptr, nullptr) == CUDA_ERROR_FILE_NOT_FOUND);
  CHECK(cuLinkCreate(0, nullptr, nullptr, nullptr) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuLinkCreate(1, nullptr, vals, &link) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuLinkDestroy(link) == CUDA_SUCCESS);
  CHECK(cuLinkDestroy(link) == CUDA_ERROR_INVALID_HANDLE);
  CHECK(cuLinkComplete(link, &image, &size) == CUDA_ERROR_INVALID_HANDLE);
  CHECK(cuLinkAddData(link, CU_JIT_INPUT_PTX, const_cast<char*>(ptx.c_str()), ptx.size() + 1, nullptr, 0, nullptr,
                      nullptr) == CUDA_ERROR_INVALID_HANDLE);
  CHECK(cuLinkComplete(reinterpret_cast<CUlinkState>(&ctx), &image, &size) == CUDA_ERROR_INVALID_HANDLE);
  CHECK(cuModuleUnload(m) == CUDA_SUCCESS);  // the modules keep their own copy of the image
  REQUIRE(launch(mx, out, 32) == CUDA_SUCCESS);
  check_out();

  // Refused inputs: SASS (a cubin), host objects, invalid PTX (the error log
  // has the parser's line), several PTX inputs, no input at all.
  CUlinkState l2 = nullptr;
  char elog[4096] = "";
  CUjit_option eopts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* evals[] = {elog, reinterpret_cast<void*>(uintptr_t{sizeof elog})};
  REQUIRE(cuLinkCreate(2, eopts, evals, &l2) == CUDA_SUCCESS);
  StderrCapture cap;
  CHECK(cuLinkComplete(l2, &image, &size) == CUDA_ERROR_INVALID_VALUE);  // nothing added
  char elf[64] =
      "\x7f"
      "ELF\x02\x01\x01";
  CHECK(cuLinkAddData(l2, CU_JIT_INPUT_CUBIN, elf, sizeof elf, "k.cubin", 0, nullptr, nullptr) ==
        CUDA_ERROR_NO_BINARY_FOR_GPU);
  CHECK(cuLinkAddData(l2, CU_JIT_INPUT_OBJECT, elf, sizeof elf, "k.o", 0, nullptr, nullptr) ==
        CUDA_ERROR_NOT_SUPPORTED);
  CHECK(cuLinkAddData(l2, CU_JIT_INPUT_FATBINARY, elf, sizeof elf, "k.fatbin", 0, nullptr, nullptr) ==
        CUDA_ERROR_INVALID_IMAGE);
  std::string bad = std::string(kHeader) + ".visible .entry k()\n{\n  add.u32 %r1, %r2;\n  ret;\n}\n";
  CHECK(cuLinkAddData(l2, CU_JIT_INPUT_PTX, bad.data(), bad.size() + 1, "bad.ptx", 0, nullptr, nullptr) ==
        CUDA_ERROR_INVALID_PTX);
  REQUIRE(cuLinkAddData(l2, CU_JIT_INPUT_PTX, const_cast<char*>(ptx.c_str()), ptx.size() + 1, "a.ptx", 0, nullptr,
                        nullptr) == CUDA_SUCCESS);
  REQUIRE(cuLinkAddData(l2, CU_JIT_INPUT_PTX, const_cast<char*>(ptx.c_str()), ptx.size() + 1, "b.ptx", 0, nullptr,
                        nullptr) == CUDA_SUCCESS);
  CHECK(cuLinkComplete(l2, &image, &size) == CUDA_ERROR_NOT_SUPPORTED);
  const std::string err = cap.text();
  const std::string log = elog;
  for (const char* what : {"no inputs", "k.cubin: a cubin (SASS)", "k.o: host object", "k.fatbin: not a fatbin",
                           "bad.ptx:6:", "2 PTX inputs (a.ptx, b.ptx)", ".extern"}) {
    CHECK(err.find(what) != std::string::npos);
    CHECK(log.find(what) != std::string::npos);  // the error log accumulates
  }
  CHECK(cuLinkDestroy(l2) == CUDA_SUCCESS);

  // A fatbin container (fatbin.hpp's layout) with PTX for compute_80 and
  // SASS only for sm_90, and the PTX from a file: each links alone to the
  // kernel's PTX, which runs.
  std::vector<uint8_t> fat(16 + 2 * 0x40 + 16 + ptx.size() + 1, 0);
  auto put = [&](size_t at, uint64_t v, size_t n) { std::memcpy(&fat[at], &v, n); };
  put(0, 0xBA55ED50u, 4), put(4, 1, 2), put(6, 16, 2), put(8, fat.size() - 16, 8);
  put(16, 2, 2), put(20, 0x40, 4), put(24, 16, 8), put(32, 16, 4), put(16 + 0x1c, 90, 4), put(16 + 0x28, 1, 8);
  const size_t e2 = 16 + 0x40 + 16;
  put(e2, 1, 2), put(e2 + 4, 0x40, 4), put(e2 + 8, ptx.size() + 1, 8), put(e2 + 0x10, ptx.size() + 1, 4);
  put(e2 + 0x1c, 80, 4), put(e2 + 0x28, 1, 8);
  std::memcpy(&fat[e2 + 0x40], ptx.c_str(), ptx.size() + 1);
  char path[] = "/tmp/ptxcheck-link-XXXXXX";
  const int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  REQUIRE(write(fd, ptx.data(), ptx.size()) == static_cast<ssize_t>(ptx.size()));
  close(fd);
  for (int from_file = 0; from_file < 2; ++from_file) {
    CUlinkState l3 = nullptr;
    REQUIRE(cuLinkCreate(0, nullptr, nullptr, &l3) == CUDA_SUCCESS);
    if (from_file)
      REQUIRE(cuLinkAddFile(l3, CU_JIT_INPUT_PTX, path, 0, nullptr, nullptr) == CUDA_SUCCESS);
    else
      REQUIRE(cuLinkAddData(l3, CU_JIT_INPUT_FATBINARY, fat.data(), fat.size(), "k.fatbin", 0, nullptr, nullptr) ==
              CUDA_SUCCESS);
    REQUIRE(cuLinkComplete(l3, &image, &size) == CUDA_SUCCESS);
    CHECK(std::string(static_cast<const char*>(image)) == ptx);
    CUmodule m3 = nullptr;
    REQUIRE(cuModuleLoadData(&m3, image) == CUDA_SUCCESS);
    REQUIRE(launch(m3, out, 32) == CUDA_SUCCESS);
    check_out();
    CHECK(cuModuleUnload(m3) == CUDA_SUCCESS);
    CHECK(cuLinkDestroy(l3) == CUDA_SUCCESS);
  }
  unlink(path);
  // The container's size bounds what is read: one byte short, its entries overrun it.
  CUlinkState l4 = nullptr;
  REQUIRE(cuLinkCreate(0, nullptr, nullptr, &l4) == CUDA_SUCCESS);
  StderrCapture cap4;
  CHECK(cuLinkAddData(l4, CU_JIT_INPUT_FATBINARY, fat.data(), fat.size() - 1, "short.fatbin", 0, nullptr, nullptr) ==
        CUDA_ERROR_INVALID_IMAGE);
  CHECK(cap4.text().find("short.fatbin: fatbin container claims") != std::string::npos);
  CHECK(cuLinkDestroy(l4) == CUDA_SUCCESS);

  // cuGetProcAddress finds the linker.
  void* fn = nullptr;
  CHECK(cuGetProcAddress("cuLinkCreate", &fn, 13000, 0, nullptr) == CUDA_SUCCESS);
  CHECK(fn == reinterpret_cast<void*>(&cuLinkCreate_v2));
  CHECK(cuGetProcAddress("cuLinkComplete", &fn, 13000, 0, nullptr) == CUDA_SUCCESS);
  CHECK(fn == reinterpret_cast<void*>(&cuLinkComplete));
}
