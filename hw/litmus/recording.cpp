// Litmus recordings (recording.hpp).
#include "hw/litmus/recording.hpp"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ptxcheck::hw {

using nlohmann::json;

namespace {

json source_to_json(const Source& s) {
  json j;
  j["citation"] = s.citation;
  for (const auto& [k, v] : {std::pair<const char*, const std::string*>{"table", &s.table},
                             {"repository", &s.repository},
                             {"path", &s.path},
                             {"commit", &s.commit},
                             {"note", &s.note}})
    if (!v->empty()) j[k] = *v;
  return j;
}

bool is_commit(const std::string& c) {
  if (c.size() != 40) return false;
  for (char ch : c)
    if (!std::isxdigit(static_cast<unsigned char>(ch))) return false;
  return true;
}

Source source_from_json(const json& j) {
  static const char* const known[] = {"citation", "table", "repository", "path", "commit", "note"};
  for (const auto& [k, v] : j.items()) {
    bool ok = false;
    for (const char* n : known) ok = ok || k == n;
    if (!ok) throw std::invalid_argument("recording: unknown source field '" + k + "'");
  }
  Source s;
  s.citation = j.at("citation");
  s.table = j.value("table", "");
  s.repository = j.value("repository", "");
  s.path = j.value("path", "");
  s.commit = j.value("commit", "");
  s.note = j.value("note", "");
  if (s.citation.empty()) throw std::invalid_argument("recording: source without a citation");
  bool repo = !s.repository.empty() || !s.path.empty() || !s.commit.empty();
  if (repo && (s.repository.empty() || s.path.empty() || !is_commit(s.commit)))
    throw std::invalid_argument("recording: a source repository needs repository, path and a 40-hex commit");
  if (!repo && s.table.empty())
    throw std::invalid_argument("recording: a source names a table or figure, or a repository file and commit");
  return s;
}

}  // namespace

json recording_to_json(const Recording& r) {
  json j;
  j["format"] = kRecordingFormat;
  j["test"] = r.test;
  j["litmus_path"] = r.litmus_path;
  if (!r.litmus_text.empty() || !r.source) j["litmus_text"] = r.litmus_text;
  j["arch"] = r.arch;
  if (r.has_params) j["parameters"] = params_to_json(r.params);
  if (r.has_params || r.seed) j["seed"] = r.seed;
  j["instances"] = r.instances;
  j["incomplete"] = r.incomplete;
  if (r.unlisted) j["unlisted"] = r.unlisted;
  j["histogram"] = json::object();
  for (const auto& [k, v] : r.histogram) j["histogram"][k] = v;
  j["gpu"] = r.gpu;
  if (!r.architecture.empty()) j["architecture"] = r.architecture;
  j["compute_capability"] = r.compute_capability;
  j["driver_version"] = r.driver_version;
  j["seconds"] = r.seconds;
  if (r.source) j["source"] = source_to_json(*r.source);
  if (!r.pre_model.empty()) j["pre_model"] = r.pre_model;
  return j;
}

Recording recording_from_json(const json& j) {
  try {
    if (j.at("format") != kRecordingFormat) throw std::invalid_argument("recording: unknown format");
    Recording r;
    if (j.contains("source")) r.source = source_from_json(j.at("source"));
    r.test = j.at("test");
    r.litmus_path = j.value("litmus_path", "");
    // A literature row may keep its test in a file (read_recording loads it).
    if (r.source && !j.contains("litmus_text")) {
      if (r.litmus_path.empty()) throw std::invalid_argument("recording: neither litmus_text nor litmus_path");
    } else {
      r.litmus_text = j.at("litmus_text");
    }
    r.arch = j.value("arch", "");
    // Harness parameters and seed describe our own runs; a published
    // observation may have neither.
    r.has_params = !r.source || j.contains("parameters");
    if (r.has_params) r.params = params_from_json(j.at("parameters"));
    r.seed = r.source ? j.value("seed", uint64_t{0}) : j.at("seed").get<uint64_t>();
    r.instances = j.at("instances");
    r.incomplete = j.value("incomplete", uint64_t{0});
    r.unlisted = j.value("unlisted", uint64_t{0});
    if (r.unlisted && !r.source) throw std::invalid_argument("recording: 'unlisted' is for literature rows only");
    uint64_t sum = r.unlisted;
    for (const auto& [k, v] : j.at("histogram").items()) {
      r.histogram[k] = v.get<uint64_t>();
      sum += r.histogram[k];
    }
    if (sum != r.instances)
      throw std::invalid_argument(r.unlisted ? "recording: histogram counts plus unlisted do not add up to instances"
                                             : "recording: histogram counts do not add up to instances");
    r.gpu = j.value("gpu", "");
    r.architecture = j.value("architecture", "");
    r.compute_capability = j.value("compute_capability", "");
    r.driver_version = j.value("driver_version", 0);
    r.seconds = j.value("seconds", 0.0);
    r.pre_model = j.value("pre_model", "");
    if (r.source && (r.gpu.empty() || r.architecture.empty()))
      throw std::invalid_argument("recording: a literature row names its gpu and architecture");
    return r;
  } catch (const json::exception& e) {
    throw std::invalid_argument(std::string("recording: ") + e.what());
  }
}

Recording read_recording(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path + ": cannot read");
  try {
    Recording r = recording_from_json(json::parse(in));
    if (r.source && r.litmus_text.empty()) {
      std::filesystem::path test = std::filesystem::path(path).parent_path() / r.litmus_path;
      std::ifstream t(test, std::ios::binary);
      if (!t) throw std::invalid_argument("litmus_path " + r.litmus_path + ": cannot read " + test.string());
      std::stringstream ss;
      ss << t.rdbuf();
      r.litmus_text = ss.str();
      if (r.litmus_text.empty()) throw std::invalid_argument("litmus_path " + r.litmus_path + ": empty file");
    }
    return r;
  } catch (const json::exception& e) {
    throw std::invalid_argument(path + ": " + e.what());
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(path + ": " + e.what());
  }
}

}  // namespace ptxcheck::hw
