// Theme: 3D grids and blocks: every special register %tid/%ntid/%ctaid/%nctaid
// in x, y and z, plus %laneid and %warpid-free linearisation.
extern "C" __global__ void grid3d(unsigned* out)
{
    unsigned bx = blockIdx.x, by = blockIdx.y, bz = blockIdx.z;
    unsigned tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
    unsigned block = (bz * gridDim.y + by) * gridDim.x + bx;
    unsigned local = (tz * blockDim.y + ty) * blockDim.x + tx;
    unsigned nthreads = blockDim.x * blockDim.y * blockDim.z;
    unsigned g = block * nthreads + local;
    out[2 * g] = (bx << 24) | (by << 20) | (bz << 16) | (tx << 8) | (ty << 4) | tz;
    out[2 * g + 1] = (gridDim.x << 24) | (gridDim.y << 16) | (gridDim.z << 8) | (local & 31);
}
