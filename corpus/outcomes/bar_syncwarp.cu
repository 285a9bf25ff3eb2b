// bar_handoff with __syncwarp() in place of __syncthreads() (broken twin):
// a warp barrier does not order the accesses of another warp.
extern "C" __global__ void bar_syncwarp(int* data, int* out)
{
    if (threadIdx.x == 0) *data = 42;
    __syncwarp();
    if (threadIdx.x == blockDim.x - 1) *out = *data;
}
