// Checks a hardware recording (written by ptxcheck-instr-host) against
// `ptxcheck run` on the same launch spec.
// Contract: every output element must match bit for bit, except slots the
// manifest marks `.approx` (accepted when arith::within_bound of ptxcheck's
// deterministic value, docs/approx.md) and `nan_any` slots (f64: any NaN
// matches any NaN). A run with an error diagnostic is a mismatch. Malformed
// recordings or manifests throw ptxcheck::InputError.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "hw/instr/gen.hpp"

namespace ptxcheck::instrgen {

struct CompareResult {
  uint64_t compared = 0, approx_checked = 0, mismatches = 0;
  std::vector<std::string> messages;  // first mismatches, for the report
  bool ok() const { return mismatches == 0; }
};

// True when a GPU value `got` is acceptable for slot `s` given ptxcheck's `ref`.
bool slot_matches(const Slot& s, uint64_t got, uint64_t ref);

// Reads a manifest file.
std::vector<Slot> load_manifest(const std::string& path, unsigned& slots_per_thread);

// Compares `got` (raw element bits, one per output element) with `ref`.
CompareResult compare_values(const std::vector<Slot>& slots, const std::vector<uint64_t>& got,
                             const std::vector<uint64_t>& ref);

// Runs the recording's spec with the interpreter and compares. `manifest`
// overrides the manifest beside the spec.
CompareResult compare_recording(const std::string& recording_path, const std::string& manifest = "");

// ptxcheck's own values for a spec, as a recording (for fixtures and tests).
std::string self_recording(const std::string& spec_path, const std::string& recording_dir);

}  // namespace ptxcheck::instrgen
