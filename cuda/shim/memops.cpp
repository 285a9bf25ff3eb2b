// Stream memory operations (CUDA Driver API, "Stream Memory Operations":
// cuStreamWriteValue32/64, cuStreamWaitValue32/64, cuStreamBatchMemOp, the
// CUDA 8/9 ABI and the CUDA 11.7 _v2 one) and the batches of CUDA 12.8 and 13:
// cuMemcpy3DBatchAsync, cuMemPrefetchBatchAsync, cuMemDiscardBatchAsync,
// cuMemDiscardAndPrefetchBatchAsync.
//
// An operation runs when it is enqueued unless its stream waits for deferred
// work (streams.cpp). A write stores its value then. A wait whose condition
// holds then returns at once; one whose condition does not hold is deferred
// with the operations after it: the stream's later work is queued behind it,
// and it is checked again when the stream is synchronised (a later host
// write or work of another stream may release it). When nothing can release
// it any more, the synchronisation reports the hang with the value found
// (CUDA_ERROR_LAUNCH_TIMEOUT, the context's sticky error).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cuda/shim/state.hpp"

using namespace shim;

namespace {

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

// The stream's checks under the lock: the context (and its sticky error),
// the handle, and a capture, which these operations cannot join (graph memop
// nodes are not provided): the capture is invalidated, as for other work a
// capture cannot record.
CUresult stream_checks(State& s, CUstream st, CUcontext& c) {
  if (CUresult r = current(s, c)) return r;
  if (!valid_stream(s, st, c)) return CUDA_ERROR_INVALID_HANDLE;
  if (capturing(st)) {
    st->capture->invalidated = true;
    return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  }
  return CUDA_SUCCESS;
}

// The n (4 or 8) bytes a memory operation names, aligned to n, in device
// memory or host-visible memory other than managed memory ("None of the
// operations accepts pointers to managed memory"); nullptr otherwise.
uint8_t* operand(State& s, CUdeviceptr a, unsigned n) {
  if (!a || a % n || is_managed(s, a, n)) return nullptr;
  if (uint8_t* h = host_side(s, a, n)) return h;
  return s.session->host_bytes(a, n);
}

// CUstreamWaitValue_flags: the condition in the low bits, FLUSH above.
bool holds(uint64_t v, uint64_t want, unsigned cond, bool wide) {
  const uint64_t mask = wide ? ~0ull : 0xffffffffull;
  v &= mask;
  want &= mask;
  switch (cond) {
    case CU_STREAM_WAIT_VALUE_GEQ:  // cyclic: (int32_t)(*addr - value) >= 0
      return wide ? static_cast<int64_t>(v - want) >= 0
                  : static_cast<int32_t>(static_cast<uint32_t>(v) - static_cast<uint32_t>(want)) >= 0;
    case CU_STREAM_WAIT_VALUE_EQ: return v == want;
    case CU_STREAM_WAIT_VALUE_AND: return (v & want) != 0;
    default: return (~(v | want) & mask) != 0;  // NOR
  }
}

const char* cond_name(unsigned cond) {
  switch (cond) {
    case CU_STREAM_WAIT_VALUE_GEQ: return ">= (cyclic)";
    case CU_STREAM_WAIT_VALUE_EQ: return "==";
    case CU_STREAM_WAIT_VALUE_AND: return "AND != 0";
    default: return "NOR != 0";
  }
}

// One operation, checked (`run` false) or done (lock held, stream checked).
// v2: the CUDA 11.7 ABI, where a write takes no flags and a barrier exists.
CUresult memop(State& s, const CUstreamBatchMemOpParams& p, bool v2, bool run) {
  switch (p.operation) {
    case CU_STREAM_MEM_OP_WAIT_VALUE_32:
    case CU_STREAM_MEM_OP_WAIT_VALUE_64: {
      const bool wide = p.operation == CU_STREAM_MEM_OP_WAIT_VALUE_64;
      const unsigned cond = p.waitValue.flags & 3u, rest = p.waitValue.flags & ~3u;
      if (rest & ~unsigned{CU_STREAM_WAIT_VALUE_FLUSH}) return CUDA_ERROR_INVALID_VALUE;
      if (rest) return CUDA_ERROR_NOT_SUPPORTED;  // CU_DEVICE_ATTRIBUTE_CAN_FLUSH_REMOTE_WRITES is 0
      uint8_t* b = operand(s, p.waitValue.address, wide ? 8 : 4);
      if (!b) return CUDA_ERROR_INVALID_VALUE;
      if (!run) return CUDA_SUCCESS;
      uint64_t v = 0;
      std::memcpy(&v, b, wide ? 8 : 4);
      const uint64_t want = wide ? p.waitValue.value64 : p.waitValue.value;
      if (holds(v, want, cond, wide)) return CUDA_SUCCESS;
      if (running_deferred() && !final_attempt()) {  // checked again later (streams.cpp)
        blocked();
        return CUDA_SUCCESS;
      }
      report(std::string("cuStreamWaitValue") + (wide ? "64" : "32") + ": the value at " + hex(p.waitValue.address) +
             " is " + hex(v) + ", which does not satisfy the wait (" + cond_name(cond) + " " + hex(want) +
             "), and no work left can change it: the stream would wait forever");
      if (!ctx_stack().empty()) ctx_stack().back()->sticky = CUDA_ERROR_LAUNCH_TIMEOUT;
      return CUDA_ERROR_LAUNCH_TIMEOUT;
    }
    case CU_STREAM_MEM_OP_WRITE_VALUE_32:
    case CU_STREAM_MEM_OP_WRITE_VALUE_64: {
      const bool wide = p.operation == CU_STREAM_MEM_OP_WRITE_VALUE_64;
      const unsigned allowed = v2 ? 0u : unsigned{CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER};
      if (p.writeValue.flags & ~allowed) return CUDA_ERROR_INVALID_VALUE;
      uint8_t* b = operand(s, p.writeValue.address, wide ? 8 : 4);
      if (!b) return CUDA_ERROR_INVALID_VALUE;
      if (run) {
        if (wide)
          std::memcpy(b, &p.writeValue.value64, 8);
        else
          std::memcpy(b, &p.writeValue.value, 4);
      }
      return CUDA_SUCCESS;
    }
    case CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES:
      return p.flushRemoteWrites.flags ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_NOT_SUPPORTED;
    case CU_STREAM_MEM_OP_BARRIER:  // every earlier write is visible already
      if (!v2 || p.memoryBarrier.flags > CU_STREAM_MEMORY_BARRIER_TYPE_GPU) return CUDA_ERROR_INVALID_VALUE;
      return CUDA_SUCCESS;
  }
  return CUDA_ERROR_INVALID_VALUE;
}

// Whether p can run now: a wait whose condition holds, or another operation.
bool runs_now(State& s, const CUstreamBatchMemOpParams& p) {
  if (p.operation != CU_STREAM_MEM_OP_WAIT_VALUE_32 && p.operation != CU_STREAM_MEM_OP_WAIT_VALUE_64) return true;
  const bool wide = p.operation == CU_STREAM_MEM_OP_WAIT_VALUE_64;
  const uint8_t* b = operand(s, p.waitValue.address, wide ? 8 : 4);
  uint64_t v = 0;
  if (b) std::memcpy(&v, b, wide ? 8 : 4);
  return !b || holds(v, wide ? p.waitValue.value64 : p.waitValue.value, p.waitValue.flags & 3u, wide);
}

const char* op_name(const CUstreamBatchMemOpParams& p) {
  switch (p.operation) {
    case CU_STREAM_MEM_OP_WAIT_VALUE_32: return "cuStreamWaitValue32";
    case CU_STREAM_MEM_OP_WAIT_VALUE_64: return "cuStreamWaitValue64";
    case CU_STREAM_MEM_OP_WRITE_VALUE_32: return "cuStreamWriteValue32";
    case CU_STREAM_MEM_OP_WRITE_VALUE_64: return "cuStreamWriteValue64";
    default: return "cuStreamBatchMemOp";
  }
}

// The operations in order, each checked before any runs. From the first
// that must wait (deferred work on the stream, or a wait that does not hold
// yet), each is deferred as an operation of its own (streams.cpp).
CUresult batch_memop(CUstream st, unsigned count, const CUstreamBatchMemOpParams* ops, unsigned flags, bool v2) {
  if (flags || count >= 256 || (count && !ops)) return CUDA_ERROR_INVALID_VALUE;
  Locked l;
  CUcontext c = nullptr;
  if (CUresult r = stream_checks(l.s, st, c)) return r;
  for (unsigned i = 0; i < count; ++i)
    if (CUresult r = memop(l.s, ops[i], v2, false)) return r;
  for (unsigned i = 0; i < count; ++i) {
    if (!running_deferred() && (deferred_on(l.s, c, st) || !runs_now(l.s, ops[i]))) {
      for (unsigned j = i; j < count; ++j) {
        const CUstreamBatchMemOpParams q = ops[j];
        defer(
            l.s, c, st, op_name(q), [q, v2] { return memop(state(), q, v2, true); }, true);
      }
      return CUDA_SUCCESS;
    }
    if (CUresult r = memop(l.s, ops[i], v2, true)) return r;
  }
  return CUDA_SUCCESS;
}

CUresult one_memop(CUstream st, CUstreamBatchMemOpType op, CUdeviceptr a, uint64_t v, unsigned flags, bool v2) {
  CUstreamBatchMemOpParams p{};
  p.operation = op;
  if (op == CU_STREAM_MEM_OP_WAIT_VALUE_32 || op == CU_STREAM_MEM_OP_WAIT_VALUE_64) {
    p.waitValue.address = a;
    p.waitValue.value64 = v;
    p.waitValue.flags = flags;
  } else {
    p.writeValue.address = a;
    p.writeValue.value64 = v;
    p.writeValue.flags = flags;
  }
  return batch_memop(st, 1, &p, 0, v2);
}

CUstream ptsz(CUstream st) { return st ? st : CU_STREAM_PER_THREAD; }

}  // namespace

