// The sm_6x rule for warp collectives (PTX ISA 9.7.13.9 vote.sync: "For
// .target sm_6x or below, all threads in membermask must execute the same
// vote.sync instruction in convergence"; likewise shfl.sync, bar.warp.sync):
// lowering (lower_sync.cpp) marks the .sync collectives of such a module
// with kSameInstruction in Inst::flags; execution (warp_ops.cpp) reports
// lanes that meet at different instructions.
#pragma once
#include <cstdint>

namespace ptxcheck::ast {
struct Module;
}

namespace ptxcheck::interp {

constexpr uint8_t kSameInstruction = 0x80;

// True when the module's .target names an architecture below sm_70.
bool below_sm70(const ast::Module& m);

}  // namespace ptxcheck::interp
