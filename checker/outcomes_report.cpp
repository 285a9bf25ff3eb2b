// `ptxcheck outcomes` output (outcomes_report.hpp).
#include "checker/outcomes_report.hpp"

#include <algorithm>
#include <cstring>
#include <sstream>

#include "checker/run_report.hpp"
#include "memmodel/candidates.hpp"
#include "memmodel/names.hpp"

namespace ptxcheck::cli {

namespace {

std::vector<std::string> values_of(const interp::LaunchSpec& spec, size_t out, const std::vector<uint8_t>& bytes) {
  const interp::BufferSpec& b = *spec.buffer(spec.outputs[out]);
  unsigned sz = interp::elem_size(b.type);
  std::vector<std::string> v;
  for (uint64_t i = 0; i < b.count && (i + 1) * sz <= bytes.size(); ++i) {
    uint64_t x = 0;
    std::memcpy(&x, &bytes[i * sz], sz);
    v.push_back(interp::format_value(x, b.type));
  }
  return v;
}

std::string list(const std::vector<std::string>& v) {
  std::string o = "[";
  for (size_t i = 0; i < v.size(); ++i) o += (i ? ", " : "") + v[i];
  return o + "]";
}

std::string state_text(const outcomes::Result& r, const std::vector<std::vector<uint8_t>>& bufs) {
  std::string o;
  for (size_t k = 0; k < r.spec.outputs.size(); ++k) {
    auto v = values_of(r.spec, k, bufs[k]);
    o += (k ? "  " : "") + r.spec.outputs[k] + " = " + (v.size() == 1 ? v[0] : list(v));
  }
  return o;
}

std::string where(const outcomes::EventSource& s) {
  return "cta " + coords(s.cta) + " thread " + coords(s.tid) + " warp " + std::to_string(s.warp) + " lane " +
         std::to_string(s.lane);
}

// The race classes of docs/races.md with --races=strict|default.
const char* race_kind(const outcomes::Race& x) {
  return interp::diag_kind_name(x.warp_sync ? interp::DiagKind::WarpSyncRace : interp::DiagKind::DataRace);
}
const char* race_severity(const outcomes::Race& x, const ReportOptions& o) {
  return x.warp_sync && !o.strict_races ? "warning" : "error";
}

std::string event_text(const outcomes::Witness& w, size_t e, const std::string& ptx) {
  const mm::Skeleton& s = w.skeleton;
  const mm::Event& ev = s.events[e];
  const outcomes::EventSource& src = w.sources[e];
  std::string o = "  e" + std::to_string(e) + " ";
  if (ev.thread < 0) return o + "init " + ev.label + "\n";
  o += s.threads[static_cast<size_t>(ev.thread)].name + ": " + mm::to_string(ev.kind);
  if (ev.kind == mm::EventKind::Read || ev.kind == mm::EventKind::Write || ev.kind == mm::EventKind::Fence) {
    if (ev.order != mm::Order::Weak) o += std::string(".") + mm::to_string(ev.order) + "." + mm::to_string(ev.scope);
  }
  if (ev.loc >= 0) o += " " + s.locations[static_cast<size_t>(ev.loc)].name + " = " + std::to_string(ev.value);
  if (ev.kind == mm::EventKind::Read && e < static_cast<size_t>(w.execution.rf.size()) && w.execution.rf[e] >= 0)
    o += "  (reads e" + std::to_string(w.execution.rf[e]) + ")";
  o += "   " + ptx + ":" + std::to_string(src.line) + ":" + std::to_string(src.col) + ": " + src.text + "\n";
  return o;
}

std::string witness_text(const outcomes::Result& r, const outcomes::Witness& w) {
  std::string o;
  for (size_t e = 0; e < w.skeleton.events.size(); ++e) o += event_text(w, e, r.ptx_file);
  o += "  co:";
  for (auto [a, b] : w.execution.co)
    if (w.skeleton.events[static_cast<size_t>(a)].kind != mm::EventKind::Init)
      o += " e" + std::to_string(a) + "->e" + std::to_string(b);
  // PTX ISA 8.10.4: the dependencies of the executed paths (No Thin Air).
  std::string deps;
  auto dep = [&](const std::vector<std::pair<int, int>>& rel, const char* kind) {
    for (auto [a, b] : rel) deps += " e" + std::to_string(a) + "-" + kind + "->e" + std::to_string(b);
  };
  dep(w.skeleton.addr, "addr");
  dep(w.skeleton.data, "data");
  dep(w.skeleton.ctrl, "ctrl");
  if (!deps.empty()) o += "\n  deps:" + deps;
  if (!w.execution.fsc.empty()) {
    o += "\n  fence-sc order:";
    for (int f : w.execution.fsc) o += " e" + std::to_string(f);
  }
  return o + "\n";
}

std::string explain_state(const outcomes::Result& r, const ReportOptions& o) {
  for (const auto& oc : r.outcomes)
    if (eval_buf_cond(*o.state, r.spec, oc.buffers) && oc.witness)
      return "state " + state_text(r, oc.buffers) + " is permitted; a witness execution:\n" +
             witness_text(r, *oc.witness);
  std::string out =
      "no permitted execution reaches the state; candidate executions and the axioms that rule them out:\n";
  int shown = 0;
  const int kMax = 5;
  for (const auto& run : r.runs) {
    mm::for_each_candidate(run.skeleton, static_cast<int>(run.skeleton.locations.size()), 100000,
                           [&](const mm::Execution& ex) {
                             if (!eval_buf_cond(*o.state, r.spec, outcomes::final_buffers(run, ex))) return true;
                             auto why = mm::violated_axioms(run.skeleton, o.model, ex);
                             if (why.empty()) return true;  // (consistent: cannot happen for an unreached state)
                             outcomes::Witness w = outcomes::witness_of(run, ex);
                             out += "candidate " + std::to_string(++shown) + " violates:";
                             for (const auto& a : why) out += " " + a + ";";
                             out += "\n" + witness_text(r, w);
                             return shown < kMax;
                           });
    if (shown >= kMax) break;
  }
  if (shown == 0)
    out += "  (no candidate execution reaches it: the threads' own semantics exclude it)\n";
  else if (shown >= kMax)
    out += "  (further candidates omitted)\n";
  return out;
}

std::string cond_verdict(const outcomes::Result& r, const ReportOptions& o, uint64_t& pos, uint64_t& neg) {
  pos = neg = 0;
  for (const auto& oc : r.outcomes) (eval_buf_cond(*o.cond, r.spec, oc.buffers) ? pos : neg) += oc.executions;
  bool ok = o.forall ? neg == 0 : pos > 0;
  return ok ? "Ok" : "No";
}

}  // namespace

std::string outcomes_json(const outcomes::Result& r, const ReportOptions& o) {
  std::ostringstream s;
  s << "{\n  \"kernel\": " << jstr(r.spec.kernel) << ",\n  \"outcomes\": [";
  for (size_t i = 0; i < r.outcomes.size(); ++i) {
    const auto& oc = r.outcomes[i];
    s << (i ? ",\n" : "\n") << "    {\"buffers\": {";
    for (size_t k = 0; k < r.spec.outputs.size(); ++k)
      s << (k ? ", " : "") << jstr(r.spec.outputs[k]) << ": " << list(values_of(r.spec, k, oc.buffers[k]));
    s << "}, \"executions\": " << oc.executions;
    if (o.explain && oc.witness) s << ", \"witness\": " << jstr(witness_text(r, *oc.witness));
    s << "}";
  }
  s << (r.outcomes.empty() ? "],\n" : "\n  ],\n");
  s << "  \"complete\": " << (r.complete ? "true" : "false") << ",\n  \"unroll\": " << r.unroll
    << ",\n  \"bound_hit\": " << (r.bound_hit ? "true" : "false") << ",\n  \"races\": [";
  for (size_t i = 0; i < r.races.size(); ++i) {
    const auto& x = r.races[i];
    auto acc = [&](const outcomes::EventSource& e, bool w) {
      return "{\"access\": \"" + std::string(w ? "write" : "read") + "\", \"line\": " + std::to_string(e.line) +
             ", \"col\": " + std::to_string(e.col) + ", \"cta\": " + coords(e.cta) + ", \"thread\": " + coords(e.tid) +
             ", \"warp\": " + std::to_string(e.warp) + ", \"lane\": " + std::to_string(e.lane) +
             ", \"ptx\": " + jstr(e.text) + "}";
    };
    s << (i ? ",\n" : "\n") << "    {\"kind\": \"" << race_kind(x) << "\", \"severity\": \"" << race_severity(x, o)
      << "\", \"location\": " << jstr(x.location) << ", \"file\": " << jstr(r.ptx_file)
      << ", \"first\": " << acc(x.first, x.first_write) << ", \"second\": " << acc(x.second, x.second_write) << "}";
  }
  s << (r.races.empty() ? "],\n" : "\n  ],\n");
  if (o.cond) {
    uint64_t pos, neg;
    std::string v = cond_verdict(r, o, pos, neg);
    s << "  \"condition\": {\"text\": " << jstr(o.cond_text) << ", \"quantifier\": \""
      << (o.forall ? "forall" : "exists") << "\", \"result\": \"" << v << "\", \"positive\": " << pos
      << ", \"negative\": " << neg << "},\n";
  }
  if (o.state) s << "  \"state_explanation\": " << jstr(explain_state(r, o)) << ",\n";
  const auto& st = r.stats;
  char secs[64];
  std::snprintf(secs, sizeof secs, "%.6f", st.seconds);
  s << "  \"stats\": {\"rounds\": " << st.rounds << ", \"launches\": " << st.runs
    << ", \"finished_launches\": " << st.finished_runs << ", \"skeletons\": " << st.skeletons
    << ", \"executions\": " << st.executions << ", \"cut_paths\": " << st.cut
    << ", \"redundant_paths\": " << st.subsumed << ", \"deadlocked_launches\": " << st.deadlocked
    << ", \"faulted_launches\": " << st.faulted << ", \"communicating_locations\": " << st.communicating
    << ", \"max_events\": " << st.max_events << ", \"units\": " << st.units
    << ", \"pruned_compositions\": " << st.pruned << ", \"prefix_pruned_compositions\": " << st.prefix_pruned
    << ", \"symmetric_choices_skipped\": " << st.symmetric << ", \"seconds\": " << secs << "}\n}\n";
  return s.str();
}

std::string outcomes_text(const outcomes::Result& r, const ReportOptions& o) {
  std::ostringstream s;
  s << "kernel " << r.spec.kernel << ": " << r.outcomes.size() << " permitted outcome"
    << (r.outcomes.size() == 1 ? "" : "s") << (r.complete ? "" : " (incomplete)") << "\n";
  for (const auto& oc : r.outcomes) {
    s << "  " << state_text(r, oc.buffers) << "   (" << oc.executions << " execution" << (oc.executions == 1 ? "" : "s")
      << ")\n";
    if (o.explain && !o.state && oc.witness) s << " witness:\n" << witness_text(r, *oc.witness);
  }
  if (r.bound_hit)
    s << "the loop bound cut paths (" << r.stats.cut << ") at --unroll " << r.unroll
      << ": outcomes beyond it may be missing\n";
  for (const auto& x : r.races)
    s << r.ptx_file << ":" << x.second.line << ":" << x.second.col << ": " << race_severity(x, o) << ": "
      << race_kind(x) << ": " << x.location << ": " << (x.second_write ? "write" : "read") << " (" << where(x.second)
      << ") and " << (x.first_write ? "write" : "read") << " at " << r.ptx_file << ":" << x.first.line << ":"
      << x.first.col << " (" << where(x.first) << ") "
      << (x.warp_sync
              ? "are ordered only by a warp-collective .sync instruction, which orders no memory (docs/races.md)"
              : "are not morally strong and not ordered by causality (PTX ISA 8.7.1)")
      << "\n";
  if (!r.stats.first_fault.empty())
    s << "warning: " << r.stats.faulted << " launch(es) faulted and were dropped, e.g. " << r.stats.first_fault << "\n";
  if (o.cond) {
    uint64_t pos, neg;
    s << "Condition " << (o.forall ? "forall " : "exists ") << "(" << o.cond_text << ")\n"
      << cond_verdict(r, o, pos, neg) << "\nPositive: " << pos << " Negative: " << neg << "\n";
  }
  if (o.state) s << explain_state(r, o);
  char secs[64];
  std::snprintf(secs, sizeof secs, "%.3f", r.stats.seconds);
  s << "(" << r.stats.runs << " launches, " << r.stats.skeletons << " candidate skeletons, " << r.stats.executions
    << " executions, " << secs << " s)\n";
  return s.str();
}

}  // namespace ptxcheck::cli
