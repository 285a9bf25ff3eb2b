// A litmus recording: what one run of the host program saw (hw/README.md
// "Recording format"). Written by litmus_host.cpp, read by the comparator.
// Contract: recording_from_json throws std::invalid_argument on a malformed
// file; to_json(from_json(j)) keeps every field this header names.
#pragma once
#include <cstdint>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "hw/common/params.hpp"

namespace ptxcheck::hw {

inline constexpr const char* kRecordingFormat = "ptxcheck-litmus-recording/1";

struct Recording {
  std::string test;         // test name
  std::string litmus_path;  // informational
  std::string litmus_text;  // the test itself (recordings replay without the source tree)
  std::string arch;         // PTX target the module was generated for
  Params params;
  uint64_t seed = 0;
  uint64_t instances = 0;   // completed instances counted in the histogram
  uint64_t incomplete = 0;  // instances dropped (a role hit spinLimit)
  std::map<std::string, uint64_t> histogram;  // ptxcheck state text -> count
  std::string gpu;          // device name
  std::string compute_capability;
  int driver_version = 0;
  double seconds = 0;
};

nlohmann::json recording_to_json(const Recording& r);
Recording recording_from_json(const nlohmann::json& j);
Recording read_recording(const std::string& path);  // also wraps I/O and parse errors

}  // namespace ptxcheck::hw
