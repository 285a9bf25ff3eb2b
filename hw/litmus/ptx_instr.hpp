// Internal to the generator: PTX for one role's litmus instructions.
// Register conventions of the kernel (ptx_gen.cpp): %x<slot> (.b64) hold the
// test's registers, %la<loc> (.b64) the instance's location addresses,
// %w0-%w7 (.b32), %v0-%v7 (.b64) and %p0-%p3 are scratch, %cnt counts
// backward branches against %lim; a role that exceeds it jumps to R<r>_CUT.
#pragma once
#include <string>

#include "semantics/litmus/program.hpp"

namespace ptxcheck::hw {

struct EmitFlags {
  bool cluster_scope = false;  // needs sm_90
  bool mmio = false;           // needs PTX 8.2
  bool async_proxy = false;    // needs sm_90
};

// Appends the PTX of instruction `pc` of thread `role` to `out`. Throws
// NotExpressible for what the harness cannot run on hardware.
void emit_instr(const litmus::Program& p, int role, int pc, std::string& out, EmitFlags& flags);

}  // namespace ptxcheck::hw