#define SHIM_MEMOPS(suffix, v2, stream)                                                                      \
  SHIM_API CUresult cuStreamWriteValue32##suffix(CUstream st, CUdeviceptr a, cuuint32_t v, unsigned int f) { \
    return one_memop(stream, CU_STREAM_MEM_OP_WRITE_VALUE_32, a, v, f, v2);                                  \
  }                                                                                                          \
  SHIM_API CUresult cuStreamWaitValue32##suffix(CUstream st, CUdeviceptr a, cuuint32_t v, unsigned int f) {  \
    return one_memop(stream, CU_STREAM_MEM_OP_WAIT_VALUE_32, a, v, f, v2);                                   \
  }                                                                                                          \
  SHIM_API CUresult cuStreamWriteValue64##suffix(CUstream st, CUdeviceptr a, cuuint64_t v, unsigned int f) { \
    return one_memop(stream, CU_STREAM_MEM_OP_WRITE_VALUE_64, a, v, f, v2);                                  \
  }                                                                                                          \
  SHIM_API CUresult cuStreamWaitValue64##suffix(CUstream st, CUdeviceptr a, cuuint64_t v, unsigned int f) {  \
    return one_memop(stream, CU_STREAM_MEM_OP_WAIT_VALUE_64, a, v, f, v2);                                   \
  }                                                                                                          \
  SHIM_API CUresult cuStreamBatchMemOp##suffix(CUstream st, unsigned int n, CUstreamBatchMemOpParams* p,     \
                                               unsigned int f) {                                             \
    return batch_memop(stream, n, p, f, v2);                                                                 \
  }

