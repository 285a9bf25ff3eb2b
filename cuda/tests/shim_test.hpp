// What the shim's Catch2 tests share (cuda/tests/test_*.cpp): a fresh
// context, small PTX modules with one-thread kernels, and a capture of the
// shim's one-line messages on stderr.
#pragma once

#include <cuda.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <string>

namespace shimtest {

// A fresh context, current on this thread, destroyed at scope exit.
struct Ctx {
  CUcontext c = nullptr;
  Ctx() {
    REQUIRE(cuInit(0) == CUDA_SUCCESS);
    REQUIRE(cuCtxCreate(&c, nullptr, 0, 0) == CUDA_SUCCESS);
  }
  ~Ctx() { cuCtxDestroy(c); }
};

inline const char* const kHeader = ".version 8.0\n.target sm_80\n.address_size 64\n";

// A module of `body` after kHeader (the load must succeed).
inline CUmodule load(const std::string& body) {
  CUmodule m = nullptr;
  std::string text = kHeader + body;
  REQUIRE(cuModuleLoadData(&m, text.c_str()) == CUDA_SUCCESS);
  return m;
}

// One-thread kernel `k(.u64 p)` with `body` as its code; %rd1 holds p.
inline std::string kernel(const std::string& body) {
  return ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n.reg .pred %p<4>;\n"
         "ld.param.u64 %rd1, [p];\ncvta.to.global.u64 %rd1, %rd1;\n" +
         body + "ret;\n}\n";
}

// Launches `k` of `m` with p and `threads` threads in one CTA.
inline CUresult launch(CUmodule m, CUdeviceptr p, unsigned threads = 1) {
  CUfunction f;
  REQUIRE(cuModuleGetFunction(&f, m, "k") == CUDA_SUCCESS);
  void* args[] = {&p};
  return cuLaunchKernel(f, 1, 1, 1, threads, 1, 1, 0, nullptr, args, nullptr);
}

// Captures what the shim writes to stderr while it is alive (the shim's
// tests check its one-line messages). text() restores stderr and echoes the
// captured text there, so it stays visible in the test log.
class StderrCapture {
 public:
  StderrCapture() {
    std::fflush(stderr);
    file_ = std::tmpfile();
    saved_ = dup(2);
    dup2(fileno(file_), 2);
  }
  std::string text() {
    std::fflush(stderr);
    dup2(saved_, 2);
    close(saved_);
    std::string out;
    std::rewind(file_);
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, file_)) > 0) out.append(buf, n);
    std::fclose(file_);
    std::fputs(out.c_str(), stderr);
    return out;
  }

 private:
  std::FILE* file_ = nullptr;
  int saved_ = -1;
};

}  // namespace shimtest
