// Textures and surfaces through the runtime API: texture objects over linear
// memory (tex1Dfetch) and CUDA arrays (tex2D with point and linear
// filtering, normalized coordinates, clamp/wrap/border addressing, 8-bit
// texels read as normalized floats, tex2Dgather), and a surface written and
// read back (surf2Dwrite/surf2Dread), and a mipmapped array
// (cudaMallocMipmappedArray, tex2DLod, tex2DGrad). The expected values are computed here
// from the CUDA C++ Programming Guide's texture-fetching formulas (linear
// filtering weights in 9-bit fixed point with 8 fractional bits).
#include <cmath>
#include <cstring>

#include "common.cuh"
static const char* kName = "textures";

constexpr int W = 8, H = 4;

__global__ void fetch1d(cudaTextureObject_t t, float* out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(t, i);
}

// out[k] = tex2D at (xs[k], ys[k]); gathers the .x components too.
__global__ void sample2d(cudaTextureObject_t t, const float* xs, const float* ys, float* out, int n) {
  int k = threadIdx.x;
  if (k < n) out[k] = tex2D<float>(t, xs[k], ys[k]);
}

__global__ void gather2d(cudaTextureObject_t t, float x, float y, float4* out) {
  *out = tex2Dgather<float4>(t, x, y, 0);
}

__global__ void rgba(cudaTextureObject_t t, float4* out) {
  int x = threadIdx.x, y = threadIdx.y;
  out[y * W + x] = tex2D<float4>(t, x + 0.5f, y + 0.5f);
}

__global__ void surf(cudaSurfaceObject_t s) {
  int x = threadIdx.x, y = threadIdx.y;
  int v;
  surf2Dread(&v, s, x * 4, y);
  surf2Dwrite(v * 10 + 1, s, x * 4, y);
}

// tex2DLod / tex2DGrad on a mipmapped texture: out[k] for (u, v) = (xs[k], ys[k]).
__global__ void sample_lod(cudaTextureObject_t t, const float* xs, const float* ys, float* out, int n) {
  int k = threadIdx.x;
  if (k < n) {
    out[k] = tex2DLod<float>(t, xs[k], ys[k], k * 0.375f - 0.5f);
    out[n + k] = tex2DGrad<float>(t, xs[k], ys[k], make_float2(k * 0.03125f, 0.0f), make_float2(0.0f, 0.0625f));
  }
}

static float texel(const float* img, int x, int y, cudaTextureAddressMode m) {
  if (m == cudaAddressModeWrap) {
    x = ((x % W) + W) % W;
    y = ((y % H) + H) % H;
  } else if (m == cudaAddressModeClamp) {
    x = x < 0 ? 0 : x >= W ? W - 1 : x;
    y = y < 0 ? 0 : y >= H ? H - 1 : y;
  } else if (x < 0 || x >= W || y < 0 || y >= H) {
    return 0.0f;  // border colour 0
  }
  return img[y * W + x];
}

// The guide's linear filter: xB = x - 0.5, i = floor(xB), a = frac(xB) in 1/256 steps.
static double linear2d(const float* img, float x, float y, cudaTextureAddressMode m) {
  double xb = x - 0.5, yb = y - 0.5;
  int i = (int)std::floor(xb), j = (int)std::floor(yb);
  double a = std::nearbyint((xb - i) * 256) / 256, b = std::nearbyint((yb - j) * 256) / 256;
  return (1 - a) * (1 - b) * texel(img, i, j, m) + a * (1 - b) * texel(img, i + 1, j, m) +
         (1 - a) * b * texel(img, i, j + 1, m) + a * b * texel(img, i + 1, j + 1, m);
}

static cudaTextureObject_t make_tex(cudaArray_t arr, cudaTextureFilterMode f, cudaTextureAddressMode m, bool norm,
                                    cudaTextureReadMode rm = cudaReadModeElementType) {
  cudaResourceDesc r;
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeArray;
  r.res.array.array = arr;
  cudaTextureDesc d;
  std::memset(&d, 0, sizeof d);
  d.addressMode[0] = d.addressMode[1] = m;
  d.filterMode = f;
  d.readMode = rm;
  d.normalizedCoords = norm;
  cudaTextureObject_t t = 0;
  CHECK(cudaCreateTextureObject(&t, &r, &d, nullptr));
  return t;
}

