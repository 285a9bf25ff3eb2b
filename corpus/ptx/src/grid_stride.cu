// Theme: grid-stride loop; each thread walks the array in steps of the whole grid.
extern "C" __global__ void scale_grid_stride(float* x, float s, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        x[i] = x[i] * s + 1.0f;
}
