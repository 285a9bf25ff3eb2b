// Theme: per-thread arrays indexed with run-time values, so they live in
// .local memory (ld.local / st.local, __local_depot).
extern "C" __global__ void local_sort(const int* in, const int* idx, int* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int buf[16];
    for (int k = 0; k < 16; ++k) buf[k] = in[(i * 5 + k * 3) % n];
    for (int k = 1; k < 16; ++k) {          // insertion sort
        int v = buf[k], j = k - 1;
        while (j >= 0 && buf[j] > v) { buf[j + 1] = buf[j]; --j; }
        buf[j + 1] = v;
    }
    out[2 * i] = buf[idx[i] & 15];
    out[2 * i + 1] = buf[0] + buf[15];
}
