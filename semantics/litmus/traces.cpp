// Path enumeration of litmus threads (see traces.hpp).
#include "semantics/litmus/traces.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace ptxcheck::litmus {

bool compare(CmpOp c, uint64_t a, uint64_t b) {
  auto sa = static_cast<int64_t>(a), sb = static_cast<int64_t>(b);
  switch (c) {
    case CmpOp::Eq: return a == b;
    case CmpOp::Ne: return a != b;
    case CmpOp::Lt: return sa < sb;
    case CmpOp::Le: return sa <= sb;
    case CmpOp::Gt: return sa > sb;
    case CmpOp::Ge: return sa >= sb;
  }
  return false;
}

uint64_t apply_op(AluOp op, CmpOp cmp, uint64_t old, uint64_t a, uint64_t b, uint32_t size) {
  uint64_t r = 0;
  switch (op) {
    case AluOp::Mov: r = a; break;
    case AluOp::Add: r = old + a; break;
    case AluOp::Sub: r = old - a; break;
    case AluOp::Mul: r = old * a; break;
    case AluOp::Div: r = a == 0 ? ~uint64_t{0} : old / a; break;  // PTX: division by zero is unspecified
    case AluOp::And: r = old & a; break;
    case AluOp::Or: r = old | a; break;
    case AluOp::Xor: r = old ^ a; break;
    case AluOp::Exch:
    case AluOp::Cas:
    case AluOp::Inc:
    case AluOp::Dec: r = old; break;  // atom-only: arith::atom_apply (rmw_value)
    case AluOp::Min: r = std::min(static_cast<int64_t>(old), static_cast<int64_t>(a)); break;
    case AluOp::Max: r = std::max(static_cast<int64_t>(old), static_cast<int64_t>(a)); break;
    case AluOp::Setp: r = compare(cmp, old, a) ? 1 : 0; break;
  }
  return mask_to(r, size);
}

namespace {

// The value an atom/red writes: arith::atom_apply for the PTX operations,
// at the instruction's type (Dat3M's untyped operands are signed integers
// of the access size). Dat3M's sub is add of the negation; its mul/div are
// not PTX atomics.
uint64_t rmw_value(const Instr& in, uint64_t old, uint64_t a, uint64_t b) {
  std::string tn = in.type.empty() ? "s" + std::to_string(in.size * 8) : in.type;
  auto ty = arith::ty_from_name(tn);  // checked by lower()
  if (auto op = atom_of(in.op)) return atom_apply(*op, *ty, old, a, b);
  if (in.op == AluOp::Sub) return atom_apply(arith::AtomOp::Add, *ty, old, uint64_t{0} - a, 0);
  return apply_op(in.op, CmpOp::Eq, old, a, b, in.size);  // Dat3M's mul, div
}

using Deps = std::vector<int>;  // sorted local event indices

void merge(Deps& into, const Deps& from) {
  Deps out;
  std::set_union(into.begin(), into.end(), from.begin(), from.end(), std::back_inserter(out));
  into = std::move(out);
}

struct State {
  int pc = 0;
  std::vector<uint64_t> regs;
  std::vector<Deps> reg_deps;
  Deps ctrl_src;                // loads the control flow depends on so far
  std::map<int, int> back_jumps;  // instruction index -> times taken
  // Per loop head: event count, registers and their deps at the last arrival.
  struct Arrival {
    size_t events = 0;
    std::vector<uint64_t> regs;
    std::vector<Deps> deps;
  };
  std::map<int, Arrival> arrivals;
  Trace tr;
};

// Registers live at each instruction (read before written on some path);
// every register is live at the thread's end, where the final state reads it.
std::vector<std::vector<char>> liveness(const LThread& th) {
  size_t n = th.code.size(), nr = th.regs.size();
  std::vector<std::vector<char>> live(n + 1, std::vector<char>(nr, 0));
  std::fill(live[n].begin(), live[n].end(), 1);
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = n; i-- > 0;) {
      const LInstr& li = th.code[i];
      InstrKind k = li.src->kind;
      std::vector<char> out(nr, 0);
      auto add = [&](size_t succ) {
        for (size_t r = 0; r < nr; ++r) out[r] |= live[std::min(succ, n)][r];
      };
      if (k == InstrKind::Jump) add(li.target);
      else add(i + 1);
      if (k == InstrKind::Branch) add(li.target);
      if (li.dst >= 0) out[li.dst] = 0;
      for (const Slot& a : li.args)
        if (a.reg >= 0) out[a.reg] = 1;
      if (out != live[i]) {
        live[i] = std::move(out);
        changed = true;
      }
    }
  }
  return live;
}

