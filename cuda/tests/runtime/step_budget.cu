// The step budget of ptxcheck exec (check_budget.py): it counts the thread
// instructions since a thread of the launch last exited. `long` runs one
// launch of many CTAs whose total is far above the budget the test gives
// (--max-steps 2000000) while each CTA stays far below it: the launch must
// run to its end. `hang` spins on a flag nothing sets: the budget must
// still stop it (CUDA_ERROR_LAUNCH_TIMEOUT for the program, exit 3 for exec).
#include <cstring>

#include "common.cuh"

static const char* kName = "step_budget";

__global__ void work(unsigned* out, int rounds) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < rounds; ++i) x = x * 1664525u + 1013904223u;
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

// The counter keeps the spin's state changing, so that the interpreter's
// spin detection (a cluster whose threads come back to a state they had)
// does not end it before the budget does.
__global__ void spin(volatile int* flag) {
  unsigned n = 0;
  while (*flag == 0) ++n;
  flag[1] = n;
}

int main(int argc, char** argv) {
  const bool hang = argc > 1 && std::strcmp(argv[1], "hang") == 0;
  if (hang) {
    int* flag;
    CHECK(cudaMalloc(&flag, 2 * sizeof(int)));
    CHECK(cudaMemset(flag, 0, 2 * sizeof(int)));
    spin<<<1, 32>>>(flag);
    cudaError_t e = cudaDeviceSynchronize();
    std::printf("%s: hang ended with %s\n", kName, cudaGetErrorName(e));
    return e == cudaErrorLaunchTimeout ? 0 : 1;
  }
  // 256 CTAs of 64 threads, 256 rounds: about 5.7M thread instructions in
  // all, 22k per CTA.
  const int ctas = 256, threads = 64, rounds = 256, n = ctas * threads;
  unsigned* d;
  CHECK(cudaMalloc(&d, n * sizeof(unsigned)));
  work<<<ctas, threads>>>(d, rounds);
  CHECK(cudaGetLastError());
  static unsigned h[ctas * threads];
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < n; ++i) {
    unsigned x = i;
    for (int r = 0; r < rounds; ++r) x = x * 1664525u + 1013904223u;
    ok = ok && h[i] == x;
  }
  CHECK(cudaFree(d));
  return finish(kName, ok);
}
