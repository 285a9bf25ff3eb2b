// tex1D on CUDA arrays of one row: cudaMallocArray(w, 1) makes a 2D array
// ("the CUDA array is one-dimensional if height is 0, two-dimensional
// otherwise", cuArrayCreate), cudaMallocArray(w, 0) a 1D one. cuda-samples'
// volumeRender and volumeFiltering sample their 9x1 transfer function this
// way. A 1D fetch reads row 0 with the 1D rules of the CUDA C++ Programming
// Guide's "Texture Fetching" appendix: nearest-point T[floor(x)], linear
// (1 - a) T[i] + a T[i+1] with i = floor(x - 0.5), a = frac(x - 0.5) in
// 9-bit fixed point (8 fractional bits); clamp, border (colour 0) and, with
// normalized coordinates, wrap addressing on x only.
#include <cmath>
#include <cstring>

#include "common.cuh"
static const char* kName = "texture_one_row";

constexpr int W = 9;

__global__ void sample1d(cudaTextureObject_t t, const float* xs, float4* out, int n) {
  int k = threadIdx.x;
  if (k < n) out[k] = tex1D<float4>(t, xs[k]);
}

static float texel(const float* row, int x, cudaTextureAddressMode m) {
  if (m == cudaAddressModeWrap)
    x = ((x % W) + W) % W;
  else if (m == cudaAddressModeClamp)
    x = x < 0 ? 0 : x >= W ? W - 1 : x;
  else if (x < 0 || x >= W)
    return 0.0f;  // border colour 0
  return row[x];
}

static double linear1d(const float* row, float x, cudaTextureAddressMode m) {
  double xb = x - 0.5;
  int i = (int)std::floor(xb);
  double a = std::nearbyint((xb - i) * 256) / 256;
  return (1 - a) * texel(row, i, m) + a * texel(row, i + 1, m);
}

int main() {
  bool ok = true;
  char why[256] = "wrong results";
  auto fail = [&](const char* what, int k, double got, double want) {
    if (ok) std::snprintf(why, sizeof why, "%s[%d] = %.9g, expected %.9g", what, k, got, want);
    ok = false;
  };
  // float4 texels, as volumeRender's transfer function; channel c of texel
  // x is x * x + 3 c.
  float4 h[W];
  float chan[4][W];
  for (int x = 0; x < W; ++x) {
    for (int c = 0; c < 4; ++c) chan[c][x] = (float)(x * x + 3 * c);
    h[x] = make_float4(chan[0][x], chan[1][x], chan[2][x], chan[3][x]);
  }
  const int m = 10;
  const float px[m] = {0.5f, 4.5f, 8.5f, -2.0f, 11.0f, 2.25f, 1.0f, 4.7f, 0.2f, 8.9f};
  float* dx;
  float4* dout;
  CHECK(cudaMalloc(&dx, sizeof px));
  CHECK(cudaMalloc(&dout, m * sizeof(float4)));
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float4>();
  struct Case {
    cudaTextureFilterMode f;
    cudaTextureAddressMode a;
    bool norm;
  } cases[] = {{cudaFilterModePoint, cudaAddressModeClamp, false},
               {cudaFilterModeLinear, cudaAddressModeClamp, false},
               {cudaFilterModeLinear, cudaAddressModeBorder, false},
               {cudaFilterModeLinear, cudaAddressModeWrap, true},
               {cudaFilterModePoint, cudaAddressModeWrap, true}};
  for (int height : {1, 0}) {
    cudaArray_t arr;
    CHECK(cudaMallocArray(&arr, &fd, W, height));
    CHECK(cudaMemcpy2DToArray(arr, 0, 0, h, sizeof h, sizeof h, 1, cudaMemcpyHostToDevice));
    for (const Case& cs : cases) {
      cudaResourceDesc r;
      std::memset(&r, 0, sizeof r);
      r.resType = cudaResourceTypeArray;
      r.res.array.array = arr;
      cudaTextureDesc d;
      std::memset(&d, 0, sizeof d);
      d.addressMode[0] = d.addressMode[1] = cs.a;
      d.filterMode = cs.f;
      d.readMode = cudaReadModeElementType;
      d.normalizedCoords = cs.norm;
      cudaTextureObject_t t = 0;
      CHECK(cudaCreateTextureObject(&t, &r, &d, nullptr));
      float nx[m];
      for (int k = 0; k < m; ++k) nx[k] = cs.norm ? px[k] / W : px[k];
      CHECK(cudaMemcpy(dx, nx, sizeof nx, cudaMemcpyHostToDevice));
      sample1d<<<1, m>>>(t, dx, dout, m);
      CHECK(cudaGetLastError());
      float4 got[m];
      CHECK(cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost));
      for (int k = 0; k < m; ++k) {
        const float x = cs.norm ? nx[k] * W : nx[k];
        const float have[4] = {got[k].x, got[k].y, got[k].z, got[k].w};
        for (int c = 0; c < 4; ++c) {
          double want =
              cs.f == cudaFilterModePoint ? texel(chan[c], (int)std::floor(x), cs.a) : linear1d(chan[c], x, cs.a);
          if (std::fabs(have[c] - want) > 1e-5 * (1 + std::fabs(want)))
            fail(height ? "tex1D (height 1)" : "tex1D (height 0)", k * 4 + c, have[c], want);
        }
      }
      CHECK(cudaDestroyTextureObject(t));
    }
    CHECK(cudaFreeArray(arr));
  }
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dout));
  return finish(kName, ok, why);
}