// PTX ISA 8.4: an RMW's read half carries the acquire part of its order and
// its write half the release part; relaxed RMWs are relaxed in both.
std::pair<mm::Order, mm::Order> split_rmw(mm::Order o) {
  switch (o) {
    case mm::Order::AcqRel: return {mm::Order::Acquire, mm::Order::Release};
    case mm::Order::Acquire: return {mm::Order::Acquire, mm::Order::Relaxed};
    case mm::Order::Release: return {mm::Order::Relaxed, mm::Order::Release};
    case mm::Order::SC: return {mm::Order::Acquire, mm::Order::Release};
    default: return {o, o};
  }
}

class Runner {
 public:
  Runner(const Program& p, int thread, const TraceSet& ts, const TraceLimits& lim)
      : p_(p), t_(thread), th_(p.threads[thread]), ts_(ts), lim_(lim), live_(liveness(th_)),
        head_(th_.code.size(), 0) {
    for (size_t i = 0; i < th_.code.size(); ++i)
      if (th_.code[i].target >= 0 && th_.code[i].target <= static_cast<int>(i)) head_[th_.code[i].target] = 1;
  }

  ThreadTraces run() {
    State s;
    s.regs = th_.reg_init;
    s.reg_deps.resize(th_.regs.size());
    step(std::move(s));
    return std::move(out_);
  }

  std::vector<std::pair<int, uint64_t>> written_;  // (physical, value) on any path
  size_t most_writes_ = 0;                         // most writes on one path

 private:
  uint64_t val(const State& s, const Slot& a) const { return a.reg >= 0 ? s.regs[a.reg] : a.imm; }
  void deps_of(const State& s, const Slot& a, Deps& d) const {
    if (a.reg >= 0) merge(d, s.reg_deps[a.reg]);
  }

  int push(State& s, mm::Event e, const LInstr& li) {
    e.thread = t_;
    // Values written on any path, complete or cut, feed the value sets:
    // a path cut by the bound may still write before it is cut.
    if (e.kind == mm::EventKind::Write) {
      written_.emplace_back(p_.locations[e.loc].physical, e.value);
      size_t w = 1;
      for (const auto& x : s.tr.events) w += x.kind == mm::EventKind::Write;
      most_writes_ = std::max(most_writes_, w);
    }
    e.label = li.src->text;
    int id = static_cast<int>(s.tr.events.size());
    s.tr.events.push_back(std::move(e));
    for (int d : s.ctrl_src) s.tr.ctrl.emplace_back(d, id);
    return id;
  }

  mm::Event mem_event(const LInstr& li, mm::EventKind k, mm::Order o) const {
    mm::Event e;
    e.kind = k;
    e.order = o;
    e.scope = li.src->scope;
    e.loc = li.loc;
    const mm::Location& l = p_.locations[li.loc];
    // Dat3M names the proxy with the mnemonic (tld, suld); the native
    // format with the location declaration (`via texture`).
    e.proxy = li.src->proxy != mm::Proxy::Generic ? li.src->proxy : l.proxy;
    return e;
  }

  void finish(State& s) {
    if (out_.traces.size() >= lim_.max_traces)
      throw LimitError("more than " + std::to_string(lim_.max_traces) + " paths in thread P" + std::to_string(t_));
    s.tr.regs = s.regs;
    out_.traces.push_back(std::move(s.tr));
  }

