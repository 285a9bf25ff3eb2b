// The cuGetProcAddress table (procs.def) as addresses. This file sees no
// prototypes: each entry point is declared here only to take its address.
#include <cstddef>

namespace shim {
struct Proc {
  const char* name;
  int version;
  bool per_thread;
  void* fn;
};
}  // namespace shim

extern "C" {
#define SHIM_PROC(base, version, per_thread, symbol) __attribute__((visibility("default"))) void symbol();
#include "cuda/shim/procs.def"
#undef SHIM_PROC
}

namespace shim {
extern const Proc kProcs[] = {
#define SHIM_PROC(base, version, per_thread, symbol) {#base, version, per_thread != 0, reinterpret_cast<void*>(&symbol)},
#include "cuda/shim/procs.def"
#undef SHIM_PROC
};
extern const size_t kNumProcs = sizeof kProcs / sizeof kProcs[0];
}  // namespace shim
