// Bench kernel for `ptxcheck outcomes` (bench/outcomes): three CTAs of one
// thread each hand a value over twice with __threadfence() and volatile
// flags: CTA 0 -> CTA 1 -> CTA 2; each adds its own term.
extern "C" __global__ void relay3_handoff(int* data, volatile int* flag, int* out)
{
    unsigned b = blockIdx.x;
    if (b == 0) {
        data[0] = 1;
        __threadfence();
        flag[0] = 1;
    } else if (b == 1) {
        while (flag[0] == 0) { }
        __threadfence();
        data[1] = data[0] + 10;
        __threadfence();
        flag[1] = 1;
    } else {
        while (flag[1] == 0) { }
        __threadfence();
        out[0] = data[1] + 100;
    }
}
