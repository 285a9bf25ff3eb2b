// ptxcheck-instrgen: random instruction tests for the hardware harness.
//   gen --seed S --count N --out DIR [--length L] [--threads T]
//   wgmma --seed S --count N --out DIR [--sparse] (wgmma.mma_async{.sp} tests, sm_90a)
//   mma-sp --seed S --count N --out DIR (mma.sp{::ordered_metadata} tests, one warp)
//   compare RECORDING.json [--manifest FILE]
//   selfrecord SPEC.json --out RECORDING.json   (ptxcheck's own values; fixtures)
//   probe --ptxas PATH --out legal.inc          (regenerates the legality table)
// Exit: 0 ok; 1 compare found mismatches; 2 invalid input or usage.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "hw/instr/compare.hpp"
#include "hw/instr/gen.hpp"
#include "hw/instr/probe.hpp"
#include "hw/instr/wgmma_gen.hpp"
#include "parser/diagnostic.hpp"

namespace {

int usage(const std::string& why) {
  std::fprintf(stderr, "ptxcheck-instrgen: %s (see ptxcheck-instrgen --help)\n", why.c_str());
  return 2;
}

int run(int argc, char** argv) {
  using namespace ptxcheck::instrgen;
  std::string out, manifest, ptxas, pos;
  unsigned long long seed = 1, count = 1, length = 40, threads = 32;
  CLI::App app{"Random instruction tests for the hardware harness (hw/README.md).", "ptxcheck-instrgen"};
  app.require_subcommand(1);
  CLI::App* gen = app.add_subcommand("gen", "write random instruction tests (PTX, launch spec, manifest) to DIR");
  gen->add_option("--seed", seed, "random seed")->required();
  gen->add_option("--count", count, "tests to write")->check(CLI::Range(0ull, 100000ull));
  gen->add_option("--out", out, "output directory")->required();
  gen->add_option("--length", length, "instructions per test (default 40)")->check(CLI::Range(1ull, 2000ull));
  gen->add_option("--threads", threads, "threads of the CTA (default 32)")->check(CLI::Range(1ull, 1024ull));
  CLI::App* wg = app.add_subcommand("wgmma", "write random wgmma.mma_async tests (sm_90a, one warpgroup) to DIR");
  wg->add_option("--seed", seed, "random seed")->required();
  wg->add_option("--count", count, "tests to write")->check(CLI::Range(0ull, 100000ull));
  wg->add_option("--out", out, "output directory")->required();
  bool sparse = false;
  wg->add_flag("--sparse", sparse, "wgmma.mma_async.sp tests (sparse A, PTX ISA 9.7.15.6)");
  CLI::App* msp =
      app.add_subcommand("mma-sp", "write random mma.sp / mma.sp::ordered_metadata tests (sm_80/89/120a, one warp) to DIR");
  msp->add_option("--seed", seed, "random seed")->required();
  msp->add_option("--count", count, "tests to write")->check(CLI::Range(0ull, 100000ull));
  msp->add_option("--out", out, "output directory")->required();
  CLI::App* cmp = app.add_subcommand("compare", "compare a recording with the interpreter's values");
  cmp->add_option("recording", pos, "RECORDING.json")->required();
  cmp->add_option("--manifest", manifest, "the tests' manifest (default: beside the spec)");
  CLI::App* self = app.add_subcommand("selfrecord", "ptxcheck's own values as a recording (fixtures, shim checks)");
  self->add_option("spec", pos, "SPEC.json")->required();
  self->add_option("--out", out, "RECORDING.json to write")->required();
  CLI::App* probe_cmd = app.add_subcommand("probe", "regenerate the table of forms ptxas accepts per target");
  probe_cmd->add_option("--ptxas", ptxas, "the ptxas to ask")->required();
  probe_cmd->add_option("--out", out, "the table to write (hw/instr/legal.inc)")->required();
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::fputs(app.help("", CLI::AppFormatMode::All).c_str(), stdout);
    return 0;
  } catch (const CLI::ParseError& e) {
    std::string msg = e.what();
    for (char& c : msg)
      if (c == '\n') c = ' ';
    return usage(msg);
  }
  const std::string cmd = app.get_subcommands().front()->get_name();
  if (cmd == "gen") {
    GenOptions opt;
    opt.length = static_cast<unsigned>(length);
    opt.threads = static_cast<unsigned>(threads);
    std::set<std::string> distinct;
    size_t files = 0;
    for (unsigned i = 0; i < count; ++i) {
      Test t = generate(seed, i, opt);
      write_test(t, out);
      files += t.variants.size();
      distinct.insert(t.mnemonics.begin(), t.mnemonics.end());
    }
    std::printf("%llu tests, %zu kernels, %zu distinct instruction forms in %s\n", count, files, distinct.size(),
                out.c_str());
    return 0;
  }
  if (cmd == "wgmma") {
    std::set<std::string> distinct;
    for (unsigned i = 0; i < count; ++i) {
      Test t = sparse ? generate_wgmma_sp(seed, i) : generate_wgmma(seed, i);
      write_test(t, out);
      distinct.insert(t.mnemonics.begin(), t.mnemonics.end());
    }
    std::printf("%llu %s tests, %zu distinct instruction forms in %s\n", count, sparse ? "wgmma.mma_async.sp" : "wgmma",
                distinct.size(), out.c_str());
    return 0;
  }
  if (cmd == "mma-sp") {
    std::set<std::string> distinct;
    for (unsigned i = 0; i < count; ++i) {
      Test t = generate_mma_sp(seed, i);
      write_test(t, out);
      distinct.insert(t.mnemonics.begin(), t.mnemonics.end());
    }
    std::printf("%llu mma.sp tests, %zu distinct instruction forms in %s\n", count, distinct.size(), out.c_str());
    return 0;
  }
  if (cmd == "compare") {
    if (pos.empty()) return usage("compare needs a recording");
    CompareResult r = compare_recording(pos, manifest);
    for (const auto& m : r.messages) std::printf("%s: mismatch: %s\n", pos.c_str(), m.c_str());
    std::printf("%s: %llu elements compared (%llu within .approx bounds), %llu mismatches", pos.c_str(),
                (unsigned long long)r.compared, (unsigned long long)r.approx_checked,
                (unsigned long long)r.mismatches);
    if (r.divergent != 0)
      std::printf(", %llu listed divergences (divergences.txt)", (unsigned long long)r.divergent);
    std::printf("\n");
    return r.ok() ? 0 : 1;
  }
  if (cmd == "selfrecord") {
    std::string dir = std::filesystem::path(out).parent_path().string();
    std::string text = self_recording(pos, dir.empty() ? "." : dir);
    std::ofstream(out) << text;
    return 0;
  }
  return probe(ptxas, out);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const ptxcheck::InputError& e) {
    std::fprintf(stderr, "%s\n", ptxcheck::format_error(e.file(), e.pos(), e.what()).c_str());
    return 2;
  } catch (const ptxcheck::LimitError& e) {
    std::fprintf(stderr, "ptxcheck-instrgen: %s\n", e.what());
    return 3;
  }
}
