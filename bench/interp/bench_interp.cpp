// Interpreter throughput: thread instructions per second on corpus kernels
// (nvcc-compiled PTX in corpus/ptx/sm_80) at bench sizes, and the same
// computation as native C++ in the same run. Prints both and the ratio, and
// checks that the interpreter's outputs equal the native ones bit for bit.
// Usage: bench_interp [--quick]   (PTXCHECK_SRC: source root)
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <unistd.h>
#include <vector>

#include "semantics/interp/run.hpp"

using namespace ptxcheck::interp;
namespace fs = std::filesystem;

namespace {

struct Bench {
  const char* name;
  std::string spec;                            // launch spec text ("ptx" filled in)
  const char* output;                          // buffer compared with native
  std::function<std::vector<uint8_t>()> native;  // the same computation in C++
};

// CPU time of this thread: the machine may be shared, and both sides run on
// one core, so CPU time is the fair measure.
double now() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

template <class T>
std::vector<uint8_t> bytes_of(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

// The launch-spec iota: start + i * step in double, rounded to f32.
std::vector<float> iota_f(size_t n, double s, double d) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(s + static_cast<double>(i) * d);
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = argc > 1 && std::string(argv[1]) == "--quick";
  const char* src = std::getenv("PTXCHECK_SRC");
  std::string ptx = std::string(src ? src : ".") + "/corpus/ptx/sm_80/";
  int N = quick ? 1 << 14 : 1 << 20;   // saxpy/vecadd elements
  int M = quick ? 32 : 128;            // matmul size
  int W = quick ? 64 : 512;            // stencil width/height
  int L = quick ? 1024 : 32768;        // loops threads

  std::vector<Bench> benches;
  benches.push_back({"saxpy",
                     "{\"ptx\": \"" + ptx + "saxpy.ptx\", \"kernel\": \"saxpy\", \"grid\": [" + std::to_string(N / 256) +
                         "], \"block\": [256], \"buffers\": {\"x\": {\"type\": \"f32\", \"count\": " + std::to_string(N) +
                         ", \"init\": {\"iota\": {\"start\": -50, \"step\": 0.25}}}, \"y\": {\"type\": \"f32\", \"count\": " +
                         std::to_string(N) + ", \"init\": {\"iota\": {\"start\": 3, \"step\": -0.125}}}}, \"args\": [{\"f32\": 1.7}, {\"buffer\": \"x\"}, {\"buffer\": \"y\"}, {\"s32\": " +
                         std::to_string(N) + "}], \"outputs\": [\"y\"]}",
                     "y", [&] {
                       auto x = iota_f(N, -50, 0.25), y = iota_f(N, 3, -0.125);
                       for (int i = 0; i < N; ++i) y[i] = __builtin_fmaf(1.7f, x[i], y[i]);
                       return bytes_of(y);
                     }});
  benches.push_back({"vecadd_f32",
                     "{\"ptx\": \"" + ptx + "vecadd.ptx\", \"kernel\": \"vecadd_f32\", \"grid\": [" + std::to_string(N / 256) +
                         "], \"block\": [256], \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": " + std::to_string(N) +
                         ", \"init\": {\"iota\": {\"start\": 0, \"step\": 0.5}}}, \"b\": {\"type\": \"f32\", \"count\": " + std::to_string(N) +
                         ", \"init\": {\"iota\": {\"start\": 1, \"step\": 0.25}}}, \"c\": {\"type\": \"f32\", \"count\": " + std::to_string(N) +
                         "}}, \"args\": [{\"buffer\": \"a\"}, {\"buffer\": \"b\"}, {\"buffer\": \"c\"}, {\"u32\": " + std::to_string(N) +
                         "}], \"outputs\": [\"c\"]}",
                     "c", [&] {
                       auto a = iota_f(N, 0, 0.5), b = iota_f(N, 1, 0.25);
                       std::vector<float> c(N);
                       for (int i = 0; i < N; ++i) c[i] = a[i] + b[i];
                       return bytes_of(c);
                     }});
  benches.push_back({"matmul_tiled",
                     "{\"ptx\": \"" + ptx + "matmul_tiled.ptx\", \"kernel\": \"matmul_tiled\", \"grid\": [" + std::to_string(M / 8) + ", " +
                         std::to_string(M / 8) + "], \"block\": [8, 8], \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": " +
                         std::to_string(M * M) + ", \"init\": {\"iota\": {\"start\": -1, \"step\": 0.001}}}, \"b\": {\"type\": \"f32\", \"count\": " +
                         std::to_string(M * M) + ", \"init\": {\"iota\": {\"start\": 2, \"step\": -0.0005}}}, \"c\": {\"type\": \"f32\", \"count\": " +
                         std::to_string(M * M) + "}}, \"args\": [{\"buffer\": \"a\"}, {\"buffer\": \"b\"}, {\"buffer\": \"c\"}, {\"s32\": " +
                         std::to_string(M) + "}], \"outputs\": [\"c\"]}",
                     "c", [&] {
                       auto a = iota_f(M * M, -1, 0.001), b = iota_f(M * M, 2, -0.0005);
                       std::vector<float> c(M * M);
                       for (int r = 0; r < M; ++r)
                         for (int col = 0; col < M; ++col) {
                           float acc = 0;
                           for (int k = 0; k < M; ++k) acc = __builtin_fmaf(a[r * M + k], b[k * M + col], acc);
                           c[r * M + col] = acc;
                         }
                       return bytes_of(c);
                     }});
  benches.push_back({"stencil2d",
                     "{\"ptx\": \"" + ptx + "stencil2d.ptx\", \"kernel\": \"stencil2d\", \"grid\": [" + std::to_string(W / 8) + ", " +
                         std::to_string(W / 8) + "], \"block\": [8, 8], \"buffers\": {\"in\": {\"type\": \"f32\", \"count\": " +
                         std::to_string(W * W) + ", \"init\": {\"iota\": {\"start\": 0, \"step\": 0.01}}}, \"out\": {\"type\": \"f32\", \"count\": " +
                         std::to_string(W * W) + "}}, \"args\": [{\"buffer\": \"in\"}, {\"buffer\": \"out\"}, {\"s32\": " + std::to_string(W) +
                         "}, {\"s32\": " + std::to_string(W) + "}], \"outputs\": [\"out\"]}",
                     "out", [&] {
                       auto in = iota_f(W * W, 0, 0.01);
                       std::vector<float> out(W * W);
                       for (int y = 0; y < W; ++y)
                         for (int x = 0; x < W; ++x) {
                           int xl = std::max(x - 1, 0), xr = std::min(x + 1, W - 1), yu = std::max(y - 1, 0), yd = std::min(y + 1, W - 1);
                           float c = in[y * W + x];
                           float s = in[y * W + xl] + in[y * W + xr] + in[yu * W + x] + in[yd * W + x];
                           out[y * W + x] = __builtin_fmaf(-4.0f, c, s);
                         }
                       return bytes_of(out);
                     }});
  benches.push_back({"loops",
                     "{\"ptx\": \"" + ptx + "loops.ptx\", \"kernel\": \"loops\", \"grid\": [" + std::to_string(L / 256) +
                         "], \"block\": [256], \"buffers\": {\"steps\": {\"type\": \"s32\", \"count\": " + std::to_string(L) +
                         "}, \"acc\": {\"type\": \"u32\", \"count\": " + std::to_string(L) +
                         "}}, \"args\": [{\"buffer\": \"steps\"}, {\"buffer\": \"acc\"}, {\"s32\": " + std::to_string(L) +
                         "}], \"outputs\": [\"acc\"]}",
                     "acc", [&] {
                       std::vector<unsigned> acc(L);
                       std::vector<int> steps(L);
                       for (int i = 0; i < L; ++i) {
                         unsigned x = static_cast<unsigned>(i) + 1u;
                         int s = 0;
                         while (x != 1u) {
                           x = (x & 1u) ? 3u * x + 1u : x >> 1;
                           ++s;
                         }
                         steps[i] = s;
                         unsigned a = 0, k = static_cast<unsigned>(i);
                         do {
                           a += k * k;
                           k >>= 1;
                         } while (k != 0);
                         for (int p = 0; p < 6; ++p) {
                           if (p == i % 5) continue;
                           for (int q = 0; q < 6; ++q) {
                             if (q > p) break;
                             a = a * 31u + static_cast<unsigned>(p * q);
                           }
                         }
                         acc[i] = a;
                       }
                       asm volatile("" : : "r"(steps.data()) : "memory");
                       return bytes_of(acc);
                     }});

  fs::path tmp = fs::temp_directory_path() / ("ptxcheck_bench_" + std::to_string(::getpid()));
  fs::create_directories(tmp);
  std::printf("%-14s %14s %10s %12s %12s %10s %8s  %s\n", "kernel", "thread-instr", "interp s", "Minstr/s",
              "(no races)", "native s", "ratio", "outputs");
  int bad = 0;
  for (auto& b : benches) {
    std::string path = (tmp / (std::string(b.name) + ".json")).string();
    std::ofstream(path) << b.spec;
    RunOptions opt;
    double t0 = now();
    RunReport r = run_spec_file(path, opt);
    double ti = now() - t0;
    RunOptions fast = opt;
    fast.check_races = false;
    t0 = now();
    RunReport r2 = run_spec_file(path, fast);
    double tf = now() - t0;
    t0 = now();
    std::vector<uint8_t> native;
    int reps = 0;
    do {  // repeat the native run to get a measurable time
      native = b.native();
      ++reps;
    } while (now() - t0 < 0.05);
    double tn = (now() - t0) / reps;
    int bi = r.spec.buffer_index(b.output);
    bool same = r.result.ok && bi >= 0 && r.result.buffers[static_cast<size_t>(bi)] == native;
    if (!same) ++bad;
    double ips = static_cast<double>(r.result.thread_instructions) / ti;
    double ips2 = static_cast<double>(r2.result.thread_instructions) / tf;
    std::printf("%-14s %14llu %10.3f %12.1f %12.1f %10.5f %8.0fx  %s\n", b.name,
                static_cast<unsigned long long>(r.result.thread_instructions), ti, ips / 1e6, ips2 / 1e6, tn, tf / tn,
                same ? "equal" : "DIFFER");
  }
  fs::remove_all(tmp);
  std::printf("times are thread CPU seconds (parse + lower + run for the interpreter); ratio = interpreter (no races) / native\n");
  return bad ? 1 : 0;
}
