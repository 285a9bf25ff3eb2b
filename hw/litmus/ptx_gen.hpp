// Litmus test -> PTX module + Bundle for the hardware harness
// (hw/README.md "Kernel"). One kernel, `litmus_test`, runs every role of the
// test: each thread looks up its (instance, role) in a host-made table,
// optionally pre-stresses and meets the others at a bounded spin barrier,
// then runs its role's instructions on the instance's locations and stores
// the role's observed registers and a completion bit. Threads of stress CTAs
// hammer scratch lines instead.
// Contract: generate() either returns a module ptxas accepts for `arch`
// (sm_80 or sm_90) or throws NotExpressible naming the first construct it
// cannot emit (aliases, non-generic proxies, several GPUs, clusters of
// several CTAs on sm_80, barriers with counts or under branches, ...).
// InputError from lowering the test propagates unchanged.
#pragma once
#include <stdexcept>
#include <string>

#include "hw/litmus/bundle.hpp"
#include "parser/litmus/litmus_ast.hpp"

namespace ptxcheck::hw {

struct NotExpressible : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Generated {
  std::string ptx;
  Bundle bundle;
};

Generated generate(const litmus::Test& t, const std::string& arch, const std::string& litmus_path,
                   const std::string& litmus_text);

}  // namespace ptxcheck::hw
