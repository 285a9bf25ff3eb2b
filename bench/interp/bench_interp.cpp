// Interpreter throughput: thread instructions per second on corpus kernels
// (nvcc-compiled PTX in corpus/ptx/sm_80) at bench sizes, and the same
// computation as native C++ in the same run. Prints both and the ratio, and
// checks that the interpreter's outputs equal the native ones bit for bit.
// Usage: bench_interp [--quick] [--no-races-only] [--best-of N] [KERNEL...]   (PTXCHECK_SRC: source root)
//   --best-of N runs each interpreter configuration N times and keeps the
//   fastest (a shared machine's load only ever adds time);
//   --no-races-only skips the run with race detection (for profiling);
//   KERNEL names restrict the run to those benchmarks.
#include <unistd.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "semantics/interp/run.hpp"

using namespace ptxcheck::interp;
namespace fs = std::filesystem;

namespace {

struct Bench {
  const char* name;
  std::string spec;                              // launch spec text ("ptx" filled in)
  const char* output;                            // buffer compared with native
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

namespace {
int bench_main(int argc, char** argv) {
  bool quick = false, races_too = true;
  int best_of = 1;
  std::vector<std::string> only;
  for (int a = 1; a < argc; ++a) {
    std::string s = argv[a];
    if (s == "--quick")
      quick = true;
    else if (s == "--no-races-only")
      races_too = false;
    else if (s == "--best-of" && a + 1 < argc)
      best_of = std::max(1, std::atoi(argv[++a]));
    else
      only.push_back(s);
  }
  // The source tree (PTXCHECK_SRC, else the current folder), made absolute:
  // the specs are written to a temporary folder, and a spec's relative
  // "ptx" path is read from the spec's folder.
  const char* src = std::getenv("PTXCHECK_SRC");
  std::string ptx = (fs::absolute(src ? src : ".").lexically_normal() / "corpus/ptx/sm_80/").string();
  std::string own = (fs::absolute(src ? src : ".").lexically_normal() / "bench/interp/").string();
  int NB = quick ? 128 : 1024;        // nbody bodies
  int HN = quick ? 1024 : 16384;      // horner elements
  int HI = 32;                        // horner iterations
  int N = quick ? 1 << 14 : 1 << 20;  // saxpy/vecadd elements
  int M = quick ? 32 : 128;           // matmul size
  int W = quick ? 64 : 512;           // stencil width/height
  int L = quick ? 1024 : 32768;       // loops threads

  std::vector<Bench> benches;
  benches.push_back(
      {"saxpy",
       "{\"ptx\": \"" + ptx + "saxpy.ptx\", \"kernel\": \"saxpy\", \"grid\": [" + std::to_string(N / 256) +
           "], \"block\": [256], \"buffers\": {\"x\": {\"type\": \"f32\", \"count\": " + std::to_string(N) +
           ", \"init\": {\"iota\": {\"start\": -50, \"step\": 0.25}}}, \"y\": {\"type\": \"f32\", \"count\": " +
           std::to_string(N) +
           ", \"init\": {\"iota\": {\"start\": 3, \"step\": -0.125}}}}, \"args\": [{\"f32\": 1.7}, {\"buffer\": "
           "\"x\"}, {\"buffer\": \"y\"}, {\"s32\": " +
           std::to_string(N) + "}], \"outputs\": [\"y\"]}",
       "y", [&] {
         auto x = iota_f(N, -50, 0.25), y = iota_f(N, 3, -0.125);
         for (int i = 0; i < N; ++i) y[i] = __builtin_fmaf(1.7f, x[i], y[i]);
         return bytes_of(y);
       }});
  benches.push_back(
      {"vecadd_f32",
       "{\"ptx\": \"" + ptx + "vecadd.ptx\", \"kernel\": \"vecadd_f32\", \"grid\": [" + std::to_string(N / 256) +
           "], \"block\": [256], \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": " + std::to_string(N) +
           ", \"init\": {\"iota\": {\"start\": 0, \"step\": 0.5}}}, \"b\": {\"type\": \"f32\", \"count\": " +
           std::to_string(N) +
           ", \"init\": {\"iota\": {\"start\": 1, \"step\": 0.25}}}, \"c\": {\"type\": \"f32\", \"count\": " +
           std::to_string(N) +
           "}}, \"args\": [{\"buffer\": \"a\"}, {\"buffer\": \"b\"}, {\"buffer\": \"c\"}, {\"u32\": " +
           std::to_string(N) + "}], \"outputs\": [\"c\"]}",
       "c", [&] {
         auto a = iota_f(N, 0, 0.5), b = iota_f(N, 1, 0.25);
         std::vector<float> c(N);
         for (int i = 0; i < N; ++i) c[i] = a[i] + b[i];
         return bytes_of(c);
       }});
  benches.push_back(
      {"matmul_tiled",
       "{\"ptx\": \"" + ptx + "matmul_tiled.ptx\", \"kernel\": \"matmul_tiled\", \"grid\": [" + std::to_string(M / 8) +
           ", " + std::to_string(M / 8) +
           "], \"block\": [8, 8], \"buffers\": {\"a\": {\"type\": \"f32\", \"count\": " + std::to_string(M * M) +
           ", \"init\": {\"iota\": {\"start\": -1, \"step\": 0.001}}}, \"b\": {\"type\": \"f32\", \"count\": " +
           std::to_string(M * M) +
           ", \"init\": {\"iota\": {\"start\": 2, \"step\": -0.0005}}}, \"c\": {\"type\": \"f32\", \"count\": " +
           std::to_string(M * M) +
           "}}, \"args\": [{\"buffer\": \"a\"}, {\"buffer\": \"b\"}, {\"buffer\": \"c\"}, {\"s32\": " +
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
  benches.push_back(
      {"stencil2d",
       "{\"ptx\": \"" + ptx + "stencil2d.ptx\", \"kernel\": \"stencil2d\", \"grid\": [" + std::to_string(W / 8) + ", " +
           std::to_string(W / 8) +
           "], \"block\": [8, 8], \"buffers\": {\"in\": {\"type\": \"f32\", \"count\": " + std::to_string(W * W) +
           ", \"init\": {\"iota\": {\"start\": 0, \"step\": 0.01}}}, \"out\": {\"type\": \"f32\", \"count\": " +
           std::to_string(W * W) + "}}, \"args\": [{\"buffer\": \"in\"}, {\"buffer\": \"out\"}, {\"s32\": " +
           std::to_string(W) + "}, {\"s32\": " + std::to_string(W) + "}], \"outputs\": [\"out\"]}",
       "out", [&] {
         auto in = iota_f(W * W, 0, 0.01);
         std::vector<float> out(W * W);
         for (int y = 0; y < W; ++y)
           for (int x = 0; x < W; ++x) {
             int xl = std::max(x - 1, 0), xr = std::min(x + 1, W - 1), yu = std::max(y - 1, 0),
                 yd = std::min(y + 1, W - 1);
             float c = in[y * W + x];
             float s = in[y * W + xl] + in[y * W + xr] + in[yu * W + x] + in[yd * W + x];
             out[y * W + x] = __builtin_fmaf(-4.0f, c, s);
           }
         return bytes_of(out);
       }});
  benches.push_back(
      {"loops",
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

  // Arithmetic-heavy kernels (bench/interp/arith_heavy.cu, nvcc -fmad=false).
  benches.push_back(
      {"nbody",
       "{\"ptx\": \"" + own + "arith_heavy.ptx\", \"kernel\": \"nbody\", \"grid\": [" + std::to_string(NB / 128) +
           "], \"block\": [128], \"buffers\": {\"pos\": {\"type\": \"f32\", \"count\": " + std::to_string(4 * NB) +
           ", \"init\": {\"iota\": {\"start\": 0.5, \"step\": 0.0078125}}}, \"acc\": {\"type\": \"f32\", \"count\": " +
           std::to_string(4 * NB) + "}}, \"args\": [{\"buffer\": \"pos\"}, {\"buffer\": \"acc\"}, {\"s32\": " +
           std::to_string(NB) + "}, {\"f32\": 0.01}], \"outputs\": [\"acc\"]}",
       "acc", [&] {
         auto p = iota_f(4 * static_cast<size_t>(NB), 0.5, 0.0078125);
         std::vector<float> acc(4 * static_cast<size_t>(NB));
         const float eps2 = 0.01f;
         for (int i = 0; i < NB; ++i) {
           const float* pi = &p[4 * i];
           float ax = 0, ay = 0, az = 0;
           for (int j = 0; j < NB; ++j) {
             const float* pj = &p[4 * j];
             float dx = pj[0] - pi[0], dy = pj[1] - pi[1], dz = pj[2] - pi[2];
             float d2 = __builtin_fmaf(dx, dx, __builtin_fmaf(dy, dy, __builtin_fmaf(dz, dz, eps2)));
             float inv = 1.0f / __builtin_sqrtf(d2);
             float s = pj[3] * inv * inv * inv;
             ax = __builtin_fmaf(dx, s, ax);
             ay = __builtin_fmaf(dy, s, ay);
             az = __builtin_fmaf(dz, s, az);
           }
           acc[4 * i] = ax;
           acc[4 * i + 1] = ay;
           acc[4 * i + 2] = az;
         }
         return bytes_of(acc);
       }});
  benches.push_back(
      {"horner",
       "{\"ptx\": \"" + own + "arith_heavy.ptx\", \"kernel\": \"horner\", \"grid\": [" + std::to_string(HN / 256) +
           "], \"block\": [256], \"buffers\": {\"x\": {\"type\": \"f32\", \"count\": " + std::to_string(HN) +
           ", \"init\": {\"iota\": {\"start\": -1, \"step\": 0.0001}}}, \"y\": {\"type\": \"f32\", \"count\": " +
           std::to_string(HN) + "}, \"h\": {\"type\": \"u32\", \"count\": " + std::to_string(HN) +
           "}}, \"args\": [{\"buffer\": \"x\"}, {\"buffer\": \"y\"}, {\"buffer\": \"h\"}, {\"s32\": " +
           std::to_string(HN) + "}, {\"s32\": " + std::to_string(HI) + "}], \"outputs\": [\"y\", \"h\"]}",
       "y", [&] {
         auto x = iota_f(HN, -1, 0.0001);
         std::vector<float> y(HN);
         std::vector<unsigned> h(HN);
         static const float c[8] = {-0.015625f, 0.03125f, -0.0625f, 0.125f, -0.25f, 0.5f, -1.0f, 0.75f};
         for (int i = 0; i < HN; ++i) {
           float v = x[i];
           unsigned k = static_cast<unsigned>(i) * 2654435761u;
           for (int it = 0; it < HI; ++it) {
             float p = 0.0078125f;
             for (float ck : c) p = __builtin_fmaf(p, v, ck);
             v = p;
             k ^= k >> 15;
             k *= 0x2c1b3c6du;
             k ^= k >> 12;
             k += static_cast<unsigned>(it);
           }
           y[i] = v;
           h[i] = k;
         }
         asm volatile("" : : "r"(h.data()) : "memory");
         return bytes_of(y);
       }});

  fs::path tmp = fs::temp_directory_path() / ("ptxcheck_bench_" + std::to_string(::getpid()));
  fs::create_directories(tmp);
  struct RemoveTmp {  // also when a run throws
    fs::path p;
    ~RemoveTmp() {
      std::error_code e;
      fs::remove_all(p, e);
    }
  } remove_tmp{tmp};
  std::printf("%-14s %14s %10s %12s %12s %10s %8s  %s\n", "kernel", "thread-instr", "interp s", "Minstr/s",
              "(no races)", "native s", "ratio", "outputs");
  int bad = 0;
  for (auto& b : benches) {
    if (!only.empty() && std::find(only.begin(), only.end(), b.name) == only.end()) continue;
    std::string path = (tmp / (std::string(b.name) + ".json")).string();
    std::ofstream(path) << b.spec;
    RunOptions opt;
    RunOptions fast = opt;
    fast.check_races = false;
    double t0 = 0;
    auto timed = [&](const RunOptions& o, double& best) {
      RunReport rep;
      best = 1e300;
      for (int k = 0; k < best_of; ++k) {
        t0 = now();
        rep = run_spec_file(path, o);
        best = std::min(best, now() - t0);
      }
      return rep;
    };
    double ti = 0, tf = 0;
    RunReport r = timed(races_too ? opt : fast, ti);
    RunReport r2 = r;
    tf = ti;
    if (races_too) r2 = timed(fast, tf);
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
  std::printf(
      "times are thread CPU seconds (parse + lower + run for the interpreter); ratio = interpreter (no races) / "
      "native\n");
  return bad ? 1 : 0;
}

}  // namespace

// A missing or unreadable input (the corpus PTX outside the source tree)
// is one line and exit 2, not an abort.
int main(int argc, char** argv) {
  try {
    return bench_main(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_interp: %s\n", e.what());
    return 2;
  }
}
