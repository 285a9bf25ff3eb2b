// cuTensorMapEncodeTiled / Im2col / ReplaceAddress (cuda/shim/tensormap.cpp):
// the encoding the interpreter's bulk tensor instructions read, and the
// driver API's argument checks (CUDA_ERROR_INVALID_VALUE).
#include <catch2/catch.hpp>
#include <cstdint>

#include "cuda.h"
#include "semantics/interp/tensormap.hpp"

using ptxcheck::interp::TensorMap;

TEST_CASE("cuTensorMapEncodeTiled encodes what the interpreter decodes", "[tensormap]") {
  alignas(64) static unsigned char buf[64 * 1024];
  CUtensorMap m;
  cuuint64_t dims[2] = {64, 32}, strides[1] = {128};
  cuuint32_t box[2] = {64, 8}, es[2] = {1, 1};
  REQUIRE(cuTensorMapEncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, buf, dims, strides, box, es,
                                 CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                 CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA) ==
          CUDA_SUCCESS);
  TensorMap t;
  REQUIRE(ptxcheck::interp::tensormap_decode(reinterpret_cast<const uint8_t*>(&m), t));
  CHECK(t.rank == 2);
  CHECK(t.dtype == 6);
  CHECK(t.addr == reinterpret_cast<uint64_t>(buf));
  CHECK(t.dims[0] == 64);
  CHECK(t.dims[1] == 32);
  CHECK(t.strides[1] == 128);
  CHECK(t.box[0] == 64);
  CHECK(t.swizzle == 3);
  CHECK(t.oob_nan == 1);
  REQUIRE(cuTensorMapReplaceAddress(&m, buf + 256) == CUDA_SUCCESS);
  REQUIRE(ptxcheck::interp::tensormap_decode(reinterpret_cast<const uint8_t*>(&m), t));
  CHECK(t.addr == reinterpret_cast<uint64_t>(buf + 256));
  // Driver rules: a box inner dimension beyond the swizzle span, a stride not
  // a multiple of 16, a misaligned address, rank 6, NaN fill on integers.
  cuuint32_t wide[2] = {128, 8};
  CHECK(cuTensorMapEncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, buf, dims, strides, wide, es,
                               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_ERROR_INVALID_VALUE);
  cuuint64_t odd[1] = {120};
  CHECK(cuTensorMapEncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, buf, dims, odd, box, es,
                               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuTensorMapEncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, buf + 8, dims, strides, box, es,
                               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuTensorMapEncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 6, buf, dims, strides, box, es,
                               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuTensorMapEncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_UINT32, 2, buf, dims, strides, box, es,
                               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                               CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA) == CUDA_ERROR_INVALID_VALUE);
}

