// Theme: selp / predicated execution / divergent branches that reconverge.
extern "C" __global__ void select_pred(const int* in, int* out, float* outf, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = in[i];
    int r = v > 0 ? v * 2 : -v + 7;                       // selp
    if (v & 1) {                                          // divergent
        if (v % 3 == 0) r += 100; else r -= 100;
    } else {
        for (int k = 0; k < (v & 7); ++k) r ^= k << 4;
    }
    out[i] = r;
    float f = (float)v;
    outf[i] = (v & 2) ? f * 0.5f : (f < -3.0f ? -f : f + 0.25f);
}
