// Internal to the texture files (texture.cpp: arrays and texture/surface
// objects; texref.cpp: texture and surface references): what they share.
// Not part of the shim's interface (state.hpp is).
#pragma once

#include "cuda/shim/state.hpp"

namespace shim::textures {

// Channel kind and bytes of an array format; false for the formats refused.
bool format_of(CUarray_format f, ptxcheck::interp::ChanKind& kind, uint8_t& bytes);
// Whether an array may have n channels (1, 2 or 4).
bool channels_ok(unsigned n);
// The texels a resource names (lock held); `api` names the caller in the
// message of a refusal.
CUresult describe(State& s, const CUDA_RESOURCE_DESC& r, ptxcheck::interp::TexDesc& t, const char* api);
// The CU_TRSF_* flags a TexDesc keeps.
void set_flags(ptxcheck::interp::TexDesc& t, unsigned flags);
// An array as a resource (cuTexRefSetArray, cuSurfRefSetArray).
CUDA_RESOURCE_DESC array_resource(CUarray a);

}  // namespace shim::textures
