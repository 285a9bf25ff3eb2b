// PTX ISA 8.10.3 litmus 2 as CUDA: CTA 0 increments x with atomicAdd_block
// (atom.cta), CTA 1 with atomicAdd (atom.gpu). The .cta scope does not
// include CTA 1: the two are not morally strong and atomicity is lost.
extern "C" __global__ void h9_add_block_gpu(int* x) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0)
    atomicAdd_block(x, 1);
  else
    atomicAdd(x, 1);
}
