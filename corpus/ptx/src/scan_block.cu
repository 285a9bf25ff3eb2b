// Theme: block-wide inclusive scan (Hillis-Steele) with a double buffer in
// shared memory, and a 64-bit exclusive variant.
#define N 128
extern "C" __global__ void scan_block(const int* in, int* out, long long* excl)
{
    __shared__ int buf[2][N];
    unsigned t = threadIdx.x;
    int cur = 0;
    buf[0][t] = in[blockIdx.x * N + t];
    __syncthreads();
    for (unsigned d = 1; d < N; d <<= 1) {
        int nxt = cur ^ 1;
        buf[nxt][t] = buf[cur][t] + (t >= d ? buf[cur][t - d] : 0);
        __syncthreads();
        cur = nxt;
    }
    out[blockIdx.x * N + t] = buf[cur][t];
    excl[blockIdx.x * N + t] = (long long)buf[cur][t] - in[blockIdx.x * N + t] - 10000000000ll;
}
