// ptxcheck-hw: the litmus side of the hardware harness (hw/README.md).
//   gen      litmus tests -> PTX module + bundle per arch
//   compare  recording(s) vs ptxcheck's permitted outcomes
//   replay   every litmus recording under a folder (corpus/hw/)
//   mutants  weakened variants, their killing outcomes, kills by recordings
// Exit codes: 0 ok (PRE-MODEL outcomes of rows marked pre_model are printed
// but do not fail), 1 a VIOLATION (or an unkilled mutant with --require-kill),
// 2 invalid input or a test the harness cannot express, 3 a resource limit.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include <CLI/CLI.hpp>

#include "hw/litmus/compare.hpp"
#include "hw/litmus/mutants.hpp"
#include "hw/litmus/ptx_gen.hpp"
#include "parser/diagnostic.hpp"

namespace fs = std::filesystem;
using namespace ptxcheck;

namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, {}, "cannot read file");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Files named on the command line; folders contribute their *.litmus, sorted.
std::vector<std::string> litmus_files(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (const auto& a : args) {
    if (fs::is_directory(a)) {
      std::vector<std::string> found;
      for (const auto& e : fs::recursive_directory_iterator(a))
        if (e.is_regular_file() && e.path().extension() == ".litmus") found.push_back(e.path().string());
      std::sort(found.begin(), found.end());
      out.insert(out.end(), found.begin(), found.end());
    } else {
      out.push_back(a);
    }
  }
  return out;
}

std::vector<std::string> split_csv(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string x; std::getline(ss, x, ',');)
    if (!x.empty()) out.push_back(x);
  return out;
}

int cmd_gen(const std::vector<std::string>& inputs, const std::string& out_dir, const std::string& archs) {
  fs::create_directories(out_dir);
  int rc = 0, ok = 0, bad = 0;
  std::set<std::string> stems;  // Dat3M reuses file names across folders
  for (const auto& path : litmus_files(inputs)) {
    std::string base = fs::path(path).stem().string();
    for (fs::path up = fs::path(path).parent_path(); !stems.insert(base).second; up = up.parent_path())
      base = (up.filename().empty() ? std::string("x") : up.filename().string()) + "_" + base;
    for (const auto& arch : split_csv(archs)) {
      try {
        std::string text = read_text(path);
        litmus::Test t = litmus::parse_litmus_text(text, path);
        hw::Generated g = hw::generate(t, arch, path, text);
        std::string stem = (fs::path(out_dir) / base).string() + "." + arch;
        std::ofstream(stem + ".ptx") << g.ptx;
        std::ofstream(stem + ".bundle.json") << hw::bundle_to_json(g.bundle).dump(1) << "\n";
        ++ok;
      } catch (const hw::NotExpressible& e) {
        std::cerr << path << ": not expressible on " << arch << ": " << e.what() << "\n";
        rc = 2, ++bad;
      } catch (const InputError& e) {
        std::cerr << format_error(e.file(), e.pos(), e.what()) << "\n";
        rc = 2, ++bad;
      }
    }
  }
  std::cerr << "generated " << ok << " module(s), " << bad << " not generated\n";
  return rc;
}

int compare_one(const std::string& path, const hw::ModelConfig& cfg, bool quiet, size_t& pre_model) {
  hw::Recording r = hw::read_recording(path);
  litmus::Test t = litmus::parse_litmus_text(r.litmus_text, path + " (litmus_text)");
  hw::Permitted p = hw::permitted(t, cfg);
  hw::Comparison c = hw::compare(r, p);
  std::string text = hw::comparison_text(r, c, p);
  if (!quiet || c.violations || c.pre_model) std::cout << path << ":\n" << text;
  if (c.pre_model) ++pre_model;
  return c.violations ? 1 : 0;
}

std::vector<std::string> recordings_under(const std::string& dir) {
  std::vector<std::string> out;
  if (!fs::is_directory(dir)) return out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file() || e.path().extension() != ".json") continue;
    std::ifstream in(e.path());
    std::string head(256, '\0');
    in.read(head.data(), head.size());
    if (head.find(hw::kRecordingFormat) != std::string::npos) out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"ptxcheck-hw: litmus tests on hardware (generate, compare, replay, mutants)"};
  app.require_subcommand(1);
  hw::ModelConfig cfg;
  auto add_model = [&](CLI::App* c) {
    c->add_option("--model", cfg.model, "ptx75 | ptx6 | sc | ptx75-no-fence-sc-acqrel (as ptxcheck --model)");
    c->add_option("--engine", cfg.engine, "z3 | enum");
    c->add_option("--max-unroll", cfg.max_unroll, "largest loop bound tried when a loop is cut");
    c->add_option("--timeout", cfg.timeout, "seconds per model check (0 = none; exit 3 / LIMIT beyond)");
  };
  std::vector<std::string> inputs;
  std::string out_dir = "hw-out", archs = "sm_80,sm_90";
  auto* gen = app.add_subcommand("gen", "write DIR/<stem>.<arch>.{ptx,bundle.json} per litmus test");
  gen->add_option("inputs", inputs, "litmus files or folders")->required();
  gen->add_option("--out", out_dir, "output folder");
  gen->add_option("--arch", archs, "comma-separated: sm_80,sm_90");

  std::vector<std::string> recs;
  bool quiet = false;
  auto* cmp = app.add_subcommand("compare", "compare recordings with ptxcheck's permitted outcomes");
  cmp->add_option("recordings", recs, "recording JSON files")->required();
  cmp->add_flag("--quiet", quiet, "print only recordings with violations");
  add_model(cmp);

  std::string dir;
  auto* rep = app.add_subcommand("replay", "re-check every litmus recording under a folder");
  rep->add_option("dir", dir, "folder, e.g. corpus/hw")->required();
  rep->add_flag("--quiet", quiet, "print only recordings with violations");
  add_model(rep);

  hw::MutantOptions mopt;
  auto* mut = app.add_subcommand("mutants", "weakened variants, their killing outcomes, kills by recordings");
  mut->add_option("inputs", inputs, "litmus files or folders")->required();
  mut->add_option("--recordings", mopt.recordings_dir, "folder of recordings to look for kills");
  mut->add_option("--json", mopt.json_out, "write the mutant table as JSON");
  mut->add_option("--emit", mopt.emit_dir, "write each mutant as a litmus file (then `gen` them)");
  add_model(mut);

  CLI11_PARSE(app, argc, argv);
  try {
    if (gen->parsed()) return cmd_gen(inputs, out_dir, archs);
    if (cmp->parsed() || rep->parsed()) {
      std::vector<std::string> files = cmp->parsed() ? recs : recordings_under(dir);
      if (rep->parsed()) std::cout << "replay: " << files.size() << " litmus recording(s) under " << dir << "\n";
      int rc = 0, bad = 0;
      size_t pre = 0;
      for (const auto& f : files)
        if (compare_one(f, cfg, quiet, pre)) rc = 1, ++bad;
      if (rep->parsed()) std::cout << "replay: " << bad << " with violations, " << pre << " with pre-model outcomes\n";
      return rc;
    }
    if (mut->parsed()) {
      mopt.model = cfg;
      return hw::run_mutants(litmus_files(inputs), mopt, std::cout);
    }
  } catch (const InputError& e) {
    std::cerr << format_error(e.file(), e.pos(), e.what()) << "\n";
    return 2;
  } catch (const LimitError& e) {
    std::cerr << "error: limit reached: " << e.what() << "\n";
    return 3;
  } catch (const std::invalid_argument& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
