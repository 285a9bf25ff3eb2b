// probe9k's k30: a handoff written with the cache-operator intrinsics: CTA 1
// stores the data with __stcg (st.global.cg, a weak store), __threadfence(),
// atomicExch(flag, 1); CTA 0 polls the flag with __ldcv (ld.global.cv: a
// cache operator, not .volatile, so a weak load), __threadfence(), and reads
// the data with __ldcv.
extern "C" __global__ void q9_ldcv_poll(int* data, int* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 1) {
    __stcg(data, 21);
    __threadfence();
    atomicExch(flag, 1);
  } else {
    while (__ldcv(flag) == 0) {}
    __threadfence();
    out[0] = __ldcv(data);
  }
}
