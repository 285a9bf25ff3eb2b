// cudaMemcpy of every kind (host/device/default), pitched 2D and 3D copies,
// cudaMemset2D/3D, and a kernel over pitched memory.
#include "common.cuh"
static const char* kName = "memcpy_kinds";

__global__ void bump(char* p, size_t pitch, int w, int h) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x < w && y < h) p[y * pitch + x] += 1;
}

int main() {
  bool ok = true;
  const int n = 256;
  int h1[n], h2[n];
  for (int i = 0; i < n; ++i) h1[i] = i * i;
  int *d1, *d2;
  CHECK(cudaMalloc(&d1, sizeof h1));
  CHECK(cudaMalloc(&d2, sizeof h1));
  CHECK(cudaMemcpy(d1, h1, sizeof h1, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d2, d1, sizeof h1, cudaMemcpyDeviceToDevice));
  CHECK(cudaMemcpy(h2, d2, sizeof h2, cudaMemcpyDefault));
  for (int i = 0; i < n; ++i) ok &= h2[i] == i * i;
  int h3[n];
  CHECK(cudaMemcpy(h3, h2, sizeof h3, cudaMemcpyHostToHost));
  ok &= h3[n - 1] == h1[n - 1];

  // 2D: a 37 x 20 byte image in pitched memory.
  const int w = 37, hgt = 20;
  char* img;
  size_t pitch = 0;
  CHECK(cudaMallocPitch(&img, &pitch, w, hgt));
  ok &= pitch >= (size_t)w;
  CHECK(cudaMemset2D(img, pitch, 5, w, hgt));
  bump<<<hgt, 64>>>(img, pitch, w, hgt);
  char host[hgt][w];
  CHECK(cudaMemcpy2D(host, w, img, pitch, w, hgt, cudaMemcpyDeviceToHost));
  for (int y = 0; y < hgt; ++y)
    for (int x = 0; x < w; ++x) ok &= host[y][x] == 6;
  host[3][4] = 99;
  CHECK(cudaMemcpy2D(img, pitch, host, w, w, hgt, cudaMemcpyHostToDevice));
  char back = 0;
  CHECK(cudaMemcpy(&back, img + 3 * pitch + 4, 1, cudaMemcpyDeviceToHost));
  ok &= back == 99;

  // 3D: a 16 x 8 x 4 int volume.
  cudaExtent ext = make_cudaExtent(16 * sizeof(int), 8, 4);
  cudaPitchedPtr vol;
  CHECK(cudaMalloc3D(&vol, ext));
  CHECK(cudaMemset3D(vol, 0, ext));
  int hv[4][8][16];
  for (int z = 0; z < 4; ++z)
    for (int y = 0; y < 8; ++y)
      for (int x = 0; x < 16; ++x) hv[z][y][x] = z * 1000 + y * 100 + x;
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(hv, 16 * sizeof(int), 16, 8);
  p.dstPtr = vol;
  p.extent = ext;
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p));
  int rv[4][8][16] = {};
  cudaMemcpy3DParms q = {};
  q.srcPtr = vol;
  q.dstPtr = make_cudaPitchedPtr(rv, 16 * sizeof(int), 16, 8);
  q.extent = ext;
  q.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3D(&q));
  for (int z = 0; z < 4; ++z)
    for (int y = 0; y < 8; ++y)
      for (int x = 0; x < 16; ++x) ok &= rv[z][y][x] == hv[z][y][x];
  return finish(kName, ok);
}
