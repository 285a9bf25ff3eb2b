// Placeholder until the run subcommand lands; owned by its component.
#include <cstdio>

#include "checker/commands.hpp"
#include "parser/diagnostic.hpp"

namespace ptxcheck::cli {
int cmd_run(const Args&) {
  std::fputs("ptxcheck: 'run' is not built yet\n", stderr);
  return kExitInvalidInput;
}
}  // namespace ptxcheck::cli
