// A relay over 3 CTAs of 33 threads (a partial second warp) with nvcc's
// __nv_atomic_* builtins: thread 32 of CTA 0 writes x and releases f[0]
// (device scope); thread 32 of CTA 1 waits for f[0], writes y = x + 1 and
// releases f[1]; thread 32 of CTA 2 acquires f[1] and reads x and y.
// Here: broken twin: CTA 1 polls f[0] with a relaxed load and no fence, so it does not synchronize with CTA 0; its
// release of f[1] passes on only what CTA 1 itself did.
extern "C" __global__ void e9_relay_nvatomic_relaxed(int* x, int* y, int* f, int* out) {
  if (threadIdx.x != 32) return;
  if (blockIdx.x == 0) {
    *x = 5;
    __nv_atomic_store_n(&f[0], 1, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_DEVICE);
  } else if (blockIdx.x == 1) {
    while (__nv_atomic_load_n(&f[0], __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE) == 0) {}
    *y = *x + 1;
    __nv_atomic_store_n(&f[1], 1, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_DEVICE);
  } else {
    while (__nv_atomic_load_n(&f[1], __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE) == 0) {}
    out[0] = *x;
    out[1] = *y;
  }
}