int main() {
  bool ok = true;
  char why[256] = "wrong results";
  auto fail = [&](const char* what, int k, double got, double want) {
    if (ok) std::snprintf(why, sizeof why, "%s[%d] = %.9g, expected %.9g", what, k, got, want);
    ok = false;
  };

  // 1. tex1Dfetch over linear memory.
  const int n = 64;
  float lin[n];
  for (int i = 0; i < n; ++i) lin[i] = i * 1.5f - 7;
  float *dlin, *dout;
  CHECK(cudaMalloc(&dlin, sizeof lin));
  CHECK(cudaMalloc(&dout, 64 * sizeof(float)));  // room for 2 * m results too
  CHECK(cudaMemcpy(dlin, lin, sizeof lin, cudaMemcpyHostToDevice));
  cudaResourceDesc lr;
  std::memset(&lr, 0, sizeof lr);
  lr.resType = cudaResourceTypeLinear;
  lr.res.linear.devPtr = dlin;
  lr.res.linear.desc = cudaCreateChannelDesc<float>();
  lr.res.linear.sizeInBytes = sizeof lin;
  cudaTextureDesc ld;
  std::memset(&ld, 0, sizeof ld);
  ld.readMode = cudaReadModeElementType;
  cudaTextureObject_t tl = 0;
  CHECK(cudaCreateTextureObject(&tl, &lr, &ld, nullptr));
  fetch1d<<<1, n>>>(tl, dout, n);
  CHECK(cudaGetLastError());
  float got[64];
  CHECK(cudaMemcpy(got, dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    if (got[i] != lin[i]) fail("tex1Dfetch", i, got[i], lin[i]);

  // 2. A W x H float array: point and linear sampling.
  float img[W * H];
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) img[y * W + x] = (float)(x * x + 10 * y) * 0.25f;
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  CHECK(cudaMallocArray(&arr, &fd, W, H));
  CHECK(cudaMemcpy2DToArray(arr, 0, 0, img, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
  const int m = 12;
  const float px[m] = {0.5f, 3.5f, 7.5f, -3.0f, 9.0f, 2.25f, 1.0f, 4.7f, 6.1f, 0.2f, 7.9f, 3.3f};
  const float py[m] = {0.5f, 2.5f, 3.5f, 1.5f, -2.0f, 1.75f, 1.0f, 2.2f, 0.6f, 3.9f, 0.1f, 5.0f};
  float *dx, *dy;
  CHECK(cudaMalloc(&dx, sizeof px));
  CHECK(cudaMalloc(&dy, sizeof py));
  CHECK(cudaMemcpy(dx, px, sizeof px, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, py, sizeof py, cudaMemcpyHostToDevice));
  struct Case {
    cudaTextureFilterMode f;
    cudaTextureAddressMode a;
    bool norm;
  } cases[] = {{cudaFilterModePoint, cudaAddressModeClamp, false},
               {cudaFilterModeLinear, cudaAddressModeClamp, false},
               {cudaFilterModeLinear, cudaAddressModeBorder, false},
               {cudaFilterModeLinear, cudaAddressModeWrap, true},
               {cudaFilterModePoint, cudaAddressModeWrap, true}};
  for (const Case& cs : cases) {
    cudaTextureObject_t t = make_tex(arr, cs.f, cs.a, cs.norm);
    float nx[m], ny[m];
    for (int k = 0; k < m; ++k) {
      nx[k] = cs.norm ? px[k] / W : px[k];
      ny[k] = cs.norm ? py[k] / H : py[k];
    }
    CHECK(cudaMemcpy(dx, nx, sizeof nx, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dy, ny, sizeof ny, cudaMemcpyHostToDevice));
    sample2d<<<1, m>>>(t, dx, dy, dout, m);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got, dout, m * sizeof(float), cudaMemcpyDeviceToHost));
    for (int k = 0; k < m; ++k) {
      float x = cs.norm ? nx[k] * W : nx[k], y = cs.norm ? ny[k] * H : ny[k];
      double want = cs.f == cudaFilterModePoint ? texel(img, (int)std::floor(x), (int)std::floor(y), cs.a)
                                                : linear2d(img, x, y, cs.a);
      if (std::fabs(got[k] - want) > 1e-5 * (1 + std::fabs(want))) fail("tex2D", k, got[k], want);
    }
    if (cs.f == cudaFilterModeLinear && cs.a == cudaAddressModeClamp) {
      // tex2Dgather: the .x of the 2x2 footprint, counter-clockwise from (i, j+1).
      float4* dg;
      CHECK(cudaMalloc(&dg, sizeof(float4)));
      gather2d<<<1, 1>>>(t, 3.7f, 1.2f, dg);
      float4 g;
      CHECK(cudaMemcpy(&g, dg, sizeof g, cudaMemcpyDeviceToHost));
      const float want[4] = {img[1 * W + 3], img[1 * W + 4], img[0 * W + 4], img[0 * W + 3]};
      const float have[4] = {g.x, g.y, g.z, g.w};
      for (int q = 0; q < 4; ++q)
        if (have[q] != want[q]) fail("tex2Dgather", q, have[q], want[q]);
      CHECK(cudaFree(dg));
    }
    CHECK(cudaDestroyTextureObject(t));
  }

  // 3. uchar4 texels read as normalized floats.
  uchar4 px8[W * H];
  for (int i = 0; i < W * H; ++i) px8[i] = make_uchar4(i * 7, 255 - i, i, 128);
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<uchar4>();
  cudaArray_t arr8;
  CHECK(cudaMallocArray(&arr8, &cd, W, H));
  CHECK(cudaMemcpy2DToArray(arr8, 0, 0, px8, W * 4, W * 4, H, cudaMemcpyHostToDevice));
  cudaTextureObject_t t8 =
      make_tex(arr8, cudaFilterModePoint, cudaAddressModeClamp, false, cudaReadModeNormalizedFloat);
  float4* d4;
  CHECK(cudaMalloc(&d4, W * H * sizeof(float4)));
  rgba<<<1, dim3(W, H)>>>(t8, d4);
  CHECK(cudaGetLastError());
  float4 g4[W * H];
  CHECK(cudaMemcpy(g4, d4, sizeof g4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < W * H; ++i) {
    const float want[4] = {px8[i].x / 255.0f, px8[i].y / 255.0f, px8[i].z / 255.0f, px8[i].w / 255.0f};
    const float have[4] = {g4[i].x, g4[i].y, g4[i].z, g4[i].w};
    for (int q = 0; q < 4; ++q)
      if (std::fabs(have[q] - want[q]) > 1e-6f) fail("uchar4 normalized", i * 4 + q, have[q], want[q]);
  }

  // 4. A surface: read, write v * 10 + 1, copy back.
  int sv[W * H];
  for (int i = 0; i < W * H; ++i) sv[i] = i - 5;
  cudaChannelFormatDesc id = cudaCreateChannelDesc<int>();
  cudaArray_t sarr;
  CHECK(cudaMallocArray(&sarr, &id, W, H, cudaArraySurfaceLoadStore));
  CHECK(cudaMemcpy2DToArray(sarr, 0, 0, sv, W * 4, W * 4, H, cudaMemcpyHostToDevice));
  cudaResourceDesc sr;
  std::memset(&sr, 0, sizeof sr);
  sr.resType = cudaResourceTypeArray;
  sr.res.array.array = sarr;
  cudaSurfaceObject_t so = 0;
  CHECK(cudaCreateSurfaceObject(&so, &sr));
  surf<<<1, dim3(W, H)>>>(so);
  CHECK(cudaGetLastError());
  int back[W * H];
  CHECK(cudaMemcpy2DFromArray(back, W * 4, sarr, 0, 0, W * 4, H, cudaMemcpyDeviceToHost));
  for (int i = 0; i < W * H; ++i)
    if (back[i] != sv[i] * 10 + 1) fail("surface", i, back[i], sv[i] * 10 + 1);

  // 5. A mipmapped array: 8 x 4, 4 levels (8x4, 4x2, 2x1, 1x1), texel (x, y)
  // of level l = 100 l + 8 y + x; point filtering within a level, linear
  // blending between levels (CUDA_TEXTURE_DESC::mipmapFilterMode). The LOD
  // of tex2DGrad is log2 of the longer gradient in texels of level 0 (our
  // reading, docs/interpreter.md); point selection within a level.
  {
    cudaMipmappedArray_t mip;
    CHECK(cudaMallocMipmappedArray(&mip, &fd, make_cudaExtent(W, H, 0), 4));
    int lw[4], lh[4];
    for (unsigned l = 0; l < 4; ++l) {
      lw[l] = W >> l > 0 ? W >> l : 1;
      lh[l] = H >> l > 0 ? H >> l : 1;
      float lv[W * H];
      for (int y = 0; y < lh[l]; ++y)
        for (int x = 0; x < lw[l]; ++x) lv[y * lw[l] + x] = 100.0f * l + 8 * y + x;
      cudaArray_t la;
      CHECK(cudaGetMipmappedArrayLevel(&la, mip, l));
      CHECK(cudaMemcpy2DToArray(la, 0, 0, lv, lw[l] * sizeof(float), lw[l] * sizeof(float), lh[l],
                                cudaMemcpyHostToDevice));
    }
    cudaResourceDesc mr;
    std::memset(&mr, 0, sizeof mr);
    mr.resType = cudaResourceTypeMipmappedArray;
    mr.res.mipmap.mipmap = mip;
    cudaTextureDesc md;
    std::memset(&md, 0, sizeof md);
    md.addressMode[0] = md.addressMode[1] = cudaAddressModeClamp;
    md.filterMode = cudaFilterModePoint;
    md.mipmapFilterMode = cudaFilterModeLinear;
    md.normalizedCoords = 1;
    md.maxMipmapLevelClamp = 3;
    md.readMode = cudaReadModeElementType;
    cudaTextureObject_t tm = 0;
    CHECK(cudaCreateTextureObject(&tm, &mr, &md, nullptr));
    float mu[m], mv[m];
    for (int k = 0; k < m; ++k) {
      mu[k] = (k % 8 + 0.25f) / W;
      mv[k] = (k / 8 + 0.5f) / H;
    }
    CHECK(cudaMemcpy(dx, mu, sizeof mu, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dy, mv, sizeof mv, cudaMemcpyHostToDevice));
    sample_lod<<<1, m>>>(tm, dx, dy, dout, m);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got, dout, 2 * m * sizeof(float), cudaMemcpyDeviceToHost));
    auto at = [&](int l, float u, float v) {
      int x = (int)std::floor(u * lw[l]), y = (int)std::floor(v * lh[l]);
      x = x < 0 ? 0 : x >= lw[l] ? lw[l] - 1 : x;
      y = y < 0 ? 0 : y >= lh[l] ? lh[l] - 1 : y;
      return 100.0 * l + 8 * y + x;
    };
    auto blend = [&](double lod, float u, float v) {
      lod = lod < 0 ? 0 : lod > 3 ? 3 : lod;
      int d1 = (int)std::floor(lod), d2 = d1 < 3 ? d1 + 1 : 3;
      double f = lod - d1;
      return (1 - f) * at(d1, u, v) + f * at(d2, u, v);
    };
    for (int k = 0; k < m; ++k) {
      double want = blend(k * 0.375 - 0.5, mu[k], mv[k]);
      if (std::fabs(got[k] - want) > 1e-4 * (1 + std::fabs(want))) fail("tex2DLod", k, got[k], want);
      double rho = std::fmax(k * 0.03125 * W, 0.0625 * H);
      double wg = blend(std::log2(rho), mu[k], mv[k]);
      if (std::fabs(got[m + k] - wg) > 1e-4 * (1 + std::fabs(wg))) fail("tex2DGrad", k, got[m + k], wg);
    }
    CHECK(cudaDestroyTextureObject(tm));
    CHECK(cudaFreeMipmappedArray(mip));
  }

  CHECK(cudaDestroySurfaceObject(so));
  // Handle 0 is never an object; destroying it succeeds, as on a GPU
  // (volumeFiltering destroys the unset surface object of a volume).
  CHECK(cudaDestroySurfaceObject(0));
  CHECK(cudaDestroyTextureObject(0));
  CHECK(cudaDestroyTextureObject(t8));
  CHECK(cudaDestroyTextureObject(tl));
  CHECK(cudaFreeArray(arr));
  CHECK(cudaFreeArray(arr8));
  CHECK(cudaFreeArray(sarr));
  return finish(kName, ok, why);
}
