// An ordinary CUDA driver-API host program (in the spirit of NVIDIA's
// vectorAddDrv sample): it loads PTX modules of corpus/ptx, runs six kernels
// and checks every result against the same computation on the host. It
// includes <cuda.h> and links -lcuda, nothing else, so the same source
// builds against cuda/include/cuda.h or a CUDA toolkit, and the binary runs on
// a GPU or, with LD_LIBRARY_PATH at ptxcheck's shim, on the interpreter.
//
// Usage: run_kernels PTX_DIR   (e.g. corpus/ptx/sm_80). Exit 0 when every
// result matches, 1 on a mismatch or a failed call.
#include <cuda.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

static int failures = 0;

static void check_cu(CUresult r, const char* call, int line) {
  if (r == CUDA_SUCCESS) return;
  const char* name = nullptr;
  const char* text = nullptr;
  cuGetErrorName(r, &name);
  cuGetErrorString(r, &text);
  std::fprintf(stderr, "run_kernels.cpp:%d: %s failed: %s (%s)\n", line, call, name ? name : "?", text ? text : "?");
  std::exit(1);
}
#define CU(call) check_cu((call), #call, __LINE__)

static void expect(bool ok, const std::string& what) {
  if (!ok) {
    std::fprintf(stderr, "MISMATCH: %s\n", what.c_str());
    ++failures;
  }
}

static std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    std::exit(1);
  }
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

static CUmodule load_ptx(const std::string& path) {
  std::string text = read_text(path);
  char log[4096] = "";
  CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* vals[] = {log, reinterpret_cast<void*>(static_cast<uintptr_t>(sizeof log))};
  CUmodule m = nullptr;
  CUresult r = cuModuleLoadDataEx(&m, text.c_str(), 2, opts, vals);
  if (r != CUDA_SUCCESS) std::fprintf(stderr, "%s: JIT log: %s\n", path.c_str(), log);
  CU(r);
  return m;
}

// y = a*x + y twice on the same buffers: device memory persists across launches.
static void run_saxpy(const std::string& dir) {
  CUmodule mod = load_ptx(dir + "/saxpy.ptx");
  CUfunction f;
  CU(cuModuleGetFunction(&f, mod, "saxpy"));
  const int n = 1000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = -50.0f + 0.25f * static_cast<float>(i);
    y[i] = std::sin(static_cast<float>(i)) * 100.0f;
  }
  CUdeviceptr dx, dy;
  CU(cuMemAlloc(&dx, n * sizeof(float)));
  CU(cuMemAlloc(&dy, n * sizeof(float)));
  CU(cuMemcpyHtoD(dx, x.data(), n * sizeof(float)));
  CU(cuMemcpyHtoD(dy, y.data(), n * sizeof(float)));
  float a = 1.7f;
  int nn = n;
  void* args[] = {&a, &dx, &dy, &nn};
  for (int rep = 0; rep < 2; ++rep) CU(cuLaunchKernel(f, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr));
  CU(cuCtxSynchronize());
  std::vector<float> out(n);
  CU(cuMemcpyDtoH(out.data(), dy, n * sizeof(float)));
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    float want = std::fma(a, x[i], std::fma(a, x[i], y[i]));  // nvcc contracts a*x+y to fma.rn.f32
    if (std::memcmp(&want, &out[i], sizeof want) != 0 && bad++ < 3)
      expect(false, "saxpy y[" + std::to_string(i) + "] = " + std::to_string(out[i]) + ", want " + std::to_string(want));
  }
  std::printf("saxpy: %d of %d elements match\n", n - bad, n);
  if (bad) ++failures;
  CU(cuMemFree(dx));
  CU(cuMemFree(dy));
  CU(cuModuleUnload(mod));
}

