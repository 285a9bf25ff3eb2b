// corpus/malformed: each file states `// expect: LINE:COL message` on its
// first line; parse_module must throw InputError at exactly that position
// with a message containing the text (never crash, never accept).
#include <catch2/catch.hpp>

#include <regex>

#include "parser/parse.hpp"
#include "tests/parser/util.hpp"

TEST_CASE("malformed PTX is rejected at the stated line:col", "[malformed]") {
  auto files = ptxtest::ptx_files(ptxtest::src_root() / "corpus" / "malformed");
  REQUIRE(files.size() >= 30);
  const std::regex expect(R"(^// expect: (\d+):(\d+) (.*)$)");
  for (const auto& f : files) {
    INFO(f.string());
    const std::string text = ptxtest::read_file(f);
    const std::string first = text.substr(0, text.find('\n'));
    std::smatch m;
    REQUIRE(std::regex_match(first, m, expect));
    const unsigned line = std::stoul(m[1]), col = std::stoul(m[2]);
    const std::string msg = m[3];
    bool thrown = false;
    try {
      (void)ptxcheck::parse_module(text, f.string());
    } catch (const ptxcheck::InputError& e) {
      thrown = true;
      CHECK(e.file() == f.string());
      CHECK(e.pos().line == line);
      CHECK(e.pos().col == col);
      CHECK_THAT(e.what(), Catch::Contains(msg));
    }
    CHECK(thrown);
  }
}
