// Device malloc/free (CUDA C++ Programming Guide, "Dynamic Global Memory
// Allocation and Operations"): each thread allocates, uses and frees a block;
// free(NULL) does nothing; thread 0 of each CTA allocates 1 MiB blocks from
// the 8 MiB default heap until malloc returns NULL, frees them, and allocates
// once more. nvcc -arch=sm_90 -ptx device_malloc.cu gives device_malloc.ptx.
extern "C" __global__ void device_malloc(unsigned long long* misalign, int* sums, int* chunks, int* again) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  int* p = static_cast<int*>(malloc(4 * sizeof(int)));
  misalign[t] = p ? reinterpret_cast<unsigned long long>(p) % 16 : 99;
  for (int i = 0; i < 4; ++i) p[i] = static_cast<int>(t) * 10 + i;
  int s = 0;
  for (int i = 0; i < 4; ++i) s += p[i];
  sums[t] = s;
  free(p);
  free(nullptr);
  __syncthreads();
  if (threadIdx.x == 0) {
    void* blocks[16];
    int n = 0;
    for (int i = 0; i < 16; ++i) {
      blocks[i] = malloc(1u << 20);
      if (blocks[i]) ++n;
    }
    for (int i = 0; i < 16; ++i) free(blocks[i]);
    chunks[blockIdx.x] = n;
    void* q = malloc(1u << 20);
    again[blockIdx.x] = q != nullptr;
    free(q);
  }
}
