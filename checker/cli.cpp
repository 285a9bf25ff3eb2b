// Argument parsing shared by the subcommands: CLI11 with one-line errors.
// A usage error is positioned on the command line as typed (line 1, the
// column of the offending argument), so that it reads like every other
// diagnostic: `ptxcheck run:1:19: error: --max-steps: ... (see ptxcheck run --help)`.
#include <cstdio>

#include "checker/commands.hpp"
#include "parser/diagnostic.hpp"

namespace ptxcheck::cli {

namespace {

std::string& typed_prefix() {
  static std::string p = "ptxcheck";
  return p;
}

// 1-based column, in `prefix args...` joined by spaces, of the first
// argument that is `culprit`, starts with `culprit=` or (for CLI11's
// messages) is named in `msg`; one past the end when none is.
uint32_t column_of(const Args& args, const std::string& culprit, const std::string& msg) {
  auto at = [&](auto&& match) -> int {
    size_t col = typed_prefix().size() + 2;
    for (const auto& a : args) {
      if (match(a)) return static_cast<int>(col);
      col += a.size() + 1;
    }
    return -1;
  };
  int c = -1;
  if (!culprit.empty()) c = at([&](const std::string& a) { return a == culprit || a.rfind(culprit + "=", 0) == 0; });
  if (c < 0)  // CLI11 names the option or the value it rejects
    c = at([&](const std::string& a) {
      if (a.empty()) return false;
      const std::string name = a.substr(0, a.find('='));
      return (name.size() > 1 && name[0] == '-' && msg.find(name) != std::string::npos) ||
             (a.size() > 1 && msg.find(": " + a) != std::string::npos);
    });
  if (c < 0) {
    size_t end = typed_prefix().size() + 1;
    for (const auto& a : args) end += a.size() + 1;
    c = static_cast<int>(end);
  }
  return static_cast<uint32_t>(c);
}

}  // namespace

void set_command_prefix(const std::string& typed) { typed_prefix() = typed; }

int usage_error(const std::string& app_name, const Args& args, const std::string& msg, const std::string& culprit) {
  std::string m = msg;
  for (char& c : m)
    if (c == '\n') c = ' ';
  std::fprintf(stderr, "%s:1:%u: error: %s (see %s --help)\n", app_name.c_str(), column_of(args, culprit, m), m.c_str(),
               app_name.c_str());
  return kExitInvalidInput;
}

int parse_args(CLI::App& app, const Args& args) {
  std::vector<std::string> rev(args.rbegin(), args.rend());  // CLI11 consumes from the back
  try {
    app.parse(rev);
  } catch (const CLI::CallForHelp&) {
    std::fputs(app.help().c_str(), stdout);
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    return usage_error(app.get_name(), args, e.what());
  }
  return -1;
}

}  // namespace ptxcheck::cli
