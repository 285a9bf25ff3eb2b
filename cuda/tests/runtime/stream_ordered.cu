// Stream-ordered allocation (CUDA C++ Programming Guide, "Stream-Ordered
// Memory Allocator" and "Graph Memory Nodes"): cudaMallocAsync/cudaFreeAsync
// across two streams ordered by events; a pool of our own with a release
// threshold (reserved and used memory as frees, synchronisations and trims
// change them); the device's current pool; a captured graph with an
// allocation and a free node, launched twice; a graph whose allocation
// outlives it (relaunch refused until it is freed, or freed by
// AutoFreeOnLaunch); and the errors of a double free, a read-only attribute,
// the default pool's destruction and a second instance of a graph with
// memory nodes.
#include <cuda_runtime.h>

#include "common.cuh"
static const char* kName = "stream_ordered";

__global__ void fill(int* p, int v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v + i;
}

__global__ void add_one(int* dst, const int* src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src[i] + 1;
}

static bool pool_is(cudaMemPool_t pool, unsigned long long reserved, unsigned long long used) {
  unsigned long long r = 0, u = 0;
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &r));
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &u));
  if (r != reserved || u != used)
    std::printf("pool: reserved %llu used %llu, expected %llu %llu\n", r, u, reserved, used);
  return r == reserved && u == used;
}

static unsigned long long graph_mem(cudaGraphMemAttributeType a) {
  unsigned long long v = 0;
  CHECK(cudaDeviceGetGraphMemAttribute(0, a, &v));
  return v;
}

