// Theme: surface objects: surf2Dread / surf2Dwrite (suld.b / sust.b with
// byte x-coordinates, .trap clamping) through cudaSurfaceObject_t params.
extern "C" __global__ void surf_copy(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float v = surf2Dread<float>(src, x * 4, y);
    surf2Dwrite(v * 2.0f, dst, x * 4, y);
    uchar4 p = surf2Dread<uchar4>(src, x * 4, y, cudaBoundaryModeClamp);
    surf2Dwrite(p, dst, (w - 1 - x) * 4, y, cudaBoundaryModeZero);
}
