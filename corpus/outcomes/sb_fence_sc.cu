// Store buffering (Dekker) between two CTAs: each thread writes its volatile
// flag, executes __threadfence() (fence.sc.gpu), and reads the other flag.
extern "C" __global__ void sb_fence_sc(volatile int* x, volatile int* y, int* out)
{
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        *x = 1;
        __threadfence();
        out[0] = *y;
    } else {
        *y = 1;
        __threadfence();
        out[1] = *x;
    }
}
