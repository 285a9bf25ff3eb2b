// Subcommands of the ptxcheck CLI (rows of checker/subcommands.def). Each
// takes the arguments after its name (for the default litmus checker called
// without its name, all arguments) and returns an exit code from
// parser/diagnostic.hpp: 0 ok, 1 expectation not met, 2 invalid input or
// usage, 3 resource limit reached.
#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace ptxcheck::cli {
using Args = std::vector<std::string>;

#define PTXCHECK_SUBCOMMAND(name, fn, summary) int fn(const Args& args);
#include "checker/subcommands.def"
#undef PTXCHECK_SUBCOMMAND

// Parses `args` with `app` (named "ptxcheck SUB"). Returns -1 when the
// subcommand should go on; otherwise the exit code to return: 0 after
// printing --help, 2 after a one-line usage error on stderr.
int parse_args(CLI::App& app, const Args& args);

// A usage error of `app_name` ("ptxcheck SUB") on one line, positioned at
// the argument `culprit` on the command line (the first argument CLI11's
// message names when empty; past the end when none): returns 2.
int usage_error(const std::string& app_name, const Args& args, const std::string& msg, const std::string& culprit = "");
// What the user typed before the subcommand's arguments ("ptxcheck" or
// "ptxcheck SUB"): the origin of usage-error columns.
void set_command_prefix(const std::string& typed);
}  // namespace ptxcheck::cli
