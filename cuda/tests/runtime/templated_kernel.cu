// One kernel template instantiated for int, float and double (mangled
// names are distinct kernels in the module).
#include "common.cuh"
static const char* kName = "templated_kernel";

template <typename T>
__global__ void axpy(T a, const T* x, T* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

template <typename T>
bool check(T a) {
  const int n = 300;
  T hx[n], hy[n], r[n];
  for (int i = 0; i < n; ++i) hx[i] = T(i), hy[i] = T(2 * i + 1);
  T *x, *y;
  CHECK(cudaMalloc(&x, sizeof hx));
  CHECK(cudaMalloc(&y, sizeof hy));
  CHECK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice));
  axpy<T><<<(n + 127) / 128, 128>>>(a, x, y, n);
  CHECK(cudaMemcpy(r, y, sizeof r, cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < n; ++i) ok &= r[i] == a * hx[i] + hy[i];  // exact: small integers
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  return ok;
}

int main() { return finish(kName, check<int>(3) && check<float>(0.5f) && check<double>(-2.0)); }
