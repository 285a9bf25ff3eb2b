// Arithmetic-heavy kernels for bench/interp (compiled with
// nvcc -arch=sm_80 -ptx -fmad=false so that every fma is explicit).
// nbody: all-pairs accelerations, 4 loads and ~20 float ops per pair.
extern "C" __global__ void nbody(const float4* pos, float4* acc, int n, float eps2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 pi = pos[i];
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int j = 0; j < n; ++j) {
    float4 pj = pos[j];
    float dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
    float d2 = __fmaf_rn(dx, dx, __fmaf_rn(dy, dy, __fmaf_rn(dz, dz, eps2)));
    float inv = 1.0f / sqrtf(d2);
    float s = pj.w * inv * inv * inv;
    ax = __fmaf_rn(dx, s, ax);
    ay = __fmaf_rn(dy, s, ay);
    az = __fmaf_rn(dz, s, az);
  }
  acc[i] = make_float4(ax, ay, az, 0.0f);
}

// horner: a degree-8 polynomial iterated `iters` times per element, and an
// integer hash mixed in: registers and immediates only, no memory in the loop.
extern "C" __global__ void horner(const float* x, float* y, unsigned* h, int n, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  unsigned k = static_cast<unsigned>(i) * 2654435761u;
  for (int it = 0; it < iters; ++it) {
    float p = 0.0078125f;
    p = __fmaf_rn(p, v, -0.015625f);
    p = __fmaf_rn(p, v, 0.03125f);
    p = __fmaf_rn(p, v, -0.0625f);
    p = __fmaf_rn(p, v, 0.125f);
    p = __fmaf_rn(p, v, -0.25f);
    p = __fmaf_rn(p, v, 0.5f);
    p = __fmaf_rn(p, v, -1.0f);
    p = __fmaf_rn(p, v, 0.75f);
    v = p;
    k ^= k >> 15;
    k *= 0x2c1b3c6du;
    k ^= k >> 12;
    k += static_cast<unsigned>(it);
  }
  y[i] = v;
  h[i] = k;
}
