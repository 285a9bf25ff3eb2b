// corpus-arch: sm_90
// Broken twin of bk9_group: thread 0 waits with cp.async.bulk.wait_group.read,
// which completes only the copy's reads of buf, not its writes of dst.
// Otherwise the same: a 1D bulk copy shared -> global, bulk async-group:
// thread 0 stages 10..13 in buf (fenced for the async proxy), copies them
// to dst with cp.async.bulk.global.shared::cta.bulk_group, commits and
// waits with cp.async.bulk.wait_group.read 0; after __syncthreads() thread 32
// reads two words of dst.
extern "C" __global__ void bk9_group_read(int* dst, int* out) {
  __shared__ alignas(16) int buf[4];
  if (threadIdx.x == 0) {
    for (int k = 0; k < 4; ++k) buf[k] = 10 + k;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 16;" ::"l"(dst),
                 "r"((unsigned)__cvta_generic_to_shared(buf))
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x == 32) {
    out[0] = ((volatile int*)dst)[0];
    out[1] = ((volatile int*)dst)[3];
  }
}
