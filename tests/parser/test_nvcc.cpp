// PTX that nvcc emits for kernels outside the corpus (tests/parser/data/*.cu)
// parses and round-trips, and so do the -G builds too large for the corpus;
// skipped when nvcc is absent.
#include <catch2/catch.hpp>

#include <unistd.h>

#include "parser/parse.hpp"
#include "parser/printer.hpp"
#include "tests/parser/util.hpp"

TEST_CASE("fresh nvcc output parses and round-trips", "[nvcc]") {
  const std::string nvcc = ptxtest::find_tool("nvcc");
  if (nvcc.empty()) {
    WARN("nvcc not found; skipping");
    return;
  }
  auto tmp = std::filesystem::temp_directory_path() / ("ptxcheck-nvcc-" + std::to_string(::getpid()));
  std::filesystem::create_directories(tmp);
  size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator(ptxtest::src_root() / "tests/parser/data")) {
    if (e.path().extension() != ".cu") continue;
    for (const char* arch : {"sm_80", "sm_90"}) {
      auto out = tmp / (e.path().stem().string() + "_" + arch + ".ptx");
      std::string cmd = nvcc + " -ptx -arch=" + arch + " '" + e.path().string() + "' -o '" + out.string() +
                        "' 2>/dev/null";
      INFO(cmd);
      REQUIRE(std::system(cmd.c_str()) == 0);
      const std::string text = ptxtest::read_file(out);
      auto m = ptxcheck::parse_module(text, out.string());
      CHECK(ptxcheck::parse_module(ptxcheck::print(m), "printed") == m);
      ++n;
    }
  }
  std::filesystem::remove_all(tmp);
  CHECK(n >= 2);
}

// The -G builds too large to commit (corpus/ptx/debug/large.txt, written by
// corpus/ptx/debug/regen.sh): built here with the flags regen.sh uses, then
// parsed, round-tripped and assembled in their printed form.
TEST_CASE("large nvcc -G builds parse, round-trip and assemble", "[nvcc-debug]") {
  const auto root = ptxtest::src_root();
  std::vector<std::string> sources;
  {
    std::istringstream in(ptxtest::read_file(root / "corpus/ptx/debug/large.txt"));
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) sources.push_back(line);
  }
  REQUIRE(!sources.empty());
  const std::string nvcc = ptxtest::find_tool("nvcc");
  const std::string ptxas = ptxtest::find_ptxas();
  if (nvcc.empty() || ptxas.empty()) {
    WARN("nvcc/ptxas not found; skipping");
    return;
  }
  auto tmp = std::filesystem::temp_directory_path() / ("ptxcheck-nvcc-G-" + std::to_string(::getpid()));
  std::filesystem::create_directories(tmp);
  for (const auto& rel : sources) {
    const auto src = root / rel;
    INFO(src.string());
    REQUIRE(std::filesystem::exists(src));
    // `// corpus-arch:` / `// corpus-flags:` lines as in regen.sh.
    std::string arch = "sm_90", flags;
    std::istringstream text(ptxtest::read_file(src));
    for (std::string line; std::getline(text, line);) {
      if (line.rfind("// corpus-arch: ", 0) == 0) arch = line.substr(16, line.find(' ', 16) - 16);
      if (line.rfind("// corpus-flags: ", 0) == 0) flags = line.substr(17);
    }
    // As regen.sh: -G already runs cicc at -O0 (nvcc refuses "-Xcicc -O0"
    // beside it), and a second -G adds nothing.
    for (const std::string drop : {"-Xcicc -O0", "-G"})
      for (size_t at; (at = flags.find(drop)) != std::string::npos;) flags.erase(at, drop.size());
    const auto out = tmp / "in.ptx", printed = tmp / "printed.ptx";
    const std::string cmd = nvcc + " -ptx -G -arch=" + arch + " " + flags + " '" + src.string() + "' -o '" +
                            out.string() + "' 2>/dev/null";
    INFO(cmd);
    REQUIRE(std::system(cmd.c_str()) == 0);
    const auto m = ptxcheck::parse_module(ptxtest::read_file(out), out.string());
    const std::string p = ptxcheck::print(m);
    const auto again = ptxcheck::parse_module(p, "printed");
    CHECK(again == m);
    CHECK(ptxcheck::print(again) == p);
    std::ofstream(printed) << p;
    CHECK(std::system((ptxas + " -arch=" + arch + " '" + printed.string() + "' -o /dev/null").c_str()) == 0);
  }
  std::filesystem::remove_all(tmp);
}
