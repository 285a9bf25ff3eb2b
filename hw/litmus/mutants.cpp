// Mutants and kills (mutants.hpp).
#include "hw/litmus/mutants.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include <fmt/format.h>

#include "parser/diagnostic.hpp"
#include "parser/litmus/print.hpp"

namespace ptxcheck::hw {

namespace fs = std::filesystem;

std::vector<MutantInfo> mutants_of(const litmus::Test& t, const ModelConfig& cfg,
                                   std::vector<litmus::Test>* mutant_tests) {
  Permitted orig = permitted(t, cfg);
  std::vector<MutantInfo> out;
  for (litmus::Change k : litmus::all_changes()) {
    if (!litmus::weakens(k)) continue;
    for (const auto& m : litmus::mutations(t, k)) {
      litmus::Test mt = litmus::apply(t, m);
      MutantInfo info;
      info.test = t.name;
      info.mutant = mt.name;
      info.change = litmus::change_name(k);
      info.description = m.describe();
      try {
        Permitted pm = permitted(mt, cfg);
        for (const auto& o : pm.outcomes)
          if (!orig.outcomes.count(o)) info.killing.push_back(o);
      } catch (const LimitError&) {
        info.limit = true;
      }
      out.push_back(std::move(info));
      if (mutant_tests) mutant_tests->push_back(std::move(mt));
    }
  }
  return out;
}

void mark_kills(std::vector<MutantInfo>& ms, const std::vector<Recording>& recs) {
  for (auto& m : ms)
    for (const auto& r : recs) {
      if (r.test != m.mutant) continue;
      ++m.recordings;
      for (const auto& o : m.killing) {
        auto it = r.histogram.find(o);
        if (it != r.histogram.end() && it->second > 0) m.killed = true, m.kill_count += it->second;
      }
    }
}

namespace {

std::vector<Recording> load_recordings(const std::string& dir) {
  std::vector<Recording> recs;
  if (dir.empty() || !fs::is_directory(dir)) return recs;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file() || e.path().extension() != ".json") continue;
    std::ifstream in(e.path());
    std::string head(256, '\0');
    in.read(head.data(), head.size());
    if (head.find(kRecordingFormat) != std::string::npos) recs.push_back(read_recording(e.path().string()));
  }
  return recs;
}

std::string file_safe(std::string s) {
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '+' && c != '.') c = '_';
  return s;
}

}  // namespace

int run_mutants(const std::vector<std::string>& files, const MutantOptions& opt, std::ostream& out) {
  std::vector<Recording> recs = load_recordings(opt.recordings_dir);
  nlohmann::json table = nlohmann::json::array();
  size_t total = 0, equivalent = 0, killed = 0, recorded = 0, limited = 0, tests_limited = 0;
  int rc = 0;
  std::map<std::string, std::pair<size_t, size_t>> by_change;  // change -> (mutants, equivalent)
  for (const auto& path : files) {
    litmus::Test t;
    try {
      t = litmus::parse_litmus_file(path);
    } catch (const InputError& e) {
      std::cerr << format_error(e.file(), e.pos(), e.what()) << "\n";
      rc = 2;
      continue;
    }
    std::vector<litmus::Test> mts;
    std::vector<MutantInfo> ms;
    try {
      ms = mutants_of(t, opt.model, opt.emit_dir.empty() ? nullptr : &mts);
    } catch (const LimitError& e) {
      std::cerr << path << ": limit reached checking the original: " << e.what() << "\n";
      ++tests_limited;
      continue;
    }
    mark_kills(ms, recs);
    for (size_t i = 0; i < mts.size(); ++i) {
      fs::create_directories(opt.emit_dir);
      std::string text;
      try {
        text = litmus::print_native(mts[i]);
      } catch (const InputError&) {
        text = litmus::print_dat3m(mts[i]);
      }
      std::ofstream(fs::path(opt.emit_dir) / (file_safe(mts[i].name) + ".litmus")) << text;
    }
    for (const auto& m : ms) {
      ++total;
      auto& bc = by_change[m.change];
      ++bc.first;
      if (m.equivalent()) ++equivalent, ++bc.second;
      if (m.recordings) ++recorded;
      if (m.killed) ++killed;
      if (m.limit) ++limited;
      out << fmt::format("{:<40} {:<11} {:<8} {}{}\n", m.mutant, m.change,
                         m.limit ? "LIMIT" : m.equivalent() ? "EQUIV" : fmt::format("kill:{}", m.killing.size()),
                         m.description,
                         m.recordings ? (m.killed ? fmt::format("  KILLED x{}", m.kill_count) : "  survived") : "");
      nlohmann::json j = {{"test", m.test},       {"mutant", m.mutant},         {"change", m.change},
                          {"description", m.description}, {"killing", m.killing}, {"equivalent", m.equivalent()}, {"limit", m.limit},
                          {"recordings", m.recordings},   {"killed", m.killed}, {"kill_count", m.kill_count}};
      table.push_back(j);
    }
  }
  for (const auto& [change, n] : by_change)
    out << fmt::format("change {:<11} {} mutant(s), {} equivalent\n", change, n.first, n.second);
  out << fmt::format(
      "mutants {} | equivalent {} | with killing outcomes {} | limit {} | recorded {} | killed {} | tests at limit {}\n",
      total, equivalent, total - equivalent - limited, limited, recorded, killed, tests_limited);
  if (!opt.json_out.empty()) std::ofstream(opt.json_out) << table.dump(1) << "\n";
  return rc;
}

}  // namespace ptxcheck::hw
