// Random wgmma.mma_async tests for the hardware harness (issue 12 item 5):
// each test is an sm_90a kernel for one warpgroup (128 threads) that copies
// a raw shared-memory image from buffer `in`, loads its accumulators (and A
// fragment, when A comes from registers) from `in`, issues one
// wgmma.mma_async with matrix descriptors over the image, and stores every
// accumulator register to its own 64-bit slot of buffer `out`; plus a launch
// spec (docs/launch-spec.md) and a manifest, as gen.hpp writes them, so that
// record_all.sh records them on a GPU and `ptxcheck-instrgen compare` checks
// the recording against `ptxcheck run`.
//
// Contract: a pure function of (seed, index). The generator knows the
// canonical shared-memory layouts and descriptor fields only from the PTX ISA
// (9.7.15.5.1.2: K-major and MN-major, no swizzle / 32B / 64B / 128B) and
// never computes a product: the image is filled element by element with
// values of the operand type, whatever the layout maps where, and the
// interpreter's reading of the image is what the hardware checks. Every
// value is chosen so that each product and each partial sum is exact in the
// destination type (multiples of 0.5 in [-3, 3] for floating-point
// operands, multiples of 0.25 for accumulators; any bits for integer and .b1
// operands), so the result does not depend on the accumulation order or
// internal precision (docs/mma.md numeric policy) and must match bit for
// bit; "special" tests (f32 accumulators only) also place infinities, NaNs
// and -0 among the operands, with NaN results compared as any NaN.
#pragma once
#include <cstdint>

#include "hw/instr/gen.hpp"

namespace ptxcheck::instrgen {

// One wgmma test (variant sm_90, target sm_90a); stem "wSEED_INDEX".
Test generate_wgmma(uint64_t seed, unsigned index);
// One wgmma.mma_async.sp test (PTX ISA 9.7.15.6; stem "sSEED_INDEX"): as
// above with a packed A (64 x K/2), a B of the doubled K, the selector, and
// every thread's sp-meta register loaded from `in` (after the A fragment),
// each 4-bit index valid (9.7.15.6.1). Independent of the dense stream: the
// dense tests stay byte-identical.
Test generate_wgmma_sp(uint64_t seed, unsigned index);
// One mma.sp / mma.sp::ordered_metadata test (PTX ISA 9.7.14.6; stem
// "pSEED_INDEX", one warp): every shape and type family of mma.sp
// (.kind::f8f6f4 included), a selector the shape defines, and each lane's
// A, B, C and metadata registers loaded from `in` (every 4-bit index valid;
// pairs in either order only for plain mma.sp). Variant sm_80, sm_89 (fp8)
// or sm_120 (.kind::f8f6f4, target sm_120a). Its own random stream.
Test generate_mma_sp(uint64_t seed, unsigned index);

}  // namespace ptxcheck::instrgen
