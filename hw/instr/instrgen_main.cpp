// ptxcheck-instrgen: random instruction tests for the hardware harness.
//   gen --seed S --count N --out DIR [--length L] [--threads T]
//   compare RECORDING.json [--manifest FILE]
//   selfrecord SPEC.json --out RECORDING.json   (ptxcheck's own values; fixtures)
//   probe --ptxas PATH --out legal.inc          (regenerates the legality table)
// Exit: 0 ok; 1 compare found mismatches; 2 invalid input or usage.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "hw/instr/compare.hpp"
#include "hw/instr/gen.hpp"
#include "hw/instr/probe.hpp"
#include "parser/diagnostic.hpp"

namespace {

constexpr const char* kUsage =
    "usage: ptxcheck-instrgen gen --seed S --count N --out DIR [--length L] [--threads T]\n"
    "       ptxcheck-instrgen compare RECORDING.json [--manifest FILE]\n"
    "       ptxcheck-instrgen selfrecord SPEC.json --out RECORDING.json\n"
    "       ptxcheck-instrgen probe --ptxas PATH --out FILE\n";

int usage(const std::string& why) {
  std::fprintf(stderr, "ptxcheck-instrgen: %s\n%s", why.c_str(), kUsage);
  return 2;
}

bool num(const std::string& s, unsigned long long& v) {
  if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos) return false;
  v = std::stoull(s);
  return true;
}

int run(const std::vector<std::string>& a) {
  using namespace ptxcheck::instrgen;
  if (a.empty()) return usage("missing command");
  const std::string cmd = a[0];
  std::string out, manifest, ptxas, pos;
  unsigned long long seed = 1, count = 1, length = 40, threads = 32;
  bool have_seed = false;
  for (size_t i = 1; i < a.size(); ++i) {
    auto val = [&](const char* what) -> const std::string& {
      if (i + 1 >= a.size()) throw std::invalid_argument(std::string(what) + " needs a value");
      return a[++i];
    };
    if (a[i] == "--seed") {
      if (!num(val("--seed"), seed)) return usage("--seed needs a non-negative integer");
      have_seed = true;
    } else if (a[i] == "--count") {
      if (!num(val("--count"), count) || count > 100000) return usage("--count needs an integer <= 100000");
    } else if (a[i] == "--length") {
      if (!num(val("--length"), length) || length == 0 || length > 2000) return usage("--length needs 1..2000");
    } else if (a[i] == "--threads") {
      if (!num(val("--threads"), threads) || threads == 0 || threads > 1024) return usage("--threads needs 1..1024");
    } else if (a[i] == "--out") {
      out = val("--out");
    } else if (a[i] == "--manifest") {
      manifest = val("--manifest");
    } else if (a[i] == "--ptxas") {
      ptxas = val("--ptxas");
    } else if (!a[i].empty() && a[i][0] == '-') {
      return usage("unknown option '" + a[i] + "'");
    } else if (pos.empty()) {
      pos = a[i];
    } else {
      return usage("unexpected argument '" + a[i] + "'");
    }
  }
  if (cmd == "gen") {
    if (!have_seed || out.empty()) return usage("gen needs --seed and --out");
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
  if (cmd == "compare") {
    if (pos.empty()) return usage("compare needs a recording");
    CompareResult r = compare_recording(pos, manifest);
    for (const auto& m : r.messages) std::printf("%s: mismatch: %s\n", pos.c_str(), m.c_str());
    std::printf("%s: %llu elements compared (%llu within .approx bounds), %llu mismatches\n", pos.c_str(),
                (unsigned long long)r.compared, (unsigned long long)r.approx_checked,
                (unsigned long long)r.mismatches);
    return r.ok() ? 0 : 1;
  }
  if (cmd == "selfrecord") {
    if (pos.empty() || out.empty()) return usage("selfrecord needs a spec and --out");
    std::string dir = std::filesystem::path(out).parent_path().string();
    std::string text = self_recording(pos, dir.empty() ? "." : dir);
    std::ofstream(out) << text;
    return 0;
  }
  if (cmd == "probe") {
    if (ptxas.empty() || out.empty()) return usage("probe needs --ptxas and --out");
    return probe(ptxas, out);
  }
  return usage("unknown command '" + cmd + "'");
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    return run(args);
  } catch (const ptxcheck::InputError& e) {
    std::fprintf(stderr, "%s\n", ptxcheck::format_error(e.file(), e.pos(), e.what()).c_str());
    return 2;
  } catch (const ptxcheck::LimitError& e) {
    std::fprintf(stderr, "ptxcheck-instrgen: %s\n", e.what());
    return 3;
  } catch (const std::invalid_argument& e) {
    return usage(e.what());
  }
}
