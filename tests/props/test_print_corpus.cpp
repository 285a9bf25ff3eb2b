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

TEST_CASE("printers refuse what their dialect cannot express", "[props-litmus-print]") {
  const char* dat3m_only[] = {
      "PTX a\n{ x=0; }\n P0@cta 0,gpu 0 ;\n blt r0, 1, L ;\n L: ;\nexists (x == 0)\n",      // compare-and-branch
      "PTX a\n{ x=0; }\n P0@cta 0,gpu 0 ;\n bar.cta.sync 1, r2 ;\nexists (x == 0)\n",         // two-operand barrier id
      "PTX a\n{ x=0; y @ texture aliases x; }\n P0@cta 0,gpu 0 ;\n tld r0, x ;\nexists (x == 0)\n",  // proxy not the location's
      "PTX a\n{ x=0; }\n P0@cta 0,gpu 0 ;\n fence.proxy.texture ;\nexists (x == 0)\n",       // not a PTX proxy fence
      "PTX a\n{ x=0; }\n P0@cta 0,gpu 0 ;\n atom.relaxed.gpu.inc r0, x ;\nexists (x == 0)\n",  // inc without bound
  };
  for (const char* src : dat3m_only) {
    INFO(src);
    Test t = parse_dat3m(src, "a.litmus");
    CHECK(test_difference(t, parse_dat3m(print_dat3m(t), "a.litmus")) == "");
    CHECK_THROWS_AS(print_native(t), InputError);
  }
  const char* native_only[] = {
      "PTX a\n{\n}\nT0 @ cta 0, warp 1 {\n  st.global.u32 [x], 1;\n}\nexists (x == 1)\n",          // warp
      "PTX a\n{\n  .global .u64 x = 0;\n}\nT0 @ cta 0 {\n  st.global.u64 [x], 1;\n}\nexists (x == 1)\n",  // 8 bytes
      "PTX a\n{\n}\nT0 @ cta 0 {\n  setp.eq.u32 %p, 1, 1;\n}\nexists (x == 0)\n",                    // setp
      "PTX a\n{\n}\nT0 @ cta 0 {\n  mov.u32 %r1, %r0;\n}\nexists (x == 0)\n",                       // mov of a register
      "PTX a\n{\n}\nT0 @ cta 0 {\n  ld.global.u32 %v, [x];\n}\nexists (x == 0)\n",                  // register name
      "PTX a\n{\n}\nT0 @ cta 0, cluster 0 {\n  st.global.u32 [x], 1;\n}\nT1 @ cta 1, cluster 0 {\n  st.global.u32 [x], 2;\n}\nexists (x == 1)\n",
  };
  for (const char* src : native_only) {
    INFO(src);
    Test t = parse_native(src, "a.litmus");
    CHECK(test_difference(t, parse_native(print_native(t), "a.litmus")) == "");
    CHECK_THROWS_AS(print_dat3m(t), InputError);
  }
  // ptxcheck's async extension of the Dat3M dialect gives a location its
  // state space (`x @ shared;`), so a 4-byte shared location prints there too.
  Test sh = parse_native("PTX a\n{\n  .shared .u32 x = 0;\n}\nT0 @ cta 0 {\n  st.shared.u32 [x], 1;\n}\nexists (x == 1)\n",
                         "a.litmus");
  const std::string sh_text = print_dat3m(sh);
  CHECK(sh_text.find("x @ shared;") != std::string::npos);
  CHECK(test_difference(sh, parse_dat3m(sh_text, "a.litmus")) == "");
  // A difference is reported, not hidden: scope of a strong access, placement, condition.
  Test t = parse_litmus_file(props::src_root() + "/litmus/mp.litmus");
  Test u = t;
  u.threads[0].code[1].scope = mm::Scope::CTA;
  CHECK(test_difference(t, u) != "");
  u = t;
  u.threads[1].place.cluster = 7;
  CHECK(test_difference(t, u) != "");
  u = t;
  u.cond.kids[0].rhs.value = 2;
  CHECK(test_difference(t, u) != "");
  u = t;
  u.threads[0].code[0].scope = mm::Scope::CTA;  // a weak access has no scope
  CHECK(test_difference(t, u) == "");
}