TEST_CASE("cuTensorMapEncodeIm2col", "[tensormap]") {
  alignas(64) static unsigned char buf[4096];
  CUtensorMap m;
  cuuint64_t dims[4] = {8, 6, 5, 2}, strides[3] = {32, 192, 960};
  cuuint32_t es[4] = {1, 1, 1, 1};
  int lo[2] = {-1, -1}, hi[2] = {-1, -1};
  REQUIRE(cuTensorMapEncodeIm2col(&m, CU_TENSOR_MAP_DATA_TYPE_UINT32, 4, buf, dims, strides, lo, hi, 8, 16, es,
                                  CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                  CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS);
  TensorMap t;
  REQUIRE(ptxcheck::interp::tensormap_decode(reinterpret_cast<const uint8_t*>(&m), t));
  CHECK(t.mode == 1);
  CHECK(t.lower[0] == -1);
  CHECK(t.channels == 8);
  CHECK(t.pixels == 16);
  int far[2] = {200, 0};  // 4D corners are limited to [-2^7, 2^7)
  CHECK(cuTensorMapEncodeIm2col(&m, CU_TENSOR_MAP_DATA_TYPE_UINT32, 4, buf, dims, strides, far, hi, 8, 16, es,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_ERROR_INVALID_VALUE);
}

TEST_CASE("cuTensorMapEncodeIm2colWide", "[tensormap]") {
  alignas(64) static unsigned char buf[4096];
  CUtensorMap m;
  cuuint64_t dims[4] = {8, 6, 5, 2}, strides[3] = {32, 192, 960};
  cuuint32_t es[4] = {1, 2, 1, 1};
  REQUIRE(cuTensorMapEncodeIm2colWide(&m, CU_TENSOR_MAP_DATA_TYPE_UINT32, 4, buf, dims, strides, -1, 0, 8, 20, es,
                                      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_IM2COL_WIDE_MODE_W,
                                      CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS);
  TensorMap t;
  REQUIRE(ptxcheck::interp::tensormap_decode(reinterpret_cast<const uint8_t*>(&m), t));
  CHECK(t.mode == TensorMap::WideW);
  CHECK(t.lower[0] == -1);
  CHECK(t.upper[0] == 0);
  CHECK(t.channels == 8);
  CHECK(t.pixels == 20);
  CHECK(t.estride[1] == 2);
  CHECK(t.swizzle == 2);
  REQUIRE(cuTensorMapEncodeIm2colWide(&m, CU_TENSOR_MAP_DATA_TYPE_UINT32, 3, buf, dims, strides, 0, 0, 8, 5000, es,
                                      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_IM2COL_WIDE_MODE_W128,
                                      CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS);  // pixels ignored in W128
  REQUIRE(ptxcheck::interp::tensormap_decode(reinterpret_cast<const uint8_t*>(&m), t));
  CHECK(t.mode == TensorMap::WideW128);
  CHECK(t.rank == 3);
  // Driver rules: no swizzle, 32B swizzle, an interleave, rank 2, pixels
  // above 1024 in W mode, channels beyond the swizzle span (8 x 4 > 32 is
  // fine for 64B; 32 x 4 = 128 > 64), an empty box (W 6 + upper - lower < 1).
  auto wide = [&](cuuint32_t rank, int lo, int hi, cuuint32_t ch, cuuint32_t px, CUtensorMapInterleave il,
                  CUtensorMapSwizzle sw) {
    return cuTensorMapEncodeIm2colWide(&m, CU_TENSOR_MAP_DATA_TYPE_UINT32, rank, buf, dims, strides, lo, hi, ch, px, es,
                                       il, CU_TENSOR_MAP_IM2COL_WIDE_MODE_W, sw, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                       CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  };
  CHECK(wide(4, 0, 0, 8, 16, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_64B) == CUDA_SUCCESS);
  CHECK(wide(4, 0, 0, 8, 16, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE) == CUDA_ERROR_INVALID_VALUE);
  CHECK(wide(4, 0, 0, 8, 16, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_32B) == CUDA_ERROR_INVALID_VALUE);
  CHECK(wide(4, 0, 0, 8, 16, CU_TENSOR_MAP_INTERLEAVE_16B, CU_TENSOR_MAP_SWIZZLE_64B) == CUDA_ERROR_INVALID_VALUE);
  CHECK(wide(2, 0, 0, 8, 16, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_64B) == CUDA_ERROR_INVALID_VALUE);
  CHECK(wide(4, 0, 0, 8, 1025, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_64B) == CUDA_ERROR_INVALID_VALUE);
  CHECK(wide(4, 0, 0, 32, 16, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_64B) == CUDA_ERROR_INVALID_VALUE);
  CHECK(wide(4, 3, -3, 8, 16, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_64B) == CUDA_ERROR_INVALID_VALUE);
  CHECK(wide(4, 40000, 0, 8, 16, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_64B) == CUDA_ERROR_INVALID_VALUE);
}

TEST_CASE("cuTensorMapEncode* with the 128B swizzle's atomicities", "[tensormap]") {
  // CUDA 12.8 CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B / _ATOM_32B_FLIP_8B / _ATOM_64B
  // (PTX ISA 5.5.7): the 128B mode with the .swizzle_atomicity values 1-3 of
  // tensormap.replace (9.7.9.27 Table 33).
  alignas(64) static unsigned char buf[64 * 1024];
  CUtensorMap m;
  cuuint64_t dims[2] = {64, 32}, strides[1] = {128};
  cuuint32_t box[2] = {64, 8}, es[2] = {1, 1};
  const CUtensorMapSwizzle modes[] = {CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B, CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B,
                                      CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B};
  for (unsigned k = 0; k < 3; ++k) {
    REQUIRE(cuTensorMapEncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, buf, dims, strides, box, es,
                                   CU_TENSOR_MAP_INTERLEAVE_NONE, modes[k], CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                   CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS);
    TensorMap t;
    REQUIRE(ptxcheck::interp::tensormap_decode(reinterpret_cast<const uint8_t*>(&m), t));
    CHECK(t.swizzle == 3);
    CHECK(t.atom == k + 1);
    CHECK(ptxcheck::interp::tensormap_cu_swizzle(t) == static_cast<unsigned>(modes[k]));
  }
  // Beyond the enum; an inner box of 256 bytes (beyond the 128-byte span).
  CHECK(cuTensorMapEncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, buf, dims, strides, box, es,
                               CU_TENSOR_MAP_INTERLEAVE_NONE, static_cast<CUtensorMapSwizzle>(7),
                               CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) ==
        CUDA_ERROR_INVALID_VALUE);
  cuuint32_t wide[2] = {128, 8};
  CHECK(cuTensorMapEncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, buf, dims, strides, wide, es,
                               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B,
                               CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) ==
        CUDA_ERROR_INVALID_VALUE);
  // cuTensorMapEncodeIm2colWide lists 64B, 128B and 128B_ATOM_32B only.
  cuuint64_t d4[4] = {8, 6, 5, 2}, s4[3] = {32, 192, 960};
  cuuint32_t e4[4] = {1, 1, 1, 1};
  auto wide_map = [&](CUtensorMapSwizzle sw) {
    return cuTensorMapEncodeIm2colWide(&m, CU_TENSOR_MAP_DATA_TYPE_UINT32, 4, buf, d4, s4, 0, 0, 8, 16, e4,
                                       CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_IM2COL_WIDE_MODE_W, sw,
                                       CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  };
  CHECK(wide_map(CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B) == CUDA_SUCCESS);
  CHECK(wide_map(CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B) == CUDA_ERROR_INVALID_VALUE);
  CHECK(wide_map(CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B) == CUDA_ERROR_INVALID_VALUE);
}

TEST_CASE("cuTensorMapEncodeTiled with interleaved layouts", "[tensormap]") {
  // The driver API's interleave rules (cuTensorMapEncodeTiled; PTX ISA 5.5.6):
  // rank 3-5; CU_TENSOR_MAP_INTERLEAVE_32B needs a 32-byte aligned address,
  // strides multiples of 32 and CU_TENSOR_MAP_SWIZZLE_32B; with interleave
  // the inner box need not be a multiple of 16 bytes nor within the swizzle
  // span.
  alignas(64) static unsigned char buf[64 * 1024];
  CUtensorMap m;
  cuuint64_t dims[5] = {16, 10, 10, 2, 1}, strides[4] = {32, 320, 3200, 6400};
  cuuint32_t box[5] = {16, 4, 2, 2, 1}, es[5] = {1, 1, 1, 1, 1};
  auto enc = [&](cuuint32_t rank, void* addr, const cuuint64_t* st, const cuuint32_t* bx, CUtensorMapInterleave il,
                 CUtensorMapSwizzle sw) {
    return cuTensorMapEncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, rank, addr, dims, st, bx, es, il, sw,
                                  CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  };
  REQUIRE(enc(5, buf, strides, box, CU_TENSOR_MAP_INTERLEAVE_32B, CU_TENSOR_MAP_SWIZZLE_32B) == CUDA_SUCCESS);
  TensorMap t;
  REQUIRE(ptxcheck::interp::tensormap_decode(reinterpret_cast<const uint8_t*>(&m), t));
  CHECK(t.interleave == 2);
  CHECK(t.swizzle == 1);
  CHECK(enc(5, buf, strides, box, CU_TENSOR_MAP_INTERLEAVE_32B, CU_TENSOR_MAP_SWIZZLE_NONE) == CUDA_ERROR_INVALID_VALUE);
  CHECK(enc(5, buf, strides, box, CU_TENSOR_MAP_INTERLEAVE_32B, CU_TENSOR_MAP_SWIZZLE_64B) == CUDA_ERROR_INVALID_VALUE);
  CHECK(enc(5, buf + 16, strides, box, CU_TENSOR_MAP_INTERLEAVE_32B, CU_TENSOR_MAP_SWIZZLE_32B) ==
        CUDA_ERROR_INVALID_VALUE);
  cuuint64_t odd[4] = {48, 320, 3200, 6400};
  CHECK(enc(5, buf, odd, box, CU_TENSOR_MAP_INTERLEAVE_32B, CU_TENSOR_MAP_SWIZZLE_32B) == CUDA_ERROR_INVALID_VALUE);
  CHECK(enc(5, buf, odd, box, CU_TENSOR_MAP_INTERLEAVE_16B, CU_TENSOR_MAP_SWIZZLE_NONE) == CUDA_SUCCESS);
  CHECK(enc(2, buf, strides, box, CU_TENSOR_MAP_INTERLEAVE_16B, CU_TENSOR_MAP_SWIZZLE_NONE) == CUDA_ERROR_INVALID_VALUE);
  // An 8-byte inner box (4 f16) and one beyond the 32B swizzle span: fine
  // with interleave, refused without.
  cuuint32_t small[5] = {4, 4, 2, 2, 1};
  CHECK(enc(5, buf, strides, small, CU_TENSOR_MAP_INTERLEAVE_16B, CU_TENSOR_MAP_SWIZZLE_NONE) == CUDA_SUCCESS);
  CHECK(enc(5, buf, strides, small, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE) ==
        CUDA_ERROR_INVALID_VALUE);
  cuuint32_t wide[5] = {32, 4, 2, 2, 1};
  CHECK(enc(5, buf, strides, wide, CU_TENSOR_MAP_INTERLEAVE_16B, CU_TENSOR_MAP_SWIZZLE_32B) == CUDA_SUCCESS);
  CHECK(enc(5, buf, strides, wide, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_32B) ==
        CUDA_ERROR_INVALID_VALUE);
}
