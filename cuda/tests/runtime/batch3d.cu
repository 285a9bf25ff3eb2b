// cudaMemcpy3DBatchAsync (CUDA 12.8; cuMemcpy3DBatchAsync_v2 in CUDA 13):
// a pitched host box to packed device memory and back, through a kernel;
// host memory into a CUDA array at an element offset and the whole array
// back; the documented refusals (legacy NULL stream, a zero extent, a row
// length below the width) are cudaErrorInvalidValue. Then CUDA 13's
// cudaMemPrefetchBatchAsync, cudaMemDiscardBatchAsync and
// cudaMemDiscardAndPrefetchBatchAsync on managed memory, and their
// refusals (memory that is not managed, prefetchLocIdxs not starting at 0).
#include "common.cuh"
static const char* kName = "batch3d";

__global__ void add100(int* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += 100;
}

static cudaMemcpy3DOperand ptr_op(void* p, size_t row, size_t layer) {
  cudaMemcpy3DOperand o = {};
  o.type = cudaMemcpyOperandTypePointer;
  o.op.ptr.ptr = p;
  o.op.ptr.rowLength = row;
  o.op.ptr.layerHeight = layer;
  return o;
}

static cudaMemcpy3DOperand array_op(cudaArray_t a, size_t x, size_t y) {
  cudaMemcpy3DOperand o = {};
  o.type = cudaMemcpyOperandTypeArray;
  o.op.array.array = a;
  o.op.array.offset = {x, y, 0};
  return o;
}

static cudaMemcpy3DBatchOp batch_op(cudaMemcpy3DOperand src, cudaMemcpy3DOperand dst, size_t w, size_t h, size_t d) {
  cudaMemcpy3DBatchOp op = {};
  op.src = src;
  op.dst = dst;
  op.extent = make_cudaExtent(w, h, d);
  op.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
  return op;
}

