// Tensor-map encoding (tensormap.hpp explains the 128-byte layout).
#include "semantics/interp/tensormap.hpp"

#include <cstring>

namespace ptxcheck::interp {

namespace {
const char* const kTypeNames[] = {"u8", "u16", "u32", "s32", "u64", "s64", "f16",
                                  "f32", "f64", "bf16", "f32_ftz", "tf32", "tf32_ftz"};
const unsigned kTypeBytes[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};

template <class T>
void put(uint8_t* p, size_t off, T v) {
  std::memcpy(p + off, &v, sizeof v);
}
template <class T>
T get(const uint8_t* p, size_t off) {
  T v;
  std::memcpy(&v, p + off, sizeof v);
  return v;
}
}  // namespace

unsigned tensormap_elem_bytes(unsigned dtype) { return dtype < 13 ? kTypeBytes[dtype] : 0; }
bool tensormap_is_float(unsigned dtype) { return dtype >= 6 && dtype <= 12; }

int tensormap_dtype_from(const std::string& name) {
  for (int i = 0; i < 13; ++i)
    if (name == kTypeNames[i]) return i;
  return -1;
}

// CUDA Driver API, cuTensorMapEncodeTiled / cuTensorMapEncodeIm2col /
// cuTensorMapEncodeIm2colWide
// (Tensor Map Object Management): rank 1-5 (3-5 for im2col), global address
// 16-byte aligned, dims 1..2^32, strides multiples of 16 below 2^40, box
// dims 1..256, element strides 1..8; when interleave is none, an inner box
// of at most the swizzle span and a multiple of 16 bytes; the interleave
// rules below.
std::string tensormap_check(const TensorMap& t) {
  unsigned es = tensormap_elem_bytes(t.dtype);
  if (!es) return "unknown data type";
  if (t.rank < 1 || t.rank > 5) return "rank must be 1 to 5";
  if (t.mode > TensorMap::WideW128) return "unknown tensor map mode";
  if (t.mode == TensorMap::Im2col && t.rank < 3) return "an im2col tensor map has rank 3 to 5";
  if (t.addr % 16) return "global address must be 16-byte aligned";
  for (unsigned d = 0; d < t.rank; ++d) {
    if (t.dims[d] < 1 || t.dims[d] > (1ull << 32)) return "global dimension " + std::to_string(d) + " must be 1 to 2^32";
    if (d && (t.strides[d] % 16 || t.strides[d] >= (1ull << 40)))
      return "global stride " + std::to_string(d) + " must be a multiple of 16 below 2^40";
    if (t.mode == 0 && (t.box[d] < 1 || t.box[d] > 256)) return "box dimension " + std::to_string(d) + " must be 1 to 256";
    if (t.estride[d] < 1 || t.estride[d] > 8) return "element stride " + std::to_string(d) + " must be 1 to 8";
  }
  // PTX ISA 5.5.7: swizzle modes none, 32B, 64B, 128B (and 96B, sm_103a,
  // which ptxcheck does not model); Table 14: atomicities other than 16B
  // only with the 128B mode.
  if (t.swizzle == 4) return "the 96B swizzle mode is not modelled";
  if (t.swizzle > 3) return "unknown swizzle mode";
  if (t.atom > 3) return "unknown swizzle atomicity";
  if (t.atom && t.swizzle != 3)
    return "a swizzle atomicity other than 16B needs the 128B swizzle mode (PTX ISA 5.5.7, Table 14)";
  if (t.interleave == 0 && t.swizzle && t.mode == 0) {
    unsigned span = 16u << t.swizzle;  // 32, 64, 128 bytes
    if (t.box[0] * es > span) return "inner box dimension exceeds the swizzle span of " + std::to_string(span) + " bytes";
  }
  if ((t.box[0] * es) % 16 && t.mode == 0 && !t.interleave)
    return "inner box dimension in bytes must be a multiple of 16";
  // Interleaved layouts (PTX ISA 5.5.6; the driver's cuTensorMapEncodeTiled/
  // Im2col): "supported only for the dimensionalities: 3D, 4D and 5D"; with
  // CU_TENSOR_MAP_INTERLEAVE_32B the global address must be 32-byte
  // aligned, the strides multiples of 32, and the swizzle
  // CU_TENSOR_MAP_SWIZZLE_32B.
  if (t.interleave > 2) return "unknown interleave layout";
  if (t.interleave && t.rank < 3) return "an interleaved layout needs rank 3 to 5 (PTX ISA 5.5.6)";
  if (t.interleave == 2) {
    if (t.addr % 32) return "the 32B interleave needs a 32-byte aligned global address";
    for (unsigned d = 1; d < t.rank; ++d)
      if (t.strides[d] % 32) return "the 32B interleave needs global strides that are multiples of 32";
    if (t.swizzle != 1) return "the 32B interleave needs the 32B swizzle";
  }
  if (t.mode == TensorMap::Im2col) {
    if (t.channels < 1 || t.channels > 256 || t.pixels < 1 || t.pixels > 1024) return "im2col channels/pixels out of range";
  }
  if (t.mode == TensorMap::WideW || t.mode == TensorMap::WideW128) {
    // cuTensorMapEncodeIm2colWide: rank 3-5; W corners in [-32768, 32767]
    // with a bounding box of non-zero area; channelsPerPixel <= 256;
    // pixelsPerColumn <= 1024 (ignored in W128 mode); swizzle 64B or 128B
    // ("swizzling mode must not be (i) no swizzle and (ii) 128-byte swizzle
    // mode with 32-byte atomicity with 8-byte flip", PTX ISA 5.5.5; the
    // driver lists 64B, 128B and 128B with 32-byte atomicity) with the
    // inner dimension (channels) within the swizzle span; no interleave
    // ("The interleave layout is not supported for .im2col::w and
    // .im2col::w::128 modes", 5.5.6).
    if (t.rank < 3) return "an im2col wide tensor map has rank 3 to 5";
    if (t.lower[0] < -32768 || t.lower[0] > 32767 || t.upper[0] < -32768 || t.upper[0] > 32767)
      return "im2col wide W corner out of range";
    if (static_cast<int64_t>(t.dims[1]) + t.upper[0] - t.lower[0] < 1) return "the im2col wide bounding box is empty";
    if (t.channels < 1 || t.channels > 256) return "im2col wide channels out of range";
    if (t.mode == TensorMap::WideW && (t.pixels < 1 || t.pixels > 1024)) return "im2col wide pixels out of range";
    if (t.interleave) return "im2col wide maps take no interleave layout";
    if ((t.swizzle != 2 && t.swizzle != 3) || t.atom > 1)
      return "im2col wide maps need the 64B or 128B swizzle (16B or 32B atomicity)";
    if (t.channels * es > (16u << t.swizzle))
      return "channels per pixel exceed the swizzle span of " + std::to_string(16u << t.swizzle) + " bytes";
  }
  return "";
}

unsigned tensormap_cu_swizzle(const TensorMap& t) { return t.atom && t.swizzle == 3 ? 3u + t.atom : t.swizzle; }

bool tensormap_set_cu_swizzle(TensorMap& t, unsigned cu) {
  if (cu > 6) return false;
  t.swizzle = static_cast<uint8_t>(cu > 3 ? 3 : cu);
  t.atom = static_cast<uint8_t>(cu > 3 ? cu - 3 : 0);
  return true;
}

int tensormap_dtype_from_ptx(uint64_t e) {
  // PTX ISA 9.7.9.27 Table 33: 0 .u8 1 .u16 2 .u32 3 .s32 4 .u64 5 .s64
  // 6 .f16 7 .f32 8 .f32.ftz 9 .f64 10 .bf16 11 .tf32 12 .tf32.ftz.
  static const int kCuda[] = {0, 1, 2, 3, 4, 5, 6, 7, 10, 8, 9, 11, 12};
  return e < 13 ? kCuda[e] : -1;
}

void tensormap_encode(const TensorMap& t, uint8_t* p) {
  std::memset(p, 0, kTensorMapBytes);
  std::memcpy(p, "PXTM", 4);
  p[4] = t.mode, p[5] = t.rank, p[6] = t.dtype, p[7] = t.interleave, p[8] = t.swizzle, p[9] = t.l2, p[10] = t.oob_nan;
  p[11] = t.atom;
  put<uint64_t>(p, 16, t.addr);
  for (unsigned d = 0; d < 5; ++d) {
    put<uint32_t>(p, 24 + 4 * d, static_cast<uint32_t>(t.dims[d] - 1));  // 1..2^32 stored minus one
    if (d) put<uint64_t>(p, 48 + 8 * (d - 1), t.strides[d]);
    put<uint16_t>(p, 80 + 2 * d, static_cast<uint16_t>(t.box[d]));
    p[90 + d] = static_cast<uint8_t>(t.estride[d]);
  }
  for (unsigned d = 0; d < 3; ++d) {
    put<int16_t>(p, 96 + 2 * d, static_cast<int16_t>(t.lower[d]));
    put<int16_t>(p, 102 + 2 * d, static_cast<int16_t>(t.upper[d]));
  }
  put<uint16_t>(p, 108, static_cast<uint16_t>(t.channels));
  put<uint16_t>(p, 110, static_cast<uint16_t>(t.pixels));
}

bool tensormap_decode(const uint8_t* p, TensorMap& t) {
  if (std::memcmp(p, "PXTM", 4)) return false;
  t.mode = p[4], t.rank = p[5], t.dtype = p[6], t.interleave = p[7], t.swizzle = p[8], t.l2 = p[9], t.oob_nan = p[10];
  t.atom = p[11];
  t.addr = get<uint64_t>(p, 16);
  for (unsigned d = 0; d < 5; ++d) {
    t.dims[d] = uint64_t{get<uint32_t>(p, 24 + 4 * d)} + 1;
    t.strides[d] = d ? get<uint64_t>(p, 48 + 8 * (d - 1)) : tensormap_elem_bytes(t.dtype);
    t.box[d] = get<uint16_t>(p, 80 + 2 * d);
    t.estride[d] = p[90 + d];
  }
  for (unsigned d = 0; d < 3; ++d) {
    t.lower[d] = get<int16_t>(p, 96 + 2 * d);
    t.upper[d] = get<int16_t>(p, 102 + 2 * d);
  }
  t.channels = get<uint16_t>(p, 108);
  t.pixels = get<uint16_t>(p, 110);
  return true;
}

}  // namespace ptxcheck::interp
