// `ptxcheck parse`: canonical PTX on stdout, JSON with --json, errors as
// file:line:col plus caret with exit 2, bad flags exit 2.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include "tests/parser/util.hpp"

namespace {
struct Run {
  int rc;
  std::string out, err;
};
Run run(const std::string& args) {
  const char* exe = std::getenv("PTXCHECK_EXE");
  REQUIRE(exe);
  auto dir = std::filesystem::temp_directory_path();
  auto o = dir / ("ptxcheck-cli-out-" + std::to_string(::getpid()));
  auto e = dir / ("ptxcheck-cli-err-" + std::to_string(::getpid()));
  std::string cmd = std::string(exe) + " parse " + args + " >" + o.string() + " 2>" + e.string();
  int st = std::system(cmd.c_str());
  Run r{WIFEXITED(st) ? WEXITSTATUS(st) : -1, ptxtest::read_file(o), ptxtest::read_file(e)};
  std::filesystem::remove(o);
  std::filesystem::remove(e);
  return r;
}
}  // namespace

TEST_CASE("ptxcheck parse prints, reports and exits as documented", "[cli]") {
  const auto root = ptxtest::src_root();
  auto files = ptxtest::ptx_files(root / "corpus" / "ptx");
  REQUIRE(!files.empty());
  Run ok = run("'" + files[0].string() + "'");
  CHECK(ok.rc == 0);
  CHECK(ok.out.rfind(".version ", 0) == 0);
  Run js = run("--json '" + files[0].string() + "'");
  CHECK(js.rc == 0);
  CHECK(js.out.find("\"kind\": \"module\"") != std::string::npos);
  const auto bad = root / "corpus" / "malformed" / "unknown_modifier.ptx";
  Run err = run("'" + bad.string() + "'");
  CHECK(err.rc == 2);
  CHECK(err.err.find(bad.string() + ":9:5: error: unknown modifier '.rnx' for 'add'") == 0);
  CHECK(err.err.find("\n\tadd.rnx.f32") != std::string::npos);
  CHECK(err.err.find("\n\t   ^") != std::string::npos);
  CHECK(run("--frobnicate x.ptx").rc == 2);
  CHECK(run("").rc == 2);
  CHECK(run("/nonexistent/file.ptx").rc == 2);
}
