// Golden-vector runner: every corpus/instr/<tag>.vec file is checked bit for
// bit through arith::resolve(). File format (documented atop each file):
//   <mnemonic> <src>... -> <result> [<aux>]
// values in hex (0x...) or decimal; '#' starts a comment.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "semantics/arith/resolve.hpp"

namespace {

using ptxcheck::arith::OpDesc;
using ptxcheck::arith::resolve;

std::string corpus_dir() {
  const char* src = std::getenv("PTXCHECK_SRC");
  return std::string(src != nullptr ? src : ".") + "/corpus/instr/";
}

uint64_t num(const std::string& s) { return std::stoull(s, nullptr, 0); }

// Returns the number of vectors checked; fails the test on any mismatch.
// Runs with and without the host-FPU fast path, which must agree bit for bit.
size_t run_file(const std::string& name, bool host_fpu) {
  std::ifstream in(corpus_dir() + name);
  REQUIRE(in.good());
  std::map<std::string, OpDesc> cache;
  std::string line;
  size_t n = 0, lineno = 0, bad = 0;
  while (std::getline(in, line)) {
    ++lineno;
    auto hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    std::istringstream ls(line);
    std::vector<std::string> tok;
    for (std::string t; ls >> t;) tok.push_back(t);
    if (tok.empty()) continue;
    size_t arrow = 0;
    while (arrow < tok.size() && tok[arrow] != "->") ++arrow;
    INFO(name << ":" << lineno << ": " << line);
    REQUIRE(arrow < tok.size());
    REQUIRE(arrow + 2 <= tok.size());
    auto it = cache.find(tok[0]);
    if (it == cache.end()) {
      auto r = resolve(tok[0], ptxcheck::arith::ResolveOptions{host_fpu});
      INFO(r.error);
      REQUIRE(r);
      it = cache.emplace(tok[0], *r.desc).first;
    }
    const OpDesc& d = it->second;
    REQUIRE(arrow - 1 == d.nsrc);
    uint64_t src[5] = {0, 0, 0, 0, 0};
    for (size_t i = 1; i < arrow; ++i) src[i - 1] = num(tok[i]);
    uint64_t aux = 0;
    uint64_t got = d(src, &aux);
    uint64_t want = num(tok[arrow + 1]);
    bool ok = got == want;
    if (arrow + 2 < tok.size()) ok = ok && aux == num(tok[arrow + 2]);
    if (!ok) {
      ++bad;
      if (bad <= 20) {
        std::ostringstream os;
        os << std::hex << "got 0x" << got << " aux 0x" << aux;
        FAIL_CHECK(os.str());
      }
    }
    ++n;
  }
  CHECK(bad == 0);
  return n;
}

}  // namespace

#define VEC_TEST(tag)                                              \
  TEST_CASE("golden vectors " tag, "[" tag "]") {                  \
    for (bool host : {true, false}) {                              \
      INFO("host FPU fast path " << host);                         \
      CHECK(run_file(tag ".vec", host) > 0);                       \
    }                                                              \
  }

VEC_TEST("int")
VEC_TEST("bits")
VEC_TEST("f32")
VEC_TEST("f64")
VEC_TEST("half")
VEC_TEST("cvt")
VEC_TEST("cmp")
VEC_TEST("approx")
VEC_TEST("video")
VEC_TEST("mx")