// vecadd_u32 with its parameters packed into one buffer (cuLaunchKernel `extra`).
static void run_vecadd_extra(const std::string& dir, CUstream stream) {
  CUmodule mod = load_ptx(dir + "/vecadd.ptx");
  CUfunction f;
  CU(cuModuleGetFunction(&f, mod, "vecadd_u32"));
  const unsigned n = 777;
  std::vector<unsigned> a(n), b(n), c(n);
  for (unsigned i = 0; i < n; ++i) {
    a[i] = 0xfffffff0u + i;  // wraps modulo 2^32
    b[i] = i * 2654435761u;
  }
  CUdeviceptr da, db, dc;
  CU(cuMemAlloc(&da, n * 4));
  CU(cuMemAlloc(&db, n * 4));
  CU(cuMemAlloc(&dc, n * 4));
  CU(cuMemcpyHtoDAsync(da, a.data(), n * 4, stream));
  CU(cuMemcpyHtoDAsync(db, b.data(), n * 4, stream));
  CU(cuMemsetD32(dc, 0xdeadbeefu, n));
  struct {
    CUdeviceptr a, b, c;
    unsigned n;
  } params = {da, db, dc, n};
  size_t size = sizeof params;
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &params, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
  CU(cuLaunchKernel(f, (n + 127) / 128, 1, 1, 128, 1, 1, 0, stream, nullptr, extra));
  CU(cuMemcpyDtoHAsync(c.data(), dc, n * 4, stream));
  CU(cuStreamSynchronize(stream));
  int bad = 0;
  for (unsigned i = 0; i < n; ++i)
    if (c[i] != a[i] + b[i] && bad++ < 3) expect(false, "vecadd_u32 c[" + std::to_string(i) + "]");
  std::printf("vecadd_u32 (extra): %d of %u elements match\n", static_cast<int>(n) - bad, n);
  if (bad) ++failures;
  CU(cuMemFree(da));
  CU(cuMemFree(db));
  CU(cuMemFree(dc));
  CU(cuModuleUnload(mod));
}

// Static shared memory and bar.sync (block_sum_i32), dynamic shared memory
// (reverse_block), and a device-to-device copy in between.
static void run_shared(const std::string& dir) {
  CUmodule red = load_ptx(dir + "/block_reduce.ptx");
  CUmodule dyn = load_ptx(dir + "/dyn_smem.ptx");
  CUfunction sum, rev;
  CU(cuModuleGetFunction(&sum, red, "block_sum_i32"));
  CU(cuModuleGetFunction(&rev, dyn, "reverse_block"));
  const int blocks = 8, bs = 128, n = blocks * bs;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 7919) % 2001 - 1000;
  CUdeviceptr din, dcopy, dout;
  CU(cuMemAlloc(&din, n * 4));
  CU(cuMemAlloc(&dcopy, n * 4));
  CU(cuMemAlloc(&dout, blocks * 4));
  CU(cuMemcpyHtoD(din, in.data(), n * 4));
  CU(cuMemcpyDtoD(dcopy, din, n * 4));
  void* sargs[] = {&din, &dout};
  CU(cuLaunchKernel(sum, blocks, 1, 1, bs, 1, 1, 0, nullptr, sargs, nullptr));
  void* rargs[] = {&dcopy};
  CU(cuLaunchKernel(rev, blocks, 1, 1, bs, 1, 1, bs * sizeof(int), nullptr, rargs, nullptr));
  std::vector<int> sums(blocks), reversed(n);
  CU(cuMemcpyDtoH(sums.data(), dout, blocks * 4));
  CU(cuMemcpyDtoH(reversed.data(), dcopy, n * 4));
  int bad = 0;
  for (int b = 0; b < blocks; ++b) {
    int want = 0;
    for (int t = 0; t < bs; ++t) want += in[b * bs + t];
    if (sums[b] != want) expect(false, "block_sum_i32 out[" + std::to_string(b) + "]"), ++bad;
    for (int t = 0; t < bs; ++t)
      if (reversed[b * bs + t] != in[b * bs + bs - 1 - t]) ++bad;
  }
  expect(bad == 0, "reverse_block");
  std::printf("block_sum_i32 + reverse_block: %s\n", bad ? "MISMATCH" : "match");
  CU(cuMemFree(din));
  CU(cuMemFree(dcopy));
  CU(cuMemFree(dout));
  CU(cuModuleUnload(red));
  CU(cuModuleUnload(dyn));
}