int main() {
  bool ok = true;
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  // Host volume of 4 layers x 6 rows x 8 ints; the box of 5 ints x 3 rows x
  // 2 layers at (1, 2, 1) to packed device memory, +100 there, and back into
  // a packed host buffer. Between pointers the element is a byte.
  static int vol[4][6][8], back[2][3][5];
  for (int z = 0; z < 4; ++z)
    for (int y = 0; y < 6; ++y)
      for (int x = 0; x < 8; ++x) vol[z][y][x] = z * 1000 + y * 10 + x;
  int* d = nullptr;
  CHECK(cudaMalloc(&d, sizeof back));
  cudaMemcpy3DBatchOp up = batch_op(ptr_op(&vol[1][2][1], 8 * sizeof(int), 6), ptr_op(d, 0, 0), 5 * sizeof(int), 3, 2);
  CHECK(cudaMemcpy3DBatchAsync(1, &up, 0, s));
  add100<<<1, 30, 0, s>>>(d, 30);
  cudaMemcpy3DBatchOp down = batch_op(ptr_op(d, 0, 0), ptr_op(back, 0, 0), 5 * sizeof(int), 3, 2);
  CHECK(cudaMemcpy3DBatchAsync(1, &down, 0, s));
  CHECK(cudaStreamSynchronize(s));
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 5; ++x) ok &= back[z][y][x] == vol[z + 1][y + 2][x + 1] + 100;

  // A 16 x 4 float array: filled whole, then a box of 8 x 2 elements at
  // (2, 1) from a host pointer (the element is the array's 4 bytes), then
  // read back whole, both in one batch of two copies.
  cudaChannelFormatDesc f32 = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  CHECK(cudaMallocArray(&arr, &f32, 16, 4));
  static float fill[4][16], box[2][8], whole[4][16];
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 16; ++x) fill[y][x] = -1.0f - x - 16 * y;
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 8; ++x) box[y][x] = 0.5f + x + 10 * y;
  cudaMemcpy3DBatchOp to_array[2] = {batch_op(ptr_op(fill, 0, 0), array_op(arr, 0, 0), 16, 4, 1),
                                     batch_op(ptr_op(box, 0, 0), array_op(arr, 2, 1), 8, 2, 1)};
  CHECK(cudaMemcpy3DBatchAsync(1, &to_array[0], 0, s));
  CHECK(cudaMemcpy3DBatchAsync(1, &to_array[1], 0, s));
  cudaMemcpy3DBatchOp from_array = batch_op(array_op(arr, 0, 0), ptr_op(whole, 0, 0), 16, 4, 1);
  CHECK(cudaMemcpy3DBatchAsync(1, &from_array, 0, s));
  CHECK(cudaStreamSynchronize(s));
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 16; ++x) {
      bool in = y >= 1 && y < 3 && x >= 2 && x < 10;
      ok &= whole[y][x] == (in ? box[y - 1][x - 2] : fill[y][x]);
    }

  cudaError_t legacy = cudaMemcpy3DBatchAsync(1, &up, 0, cudaStreamLegacy);
  cudaMemcpy3DBatchOp empty = batch_op(ptr_op(vol, 0, 0), ptr_op(d, 0, 0), 0, 1, 1);
  cudaError_t zero = cudaMemcpy3DBatchAsync(1, &empty, 0, s);
  cudaMemcpy3DBatchOp narrow = batch_op(ptr_op(vol, 4, 0), ptr_op(d, 0, 0), 8, 1, 1);
  cudaError_t row = cudaMemcpy3DBatchAsync(1, &narrow, 0, s);
  if (legacy != cudaErrorInvalidValue || zero != cudaErrorInvalidValue || row != cudaErrorInvalidValue) {
    std::printf("copy refusals: %s %s %s\n", cudaGetErrorName(legacy), cudaGetErrorName(zero), cudaGetErrorName(row));
    ok = false;
  }
  (void)cudaGetLastError();

  // Managed memory: prefetched to the device and the host, discarded, and
  // discarded and prefetched; the kernel and the host see one array.
  int* m = nullptr;
  CHECK(cudaMallocManaged(&m, 64 * sizeof(int)));
  for (int i = 0; i < 64; ++i) m[i] = i;
  void* ranges[2] = {m, m + 32};
  size_t sizes[2] = {32 * sizeof(int), 32 * sizeof(int)};
  cudaMemLocation locs[2] = {{cudaMemLocationTypeDevice, 0}, {cudaMemLocationTypeHost, 0}};
  size_t idxs[2] = {0, 1};
  CHECK(cudaMemPrefetchBatchAsync(ranges, sizes, 2, locs, idxs, 1, 0, s));
  add100<<<1, 64, 0, s>>>(m, 64);
  CHECK(cudaMemPrefetchBatchAsync(ranges, sizes, 2, locs, idxs, 2, 0, s));
  CHECK(cudaStreamSynchronize(s));
  for (int i = 0; i < 64; ++i) ok &= m[i] == i + 100;
  CHECK(cudaMemDiscardBatchAsync(ranges + 1, sizes + 1, 1, 0, s));
  CHECK(cudaMemDiscardAndPrefetchBatchAsync(ranges, sizes, 1, locs, idxs, 1, 0, s));
  for (int i = 0; i < 64; ++i) m[i] = -i;  // written again after the discards
  add100<<<1, 64, 0, s>>>(m, 64);
  CHECK(cudaStreamSynchronize(s));
  for (int i = 0; i < 64; ++i) ok &= m[i] == 100 - i;

  void* plain[1] = {d};
  cudaError_t not_managed = cudaMemPrefetchBatchAsync(plain, sizes, 1, locs, idxs, 1, 0, s);
  cudaError_t not_managed_discard = cudaMemDiscardBatchAsync(plain, sizes, 1, 0, s);
  size_t bad_idx[1] = {1};
  cudaError_t first = cudaMemPrefetchBatchAsync(ranges, sizes, 2, locs, bad_idx, 1, 0, s);
  cudaError_t legacy_prefetch = cudaMemPrefetchBatchAsync(ranges, sizes, 2, locs, idxs, 1, 0, cudaStreamLegacy);
  if (not_managed != cudaErrorInvalidValue || not_managed_discard != cudaErrorInvalidValue ||
      first != cudaErrorInvalidValue || legacy_prefetch != cudaErrorInvalidValue) {
    std::printf("managed refusals: %s %s %s %s\n", cudaGetErrorName(not_managed), cudaGetErrorName(not_managed_discard),
                cudaGetErrorName(first), cudaGetErrorName(legacy_prefetch));
    ok = false;
  }
  (void)cudaGetLastError();
  CHECK(cudaFreeArray(arr));
  CHECK(cudaFree(d));
  CHECK(cudaFree(m));
  return finish(kName, ok);
}
