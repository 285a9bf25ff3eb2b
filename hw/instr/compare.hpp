// Checks a hardware recording (written by ptxcheck-instr-host) against
// `ptxcheck run` on the same launch spec.
// Contract: `ptxcheck run` of the recorded spec must succeed (an error
// diagnostic is a mismatch). For the arithmetic tests (`gen`) the values
// compared come from the isolated replay (other tests, e.g. `wgmma`, whose
// results feed nothing, compare `ptxcheck run`'s values directly): the recorded PTX with every stored result register reloaded from
// the hardware's value of its slot, so each instruction is checked on the
// inputs the hardware gave it (an unspecified result the hardware chose,
// e.g. an f64 NaN payload, feeds later instructions as the hardware's
// value; a wrong result is reported at its own slot, not at every user).
// Every output element must match bit for bit, except slots the manifest
// marks `.approx` (accepted by arith::within_approx_bound with the
// instruction's source operands, which a second replay with the .approx
// instruction replaced by a move of each source provides; docs/approx.md)
// and `nan_any` slots (f64: any NaN matches any NaN). Slots listed in
// `divergences.txt` beside the recording (known hardware-vs-ISA
// divergences: "RECORDING SLOT reason" per line) are counted as divergent,
// not as mismatches. Malformed recordings, manifests or divergence lists
// throw ptxcheck::InputError.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "hw/instr/gen.hpp"

namespace ptxcheck::instrgen {

struct CompareResult {
  uint64_t compared = 0, approx_checked = 0, mismatches = 0, divergent = 0;
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
