// A consumer CTA of 64 threads waits with __syncthreads_or(): in each round
// lane 0 of both warps reads a volatile flag, the others contribute 0; after
// the loop every thread runs __threadfence() and thread 32 reads the data.
// Producer: thread 0 of CTA 1 stores data, __threadfence(), volatile flag.
// Thread 32 may have read 0 in the last round (thread 0 read 1): Fence-SC
// order still orders the producer's fence before thread 32's. The loop holds
// a barrier (bar.red), so it is no pure spin. Compare j9_sync_or_poll_acq.
extern "C" __global__ void j9_sync_or_poll(int* data, int* flag, int* out) {
  if (blockIdx.x == 1) {
    if (threadIdx.x == 0) {
      *data = 42;
      __threadfence();
      *(volatile int*)flag = 1;
    }
    return;
  }
  int seen;
  do {
    seen = (threadIdx.x % 32 == 0) ? *(volatile int*)flag : 0;
  } while (!__syncthreads_or(seen));
  __threadfence();
  if (threadIdx.x == 32) out[0] = *data;
}
