// Two threads each add to one counter three times (a counted loop with two
// back jumps): with --unroll 1 the bound cuts every path, so `outcomes` has
// no answer and must end with exit 3, not list zero outcomes
// (tests/corpus/outcomes_limits.py). Built with
// nvcc -ptx -arch=sm_80 -O3 bound_cut_all.cu.
extern "C" __global__ void bound_cut_all(int* counter, int* out) {
  int s = 0;
#pragma unroll 1
  for (int i = 0; i < 3; i++) s += atomicAdd(counter, 1);
  out[threadIdx.x] = s;
}
