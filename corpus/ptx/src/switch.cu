// Theme: a dense switch (compiled to a jump table, brx.idx, or a compare
// chain) and a sparse one.
extern "C" __global__ void switch_dense(const int* in, int* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = in[i], r;
    switch (v) {
    case 0: r = 11; break;
    case 1: r = v * 13 + 2; break;
    case 2: r = -5; break;
    case 3: r = i * i; break;
    case 4: r = 1 << i % 16; break;
    case 5: r = 77; /* fallthrough */
    case 6: r = v + 600; break;
    case 7: r = i ^ 0x55; break;
    default: r = -1; break;
    }
    switch (v * 1000) {
    case 0: r += 1; break;
    case 3000: r += 3; break;
    case 7000: r += 7; break;
    case 100000: r += 100; break;
    default: break;
    }
    out[i] = r;
}
