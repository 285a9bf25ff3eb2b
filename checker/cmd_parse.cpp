// `ptxcheck parse [--json] FILE...`: parse PTX modules and print them as
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
  for (const auto& a : args) {
    if (a == "--json") {
      json = true;
    } else if (a == "-h" || a == "--help") {
      std::fputs("usage: ptxcheck parse [--json] FILE.ptx...\n", stdout);
      return kExitOk;
    } else if (a.size() > 1 && a[0] == '-') {
      std::fprintf(stderr, "ptxcheck parse: unknown option '%s'\nusage: ptxcheck parse [--json] FILE.ptx...\n",
                   a.c_str());
      return kExitInvalidInput;
    } else {
      files.push_back(a);
    }
  }
  if (files.empty()) {
    std::fputs("usage: ptxcheck parse [--json] FILE.ptx...\n", stderr);
    return kExitInvalidInput;
  }
  nlohmann::json all = nlohmann::json::array();
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
      if (json) all.push_back(to_json(m));
      else std::cout << print(m);
    } catch (const InputError& e) {
      std::cout.flush();
      std::fprintf(stderr, "%s\n", format_error_with_source(e.file(), e.pos(), e.what(), text).c_str());
      return kExitInvalidInput;
    }
  }
  if (json) std::cout << (all.size() == 1 ? all[0] : all).dump(1) << "\n";
  return kExitOk;
}

}  // namespace ptxcheck::cli
