// Placeholder until the parse subcommand lands; owned by its component.
#include <cstdio>

#include "checker/commands.hpp"
#include "parser/diagnostic.hpp"

namespace ptxcheck::cli {
int cmd_parse(const Args&) {
  std::fputs("ptxcheck: 'parse' is not built yet\n", stderr);
  return kExitInvalidInput;
}
}  // namespace ptxcheck::cli
