// Comparing recordings with the model (compare.hpp).
#include "hw/litmus/compare.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

#include "memmodel/models.hpp"
#include "semantics/litmus/check.hpp"
#include "semantics/litmus/program.hpp"

namespace ptxcheck::hw {

Permitted permitted(const litmus::Test& t, const ModelConfig& cfg) {
  mm::Model model;
  if (auto m = mm::model_from_name(cfg.model)) model = *m;
  else throw std::invalid_argument("unknown model '" + cfg.model + "'");
  std::unique_ptr<mm::Engine> engine;
  if (cfg.engine == "z3") engine = mm::make_z3_engine();
  else if (cfg.engine == "enum") engine = mm::make_enum_engine();
  else throw std::invalid_argument("unknown engine '" + cfg.engine + "'");
  litmus::Program p = litmus::lower(t);
  Permitted out;
  for (int unroll = 1;; ++unroll) {
    litmus::CheckOptions opt;
    opt.model = model;
    opt.traces.unroll = unroll;
    opt.count_executions = false;  // only the permitted states are compared
    opt.limits.timeout_s = cfg.timeout;
    litmus::CheckResult res = litmus::check(p, *engine, opt);
    out.outcomes.clear();
    for (const auto& s : res.states) out.outcomes.insert(s.text);
    out.bound_hit = res.bound_hit;
    out.unroll = unroll;
    if (!res.bound_hit || unroll >= cfg.max_unroll) break;
  }
  return out;
}

const char* class_name(Class c) {
  switch (c) {
    case Class::Violation: return "VIOLATION";
    case Class::PreModel: return "PRE-MODEL";
    case Class::Undecided: return "UNDECIDED";
    case Class::Witnessed: return "WITNESSED";
    case Class::Unseen: return "UNSEEN";
  }
  return "?";
}

Comparison compare(const Recording& r, const Permitted& p) {
  Comparison c;
  for (const auto& [text, n] : r.histogram) {
    if (n == 0) continue;
    Class k = p.outcomes.count(text) ? Class::Witnessed
              : p.bound_hit          ? Class::Undecided
              : r.pre_model.empty()  ? Class::Violation
                                     : Class::PreModel;
    c.outcomes.push_back({text, n, k, 0});
  }
  double bound = r.instances ? 3.0 / static_cast<double>(r.instances) : 1.0;
  for (const auto& text : p.outcomes) {
    if (r.unlisted) break;  // the source did not report the other outcomes
    auto it = r.histogram.find(text);
    if (it == r.histogram.end() || it->second == 0) c.outcomes.push_back({text, 0, Class::Unseen, std::min(1.0, bound)});
  }
  std::stable_sort(c.outcomes.begin(), c.outcomes.end(), [](const auto& a, const auto& b) {
    return a.cls != b.cls ? a.cls < b.cls : a.outcome < b.outcome;
  });
  for (const auto& o : c.outcomes) {
    switch (o.cls) {
      case Class::Violation: ++c.violations; break;
      case Class::PreModel: ++c.pre_model; break;
      case Class::Undecided: ++c.undecided; break;
      case Class::Witnessed: ++c.witnessed; break;
      case Class::Unseen: ++c.unseen; break;
    }
  }
  return c;
}

std::string comparison_text(const Recording& r, const Comparison& c, const Permitted& p) {
  std::string s = fmt::format("Test {} on {}{} ({} instances, {} incomplete; model unroll {}{})\n", r.test,
                              r.gpu.empty() ? "?" : r.gpu, r.architecture.empty() ? "" : " (" + r.architecture + ")",
                              r.instances, r.incomplete, p.unroll, p.bound_hit ? ", bound still hit" : "");
  if (r.source)
    s += fmt::format("  source: {}{}{}\n", r.source->citation, r.source->table.empty() ? "" : ", " + r.source->table,
                     r.source->repository.empty()
                         ? ""
                         : fmt::format(" ({} {} @ {})", r.source->repository, r.source->path, r.source->commit));
  if (r.unlisted) s += fmt::format("  {} instance(s) with outcomes the source does not list\n", r.unlisted);
  if (c.pre_model) s += fmt::format("  pre-model observation: {}\n", r.pre_model);
  for (const auto& o : c.outcomes) {
    if (o.cls == Class::Unseen)
      s += fmt::format("  {:<10} {}  (rate < {:.3g} at 95%)\n", class_name(o.cls), o.outcome, o.rate_bound);
    else
      s += fmt::format("  {:<10} {}  x{}\n", class_name(o.cls), o.outcome, o.count);
  }
  s += fmt::format("Summary {}: {} violation(s), {} pre-model, {} undecided, {} witnessed, {} unseen\n", r.test,
                   c.violations, c.pre_model, c.undecided, c.witnessed, c.unseen);
  if (c.violations && r.has_params)
    s += fmt::format("Replay: seed {} parameters {}\n", r.seed, params_to_json(r.params).dump());
  return s;
}

}  // namespace ptxcheck::hw
