// ptxcheck: which outcomes does the PTX memory model allow, and what does a
// PTX kernel compute. Dispatches to a subcommand; the default is the litmus
// checker.
#include <cstdio>
#include <exception>
#include <string>

#include "checker/commands.hpp"
#include "parser/diagnostic.hpp"

namespace {
constexpr const char* kUsage =
    "usage: ptxcheck [options] FILE.litmus|DIR...   check litmus tests (see --help)\n"
    "       ptxcheck parse [--json] FILE.ptx...      parse PTX, print canonical PTX or JSON AST\n"
    "       ptxcheck run SPEC.json [--json] [--expect FILE]   execute a kernel\n";
}

int main(int argc, char** argv) {
  ptxcheck::cli::Args args(argv + 1, argv + argc);
  try {
    if (args.empty()) {
      std::fputs(kUsage, stderr);
      return ptxcheck::kExitInvalidInput;
    }
    const std::string& first = args[0];
    if (first == "parse") return ptxcheck::cli::cmd_parse({args.begin() + 1, args.end()});
    if (first == "run") return ptxcheck::cli::cmd_run({args.begin() + 1, args.end()});
    if (first == "help") {
      std::fputs(kUsage, stdout);
      return ptxcheck::kExitOk;
    }
    return ptxcheck::cli::cmd_litmus(args);
  } catch (const ptxcheck::InputError& e) {
    std::fprintf(stderr, "%s\n", ptxcheck::format_error(e.file(), e.pos(), e.what()).c_str());
    return ptxcheck::kExitInvalidInput;
  } catch (const ptxcheck::LimitError& e) {
    std::fprintf(stderr, "ptxcheck: limit reached: %s\n", e.what());
    return ptxcheck::kExitResourceLimit;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "ptxcheck: limit reached: out of memory\n");
    return ptxcheck::kExitResourceLimit;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ptxcheck: internal error: %s\n", e.what());
    return 4;
  }
}
