// __syncthreads_count / __syncthreads_and as handoffs in a 16x4 CTA: each
// thread writes its slot of a shared array; the count of threads whose
// linear id is a multiple of 3, then (second barrier) whether every slot
// it reads is nonzero; thread (15,3) combines slots written by others.
extern "C" __global__ void p9_sync_count(int* out) {
  __shared__ int s[64];
  int t = threadIdx.y * 16 + threadIdx.x;
  s[t] = (t * t) % 7 + 1;
  int n = __syncthreads_count(t % 3 == 0);
  int all = __syncthreads_and(s[(t + 1) % 64] > 0);
  if (t == 63) out[0] = n * 1000 + all * 100 + s[0] + s[5] + s[40];
}
