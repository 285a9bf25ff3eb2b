// Kernel written as a new user would (nvcc -arch=sm_90 -ptx tex_spec.cu): texture
// and surface objects and a by-value struct from a launch spec (tex_spec.json);
// tex_spec_ref.py is its independent reference, whose output is tex_spec.expected.json.
#include <cuda_runtime.h>
struct Params {
  float scale;
  int n;
  float* out;
};
extern "C" __global__ void tex_spec(cudaTextureObject_t lin2d, cudaTextureObject_t fetch1d,
                                    cudaTextureObject_t u8wrap, cudaTextureObject_t layered,
                                    cudaSurfaceObject_t src, cudaSurfaceObject_t dst, Params p, float* res) {
  const int x = threadIdx.x, y = threadIdx.y, i = y * blockDim.x + x;
  float* r = res + i * 6;
  r[0] = tex2D<float>(lin2d, x * 0.75f + 0.3f, y * 0.6f - 0.2f);      // linear, clamp/border
  r[1] = tex1Dfetch<float>(fetch1d, (i * 7) % 24);                      // linear memory
  float4 c = tex2D<float4>(u8wrap, x * 0.1875f - 0.25f, y * 0.375f + 0.0625f);  // normalized, wrap/mirror
  r[2] = c.x + 2.0f * c.y + 4.0f * c.z + 8.0f * c.w;
  r[3] = tex1DLayered<float>(layered, x * 0.5f + 0.25f, y % 3);         // point, clamp
  r[4] = p.scale * static_cast<float>(p.n + i);
  int v = surf2Dread<int>(src, x * 4, y);
  surf2Dwrite(v * 3 + i, dst, x * 4, y);
  r[5] = static_cast<float>(v);
  p.out[i] = static_cast<float>(i) * p.scale;
}
