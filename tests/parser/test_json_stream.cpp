// `ptxcheck parse --json` streams (parser/json.cpp write_json): on every PTX
// file of the corpus its bytes equal the document-building serializer's
// to_json(m).dump(1), the output of the command before it streamed; strings
// that need escaping and non-UTF-8 strings behave as before (escaped the same
// way; rejected with an error instead of an exception, before any output).
#include <catch2/catch.hpp>

#include <sstream>

#include "parser/diagnostic.hpp"
#include "parser/json.hpp"
#include "parser/parse.hpp"
#include "tests/parser/util.hpp"

namespace {
std::string streamed(const ptxcheck::ast::Module& m) {
  std::ostringstream os;
  ptxcheck::write_json(os, m);
  return os.str();
}
}  // namespace

TEST_CASE("streamed JSON equals the JSON document's dump on the corpus", "[json-stream]") {
  const auto root = ptxtest::src_root();
  std::vector<std::filesystem::path> files = ptxtest::ptx_files(root / "corpus" / "ptx");
  for (const char* d : {"corpus/kernels", "corpus/outcomes", "corpus/regress/ast"})
    for (auto& f : ptxtest::ptx_files(root / d)) files.push_back(f);
  REQUIRE(files.size() > 100);
  std::vector<ptxcheck::ast::Module> some;
  for (const auto& f : files) {
    INFO(f.string());
    const auto m = ptxcheck::parse_module(ptxtest::read_file(f), f.string());
    CHECK(streamed(m) == ptxcheck::to_json(m).dump(1));
    if (some.size() < 3) some.push_back(m);
  }
  // Several modules: one array, as `ptxcheck parse --json A B C` prints.
  nlohmann::json all = nlohmann::json::array();
  for (const auto& m : some) all.push_back(ptxcheck::to_json(m));
  std::ostringstream os;
  ptxcheck::write_json(os, some);
  CHECK(os.str() == all.dump(1));
  std::ostringstream none;
  ptxcheck::write_json(none, std::vector<ptxcheck::ast::Module>{});
  CHECK(none.str() == "[]");
}

TEST_CASE("streamed JSON escapes like nlohmann and rejects non-UTF-8 up front", "[json-stream]") {
  const std::string head = ".version 8.0\n.target sm_90\n.address_size 64\n";
  // Quotes, backslashes, control characters, UTF-8 and DEL in a .file path
  // and a .pragma string, and in the module's file name.
  const std::string text = head + ".file 1 \"a\\\"b\\\\c\td\x7f\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80.cu\"\n" +
                           ".entry k()\n{\n\t.pragma \"nounroll\x01\";\n\tret;\n}\n";
  const auto m = ptxcheck::parse_module(text, "dir/\xc3\xa9 \"x\".ptx");
  CHECK(streamed(m) == ptxcheck::to_json(m).dump(1));

  for (const char* bad : {"\xff", "\xc3", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe2\x82"}) {
    INFO(bad);
    const auto b = ptxcheck::parse_module(head + ".file 1 \"x" + bad + "\"\n", "bad.ptx");
    CHECK_THROWS(ptxcheck::to_json(b).dump(1));  // what the command used to do: an internal error
    std::ostringstream os;
    try {
      ptxcheck::write_json(os, b);
      FAIL("no error");
    } catch (const ptxcheck::InputError& e) {
      CHECK(e.pos().line == 4);
      CHECK(std::string(e.what()).find("UTF-8") != std::string::npos);
    }
    CHECK(os.str().empty());
  }
  const auto good = ptxcheck::parse_module(head, "ok.ptx");
  std::vector<ptxcheck::ast::Module> two{good, ptxcheck::parse_module(head + ".file 1 \"\xff\"\n", "b.ptx")};
  std::ostringstream os;
  CHECK_THROWS_AS(ptxcheck::write_json(os, two), ptxcheck::InputError);
  CHECK(os.str().empty());  // nothing of the first module either
}
