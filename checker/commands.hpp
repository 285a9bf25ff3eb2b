// Subcommands of the ptxcheck CLI. Each takes the arguments after its name
// (for the litmus checker, all arguments) and returns an exit code from
// parser/diagnostic.hpp: 0 ok, 1 expectation not met, 2 invalid input or
// usage, 3 resource limit reached.
#pragma once
#include <string>
#include <vector>

namespace ptxcheck::cli {
using Args = std::vector<std::string>;
int cmd_litmus(const Args& args);  // ptxcheck [options] FILE.litmus|DIR...   (checker/cmd_litmus.cpp)
int cmd_parse(const Args& args);   // ptxcheck parse [--json] FILE.ptx...     (checker/cmd_parse.cpp)
int cmd_run(const Args& args);     // ptxcheck run SPEC.json [--json] [--expect F] (checker/cmd_run.cpp)
}  // namespace ptxcheck::cli