// The names cuda.h maps to (cuStreamWriteValue32 -> _v2), undone here.
#undef cuStreamWriteValue32
#undef cuStreamWaitValue32
#undef cuStreamWriteValue64
#undef cuStreamWaitValue64
#undef cuStreamBatchMemOp
// clang-format off
SHIM_MEMOPS(, false, st)
SHIM_MEMOPS(_ptsz, false, ptsz(st))
SHIM_MEMOPS(_v2, true, st)
SHIM_MEMOPS(_v2_ptsz, true, ptsz(st))
// clang-format on

// ---- batches of 3D copies, prefetches and discards ------------------------------------------

namespace {

// A batch's stream: any but the legacy NULL stream (as documented).
bool batch_stream(CUstream st) { return st != nullptr && st != CU_STREAM_LEGACY; }

// One side of a 3D batch copy as a CUDA_MEMCPY3D side; `elem` the element
// size of the copy (1 between pointers, else the array's).
bool side3d(const CUmemcpy3DOperand& o, size_t elem, const CUextent3D& e, bool src, CUDA_MEMCPY3D& c) {
  if (o.type == CU_MEMCPY_OPERAND_TYPE_POINTER) {
    const auto& p = o.op.ptr;
    if ((p.rowLength && p.rowLength < e.width) || (p.layerHeight && p.layerHeight < e.height)) return false;
    const size_t pitch = (p.rowLength ? p.rowLength : e.width) * elem,
                 height = p.layerHeight ? p.layerHeight : e.height;
    if (src) {
      c.srcMemoryType = CU_MEMORYTYPE_UNIFIED, c.srcDevice = p.ptr, c.srcPitch = pitch, c.srcHeight = height;
    } else {
      c.dstMemoryType = CU_MEMORYTYPE_UNIFIED, c.dstDevice = p.ptr, c.dstPitch = pitch, c.dstHeight = height;
    }
    return true;
  }
  const auto& a = o.op.array;
  if (src) {
    c.srcMemoryType = CU_MEMORYTYPE_ARRAY, c.srcArray = a.array;
    c.srcXInBytes = a.offset.x * elem, c.srcY = a.offset.y, c.srcZ = a.offset.z;
  } else {
    c.dstMemoryType = CU_MEMORYTYPE_ARRAY, c.dstArray = a.array;
    c.dstXInBytes = a.offset.x * elem, c.dstY = a.offset.y, c.dstZ = a.offset.z;
  }
  return true;
}

// The copy an operation describes (lock held); false when it is malformed.
bool to_copy3d(State& s, const CUDA_MEMCPY3D_BATCH_OP& op, CUDA_MEMCPY3D& c, CUresult& err) {
  err = CUDA_ERROR_INVALID_VALUE;
  const CUextent3D& e = op.extent;
  if (!e.width || !e.height || !e.depth || op.flags > CU_MEMCPY_FLAG_PREFER_OVERLAP_WITH_COMPUTE) return false;
  if (op.srcAccessOrder < CU_MEMCPY_SRC_ACCESS_ORDER_STREAM || op.srcAccessOrder > CU_MEMCPY_SRC_ACCESS_ORDER_ANY)
    return false;
  size_t elem = 0;  // 0: no array side yet
  for (const CUmemcpy3DOperand* o : {&op.src, &op.dst}) {
    if (o->type == CU_MEMCPY_OPERAND_TYPE_POINTER) continue;
    if (o->type != CU_MEMCPY_OPERAND_TYPE_ARRAY) return false;
    if (!is_live(s, o->op.array.array, Kind::Array)) {
      err = CUDA_ERROR_INVALID_HANDLE;
      return false;
    }
    const size_t a = o->op.array.array->elem;
    if (elem && a != elem) return false;  // arrays of different element sizes
    elem = a;
  }
  if (!elem) elem = 1;
  c = CUDA_MEMCPY3D{};
  if (!side3d(op.src, elem, e, true, c) || !side3d(op.dst, elem, e, false, c)) return false;
  c.WidthInBytes = e.width * elem, c.Height = e.height, c.Depth = e.depth;
  return true;
}

// cuMemcpy3DBatchAsync: every operation checked, then each one a
// cuMemcpy3DAsync on st, in order (any order is allowed: copies within a
// batch are unordered). *fail, when given (the CUDA 12.8 ABI), the failing
// operation's index or SIZE_MAX.
CUresult copy3d_batch(size_t n, const CUDA_MEMCPY3D_BATCH_OP* ops, unsigned long long flags, size_t* fail,
                      CUstream st) {
  if (fail) *fail = SIZE_MAX;
  if (!n || !ops || flags || !batch_stream(st)) return CUDA_ERROR_INVALID_VALUE;
  std::vector<CUDA_MEMCPY3D> copies(n);
  {
    Locked l;
    for (size_t i = 0; i < n; ++i) {
      CUresult err = CUDA_SUCCESS;
      if (!to_copy3d(l.s, ops[i], copies[i], err)) {
        if (fail) *fail = i;
        return err;
      }
    }
  }
  for (size_t i = 0; i < n; ++i)
    if (CUresult r = cuMemcpy3DAsync_v2(&copies[i], st)) {
      if (fail) *fail = i;
      return r;
    }
  return CUDA_SUCCESS;
}

bool valid_location(const CUmemLocation& l, CUresult& err) {
  switch (l.type) {
    case CU_MEM_LOCATION_TYPE_DEVICE:
      err = l.id == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;  // the one device
      return l.id == 0;
    case CU_MEM_LOCATION_TYPE_HOST:
    case CU_MEM_LOCATION_TYPE_HOST_NUMA:
    case CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT: return true;
    default: err = CUDA_ERROR_INVALID_VALUE; return false;
  }
}

// cuMemPrefetchBatchAsync (prefetch), cuMemDiscardBatchAsync (discard) and
// both: the arguments as documented (locations: prefetchLocIdxs starts at 0
// and increases, numPrefetchLocs <= count), each range in managed memory.
// Managed memory is coherent between calls here (kernels run inside their
// launch), so a prefetch moves nothing; a discarded range has undefined
// contents until it is written or prefetched: a kernel's read of it is an
// uninitialised read (hostmem.cpp discard_managed). In stream order
// (streams.cpp).
CUresult managed_batch(CUdeviceptr* dptrs, size_t* sizes, size_t count, CUmemLocation* locs, size_t* idxs, size_t nlocs,
                       unsigned long long flags, CUstream st, bool prefetch, bool discard = false) {
  if (!dptrs || !sizes || !count || flags || !batch_stream(st)) return CUDA_ERROR_INVALID_VALUE;
  if (prefetch) {
    if (!locs || !idxs || !nlocs || nlocs > count) return CUDA_ERROR_INVALID_VALUE;
    for (size_t k = 0; k < nlocs; ++k) {
      if (k == 0 ? idxs[0] != 0 : idxs[k] <= idxs[k - 1] || idxs[k] >= count) return CUDA_ERROR_INVALID_VALUE;
      CUresult err = CUDA_SUCCESS;
      if (!valid_location(locs[k], err)) return err;
    }
  }
  Locked l;
  CUcontext c = nullptr;
  if (CUresult r = current(l.s, c)) return r;
  if (!valid_stream(l.s, st, c)) return CUDA_ERROR_INVALID_HANDLE;
  for (size_t i = 0; i < count; ++i)
    if (!sizes[i] || !is_managed(l.s, dptrs[i], sizes[i])) return CUDA_ERROR_INVALID_VALUE;
  std::vector<std::pair<CUdeviceptr, size_t>> ranges;
  for (size_t i = 0; i < count; ++i) ranges.emplace_back(dptrs[i], sizes[i]);
  auto run = [ranges, prefetch, discard] {
    for (auto [p, n] : ranges) {
      if (discard) discard_managed(state(), p, n);
      if (prefetch) prefetch_managed(state(), p, n);
    }
    return CUDA_SUCCESS;
  };
  if (!defer(l.s, c, st, discard ? "cuMemDiscardBatchAsync" : "cuMemPrefetchBatchAsync", run)) run();
  return CUDA_SUCCESS;
}

}  // namespace

