// Round trip on every corpus PTX file: parse(print(parse(x))) == parse(x),
// printing is idempotent, and ptxas accepts the printed module whenever it
// accepts the input (PTX ISA 9.2 syntax as ptxas implements it). The debug
// builds of corpus/ptx/debug (nvcc -G / -lineinfo / -rdc, clang -g: DWARF
// sections, .file, .loc with inlined_at) are all assembled, input and
// printed form.
#include <catch2/catch.hpp>

#include <future>
#include <thread>

#include "parser/parse.hpp"
#include "parser/printer.hpp"
#include "tests/parser/util.hpp"

namespace {

std::vector<std::filesystem::path> corpus() { return ptxtest::ptx_files(ptxtest::src_root() / "corpus" / "ptx"); }

std::string target_of(const ptxcheck::ast::Module& m) {
  for (const auto& t : m.targets)
    if (t.rfind("sm_", 0) == 0 || t.rfind("compute_", 0) == 0) return t;
  return "sm_80";
}

bool ptxas_ok(const std::string& ptxas, const std::string& arch, const std::filesystem::path& file) {
  std::string cmd = ptxas + " -arch=" + arch + " '" + file.string() + "' -o /dev/null 2>/dev/null";
  return std::system(cmd.c_str()) == 0;
}

}  // namespace

TEST_CASE("every corpus PTX file round-trips through the printer", "[roundtrip]") {
  auto files = corpus();
  REQUIRE(files.size() >= 1);
  for (const auto& f : files) {
    INFO(f.string());
    const std::string text = ptxtest::read_file(f);
    ptxcheck::ast::Module m;
    REQUIRE_NOTHROW(m = ptxcheck::parse_module(text, f.string()));
    const std::string printed = ptxcheck::print(m);
    ptxcheck::ast::Module again;
    REQUIRE_NOTHROW(again = ptxcheck::parse_module(printed, f.string() + " (printed)"));
    CHECK(again == m);
    CHECK(ptxcheck::print(again) == printed);
  }
}

namespace {

// Assembles the input and the printed form of each file, 4 at a time; every
// input ptxas accepts must stay accepted once printed. Returns how many
// inputs ptxas accepted.
size_t check_printed_assembles(const std::string& ptxas, const std::vector<std::filesystem::path>& pick) {
  auto tmp = std::filesystem::temp_directory_path() / ("ptxcheck-rt-" + std::to_string(::getpid()));
  std::filesystem::create_directories(tmp);
  struct Result {
    std::string file;
    bool input_ok, printed_ok;
  };
  auto job = [&](size_t i) {
    const auto& f = pick[i];
    auto m = ptxcheck::parse_module(ptxtest::read_file(f), f.string());
    auto out = tmp / (std::to_string(i) + ".ptx");
    std::ofstream(out) << ptxcheck::print(m);
    const std::string arch = target_of(m);
    bool in_ok = ptxas_ok(ptxas, arch, f);
    bool pr_ok = in_ok ? ptxas_ok(ptxas, arch, out) : false;
    return Result{f.string(), in_ok, pr_ok};
  };
  std::vector<Result> results;
  for (size_t i = 0; i < pick.size(); i += 4) {
    std::vector<std::future<Result>> batch;
    for (size_t j = i; j < pick.size() && j < i + 4; ++j) batch.push_back(std::async(std::launch::async, job, j));
    for (auto& b : batch) results.push_back(b.get());
  }
  std::filesystem::remove_all(tmp);
  size_t accepted = 0;
  for (const auto& r : results) {
    INFO(r.file);
    if (r.input_ok) {
      ++accepted;
      CHECK(r.printed_ok);
    }
  }
  return accepted;
}

}  // namespace

TEST_CASE("ptxas accepts the printed module wherever it accepts the input", "[ptxas]") {
  const std::string ptxas = ptxtest::find_ptxas();
  if (ptxas.empty()) {
    WARN("ptxas not found; skipping");
    return;
  }
  auto files = corpus();
  // Bounded: at most 40 files, spread over the sorted list, 4 at a time.
  std::vector<std::filesystem::path> pick;
  const size_t step = files.size() > 40 ? (files.size() + 39) / 40 : 1;
  for (size_t i = 0; i < files.size(); i += step) pick.push_back(files[i]);
  CHECK(check_printed_assembles(ptxas, pick) > 0);
}

TEST_CASE("every debug build assembles, as compiled and as printed", "[ptxas-debug]") {
  const auto files = ptxtest::ptx_files(ptxtest::src_root() / "corpus" / "ptx" / "debug");
  REQUIRE(files.size() >= 100);
  const std::string ptxas = ptxtest::find_ptxas();
  if (ptxas.empty()) {
    WARN("ptxas not found; skipping");
    return;
  }
  CHECK(check_printed_assembles(ptxas, files) == files.size());
}
