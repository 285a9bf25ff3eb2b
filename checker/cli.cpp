// Argument parsing shared by the subcommands: CLI11 with one-line errors.
#include <cstdio>

#include "checker/commands.hpp"
#include "parser/diagnostic.hpp"

namespace ptxcheck::cli {

int parse_args(CLI::App& app, const Args& args) {
  std::vector<std::string> rev(args.rbegin(), args.rend());  // CLI11 consumes from the back
  try {
    app.parse(rev);
  } catch (const CLI::CallForHelp&) {
    std::fputs(app.help().c_str(), stdout);
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    std::string msg = e.what();
    for (char& c : msg)
      if (c == '\n') c = ' ';
    std::fprintf(stderr, "%s: %s (see %s --help)\n", app.get_name().c_str(), msg.c_str(), app.get_name().c_str());
    return kExitInvalidInput;
  }
  return -1;
}

}  // namespace ptxcheck::cli