#undef cuMemcpy3DBatchAsync
#undef cuMemPrefetchBatchAsync
#undef cuMemDiscardBatchAsync
#undef cuMemDiscardAndPrefetchBatchAsync
// The CUDA 12.8 ABI (with failIdx) and CUDA 13's _v2; a _ptsz call's stream 0
// is the per-thread stream, not the refused legacy one.
SHIM_API CUresult cuMemcpy3DBatchAsync(size_t n, CUDA_MEMCPY3D_BATCH_OP* ops, size_t* fail, unsigned long long f,
                                       CUstream st) {
  return copy3d_batch(n, ops, f, fail, st);
}
SHIM_API CUresult cuMemcpy3DBatchAsync_ptsz(size_t n, CUDA_MEMCPY3D_BATCH_OP* ops, size_t* fail, unsigned long long f,
                                            CUstream st) {
  return copy3d_batch(n, ops, f, fail, ptsz(st));
}
SHIM_API CUresult cuMemcpy3DBatchAsync_v2(size_t n, CUDA_MEMCPY3D_BATCH_OP* ops, unsigned long long f, CUstream st) {
  return copy3d_batch(n, ops, f, nullptr, st);
}
SHIM_API CUresult cuMemcpy3DBatchAsync_v2_ptsz(size_t n, CUDA_MEMCPY3D_BATCH_OP* ops, unsigned long long f,
                                               CUstream st) {
  return copy3d_batch(n, ops, f, nullptr, ptsz(st));
}

