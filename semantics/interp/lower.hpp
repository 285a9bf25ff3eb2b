// AST -> flat IR (semantics/interp/ir.hpp), once per run.
// Contract: lower() returns a Program whose `kernel` is the .entry named
// `kernel`; module-scope .global/.const data is laid out with initialisers
// applied, static .shared variables get CTA-relative offsets, and every
// function with a body is lowered. An instruction the interpreter does not
// implement lowers to IrOp::Unsupported (a diagnostic if executed), so that
// a module with exotic code it never reaches still runs. Throws InputError
// (PTX file, position) for references that cannot be resolved (unknown
// register, label or symbol) and when the kernel does not exist.
#pragma once
#include <string>

#include "parser/ast.hpp"
#include "semantics/interp/ir.hpp"

namespace ptxcheck::interp {

// `global_base` places the module's .global variables (a persistent device
// such as the driver-API shim gives each module its own range; session.hpp).
Program lower(const ast::Module& m, const std::string& kernel, SourcePos kernel_pos_in_spec,
              const std::string& spec_file, uint64_t global_base = kGlobalBase);

}  // namespace ptxcheck::interp
