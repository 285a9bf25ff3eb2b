// The broken twin of a CAS retry loop: thread 0 of CTA b adds b + 1 to *p
// with a plain load and store, so one update may be lost.
extern "C" __global__ void cas9_lost_cta(int* p) {
  if (threadIdx.x != 0) return;
  *p = *p + (int)blockIdx.x + 1;
}
