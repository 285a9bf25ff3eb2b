// ptxcheck: which outcomes does the PTX memory model allow, and what does a
// PTX kernel compute. Dispatches to a subcommand of checker/subcommands.def;
// without a subcommand name, the first row (the litmus checker) runs.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>

#include "checker/commands.hpp"
#include "parser/diagnostic.hpp"

namespace {

// The PTX ISA version whose semantics ptxcheck implements.
constexpr const char* kPtxIsaVersion = "9.2";

struct Subcommand {
  const char* name;
  int (*fn)(const ptxcheck::cli::Args&);
  const char* summary;
};

constexpr Subcommand kSubcommands[] = {
#define PTXCHECK_SUBCOMMAND(name, fn, summary) {name, &ptxcheck::cli::fn, summary},
#include "checker/subcommands.def"
#undef PTXCHECK_SUBCOMMAND
};

std::string overview() {
  std::string s =
      "usage: ptxcheck [SUBCOMMAND] [options] ARGS...\n"
      "Executable reference semantics of NVIDIA PTX (PTX ISA " +
      std::string(kPtxIsaVersion) +
      ").\n\n"
      "subcommands (`ptxcheck SUBCOMMAND --help` lists its options):\n";
  size_t w = 0;
  for (const auto& c : kSubcommands) w = std::max(w, std::string(c.name).size());
  for (const auto& c : kSubcommands) {
    std::string name = c.name;
    s += "  " + name + std::string(w + 2 - name.size(), ' ') + c.summary + "\n";
  }
  s += "\nWithout a SUBCOMMAND, ptxcheck runs `" + std::string(kSubcommands[0].name) +
       "` on its arguments.\n\n"
       "options:\n"
       "  -h, --help   print this list\n"
       "  --version    print the ptxcheck version and the PTX ISA version it implements\n";
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  ptxcheck::cli::Args args(argv + 1, argv + argc);
  try {
    if (args.empty()) return ptxcheck::cli::usage_error("ptxcheck", args, "no arguments");
    const std::string& first = args[0];
    if (first == "-h" || first == "--help" || (first == "help" && args.size() == 1)) {
      std::fputs(overview().c_str(), stdout);
      return ptxcheck::kExitOk;
    }
    if (first == "--version") {
      std::printf("ptxcheck %s (PTX ISA %s)\n", PTXCHECK_VERSION, kPtxIsaVersion);
      return ptxcheck::kExitOk;
    }
    if (first == "help") {  // `ptxcheck help SUB` is `ptxcheck SUB --help`
      for (const auto& c : kSubcommands)
        if (args[1] == c.name) return c.fn({"--help"});
      return ptxcheck::cli::usage_error("ptxcheck", args, "no subcommand '" + args[1] + "'", args[1]);
    }
    for (const auto& c : kSubcommands)
      if (first == c.name) {
        ptxcheck::cli::set_command_prefix("ptxcheck " + first);
        return c.fn({args.begin() + 1, args.end()});
      }
    return kSubcommands[0].fn(args);
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