#define SHIM_MANAGED_BATCH(suffix, stream)                                                                           \
  SHIM_API CUresult cuMemPrefetchBatchAsync##suffix(CUdeviceptr* d, size_t* n, size_t count, CUmemLocation* locs,    \
                                                    size_t* idxs, size_t nlocs, unsigned long long f, CUstream st) { \
    return managed_batch(d, n, count, locs, idxs, nlocs, f, stream, true);                                           \
  }                                                                                                                  \
  SHIM_API CUresult cuMemDiscardBatchAsync##suffix(CUdeviceptr* d, size_t* n, size_t count, unsigned long long f,    \
                                                   CUstream st) {                                                    \
    return managed_batch(d, n, count, nullptr, nullptr, 0, f, stream, false, true);                                  \
  }                                                                                                                  \
  SHIM_API CUresult cuMemDiscardAndPrefetchBatchAsync##suffix(CUdeviceptr* d, size_t* n, size_t count,               \
                                                              CUmemLocation* locs, size_t* idxs, size_t nlocs,       \
                                                              unsigned long long f, CUstream st) {                   \
    return managed_batch(d, n, count, locs, idxs, nlocs, f, stream, true, true);                                     \
  }
// clang-format off
SHIM_MANAGED_BATCH(, st)
SHIM_MANAGED_BATCH(_ptsz, ptsz(st))
// clang-format on
