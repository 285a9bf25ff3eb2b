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

#include "cuda/tests/stderr_capture.hpp"

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

using shimtest::StderrCapture;

// A fresh context, current on this thread, destroyed at scope exit.
struct Ctx {
  CUcontext c = nullptr;
  Ctx() {
    REQUIRE(cuInit(0) == CUDA_SUCCESS);
    REQUIRE(cuCtxCreate(&c, nullptr, 0, 0) == CUDA_SUCCESS);
  }
  ~Ctx() { cuCtxDestroy(c); }
};

const char* kHeader = ".version 8.0\n.target sm_80\n.address_size 64\n";

CUmodule load(const std::string& body) {
  CUmodule m = nullptr;
  std::string text = kHeader + body;
  REQUIRE(cuModuleLoadData(&m, text.c_str()) == CUDA_SUCCESS);
  return m;
}

// One-thread kernel `k(.u64 p)` with `body` as its code; %rd1 holds p.
std::string kernel(const std::string& body) {
  return ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n.reg .pred %p<4>;\n"
         "ld.param.u64 %rd1, [p];\ncvta.to.global.u64 %rd1, %rd1;\n" +
         body + "ret;\n}\n";
}

CUresult launch(CUmodule m, CUdeviceptr p, unsigned threads = 1) {
  CUfunction f;
  REQUIRE(cuModuleGetFunction(&f, m, "k") == CUDA_SUCCESS);
  void* args[] = {&p};
  return cuLaunchKernel(f, 1, 1, 1, threads, 1, 1, 0, nullptr, args, nullptr);
}

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
  // Pinned without DEVICEMAP: no device pointer from
  // cuMemHostGetDevicePointer (as documented), but kernels use the host
  // pointer all the same, and the memory is not device memory.
  void* unmapped = nullptr;
  REQUIRE(cuMemAllocHost(&unmapped, 1 << 20) == CUDA_SUCCESS);
  CHECK(cuMemGetInfo(&free1, &total) == CUDA_SUCCESS);
  CHECK(free1 == free0);
  CHECK(cuMemHostGetDevicePointer(&d, unmapped, 0) == CUDA_ERROR_INVALID_VALUE);
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
