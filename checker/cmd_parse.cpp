// `ptxcheck parse [--json] FILE.ptx...`: parse PTX modules and print them as
// canonical PTX (default) or as a JSON AST. Exit 0 when every file parses,
// 2 on the first malformed file (error with source line and caret) or on a
// usage error.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "checker/commands.hpp"
#include "parser/diagnostic.hpp"
#include "parser/json.hpp"
#include "parser/parse.hpp"
#include "parser/printer.hpp"

namespace ptxcheck::cli {

int cmd_parse(const Args& args) {
  bool json = false;
  std::vector<std::string> files;
  CLI::App app{"Parse PTX modules (PTX ISA 9.2) and print them as canonical PTX or as a JSON AST.", "ptxcheck parse"};
  app.add_flag("--json", json, "print the JSON AST (an array when several files are given)");
  app.add_option("files", files, "PTX files")->required();
  if (int rc = parse_args(app, args); rc >= 0) return rc;
  // --json: every file is parsed before anything is written, so a malformed
  // file leaves no partial document; the JSON is then streamed (write_json),
  // never built in memory.
  std::vector<ast::Module> modules;
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "%s\n", format_error(f, {}, "cannot open file").c_str());
      return kExitInvalidInput;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    try {
      ast::Module m = parse_module(text, f);
      if (json) {
        check_json_strings(m);
        modules.push_back(std::move(m));
      } else {
        std::cout << print(m);
      }
    } catch (const InputError& e) {
      std::cout.flush();
      std::fprintf(stderr, "%s\n", format_error_with_source(e.file(), e.pos(), e.what(), text).c_str());
      return kExitInvalidInput;
    }
  }
  if (json) {
    if (modules.size() == 1)
      write_json(std::cout, modules[0]);
    else
      write_json(std::cout, modules);
    std::cout << "\n";
  }
  return kExitOk;
}

}  // namespace ptxcheck::cli
