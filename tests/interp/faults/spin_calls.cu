// Spin-waits for the interpreter's spin detection through calls, .local
// stores, warp collectives and mbarrier polls (spin_calls_*.json;
// docs/interpreter.md "Spins without progress"), built three times:
// nvcc -ptx -arch=sm_90 -O3 (spin_calls_O3.ptx), -Xcicc -O0
// (spin_calls_O0.ptx) and -G (spin_calls_G.ptx). Thread 5 of CTA 0 waits for a flag that thread 0 of
// the last CTA sets (never, with one CTA: a livelock; a later CTA of a
// non-cooperative launch: reported at once).
#include <cuda/atomic>

// The poll is a cuda::atomic_ref load: at -O0 / -G a chain of calls, with
// the atomic_ref object and the call arguments on the stack (.local).
extern "C" __global__ void wait_ref(unsigned* flag, unsigned* out) {
  using R = cuda::atomic_ref<unsigned, cuda::thread_scope_device>;
  if (blockIdx.x + 1 == gridDim.x && blockIdx.x != 0 && threadIdx.x == 0) R(*flag).store(7, cuda::memory_order_release);
  if (blockIdx.x == 0 && threadIdx.x == 5) {
    unsigned v;
    do {
      v = R(*flag).load(cuda::memory_order_acquire);
    } while (v == 0);
    *out = v;
  }
}

// Warp 0 polls together and decides with a vote (__any_sync) in the loop.
extern "C" __global__ void wait_vote(volatile unsigned* flag, unsigned* out) {
  if (blockIdx.x + 1 == gridDim.x && blockIdx.x != 0 && threadIdx.x == 32) *flag = 7;
  if (blockIdx.x == 0 && threadIdx.x < 32) {
    while (!__any_sync(0xffffffffu, *flag != 0)) {}
    if (threadIdx.x == 0) *out = *flag;
  }
}

// An mbarrier that expects two arrivals and gets one: thread 0 waits for
// its phase with try_wait.parity (a livelock in every launch).
extern "C" __global__ void wait_mbar(unsigned* out) {
  __shared__ unsigned long long bar;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 2;" ::"r"((unsigned)__cvta_generic_to_shared(&bar)));
    asm volatile(
        "{ .reg .b64 st; mbarrier.arrive.shared::cta.b64 st, [%0]; }" ::"r"((unsigned)__cvta_generic_to_shared(&bar)));
    unsigned done = 0;
    while (!done) {
      asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                   : "=r"(done)
                   : "r"((unsigned)__cvta_generic_to_shared(&bar)));
    }
    *out = 1;
  }
}
