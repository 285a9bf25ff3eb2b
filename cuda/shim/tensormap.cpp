// Driver API: tensor-map objects (CUDA driver API, Tensor Map Object
// Management). The 128-byte CUtensorMap is filled in ptxcheck's encoding
// (semantics/interp/tensormap.hpp), which the interpreter's bulk tensor
// instructions read when the map is passed to a kernel (by value as a
// __grid_constant__ parameter, or copied to device memory). Arguments are
// checked as the driver documents (tensormap_check, including the
// interleave rules: rank 3-5, 32B interleave with a 32-byte aligned address,
// strides multiples of 32 and the 32B swizzle); a violation is
// CUDA_ERROR_INVALID_VALUE. No context is needed: encoding is host-only.
#include <cstring>

#include "cuda/shim/state.hpp"
#include "semantics/interp/tensormap.hpp"

using ptxcheck::interp::TensorMap;

namespace {

CUresult encode(CUtensorMap* out, CUtensorMapDataType dtype, cuuint32_t rank, void* addr, const cuuint64_t* dims,
                const cuuint64_t* strides, const cuuint32_t* estrides, CUtensorMapInterleave il, CUtensorMapSwizzle sw,
                CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob, TensorMap& t) {
  if (!out || !dims || !estrides || (rank > 1 && !strides) || rank < 1 || rank > 5) return CUDA_ERROR_INVALID_VALUE;
  if (static_cast<unsigned>(dtype) > 12 || static_cast<unsigned>(il) > 2 || static_cast<unsigned>(sw) > 6 ||
      static_cast<unsigned>(l2) > 3 || static_cast<unsigned>(oob) > 1)
    return CUDA_ERROR_INVALID_VALUE;
  t.dtype = static_cast<uint8_t>(dtype);
  t.rank = static_cast<uint8_t>(rank);
  t.addr = reinterpret_cast<uint64_t>(addr);
  t.interleave = static_cast<uint8_t>(il);
  ptxcheck::interp::tensormap_set_cu_swizzle(t, static_cast<unsigned>(sw));  // 4-6: 128B, 32B/64B atomicity
  t.l2 = static_cast<uint8_t>(l2);
  t.oob_nan = static_cast<uint8_t>(oob);
  // The NaN fill applies to float types only (the driver rejects it otherwise).
  if (t.oob_nan && !ptxcheck::interp::tensormap_is_float(t.dtype)) return CUDA_ERROR_INVALID_VALUE;
  t.strides[0] = ptxcheck::interp::tensormap_elem_bytes(t.dtype);
  for (unsigned d = 0; d < rank; ++d) {
    t.dims[d] = dims[d];
    t.estride[d] = estrides[d];
    if (d) t.strides[d] = strides[d - 1];
  }
  if (!ptxcheck::interp::tensormap_check(t).empty()) return CUDA_ERROR_INVALID_VALUE;
  ptxcheck::interp::tensormap_encode(t, reinterpret_cast<uint8_t*>(out));
  return CUDA_SUCCESS;
}

}  // namespace

SHIM_API CUresult cuTensorMapEncodeTiled(CUtensorMap* out, CUtensorMapDataType dtype, cuuint32_t rank, void* addr,
                                         const cuuint64_t* dims, const cuuint64_t* strides, const cuuint32_t* box,
                                         const cuuint32_t* estrides, CUtensorMapInterleave il, CUtensorMapSwizzle sw,
                                         CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob) {
  TensorMap t;
  if (!box || rank < 1 || rank > 5) return CUDA_ERROR_INVALID_VALUE;
  for (unsigned d = 0; d < rank; ++d) t.box[d] = box[d];
  return encode(out, dtype, rank, addr, dims, strides, estrides, il, sw, l2, oob, t);
}

SHIM_API CUresult cuTensorMapEncodeIm2col(CUtensorMap* out, CUtensorMapDataType dtype, cuuint32_t rank, void* addr,
                                          const cuuint64_t* dims, const cuuint64_t* strides, const int* lower,
                                          const int* upper, cuuint32_t channels, cuuint32_t pixels,
                                          const cuuint32_t* estrides, CUtensorMapInterleave il, CUtensorMapSwizzle sw,
                                          CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob) {
  TensorMap t;
  if (!lower || !upper || rank < 3 || rank > 5) return CUDA_ERROR_INVALID_VALUE;
  t.mode = 1;
  for (unsigned k = 0; k + 2 < rank; ++k) {
    // PTX ISA 5.5.4.1: corner limits 2^15 (3D), 2^7 (4D), 2^4 (5D).
    int lim = rank == 3 ? 1 << 15 : rank == 4 ? 1 << 7 : 1 << 4;
    if (lower[k] < -lim || lower[k] >= lim || upper[k] < -lim || upper[k] >= lim) return CUDA_ERROR_INVALID_VALUE;
    t.lower[k] = lower[k];
    t.upper[k] = upper[k];
  }
  t.channels = channels;
  t.pixels = pixels;
  return encode(out, dtype, rank, addr, dims, strides, estrides, il, sw, l2, oob, t);
}

// CUDA 12.8: im2col over the W dimension only, for the sm_100
// .im2col::w / .im2col::w::128 loads (PTX ISA 5.5.5). Rank 3-5, the W
// corners in [-32768, 32767] with a non-empty box, channelsPerPixel <= 256,
// pixelsPerColumn <= 1024 (ignored in W128 mode), swizzle 64B, 128B or 128B
// with 32-byte atomicity, no interleave (tensormap_check).
SHIM_API CUresult cuTensorMapEncodeIm2colWide(CUtensorMap* out, CUtensorMapDataType dtype, cuuint32_t rank, void* addr,
                                              const cuuint64_t* dims, const cuuint64_t* strides, int lower, int upper,
                                              cuuint32_t channels, cuuint32_t pixels, const cuuint32_t* estrides,
                                              CUtensorMapInterleave il, CUtensorMapIm2ColWideMode mode,
                                              CUtensorMapSwizzle sw, CUtensorMapL2promotion l2,
                                              CUtensorMapFloatOOBfill oob) {
  TensorMap t;
  if (rank < 3 || rank > 5 || static_cast<unsigned>(mode) > 1) return CUDA_ERROR_INVALID_VALUE;
  t.mode = mode == CU_TENSOR_MAP_IM2COL_WIDE_MODE_W ? TensorMap::WideW : TensorMap::WideW128;
  t.lower[0] = lower;
  t.upper[0] = upper;
  t.channels = channels;
  t.pixels = mode == CU_TENSOR_MAP_IM2COL_WIDE_MODE_W ? pixels : 0;
  return encode(out, dtype, rank, addr, dims, strides, estrides, il, sw, l2, oob, t);
}

SHIM_API CUresult cuTensorMapReplaceAddress(CUtensorMap* map, void* addr) {
  TensorMap t;
  if (!map || !ptxcheck::interp::tensormap_decode(reinterpret_cast<const uint8_t*>(map), t)) return CUDA_ERROR_INVALID_VALUE;
  t.addr = reinterpret_cast<uint64_t>(addr);
  if (t.addr % 16) return CUDA_ERROR_INVALID_VALUE;
  ptxcheck::interp::tensormap_encode(t, reinterpret_cast<uint8_t*>(map));
  return CUDA_SUCCESS;
}
