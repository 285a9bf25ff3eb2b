// Combining thread traces into skeletons and judging the condition (check.hpp).
#include "semantics/litmus/check.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <set>

#include "parser/diagnostic.hpp"

namespace ptxcheck::litmus {

namespace {

struct ObsVar {
  bool is_reg = false;
  int thread = -1;
  int index = -1;  // slot or location index
  std::string name;
};

void collect(const Cond& c, std::vector<CondValue>& out) {
  if (c.kind == Cond::Cmp) {
    out.push_back(c.lhs);
    out.push_back(c.rhs);
  }
  for (const Cond& k : c.kids) collect(k, out);
}

// herd prints registers (by thread, then name) before locations.
std::vector<ObsVar> observed(const Program& p) {
  std::vector<CondValue> vs;
  collect(p.test->cond, vs);
  std::set<std::pair<int, std::string>> regs;
  std::set<std::string> locs;
  for (const auto& v : vs) {
    if (v.kind == CondValue::Reg) regs.insert({v.thread, v.name});
    if (v.kind == CondValue::Loc) locs.insert(v.name);
  }
  if (regs.empty() && locs.empty())  // `exists 0==0`: show every register
    for (size_t t = 0; t < p.threads.size(); ++t)
      for (const auto& r : p.threads[t].regs) regs.insert({static_cast<int>(t), r});
  std::vector<ObsVar> out;
  for (const auto& [t, r] : regs) out.push_back({true, t, p.threads[t].slot(r), std::to_string(t) + ":" + r});
  for (const auto& l : locs) out.push_back({false, -1, p.loc_index(l), l});
  return out;
}

int64_t signed_value(uint64_t v, uint32_t size) {
  if (size >= 8) return static_cast<int64_t>(v);
  uint64_t sign = uint64_t{1} << (8 * size - 1);
  v = mask_to(v, size);
  return static_cast<int64_t>((v ^ sign) - sign);
}

uint64_t value_of(const CondValue& v, const Program& p, const std::vector<const Trace*>& traces,
                  const std::vector<uint64_t>& loc_final) {
  switch (v.kind) {
    case CondValue::Reg: return traces[v.thread]->regs[p.threads[v.thread].slot(v.name)];
    case CondValue::Loc: return loc_final[p.loc_index(v.name)];
    case CondValue::Const: return v.value;
  }
  return 0;
}

}  // namespace

bool eval_cond(const Cond& c, const Program& p, const std::vector<const Trace*>& traces,
               const std::vector<uint64_t>& loc_final) {
  switch (c.kind) {
    case Cond::True: return true;
    case Cond::Cmp:
      return compare(c.cmp, value_of(c.lhs, p, traces, loc_final), value_of(c.rhs, p, traces, loc_final));
    case Cond::And:
      for (const Cond& k : c.kids)
        if (!eval_cond(k, p, traces, loc_final)) return false;
      return true;
    case Cond::Or:
      for (const Cond& k : c.kids)
        if (eval_cond(k, p, traces, loc_final)) return true;
      return false;
    case Cond::Not: return !eval_cond(c.kids[0], p, traces, loc_final);
    case Cond::Implies:
      return !eval_cond(c.kids[0], p, traces, loc_final) || eval_cond(c.kids[1], p, traces, loc_final);
  }
  return false;
}

mm::Skeleton make_skeleton(const Program& p, const std::vector<const Trace*>& pick) {
  mm::Skeleton s;
  s.locations = p.locations;
  for (const auto& th : p.threads) s.threads.push_back(th.place);
  // PTX ISA 8.2.6: one initial write per physical location, first in coherence.
  std::vector<bool> seen(p.nphys, false);
  for (size_t i = 0; i < p.locations.size(); ++i) {
    const auto& l = p.locations[i];
    if (seen[l.physical]) continue;
    seen[l.physical] = true;
    mm::Event e;
    e.kind = mm::EventKind::Init;
    e.thread = -1;
    e.loc = static_cast<int>(i);
    e.value = l.init;
    e.label = l.name + " = " + std::to_string(l.init);
    s.events.push_back(std::move(e));
  }
  s.po.resize(pick.size());
  for (size_t t = 0; t < pick.size(); ++t) {
    int base = static_cast<int>(s.events.size());
    const int op_base = static_cast<int>(s.async_ops.size());
    for (const mm::Event& e : pick[t]->events) {
      mm::Event c = e;
      if (c.rmw_pair >= 0) c.rmw_pair += base;
      // Events of asynchronous operations are outside program order (8.9.1.1).
      if (c.async_op >= 0) c.async_op += op_base;
      else s.po[t].push_back(static_cast<int>(s.events.size()));
      s.events.push_back(std::move(c));
    }
    for (const interp::TraceAsyncOp& o : pick[t]->async_ops) {
      mm::AsyncOp op;
      op.kind = o.kind;
      op.thread = static_cast<int>(t);
      op.issued_after = o.issued_after;
      for (int e : o.mem) op.mem.push_back(e + base);
      op.fence = o.fence >= 0 ? o.fence + base : -1;
      op.complete_tx = o.complete_tx >= 0 ? o.complete_tx + base : -1;
      s.async_ops.push_back(std::move(op));
    }
    for (const interp::TraceAsyncWait& w : pick[t]->waits)
      s.async_waits.push_back({w.op + op_base, static_cast<int>(t), w.before, w.reads_only});
    for (auto [a, b] : pick[t]->addr) s.addr.emplace_back(a + base, b + base);
    for (auto [a, b] : pick[t]->data) s.data.emplace_back(a + base, b + base);
    for (auto [a, b] : pick[t]->ctrl) s.ctrl.emplace_back(a + base, b + base);
  }
  return s;
}

namespace {

// Every read must be able to read its guessed value from some write of the
// combination (or the initial value); others have no execution.
bool values_feasible(const Program& p, const std::vector<const Trace*>& pick) {
  std::vector<std::set<uint64_t>> vals(p.nphys);
  for (const auto& l : p.locations) vals[l.physical].insert(l.init);
  for (const Trace* t : pick)
    for (const auto& e : t->events)
      if (e.kind == mm::EventKind::Write) vals[p.locations[e.loc].physical].insert(e.value);
  for (const Trace* t : pick)
    for (const auto& e : t->events)
      if (e.kind == mm::EventKind::Read && !vals[p.locations[e.loc].physical].count(e.value)) return false;
  return true;
}

}  // namespace

CheckResult check(const Program& p, mm::Engine& engine, const CheckOptions& opt) {
  auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  CheckResult res;
  TraceSet ts = build_traces(p, opt.traces);
  res.bound_hit = ts.bound_hit();
  auto obs = observed(p);
  std::map<std::string, StateCount> states;

  size_t n = p.threads.size();
  for (const auto& t : ts.threads)
    if (t.traces.empty()) n = 0;  // some thread never terminates: no execution
  std::vector<size_t> idx(p.threads.size(), 0);
  std::vector<const Trace*> pick(p.threads.size());
  bool more = n > 0 || p.threads.empty();
  while (more) {
    for (size_t t = 0; t < pick.size(); ++t) pick[t] = &ts.threads[t].traces[idx[t]];
    // Next combination (odometer).
    more = false;
    for (size_t t = pick.size(); t-- > 0;) {
      if (++idx[t] < ts.threads[t].traces.size()) {
        more = true;
        break;
      }
      idx[t] = 0;
    }
    if (!values_feasible(p, pick)) continue;
    if (opt.limits.timeout_s > 0 && elapsed() > opt.limits.timeout_s)
      throw LimitError("timeout after " + std::to_string(opt.limits.timeout_s) + " s");
    mm::Skeleton sk = make_skeleton(p, pick);
    ++res.skeletons;
    mm::Limits lim = opt.limits;
    if (lim.timeout_s > 0) lim.timeout_s = std::max(0.001, lim.timeout_s - elapsed());
    engine.enumerate(sk, opt.model, lim, [&](const mm::Execution& ex) {
      for (size_t e = 0; e < sk.events.size(); ++e) {
        if (sk.events[e].kind != mm::EventKind::Read) continue;
        int w = ex.rf[e];
        if (w < 0 || sk.events[w].value != sk.events[e].value) return true;  // not this trace's guess
      }
      std::vector<uint64_t> loc_final(p.locations.size());
      for (size_t l = 0; l < p.locations.size(); ++l) {
        int ph = p.locations[l].physical;
        int w = ph < static_cast<int>(ex.final_write.size()) ? ex.final_write[ph] : -1;
        loc_final[l] = w >= 0 ? sk.events[w].value : p.locations[l].init;
      }
      bool sat = eval_cond(p.test->cond, p, pick, loc_final);
      std::string text;
      for (const auto& v : obs) {
        uint64_t x;
        uint32_t size = 8;
        if (v.is_reg) {
          x = pick[v.thread]->regs[v.index];
        } else {
          x = loc_final[v.index];
          size = p.locations[v.index].size;
        }
        text += v.name + "=" + std::to_string(signed_value(x, size)) + "; ";
      }
      if (!text.empty()) text.pop_back();
      auto& sc = states[text];
      sc.text = text;
      ++sc.count;
      sc.satisfies = sat;
      ++res.executions;
      (sat ? res.positive : res.negative) += 1;
      auto& wit = sat ? res.positive_witness : res.negative_witness;
      if (!wit) wit = Witness{sk, ex, text};
      return true;
    });
  }
  for (auto& [k, v] : states) res.states.push_back(v);
  switch (p.test->quant) {
    case Quant::Exists: res.ok = res.positive > 0; break;
    case Quant::NotExists: res.ok = res.positive == 0; break;
    case Quant::Forall: res.ok = res.negative == 0; break;
  }
  return res;
}

}  // namespace ptxcheck::litmus