  // Runs from s.pc until the thread ends or a read forks the state.
  void step(State s) {
    const auto& code = th_.code;
    while (s.pc < static_cast<int>(code.size())) {
      const LInstr& li = code[s.pc];
      const Instr& in = *li.src;
      if (head_[s.pc]) s.arrivals[s.pc] = {s.tr.events.size(), s.regs, s.reg_deps};
      switch (in.kind) {
        case InstrKind::Label: break;
        case InstrKind::Alu: {
          uint64_t a = li.args.size() > 0 ? val(s, li.args[0]) : 0;
          uint64_t b = li.args.size() > 1 ? val(s, li.args[1]) : 0;
          Deps d;
          for (const Slot& x : li.args) deps_of(s, x, d);
          uint64_t r = in.op == AluOp::Mov ? mask_to(a, in.size) : apply_op(in.op, in.cmp, a, b, 0, in.size);
          s.regs[li.dst] = r;
          s.reg_deps[li.dst] = std::move(d);
          break;
        }
        case InstrKind::Store: {
          mm::Event e = mem_event(li, mm::EventKind::Write, in.order);
          e.value = mask_to(val(s, li.args[0]), p_.locations[li.loc].size);
          Deps d;
          deps_of(s, li.args[0], d);
          int id = push(s, std::move(e), li);
          for (int x : d) s.tr.data.emplace_back(x, id);
          break;
        }
        case InstrKind::Load:
        case InstrKind::Rmw:
        case InstrKind::Red: {
          // Fork on every value the location may hold.
          const auto& vals = ts_.values[p_.locations[li.loc].physical];
          for (size_t k = 0; k + 1 < vals.size(); ++k) {
            State f = s;
            do_read(f, li, vals[k]);
            ++f.pc;
            step(std::move(f));
          }
          do_read(s, li, vals.back());
          break;
        }
        case InstrKind::Fence: {
          mm::Event e;
          e.kind = mm::EventKind::Fence;
          e.order = in.order;
          e.scope = in.scope;
          push(s, std::move(e), li);
          break;
        }
        case InstrKind::ProxyFence: {
          mm::Event e;
          e.kind = mm::EventKind::ProxyFence;
          e.pfence = in.pfence;
          push(s, std::move(e), li);
          break;
        }
        case InstrKind::Barrier: {
          mm::Event e;
          e.kind = mm::EventKind::Barrier;
          e.bar = in.bar;
          e.scope = mm::Scope::CTA;
          // Dat3M's two-operand form names a logical barrier: key both.
          uint64_t id = val(s, li.args[0]);
          if (li.args.size() > 1) id = (id << 16) | (val(s, li.args[1]) & 0xffff);
          e.bar_id = static_cast<int>(id);
          e.bar_count = in.bar_count;
          push(s, std::move(e), li);
          break;
        }
        case InstrKind::Branch:
        case InstrKind::Jump: {
          bool taken = true;
          if (in.kind == InstrKind::Branch) {
            taken = compare(in.cmp, val(s, li.args[0]), val(s, li.args[1]));
            for (const Slot& x : li.args) deps_of(s, x, s.ctrl_src);
          }
          if (taken) {
            if (li.target <= s.pc && subsumed(s, li.target)) {
              ++out_.subsumed;
              return;
            }
            if (li.target <= s.pc && ++s.back_jumps[s.pc] > lim_.unroll) {
              ++out_.cut;
              return;
            }
            s.pc = li.target;
            continue;
          }
          break;
        }
      }
      ++s.pc;
    }
    finish(s);
  }

  // A loop iteration that only loaded (no write, RMW, fence or barrier) and
  // returns to its head with the same live registers (values and deps) is
  // redundant: the path that skipped it reaches the same states with a
  // subset of the events, and dropping plain reads never makes a consistent
  // execution inconsistent (they only add rf/fr/causality constraints).
  bool subsumed(const State& s, int head) const {
    auto it = s.arrivals.find(head);
    if (it == s.arrivals.end()) return false;
    const State::Arrival& a = it->second;
    for (size_t e = a.events; e < s.tr.events.size(); ++e) {
      const mm::Event& ev = s.tr.events[e];
      if (ev.kind != mm::EventKind::Read || ev.rmw_pair >= 0) return false;
    }
    for (size_t r = 0; r < s.regs.size(); ++r)
      if (live_[head][r] && (s.regs[r] != a.regs[r] || s.reg_deps[r] != a.deps[r])) return false;
    return true;
  }