int main() {
  const int n = 256;
  const size_t bytes = n * sizeof(int);
  bool ok = true;
  int supported = 0;
  CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, 0));
  ok = ok && supported == 1;

  // Two streams: a is made and filled on s1, read on s2 after an event, and
  // freed on s1 after s2's work (another event).
  cudaStream_t s1, s2;
  cudaEvent_t filled, read;
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  CHECK(cudaEventCreate(&filled));
  CHECK(cudaEventCreate(&read));
  int *a, *b, h[n];
  CHECK(cudaMallocAsync(&a, bytes, s1));
  fill<<<2, 128, 0, s1>>>(a, 100, n);
  CHECK(cudaEventRecord(filled, s1));
  CHECK(cudaStreamWaitEvent(s2, filled, 0));
  CHECK(cudaMallocAsync(&b, bytes, s2));
  add_one<<<2, 128, 0, s2>>>(b, a, n);
  CHECK(cudaEventRecord(read, s2));
  CHECK(cudaStreamWaitEvent(s1, read, 0));
  CHECK(cudaFreeAsync(a, s1));
  CHECK(cudaMemcpyAsync(h, b, bytes, cudaMemcpyDeviceToHost, s2));
  CHECK(cudaFreeAsync(b, s2));
  CHECK(cudaStreamSynchronize(s2));
  CHECK(cudaStreamSynchronize(s1));
  for (int i = 0; i < n; ++i) ok = ok && h[i] == 101 + i;
  ok = ok && cudaFreeAsync(b, s2) == cudaErrorInvalidValue;  // freed twice
  cudaGetLastError();

  // A pool of our own with a 64 KiB release threshold.
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t pool;
  CHECK(cudaMemPoolCreate(&pool, &props));
  unsigned long long threshold = 64 << 10;
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  int *p1, *p2, *p3;
  CHECK(cudaMallocFromPoolAsync(&p1, 32 << 10, pool, s1));
  CHECK(cudaMallocFromPoolAsync(&p2, 32 << 10, pool, s1));
  ok = ok && pool_is(pool, 64 << 10, 64 << 10);
  CHECK(cudaFreeAsync(p1, s1));
  ok = ok && pool_is(pool, 64 << 10, 32 << 10);  // freed bytes stay reserved
  CHECK(cudaMallocFromPoolAsync(&p3, 16 << 10, pool, s1));
  ok = ok && pool_is(pool, 64 << 10, 48 << 10);  // and are reused
  CHECK(cudaMallocFromPoolAsync(&p1, 64 << 10, pool, s1));
  ok = ok && pool_is(pool, 112 << 10, 112 << 10);
  CHECK(cudaFreeAsync(p1, s1));
  CHECK(cudaFreeAsync(p3, s1));
  CHECK(cudaStreamSynchronize(s1));  // releases down to the threshold
  ok = ok && pool_is(pool, 64 << 10, 32 << 10);
  unsigned long long high = 0, zero = 0;
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high));
  ok = ok && high == (112 << 10);
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero));  // reset to the current amount
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high));
  ok = ok && high == (32 << 10);
  CHECK(cudaMemPoolTrimTo(pool, 0));  // outstanding allocations stay
  ok = ok && pool_is(pool, 32 << 10, 32 << 10);
  ok = ok && cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &zero) == cudaErrorInvalidValue;
  cudaGetLastError();
  // The device's current pool serves cudaMallocAsync.
  cudaMemPool_t def, cur;
  CHECK(cudaDeviceGetDefaultMemPool(&def, 0));
  CHECK(cudaDeviceSetMemPool(0, pool));
  CHECK(cudaDeviceGetMemPool(&cur, 0));
  ok = ok && cur == pool && def != pool;
  CHECK(cudaMallocAsync(&p1, 32 << 10, s1));
  ok = ok && pool_is(pool, 64 << 10, 64 << 10);
  fill<<<1, 64, 0, s1>>>(p1, 0, 64);
  CHECK(cudaFreeAsync(p1, s1));
  CHECK(cudaFreeAsync(p2, s1));
  CHECK(cudaDeviceSetMemPool(0, def));
  ok = ok && cudaMemPoolDestroy(def) == cudaErrorInvalidValue;
  cudaGetLastError();
  CHECK(cudaMemPoolDestroy(pool));

  // Capture: the allocation becomes an allocation node, the free a free node.
  int* out;
  CHECK(cudaMalloc(&out, bytes));
  int* g = nullptr;
  cudaGraph_t graph;
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  CHECK(cudaMallocAsync(&g, bytes, s1));
  fill<<<2, 128, 0, s1>>>(g, 7, n);
  CHECK(cudaEventRecord(filled, s1));
  CHECK(cudaStreamWaitEvent(s2, filled, 0));
  add_one<<<2, 128, 0, s2>>>(out, g, n);
  CHECK(cudaEventRecord(read, s2));
  CHECK(cudaStreamWaitEvent(s1, read, 0));
  CHECK(cudaFreeAsync(g, s1));
  CHECK(cudaStreamEndCapture(s1, &graph));
  cudaGraphNode_t nodes[8];
  size_t count = 8;
  CHECK(cudaGraphGetNodes(graph, nodes, &count));
  int allocs = 0, frees = 0;
  for (size_t i = 0; i < count; ++i) {
    cudaGraphNodeType t;
    CHECK(cudaGraphNodeGetType(nodes[i], &t));
    if (t == cudaGraphNodeTypeMemAlloc) {
      cudaMemAllocNodeParams p;
      CHECK(cudaGraphMemAllocNodeGetParams(nodes[i], &p));
      ok = ok && p.bytesize == bytes && p.dptr == g;
      ++allocs;
    }
    if (t == cudaGraphNodeTypeMemFree) {
      void* f = nullptr;
      CHECK(cudaGraphMemFreeNodeGetParams(nodes[i], &f));
      ok = ok && f == g;
      ++frees;
    }
  }
  ok = ok && count == 4 && allocs == 1 && frees == 1;
  cudaGraphExec_t exec, exec2;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  ok = ok && cudaGraphInstantiate(&exec2, graph, 0) != cudaSuccess;  // one instance at a time
  cudaGetLastError();
  for (int launch = 0; launch < 2; ++launch) {  // freed in the graph: it can be relaunched
    CHECK(cudaMemset(out, 0, bytes));
    CHECK(cudaGraphLaunch(exec, s1));
    CHECK(cudaStreamSynchronize(s1));
    CHECK(cudaMemcpy(h, out, bytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) ok = ok && h[i] == 8 + i;
  }
  // The launches' memory stays with the graphs (both launches used the same)
  // until a trim.
  ok = ok && graph_mem(cudaGraphMemAttrUsedMemCurrent) == bytes &&
       graph_mem(cudaGraphMemAttrReservedMemCurrent) == bytes;
  CHECK(cudaDeviceGraphMemTrim(0));
  ok = ok && graph_mem(cudaGraphMemAttrUsedMemCurrent) == 0 && graph_mem(cudaGraphMemAttrReservedMemCurrent) == 0;
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));

  // An allocation the graph does not free outlives the launch: the graph
  // cannot be relaunched until it is freed (here by cudaFree).
  cudaGraphNode_t node;
  cudaMemAllocNodeParams ap = {};
  ap.poolProps.allocType = cudaMemAllocationTypePinned;
  ap.poolProps.location.type = cudaMemLocationTypeDevice;
  ap.poolProps.location.id = 0;
  ap.bytesize = bytes;
  CHECK(cudaGraphCreate(&graph, 0));
  CHECK(cudaGraphAddMemAllocNode(&node, graph, nullptr, 0, &ap));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphLaunch(exec, s1));
  fill<<<2, 128, 0, s1>>>(static_cast<int*>(ap.dptr), 3, n);
  CHECK(cudaMemcpyAsync(h, ap.dptr, bytes, cudaMemcpyDeviceToHost, s1));
  CHECK(cudaStreamSynchronize(s1));
  for (int i = 0; i < n; ++i) ok = ok && h[i] == 3 + i;
  ok = ok && graph_mem(cudaGraphMemAttrUsedMemCurrent) == bytes;
  ok = ok && cudaGraphLaunch(exec, s1) == cudaErrorInvalidValue;
  cudaGetLastError();
  CHECK(cudaFree(ap.dptr));
  CHECK(cudaGraphLaunch(exec, s1));
  CHECK(cudaFreeAsync(ap.dptr, s1));
  CHECK(cudaGraphExecDestroy(exec));
  // With AutoFreeOnLaunch each launch frees the last launch's allocation.
  CHECK(cudaGraphInstantiateWithFlags(&exec, graph, cudaGraphInstantiateFlagAutoFreeOnLaunch));
  CHECK(cudaGraphLaunch(exec, s1));
  CHECK(cudaGraphLaunch(exec, s1));
  CHECK(cudaStreamSynchronize(s1));
  ok = ok && graph_mem(cudaGraphMemAttrUsedMemCurrent) == bytes;
  CHECK(cudaFree(ap.dptr));
  ok = ok && graph_mem(cudaGraphMemAttrUsedMemCurrent) == bytes;  // until a trim
  CHECK(cudaDeviceGraphMemTrim(0));
  ok = ok && graph_mem(cudaGraphMemAttrUsedMemCurrent) == 0;
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaFree(out));
  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaStreamDestroy(s2));
  return finish(kName, ok);
}
