// A float4 + double message (st.v4.f32 / ld.v4.f32, 64-bit) from CTA 1 to
// CTA 0 through a volatile flag; the producer fences, the consumer does not.
struct Msg {
  float4 v;
  double d;
};
extern "C" __global__ void h9_v4_noacq(Msg* m, volatile int* flag, float4* outv, double* outd) {
  if (threadIdx.x != 0 || threadIdx.y != 0) return;
  if (blockIdx.x == 1) {
    m->v = make_float4(1.f, 2.f, 3.f, 4.f);
    m->d = 5.5;
    __threadfence();
    *flag = 1;
  } else {
    while (*flag == 0) {}
    *outv = m->v;
    *outd = m->d;
  }
}
