// Tensor-map objects (PTX ISA 9.2 5.5.8 "Tensor Map", 9.7.9.25.5
// cp.async.bulk.tensor; CUDA driver API cuTensorMapEncodeTiled/Im2col). The
// hardware's 128-byte format is opaque (undocumented); ptxcheck uses its own
// 128-byte encoding, written by the launch spec ("tensormaps", docs/launch-
// spec.md) and by the CUDA shim's cuTensorMapEncode*, read by
// cp.async.bulk.tensor / cp.reduce.async.bulk.tensor and edited by
// tensormap.replace. Layout (little-endian):
//   0 u32 magic "PXTM"   4 u8 mode (0 tiled, 1 im2col, 2 im2col wide W,
//   3 im2col wide W128: cuTensorMapEncodeIm2colWide, whose W corners are
//   lower[0]/upper[0])   5 u8 rank (1-5)
//   6 u8 data type (CUtensorMapDataType numbering)   7 u8 interleave
//   8 u8 swizzle (0 none, 1 32B, 2 64B, 3 128B)   9 u8 L2 promotion
//   10 u8 OOB fill (0 zero, 1 NaN)
//   11 u8 swizzle atomicity (tensormap.replace's .swizzle_atomicity values,
//   PTX ISA 9.7.9.27 Table 33: 0 16B, 1 32B, 2 32B + 8B flip, 3 64B)
//   16 u64 global address
//   24 u32 dims[5]   48 u64 strides[4] (bytes, of dims 1..4)
//   80 u16 box[5]   90 u8 element strides[5]
//   96 s16 im2col lower corner[3]   102 s16 upper corner[3]
//   108 u16 channels per pixel   110 u16 pixels per column
#pragma once
#include <cstdint>
#include <string>

namespace ptxcheck::interp {

struct TensorMap {
  enum Mode : uint8_t { Tiled = 0, Im2col = 1, WideW = 2, WideW128 = 3 };
  uint8_t mode = Tiled, rank = 1, dtype = 0, interleave = 0, swizzle = 0, l2 = 0, oob_nan = 0;
  uint8_t atom = 0;  // swizzle atomicity: 0 16B, 1 32B, 2 32B + 8B flip, 3 64B (PTX ISA 5.5.7)
  uint64_t addr = 0;
  uint64_t dims[5] = {1, 1, 1, 1, 1};
  uint64_t strides[5] = {0, 0, 0, 0, 0};  // bytes; strides[0] is the element size
  uint32_t box[5] = {1, 1, 1, 1, 1};
  uint32_t estride[5] = {1, 1, 1, 1, 1};
  int32_t lower[3] = {0, 0, 0}, upper[3] = {0, 0, 0};
  uint32_t channels = 0, pixels = 0;
};

inline constexpr unsigned kTensorMapBytes = 128;
// Element size in bytes of a CUtensorMapDataType (0-12), 0 if unknown.
unsigned tensormap_elem_bytes(unsigned dtype);
bool tensormap_is_float(unsigned dtype);
// Type name as in launch specs and the CUDA enum: "u8", "u16", "u32", "s32",
// "u64", "s64", "f16", "f32", "f64", "bf16", "f32_ftz", "tf32", "tf32_ftz".
int tensormap_dtype_from(const std::string& name);
// Validates a map (the CUDA driver API's rules for cuTensorMapEncodeTiled /
// Im2col / Im2colWide); returns "" or what is wrong.
std::string tensormap_check(const TensorMap& t);
// The CUtensorMapSwizzle value of a map's swizzle mode and atomicity (CUDA
// 12.8: 4 CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B, 5 ..._ATOM_32B_FLIP_8B,
// 6 ..._ATOM_64B are the 128B mode with 32B, 32B + 8B flip and 64B
// atomicity), and back (false: not a CUtensorMapSwizzle value).
unsigned tensormap_cu_swizzle(const TensorMap& t);
bool tensormap_set_cu_swizzle(TensorMap& t, unsigned cu);
// Tensor-map .elemtype of tensormap.replace (PTX ISA 9.7.9.27 Table 33,
// whose values "do not correspond to the values of the CUtensorMapDataType
// enum") to the CUtensorMapDataType numbering of TensorMap::dtype; -1 for
// the types ptxcheck's maps do not hold (13-15: .b4x16, .b4x16_p64,
// .b6x16_p32) and unknown values.
int tensormap_dtype_from_ptx(uint64_t elemtype);
void tensormap_encode(const TensorMap& t, uint8_t* out128);
bool tensormap_decode(const uint8_t* in128, TensorMap& t);  // false: not a tensor map

}  // namespace ptxcheck::interp
