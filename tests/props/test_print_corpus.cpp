// Print/parse identity on the hand-written and Dat3M corpora: every test
// prints in its own dialect and parses back equivalent (print.hpp); where
// the other dialect can express it, that round trip holds too.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "parser/litmus/print.hpp"
#include "tests/props/props_common.hpp"

using namespace ptxcheck;
using namespace ptxcheck::litmus;
namespace fs = std::filesystem;

namespace {

struct Tally {
  int files = 0, native = 0, dat3m = 0;
};

void round_trip(const std::string& path, bool native_origin, Tally& n) {
  INFO(path);
  Test t = parse_litmus_file(path);
  ++n.files;
  for (bool native : {true, false}) {
    std::string text;
    try {
      text = native ? print_native(t) : print_dat3m(t);
    } catch (const InputError& e) {
      // A test must always print in the dialect it was written in.
      INFO(e.what());
      CHECK(native != native_origin);
      continue;
    }
    INFO(text);
    Test back = native ? parse_native(text, path) : parse_dat3m(text, path);
    CHECK(test_difference(t, back) == "");
    ++(native ? n.native : n.dat3m);
  }
}

std::vector<std::string> litmus_files(const fs::path& dir) {
  std::vector<std::string> out;
  if (!fs::is_directory(dir)) return out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.path().extension() == ".litmus") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("hand-written native tests print and parse back", "[props-litmus-print]") {
  Tally n;
  for (const char* sub : {"litmus", "corpus/spec", "corpus/regress"})
    for (const auto& f : litmus_files(fs::path(props::src_root()) / sub)) round_trip(f, true, n);
  CHECK(n.files >= 20);
  CHECK(n.native == n.files);
}

TEST_CASE("Dat3M corpus tests print and parse back", "[props-litmus-print]") {
  fs::path dir = fs::path(props::shared_root()) / "corpus" / "dat3m-ptx" / "litmus";
  if (!fs::is_directory(dir)) {
    WARN("no Dat3M corpus at " << dir.string() << "; skipped");
    return;
  }
  Tally n;
  for (const auto& f : litmus_files(dir)) round_trip(f, false, n);
  std::printf("Dat3M corpus: %d files, %d round-trip in Dat3M's dialect, %d in the native format\n", n.files,
              n.dat3m, n.native);
  CHECK(n.files >= 700);
  CHECK(n.dat3m == n.files);
  CHECK(n.native > 0);
}
