// Model names (memmodel/models.def): the one parser of --model and the list
// that help and error messages show.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "memmodel/engine.hpp"

namespace ptxcheck::mm {

// The Model named `s`; nullopt for a name outside memmodel/models.def.
inline std::optional<Model> model_from_name(std::string_view s) {
#define MODEL(name, model_kind, fence_sc_acq_rel, listed) \
  if (s == name) {                                        \
    Model m;                                              \
    m.kind = ModelKind::model_kind;                       \
    m.fence_sc_is_acq_rel = fence_sc_acq_rel;             \
    return m;                                             \
  }
#include "memmodel/models.def"
  return std::nullopt;
}

// The name of the default model (Model{}): the first listed row.
inline std::string default_model_name() {
#define MODEL(name, model_kind, fence_sc_acq_rel, listed) \
  if (listed) return name;
#include "memmodel/models.def"
  return {};
}

// "ptx75, ptx6, sc, ptx75-no-fence-sc-acqrel": the listed names, the default
// (Model{}) first; with `mark_default`, "ptx75 (default), ptx6, ...".
inline std::string model_names(bool mark_default = false) {
  std::string out;
#define MODEL(name, model_kind, fence_sc_acq_rel, listed) \
  if (listed) {                                           \
    out += (out.empty() ? "" : ", ") + std::string(name); \
    if (mark_default && out == name) out += " (default)"; \
  }
#include "memmodel/models.def"
  return out;
}

}  // namespace ptxcheck::mm
