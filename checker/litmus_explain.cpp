// --explain and --dot renderings (litmus_report.hpp). For an outcome no
// consistent execution shows, the candidate executions reaching it
// (mm::for_each_candidate) are handed to mm::violated_axioms, which names the
// axiom that rules each out.
#include <cstdint>

#include "checker/litmus_report.hpp"
#include "memmodel/candidates.hpp"
#include "memmodel/names.hpp"

namespace ptxcheck::cli {

namespace {

std::string event_line(const mm::Skeleton& s, int e) {
  const mm::Event& ev = s.events[e];
  std::string who = ev.thread < 0 ? "init" : s.threads[ev.thread].name;
  std::string t = "  e" + std::to_string(e) + " " + who + ": " + mm::to_string(ev.kind);
  if (ev.loc >= 0) t += " " + s.locations[ev.loc].name + "=" + std::to_string(ev.value);
  if (!ev.label.empty()) t += "   [" + ev.label + "]";
  return t + "\n";
}

std::string execution_text(const mm::Skeleton& s, const mm::Execution& ex) {
  std::string o = " events:\n";
  for (size_t e = 0; e < s.events.size(); ++e) o += event_line(s, static_cast<int>(e));
  o += " rf:";
  for (size_t e = 0; e < ex.rf.size(); ++e)
    if (ex.rf[e] >= 0) o += " e" + std::to_string(ex.rf[e]) + "->e" + std::to_string(e);
  o += "\n co:";
  for (auto [a, b] : ex.co) o += " e" + std::to_string(a) + "->e" + std::to_string(b);
  o += "\n fence-sc order:";
  for (int f : ex.fsc) o += " e" + std::to_string(f);
  return o + "\n";
}

// Does this final state show the outcome the quantifier asks about?
bool is_target(const litmus::Test& t, bool sat) { return t.quant == litmus::Quant::Forall ? !sat : sat; }

// The final value of each location under `ex`.
std::vector<uint64_t> final_values(const litmus::Program& p, const mm::Skeleton& sk, const mm::Execution& ex) {
  return p.final_values(sk.events, ex.final_write);
}

}  // namespace

std::string explain_text(const LitmusRun& r, const litmus::Program& p, const litmus::CheckOptions& opt) {
  const auto& t = *r.test;
  const auto& res = r.result;
  const auto& w = t.quant == litmus::Quant::Forall ? res.negative_witness : res.positive_witness;
  std::string o = "Explain " + t.name + ": ";
  if (w) {
    o += "the outcome is reachable; a consistent execution with final state " + w->state + "\n";
    return o + execution_text(w->skeleton, w->execution);
  }
  o += "no consistent execution reaches the outcome; candidates and the axioms that rule them out:\n";
  litmus::TraceSet ts = litmus::build_traces(p, opt.traces);
  std::vector<size_t> idx(p.threads.size(), 0);
  for (const auto& th : ts.threads)
    if (th.traces.empty()) return o + " (a thread has no complete path within the loop bound)\n";
  int shown = 0;
  uint64_t examined = 0;
  const int kMaxShown = 6;
  const uint64_t kMaxExamined = 200000;
  bool more = true;
  while (more && shown < kMaxShown && examined < kMaxExamined) {
    std::vector<const litmus::Trace*> pick(p.threads.size());
    for (size_t k = 0; k < pick.size(); ++k) pick[k] = &ts.threads[k].traces[idx[k]];
    more = false;
    for (size_t k = pick.size(); k-- > 0;) {
      if (++idx[k] < ts.threads[k].traces.size()) {
        more = true;
        break;
      }
      idx[k] = 0;
    }
    mm::Skeleton sk = litmus::make_skeleton(p, pick);
    mm::for_each_candidate(sk, p.nphys, UINT64_MAX, [&](const mm::Execution& ex) {
      if (!is_target(t, litmus::eval_cond(t.cond, p, pick, final_values(p, sk, ex)))) return true;
      ++examined;
      auto why = mm::violated_axioms(sk, opt.model, ex);
      if (why.empty()) return examined < kMaxExamined;  // consistent only with another fsc/final choice
      o += "candidate " + std::to_string(++shown) + " violates:";
      for (const auto& a : why) o += " " + a + ";";
      o += "\n" + execution_text(sk, ex);
      return shown < kMaxShown && examined < kMaxExamined;
    });
  }
  if (shown == 0) o += " (no candidate execution reaches it: the thread semantics alone exclude it)\n";
  else if (shown >= kMaxShown) o += " (further candidates omitted)\n";
  return o;
}

std::string witness_dot(const litmus::Witness& w, const std::string& title) {
  const auto& s = w.skeleton;
  const auto& ex = w.execution;
  auto esc = [](std::string x) {
    std::string o;
    for (char c : x) o += c == '"' ? std::string("\\\"") : std::string(1, c);
    return o;
  };
  std::string o = "digraph \"" + esc(title) + "\" {\n  label=\"" + esc(title + ": " + w.state) + "\";\n  node [shape=box];\n";
  for (size_t t = 0; t <= s.threads.size(); ++t) {
    bool init = t == s.threads.size();
    o += "  subgraph cluster_" + std::to_string(t) + " {\n    label=\"" + (init ? std::string("init") : s.threads[t].name) + "\";\n";
    for (size_t e = 0; e < s.events.size(); ++e) {
      const auto& ev = s.events[e];
      if ((init && ev.thread >= 0) || (!init && ev.thread != static_cast<int>(t))) continue;
      std::string lab = "e" + std::to_string(e) + ": " + mm::to_string(ev.kind);
      if (ev.loc >= 0) lab += " " + s.locations[ev.loc].name + "=" + std::to_string(ev.value);
      if (!ev.label.empty()) lab += "\\n" + esc(ev.label);
      o += "    e" + std::to_string(e) + " [label=\"" + lab + "\"];\n";
    }
    o += "  }\n";
  }
  for (const auto& po : s.po)
    for (size_t k = 1; k < po.size(); ++k) o += "  e" + std::to_string(po[k - 1]) + " -> e" + std::to_string(po[k]) + " [label=po];\n";
  for (size_t e = 0; e < ex.rf.size(); ++e)
    if (ex.rf[e] >= 0) o += "  e" + std::to_string(ex.rf[e]) + " -> e" + std::to_string(e) + " [label=rf, color=red];\n";
  for (auto [a, b] : ex.co) o += "  e" + std::to_string(a) + " -> e" + std::to_string(b) + " [label=co, color=blue];\n";
  for (size_t k = 1; k < ex.fsc.size(); ++k)
    o += "  e" + std::to_string(ex.fsc[k - 1]) + " -> e" + std::to_string(ex.fsc[k]) + " [label=fsc, color=green];\n";
  return o + "}\n";
}

}  // namespace ptxcheck::cli
