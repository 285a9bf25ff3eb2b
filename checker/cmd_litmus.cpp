// Placeholder until the litmus subcommand lands; owned by its component.
#include <cstdio>

#include "checker/commands.hpp"
#include "parser/diagnostic.hpp"

namespace ptxcheck::cli {
int cmd_litmus(const Args&) {
  std::fputs("ptxcheck: 'litmus' is not built yet\n", stderr);
  return kExitInvalidInput;
}
}  // namespace ptxcheck::cli
