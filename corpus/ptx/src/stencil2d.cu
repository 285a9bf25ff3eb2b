// Theme: 2D grid of 2D blocks; a 5-point stencil on a W x H image with
// clamped borders.
extern "C" __global__ void stencil2d(const float* in, float* out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    int xl = max(x - 1, 0), xr = min(x + 1, w - 1);
    int yu = max(y - 1, 0), yd = min(y + 1, h - 1);
    float c = in[y * w + x];
    float s = in[y * w + xl] + in[y * w + xr] + in[yu * w + x] + in[yd * w + x];
    out[y * w + x] = s - 4.0f * c;
}
