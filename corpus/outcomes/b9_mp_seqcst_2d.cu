// Message passing on a 2D grid of 2x2 CTAs of 4x2 threads with a struct
// payload: thread (3,1) of CTA (1,1) fills {int a; short b; long long c},
// then stores the flag with cuda::atomic_ref<int, device> seq_cst; thread
// (0,0) of CTA (0,0) spins on a seq_cst load and copies the struct.
#include <cuda/atomic>
struct Msg {
  int a;
  short b;
  long long c;
};
extern "C" __global__ void b9_mp_seqcst_2d(Msg* m, int* flag, long long* out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
  bool prod = blockIdx.x == 1 && blockIdx.y == 1 && threadIdx.x == 3 && threadIdx.y == 1;
  bool cons = blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x == 0 && threadIdx.y == 0;
  if (prod) {
    m->a = 7;
    m->b = -3;
    m->c = 1LL << 40;
    f.store(1, cuda::memory_order_seq_cst);
  }
  if (cons) {
    while (f.load(cuda::memory_order_seq_cst) == 0) {}
    out[0] = m->a;
    out[1] = m->b;
    out[2] = m->c;
  }
}