// Device printf, and a module .global variable read back by name.
static void run_printf(const std::string& dir) {
  CUmodule mod = load_ptx(dir + "/printf.ptx");
  CUfunction f;
  CU(cuModuleGetFunction(&f, mod, "hello"));
  CUdeviceptr fmt;
  size_t fmt_size = 0;
  CU(cuModuleGetGlobal(&fmt, &fmt_size, mod, "$str"));
  std::vector<char> text(fmt_size + 1, '\0');
  CU(cuMemcpyDtoH(text.data(), fmt, fmt_size));
  expect(std::string(text.data()) == "thread %d block %d x=%f\n", "module global $str");
  const int n = 4;
  float x[n] = {0.5f, 1.5f, -2.0f, 3.25f};
  CUdeviceptr dx, dout;
  CU(cuMemAlloc(&dx, sizeof x));
  CU(cuMemAlloc(&dout, n * sizeof(int)));
  CU(cuMemcpyHtoD(dx, x, sizeof x));
  void* args[] = {&dx, &dout};
  std::fflush(stdout);
  CU(cuLaunchKernel(f, 1, 1, 1, n, 1, 1, 0, nullptr, args, nullptr));
  CU(cuCtxSynchronize());
  std::fflush(stdout);
  int out[n];
  CU(cuMemcpyDtoH(out, dout, sizeof out));
  for (int i = 0; i < n; ++i) expect(out[i] == 2 * i, "hello out[" + std::to_string(i) + "]");
  CU(cuMemFree(dx));
  CU(cuMemFree(dout));
  CU(cuModuleUnload(mod));
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s PTX_DIR\n", argv[0]);
    return 2;
  }
  std::string dir = argv[1];
  CU(cuInit(0));
  int version = 0, count = 0;
  CU(cuDriverGetVersion(&version));
  CU(cuDeviceGetCount(&count));
  if (count < 1) {
    std::fprintf(stderr, "no CUDA device\n");
    return 1;
  }
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  char name[128];
  int major = 0, minor = 0, warp = 0, sms = 0;
  size_t mem = 0;
  CU(cuDeviceGetName(name, sizeof name, dev));
  CU(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
  CU(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
  CU(cuDeviceGetAttribute(&warp, CU_DEVICE_ATTRIBUTE_WARP_SIZE, dev));
  CU(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
  CU(cuDeviceTotalMem(&mem, dev));
  std::printf("device: %s, compute capability %d.%d, warp %d, %d SMs, %zu MiB, driver %d\n", name, major, minor, warp,
              sms, mem >> 20, version);
  expect(warp == 32, "warp size");
  CUcontext ctx;
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));
  CUstream stream;
  CUevent start, stop;
  CU(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CU(cuEventCreate(&start, CU_EVENT_DEFAULT));
  CU(cuEventCreate(&stop, CU_EVENT_DEFAULT));
  CU(cuEventRecord(start, stream));

  run_saxpy(dir);
  run_vecadd_extra(dir, stream);
  run_shared(dir);
  run_printf(dir);

  CU(cuEventRecord(stop, stream));
  CU(cuEventSynchronize(stop));
  float ms = -1;
  CU(cuEventElapsedTime(&ms, start, stop));
  expect(ms >= 0, "event elapsed time");
  CU(cuEventDestroy(start));
  CU(cuEventDestroy(stop));
  CU(cuStreamDestroy(stream));
  CU(cuDevicePrimaryCtxRelease(dev));
  std::printf("%s (%d mismatches)\n", failures ? "FAILED" : "all kernels match", failures);
  return failures ? 1 : 0;
}
