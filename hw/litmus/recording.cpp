// Litmus recordings (recording.hpp).
#include "hw/litmus/recording.hpp"

#include <fstream>
#include <stdexcept>

namespace ptxcheck::hw {

using nlohmann::json;

json recording_to_json(const Recording& r) {
  json j;
  j["format"] = kRecordingFormat;
  j["test"] = r.test;
  j["litmus_path"] = r.litmus_path;
  j["litmus_text"] = r.litmus_text;
  j["arch"] = r.arch;
  j["parameters"] = params_to_json(r.params);
  j["seed"] = r.seed;
  j["instances"] = r.instances;
  j["incomplete"] = r.incomplete;
  j["histogram"] = json::object();
  for (const auto& [k, v] : r.histogram) j["histogram"][k] = v;
  j["gpu"] = r.gpu;
  j["compute_capability"] = r.compute_capability;
  j["driver_version"] = r.driver_version;
  j["seconds"] = r.seconds;
  return j;
}

Recording recording_from_json(const json& j) {
  try {
    if (j.at("format") != kRecordingFormat) throw std::invalid_argument("recording: unknown format");
    Recording r;
    r.test = j.at("test");
    r.litmus_path = j.value("litmus_path", "");
    r.litmus_text = j.at("litmus_text");
    r.arch = j.value("arch", "");
    r.params = params_from_json(j.at("parameters"));
    r.seed = j.at("seed");
    r.instances = j.at("instances");
    r.incomplete = j.value("incomplete", uint64_t{0});
    uint64_t sum = 0;
    for (const auto& [k, v] : j.at("histogram").items()) {
      r.histogram[k] = v.get<uint64_t>();
      sum += r.histogram[k];
    }
    if (sum != r.instances) throw std::invalid_argument("recording: histogram counts do not add up to instances");
    r.gpu = j.value("gpu", "");
    r.compute_capability = j.value("compute_capability", "");
    r.driver_version = j.value("driver_version", 0);
    r.seconds = j.value("seconds", 0.0);
    return r;
  } catch (const json::exception& e) {
    throw std::invalid_argument(std::string("recording: ") + e.what());
  }
}

Recording read_recording(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path + ": cannot read");
  try {
    return recording_from_json(json::parse(in));
  } catch (const json::exception& e) {
    throw std::invalid_argument(path + ": " + e.what());
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(path + ": " + e.what());
  }
}

}  // namespace ptxcheck::hw
