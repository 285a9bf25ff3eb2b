// Shared by the runtime-API test programs: every CUDA call is checked, and
// each program ends with one line "NAME: PASS" or "NAME: FAIL (why)".
#pragma once
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                                   \
  do {                                                                                                \
    cudaError_t e_ = (call);                                                                          \
    if (e_ != cudaSuccess) {                                                                          \
      std::printf("%s: FAIL (%s:%d: %s: %s)\n", kName, __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                                   \
    }                                                                                                 \
  } while (0)

inline int finish(const char* name, bool ok, const char* why = "wrong results") {
  if (ok) std::printf("%s: PASS\n", name);
  else std::printf("%s: FAIL (%s)\n", name, why);
  return ok ? 0 : 1;
}
