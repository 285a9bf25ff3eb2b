// A handoff between two warps of one CTA through __syncthreads(): thread 0
// writes, every thread of the CTA passes the barrier, the CTA's last thread
// (in another warp) reads.
extern "C" __global__ void bar_handoff(int* data, int* out)
{
    if (threadIdx.x == 0) *data = 42;
    __syncthreads();
    if (threadIdx.x == blockDim.x - 1) *out = *data;
}
