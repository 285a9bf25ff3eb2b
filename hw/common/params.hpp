// Parameters of a litmus campaign (hw/README.md "Parameters"). A params JSON
// file is an object with any subset of these keys; missing keys keep their
// defaults. Contract: from_json rejects unknown keys, non-integers and values
// below a parameter's minimum with std::invalid_argument naming the key.
#pragma once
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace ptxcheck::hw {

struct Params {
#define X(name, def, min, doc) uint32_t name = def;
#include "hw/common/params.def"
#undef X
};

// Also checks cross-parameter constraints (maxWorkgroups >= testingWorkgroups,
// patterns 0..3, pcts <= 100, stressTargetLines <= 64).
Params params_from_json(const nlohmann::json& j);
nlohmann::json params_to_json(const Params& p);
// One line per parameter: name, default, meaning (for --help and README).
std::string params_doc();

}  // namespace ptxcheck::hw
