// A litmus recording: what one run of the host program saw (hw/README.md
// "Recording format"). Written by litmus_host.cpp, read by the comparator.
// Contract: recording_from_json throws std::invalid_argument on a malformed
// file; to_json(from_json(j)) keeps every field this header names.
// Published observations (corpus/hw/literature/README.md) use the same format
// with a `source`: their harness parameters and seed are not ours, so both
// may be absent, the histogram may list only the outcomes the source reports
// (`unlisted` counts the rest), and the test text may live in a file named by
// `litmus_path` relative to the recording (read_recording loads it).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "hw/common/params.hpp"

namespace ptxcheck::hw {

inline constexpr const char* kRecordingFormat = "ptxcheck-litmus-recording/1";

// Where a published observation comes from. A source names either a table or
// figure of a paper (`table`) or a file of a repository at a commit
// (`repository`, `path`, `commit`), or both.
struct Source {
  std::string citation;    // authors, title, venue, year
  std::string table;       // table or figure, with the cell read
  std::string repository;  // owner/name
  std::string path;        // file in the repository
  std::string commit;      // 40 hex digits
  std::string note;        // how the row was read off the source
};

struct Recording {
  std::string test;         // test name
  std::string litmus_path;  // informational; for literature rows the test file, relative to the recording
  std::string litmus_text;  // the test itself (recordings replay without the source tree)
  std::string arch;         // PTX target the module was generated for
  Params params;
  bool has_params = true;   // false: a literature row without harness parameters
  uint64_t seed = 0;
  uint64_t instances = 0;   // completed instances: histogram counts plus `unlisted`
  uint64_t incomplete = 0;  // instances dropped (a role hit spinLimit)
  uint64_t unlisted = 0;    // instances whose outcome the source does not report
  std::map<std::string, uint64_t> histogram;  // ptxcheck state text -> count
  std::string gpu;          // device name
  std::string architecture;  // GPU generation (Fermi, Kepler, ...), literature rows
  std::string compute_capability;
  std::optional<Source> source;  // set for published observations
  // Non-empty for an observation on a GPU that predates the PTX memory model
  // (PTX ISA 6.0, sm_70): why a VIOLATION of this row is expected. Such
  // violations are reported as PRE-MODEL, not counted as VIOLATION.
  std::string pre_model;
  int driver_version = 0;
  double seconds = 0;
};

nlohmann::json recording_to_json(const Recording& r);
Recording recording_from_json(const nlohmann::json& j);
// Also wraps I/O and parse errors; loads litmus_text from litmus_path
// (relative to the recording's folder) when the file has no litmus_text.
Recording read_recording(const std::string& path);

}  // namespace ptxcheck::hw
