// herd7-compatible text and JSON output of the litmus checker.
#include "checker/litmus_report.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace ptxcheck::cli {

namespace {

// herd prints conditions as `1:r0=1 /\ not (x=2)`.
std::string herd_cond(const litmus::Cond& c) {
  using litmus::Cond;
  auto join = [&](const char* sep) {
    std::string s = "(";
    for (size_t i = 0; i < c.kids.size(); ++i) s += (i ? sep : "") + herd_cond(c.kids[i]);
    return s + ")";
  };
  switch (c.kind) {
    case Cond::True: return "true";
    case Cond::Cmp: {
      std::string l = litmus::to_string(c.lhs), r = litmus::to_string(c.rhs);
      if (c.cmp == litmus::CmpOp::Eq) return l + "=" + r;
      if (c.cmp == litmus::CmpOp::Ne) return "not (" + l + "=" + r + ")";
      return l + " " + litmus::to_string(c.cmp) + " " + r;
    }
    case Cond::And: return join(" /\\ ");
    case Cond::Or: return join(" \\/ ");
    case Cond::Not: return "not (" + herd_cond(c.kids[0]) + ")";
    case Cond::Implies: return join(" => ");
  }
  return "?";
}

std::string fmt_time(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", s);
  return buf;
}

// One access of a mixed-size data race: "P0 line 12 (st.global.u32 [x], 1)".
std::string race_access(const litmus::Test& t, const litmus::RaceAccess& a) {
  const litmus::Thread& th = t.threads[a.thread];
  std::string o = th.place.name;
  if (a.instr >= 0 && a.instr < static_cast<int>(th.code.size()))
    o += " line " + std::to_string(th.code[a.instr].pos.line) + " (" + th.code[a.instr].text + ")";
  return o;
}

nlohmann::json race_access_json(const litmus::Test& t, const litmus::RaceAccess& a) {
  const litmus::Thread& th = t.threads[a.thread];
  nlohmann::json j = {{"thread", th.place.name}};
  if (a.instr >= 0 && a.instr < static_cast<int>(th.code.size())) {
    j["line"] = th.code[a.instr].pos.line;
    j["instruction"] = th.code[a.instr].text;
  }
  return j;
}

}  // namespace

std::string herd_text(const LitmusRun& r) {
  if (r.status != LitmusRun::Decided) return r.error + "\n";
  const auto& t = *r.test;
  const auto& res = r.result;
  std::string o;
  o += "Test " + t.name + " " + t.kind_name() + "\n";
  o += "States " + std::to_string(res.states.size()) + "\n";
  for (const auto& s : res.states) o += s.text + "\n";
  o += res.ok ? "Ok\n" : "No\n";
  o += "Witnesses\n";
  o += "Positive: " + std::to_string(res.positive) + " Negative: " + std::to_string(res.negative) + "\n";
  std::string cond = herd_cond(t.cond);
  if (cond.empty() || cond[0] != '(') cond = "(" + cond + ")";
  o += "Condition " + std::string(litmus::quant_name(t.quant)) + " " + cond + "\n";
  const char* obs = res.positive == 0 ? "Never" : res.negative == 0 ? "Always" : "Sometimes";
  o += "Observation " + t.name + " " + obs + " " + std::to_string(res.positive) + " " +
       std::to_string(res.negative) + "\n";
  // PTX ISA 8.7.2: the axioms do not apply to a program with a mixed-size data race.
  for (const auto& m : res.mixed_races)
    o += "Undefined " + t.name + " mixed-size data race (PTX ISA 8.7.2) between " + race_access(t, m.a) + " and " +
         race_access(t, m.b) + ": the memory model does not apply, the states above are not guaranteed\n";
  if (res.bound_hit)
    o += "Bound " + t.name + " loops cut at --unroll " + std::to_string(r.unroll) +
         ": executions beyond the bound were not explored\n";
  o += "Time " + t.name + " " + fmt_time(r.seconds) + "\n";
  return o;
}

std::string json_line(const LitmusRun& r) {
  nlohmann::json j;
  j["file"] = r.path;
  j["name"] = r.name;
  j["model"] = r.model;
  j["engine"] = r.engine;
  j["time"] = r.seconds;
  j["unroll"] = r.unroll;
  if (r.status != LitmusRun::Decided) {
    j["status"] = r.status == LitmusRun::InputErr ? "invalid-input" : r.status == LitmusRun::LimitErr ? "limit" : "error";
    j["error"] = r.error;
  } else {
    const auto& res = r.result;
    j["status"] = "decided";
    j["kind"] = r.test->kind_name();
    j["condition"] = std::string(litmus::quant_name(r.test->quant)) + " " + herd_cond(r.test->cond);
    j["verdict"] = res.ok ? "Ok" : "No";
    nlohmann::json states = nlohmann::json::array();
    for (const auto& s : res.states)
      states.push_back({{"state", s.text}, {"executions", s.count}, {"satisfies", s.satisfies}});
    j["states"] = states;
    j["positive"] = res.positive;
    j["negative"] = res.negative;
    j["executions"] = res.executions;
    j["skeletons"] = res.skeletons;
    j["bound_hit"] = res.bound_hit;
    // PTX ISA 8.7.2 (only when true: the other tests' JSON is unchanged).
    if (res.undefined()) {
      j["undefined"] = true;
      nlohmann::json races = nlohmann::json::array();
      for (const auto& m : res.mixed_races)
        races.push_back({{"kind", "mixed-size"}, {"a", race_access_json(*r.test, m.a)}, {"b", race_access_json(*r.test, m.b)}});
      j["mixed_size_races"] = races;
    }
  }
  if (r.expected >= 0) {
    j["expected"] = r.expected ? "Ok" : "No";
    j["mismatch"] = r.mismatch();
  }
  return j.dump();
}

}  // namespace ptxcheck::cli
