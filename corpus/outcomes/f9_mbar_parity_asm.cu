// corpus-arch: sm_90
// Two items through one shared slot with two mbarriers of count 1 ("full",
// "empty") written in inline PTX, each wait a `{ W: try_wait.parity ...;
// @!p bra W; }` block: inlined three times, the label W is defined in three
// sibling blocks (ptxas scopes labels by block). Thread 33: slot = 21,
// arrive(full), wait(empty, parity 0), slot = 22, arrive(full). Thread 2:
// wait(full, 0), out[0] = slot, arrive(empty), wait(full, 1), out[1] = slot.
__device__ __forceinline__ unsigned sa(void* p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void arrive(unsigned long long* b) {
  asm volatile("{ .reg .b64 st; mbarrier.arrive.shared::cta.b64 st, [%0]; }" ::"r"(sa(b)) : "memory");
}
__device__ __forceinline__ void wait(unsigned long long* b, unsigned par) {
  asm volatile(
      "{ .reg .pred p; W: mbarrier.try_wait.parity.shared::cta.b64 p, "
      "[%0], %1; @!p bra W; }" ::"r"(sa(b)),
      "r"(par)
      : "memory");
}
extern "C" __global__ void f9_mbar_parity_asm(int* out) {
  __shared__ unsigned long long full, empty;
  __shared__ int slot;
  unsigned t = threadIdx.x;
  if (t == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sa(&full)) : "memory");
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sa(&empty)) : "memory");
    slot = -1;
  }
  __syncthreads();
  if (t == 33) {
    slot = 21;
    arrive(&full);
    wait(&empty, 0);
    slot = 22;
    arrive(&full);
  } else if (t == 2) {
    wait(&full, 0);
    out[0] = slot;
    arrive(&empty);
    wait(&full, 1);
    out[1] = slot;
  }
}