  void do_read(State& s, const LInstr& li, uint64_t v) {
    const Instr& in = *li.src;
    uint32_t size = p_.locations[li.loc].size;
    if (in.kind == InstrKind::Load) {
      mm::Event e = mem_event(li, mm::EventKind::Read, in.order);
      e.value = v;
      int id = push(s, std::move(e), li);
      s.regs[li.dst] = v;
      s.reg_deps[li.dst] = {id};
      return;
    }
    auto [ro, wo] = split_rmw(in.order);
    uint64_t a = li.args.size() > 0 ? val(s, li.args[0]) : 0;
    uint64_t b = li.args.size() > 1 ? val(s, li.args[1]) : 0;
    if (in.op == AluOp::Inc || in.op == AluOp::Dec) {
      if (li.args.empty()) a = ~uint64_t{0};  // Dat3M-style inc without bound: wraps at the type's maximum
    }
    Deps d;
    for (const Slot& x : li.args) deps_of(s, x, d);
    mm::Event r = mem_event(li, mm::EventKind::Read, ro);
    r.value = v;
    r.reduction = in.kind == InstrKind::Red;
    int rid = push(s, std::move(r), li);
    if (li.dst >= 0) {
      s.regs[li.dst] = v;
      s.reg_deps[li.dst] = {rid};
    }
    // A failing cas reads only (it performs no write).
    if (in.op == AluOp::Cas && v != mask_to(a, size)) {
      return;
    }
    uint64_t nv = rmw_value(in, v, a, b);
    mm::Event w = mem_event(li, mm::EventKind::Write, wo);
    w.value = nv;
    w.reduction = r.reduction;
    int wid = push(s, std::move(w), li);
    s.tr.events[rid].rmw_pair = wid;
    s.tr.events[wid].rmw_pair = rid;
    for (int x : d) s.tr.data.emplace_back(x, wid);
  }

  const Program& p_;
  int t_;
  const LThread& th_;
  const TraceSet& ts_;
  const TraceLimits& lim_;
  std::vector<std::vector<char>> live_;
  std::vector<char> head_;
  ThreadTraces out_;
};

}  // namespace

TraceSet build_traces(const Program& p, const TraceLimits& lim) {
  TraceSet ts;
  ts.values.assign(p.nphys, {});
  for (const auto& l : p.locations) {
    auto& v = ts.values[l.physical];
    if (v.empty()) v.push_back(l.init);
  }
  for (int round = 1;; ++round) {
    ts.rounds = round;
    ts.threads.clear();
    size_t writes = 0;
    std::vector<std::set<uint64_t>> next(p.nphys);
    for (int ph = 0; ph < p.nphys; ++ph) next[ph].insert(ts.values[ph].front());
    for (size_t t = 0; t < p.threads.size(); ++t) {
      Runner r(p, static_cast<int>(t), ts, lim);
      ts.threads.push_back(r.run());
      for (auto [ph, v] : r.written_) next[ph].insert(v);
      writes += r.most_writes_;
    }
    bool changed = false;
    for (int ph = 0; ph < p.nphys; ++ph) {
      // Keep the initial value first; the rest sorted.
      std::vector<uint64_t> v{ts.values[ph].front()};
      for (uint64_t x : next[ph])
        if (x != v.front()) v.push_back(x);
      if (static_cast<int>(v.size()) > lim.max_values)
        throw LimitError("more than " + std::to_string(lim.max_values) + " candidate values for a location");
      changed |= v != ts.values[ph];
      ts.values[ph] = std::move(v);
    }
    // Values found after W+1 rounds need a longer write chain than any
    // execution has; they are never read, so stopping there is exact.
    if (!changed || round > static_cast<int>(writes) + 1) break;
  }
  return ts;
}

}  // namespace ptxcheck::litmus
