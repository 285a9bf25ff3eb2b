// Theme: loops: while with data-dependent trip counts (Collatz), do-while,
// nested loops with break/continue.
extern "C" __global__ void loops(int* steps, unsigned* acc, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = (unsigned)i + 1u;
    int s = 0;
    while (x != 1u) { x = (x & 1u) ? 3u * x + 1u : x >> 1; ++s; }
    steps[i] = s;
    unsigned a = 0, k = (unsigned)i;
    do { a += k * k; k >>= 1; } while (k != 0);
    for (int p = 0; p < 6; ++p) {
        if (p == i % 5) continue;
        for (int q = 0; q < 6; ++q) {
            if (q > p) break;
            a = a * 31u + (unsigned)(p * q);
        }
    }
    acc[i] = a;
}
