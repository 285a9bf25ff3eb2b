// lookback with volatile flags and no fences (broken twin): the flags are
// seen in order, the data they announce need not be.
extern "C" __global__ void lookback_volatile(int* in, int* agg, int* incl, volatile int* flag, int* out)
{
    int b = blockIdx.x;
    int v = in[b];
    if (b == 0) {
        incl[0] = v;
        flag[0] = 2;
        out[0] = v;
        return;
    }
    agg[b] = v;
    flag[b] = 1;
    int exclusive = 0;
    for (int p = b - 1;; --p) {
        int f;
        while ((f = flag[p]) == 0) { }
        if (f == 2) {
            exclusive += incl[p];
            break;
        }
        exclusive += agg[p];
    }
    incl[b] = exclusive + v;
    flag[b] = 2;
    out[b] = exclusive + v;
}
