// Campaign parameters (params.hpp).
#include "hw/common/params.hpp"

#include <stdexcept>

namespace ptxcheck::hw {

Params params_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw std::invalid_argument("parameters: expected a JSON object");
  Params p;
  for (const auto& [key, v] : j.items()) {
    bool known = false;
#define X(name, def, min, doc)                                                              \
  if (key == #name) {                                                                       \
    known = true;                                                                           \
    if (!v.is_number_integer() || v.get<int64_t>() < (min) || v.get<int64_t>() > 0xffffffffLL) \
      throw std::invalid_argument("parameter " #name ": expected an integer >= " #min);      \
    p.name = v.get<uint32_t>();                                                             \
  }
#include "hw/common/params.def"
#undef X
    if (!known) throw std::invalid_argument("unknown parameter '" + key + "'");
  }
  if (p.maxWorkgroups < p.testingWorkgroups)
    throw std::invalid_argument("parameter maxWorkgroups: must be >= testingWorkgroups");
  if (p.memStressPattern > 3 || p.preStressPattern > 3)
    throw std::invalid_argument("parameter memStressPattern/preStressPattern: expected 0..3");
  if (p.shufflePct > 100 || p.barrierPct > 100 || p.memStressPct > 100 || p.preStressPct > 100)
    throw std::invalid_argument("percentages must be <= 100");
  if (p.stressTargetLines > 64) throw std::invalid_argument("parameter stressTargetLines: at most 64");
  if (p.workgroupSize > 1024) throw std::invalid_argument("parameter workgroupSize: at most 1024");
  return p;
}

nlohmann::json params_to_json(const Params& p) {
  nlohmann::json j = nlohmann::json::object();
#define X(name, def, min, doc) j[#name] = p.name;
#include "hw/common/params.def"
#undef X
  return j;
}

std::string params_doc() {
  std::string s;
#define X(name, def, min, doc) s += std::string("  ") + #name + " (default " #def "): " doc "\n";
#include "hw/common/params.def"
#undef X
  return s;
}

}  // namespace ptxcheck::hw
