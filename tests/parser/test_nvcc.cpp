// PTX that nvcc emits for kernels outside the corpus (tests/parser/data/*.cu)
// parses and round-trips; skipped when nvcc is absent.
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
