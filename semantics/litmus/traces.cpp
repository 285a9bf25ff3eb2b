// Path enumeration of litmus threads on the interpreter's IR (see traces.hpp).
#include "semantics/litmus/traces.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "memmodel/names.hpp"
#include "semantics/interp/trace_exec.hpp"

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

namespace {

// The world of one litmus thread: locations by address, value sets, its
// place in the grid.
class LitmusEnv : public interp::TraceEnv {
 public:
  LitmusEnv(const Program& p, const TestIr& ir, const TraceSet& ts, int thread) : p_(p), ir_(ir), ts_(ts), t_(thread) {}
  int locate(interp::Space, uint64_t addr, unsigned size, const interp::Inst& in) const override {
    for (size_t l = 0; l < ir_.loc_addr.size(); ++l) {
      if (addr < ir_.loc_addr[l] || addr >= ir_.loc_addr[l] + ir_.loc_size[l]) continue;
      if (p_.split(static_cast<int>(l)) >= 0) split_refused(l, in);
      if (addr != ir_.loc_addr[l] || size != ir_.loc_size[l])
        throw InputError(p_.test->file, pos(in),
                         "a " + std::to_string(size) + "-byte access at offset " +
                             std::to_string(addr - ir_.loc_addr[l]) + " of the " + std::to_string(ir_.loc_size[l]) +
                             "-byte location '" + p_.locations[l].name + "' (mixed-size accesses are not modelled)");
      return static_cast<int>(l);
    }
    throw InputError(p_.test->file, pos(in), "the access reaches no location of the test");
  }
  // Mixed-size accesses (Split): the granules a load, store or atomic covers.
  std::vector<Piece> pieces(interp::Space space, uint64_t addr, unsigned size, const interp::Inst& in,
                            uint32_t& span) const override {
    span = 0;
    for (size_t l = 0; l < ir_.loc_addr.size(); ++l) {
      if (addr < ir_.loc_addr[l] || addr >= ir_.loc_addr[l] + ir_.loc_size[l]) continue;
      const int sp = p_.split(static_cast<int>(l));
      if (sp < 0) break;
      const Split& split = p_.splits[sp];
      const uint32_t lo = static_cast<uint32_t>(addr - ir_.loc_addr[l]), hi = lo + size, n = ir_.loc_size[l];
      const std::string what = "a " + std::to_string(size) + "-byte access at offset " + std::to_string(lo) +
                               " of the " + std::to_string(n) + "-byte location '" + p_.locations[l].name + "'";
      if (hi > n) throw InputError(p_.test->file, pos(in), what + " reaches past its end");
      auto cut = [&](uint32_t o) { return o == n || std::binary_search(split.cuts.begin(), split.cuts.end(), o); };
      if (!cut(lo) || !cut(hi))
        throw InputError(p_.test->file, pos(in),
                         what +
                             " through a computed address (mixed-size accesses are modelled at the offsets "
                             "that the threads name as [x+N])");
      std::vector<Piece> out;
      for (size_t g = 0; g < split.cuts.size(); ++g) {
        const uint32_t glo = split.cuts[g], ghi = g + 1 < split.cuts.size() ? split.cuts[g + 1] : n;
        if (glo >= lo && ghi <= hi) out.push_back({split.granules[g], glo - lo, ghi - glo});
      }
      span = (lo << 16) | size;
      return out;
    }
    span = 0;
    return {Piece{locate(space, addr, size, in), 0, size}};
  }
  uint32_t lane() const override { return p_.threads[t_].lane; }
  uint32_t nlanes() const override { return static_cast<uint32_t>(p_.warps[p_.threads[t_].warp].size()); }
  const std::vector<uint64_t>* coll_values(uint32_t lane, uint32_t with, uint32_t n) const override {
    const std::vector<int>& w = p_.warps[p_.threads[t_].warp];
    if (lane >= w.size() || ts_.coll_values.empty()) return nullptr;
    const auto& m = ts_.coll_values[w[lane]];
    auto it = m.find({with, n});
    return it == m.end() ? nullptr : &it->second;
  }
  int locate_start(interp::Space, uint64_t addr, unsigned& size, const interp::Inst& in) const override {
    for (size_t l = 0; l < ir_.loc_addr.size(); ++l)
      if (addr == ir_.loc_addr[l]) {
        if (p_.split(static_cast<int>(l)) >= 0) split_refused(l, in);
        size = ir_.loc_size[l];
        return static_cast<int>(l);
      }
    (void)in;
    return -1;
  }
  [[noreturn]] void split_refused(size_t l, const interp::Inst& in) const {
    throw InputError(p_.test->file, pos(in),
                     "location '" + p_.locations[l].name +
                         "' has mixed-size accesses: only ld, st, atom and red are modelled on it");
  }
  const std::vector<uint64_t>& values(int loc) const override { return ts_.values[p_.locations[loc].physical]; }
  uint64_t sreg(interp::SReg s) const override {
    const mm::ThreadPlace& pl = p_.threads[t_].place;
    switch (s) {
      case interp::SReg::ctaid_x: return static_cast<uint64_t>(pl.cta);
      case interp::SReg::warpid: return static_cast<uint64_t>(std::max(pl.warp, 0));
      case interp::SReg::laneid: return p_.threads[t_].lane;
      case interp::SReg::ntid_x:
      case interp::SReg::ntid_y:
      case interp::SReg::ntid_z:
      case interp::SReg::nctaid_x:
      case interp::SReg::nctaid_y:
      case interp::SReg::nctaid_z: return 1;
      default: return 0;
    }
  }

 private:
  // IR positions are the test file's (to_ir.hpp).
  SourcePos pos(const interp::Inst& in) const { return SourcePos{in.line, in.col}; }
  const Program& p_;
  const TestIr& ir_;
  const TraceSet& ts_;
  int t_;
};

struct Run {
  ThreadTraces traces;
  std::vector<std::pair<int, uint64_t>> written;  // (physical, value)
  size_t most_writes = 0;
  std::map<std::pair<uint32_t, uint32_t>, std::set<uint64_t>> coll_given;
  size_t most_colls = 0;
};

Run run_thread(const Program& p, int t, const TraceSet& ts, const TraceLimits& lim) {
  const TestIr& ir = *p.ir;
  const ThreadIr& tir = ir.threads[t];
  const LThread& lt = p.threads[t];
  const Thread& th = p.test->threads[t];
  const interp::Function& fn = tir.prog.funcs[tir.prog.kernel];
  std::vector<uint64_t> regs(fn.nregs, 0);
  for (size_t r = 0; r < lt.regs.size(); ++r) {
    uint32_t s = tir.slot_of[r], w = fn.reg_width[s];
    regs[s] = w >= 64 ? lt.reg_init[r] : lt.reg_init[r] & ((1ull << w) - 1);
  }
  interp::TraceLimits il;
  il.unroll = lim.unroll;
  il.max_traces = lim.max_traces;
  LitmusEnv env(p, ir, ts, t);
  interp::ThreadPaths paths;
  try {
    paths = interp::trace_paths(tir.prog, tir.prog.kernel, std::move(regs), env, il);
  } catch (const LimitError& e) {
    throw LimitError(std::string(e.what()) + " (thread P" + std::to_string(t) + ")");
  }
  Run out;
  out.traces.cut = paths.cut;
  out.traces.subsumed = paths.subsumed;
  out.most_writes = paths.most_writes;
  out.most_colls = paths.most_colls;
  for (auto [with, n, v] : paths.coll_given) out.coll_given[{with, n}].insert(v);
  for (auto [loc, v] : paths.written) out.written.emplace_back(p.locations[loc].physical, v);
  for (interp::ThreadTrace& x : paths.traces) {
    Trace tr;
    tr.events = std::move(x.events);
    tr.access = std::move(x.access);
    tr.instr.assign(tr.events.size(), -1);
    for (size_t e = 0; e < tr.events.size(); ++e) {
      mm::Event& ev = tr.events[e];
      ev.thread = t;
      int j = tir.instr_of_pc[x.pcs[e]];
      tr.instr[e] = j;
      if (j < 0) {
        // An event of a called function: an ordinary event of this thread,
        // labelled with its instruction and source line.
        const int k = tir.func_stmt_of_pc[x.pcs[e]];
        if (k < 0) continue;
        const FuncStmt& fs = p.test->func_stmts[static_cast<size_t>(k)];
        ev.label = fs.text + " (line " + std::to_string(fs.pos.line) + ")";
        if (ev.loc >= 0 && ev.async_op < 0) ev.proxy = p.locations[ev.loc].proxy;
        if (ev.kind == mm::EventKind::ProxyFence && ev.async_op < 0 && ev.pfence == mm::ProxyFenceKind::Other) {
          // fence.proxy.<kind>: the lowering keeps only that it is one.
          const size_t q = fs.text.find("fence.proxy.");
          if (q != std::string::npos) {
            size_t e2 = q + 12;
            while (e2 < fs.text.size() && (std::isalnum(static_cast<unsigned char>(fs.text[e2])) || fs.text[e2] == '_'))
              ++e2;
            if (auto k2 = mm::proxy_fence_from_name(fs.text.substr(q + 12, e2 - q - 12))) ev.pfence = *k2;
          }
        }
        continue;
      }
      const Instr& in = th.code[j];
      ev.label = in.text;
      // Events of an asynchronous operation keep the operation's proxy
      // (trace_exec: the async proxy of a bulk copy, the generic proxy of its
      // complete-tx and of cp.async).
      if (ev.loc >= 0 &&
          ev.async_op < 0)  // Dat3M names the proxy with the mnemonic (tld, suld); the native format with the location
        ev.proxy = in.proxy != mm::Proxy::Generic ? in.proxy : p.locations[ev.loc].proxy;
      if (ev.kind == mm::EventKind::ProxyFence && in.kind == InstrKind::ProxyFence && ev.async_op < 0)
        ev.pfence = in.pfence;
    }
    tr.addr = std::move(x.addr);
    tr.data = std::move(x.data);
    tr.ctrl = std::move(x.ctrl);
    tr.async_ops = std::move(x.async_ops);
    tr.waits = std::move(x.waits);
    tr.colls = std::move(x.colls);
    tr.regs.resize(lt.regs.size());
    for (size_t r = 0; r < lt.regs.size(); ++r) tr.regs[r] = x.regs[tir.slot_of[r]];
    out.traces.traces.push_back(std::move(tr));
  }
  return out;
}

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
    std::vector<std::map<std::pair<uint32_t, uint32_t>, std::vector<uint64_t>>> next_coll(p.threads.size());
    for (int ph = 0; ph < p.nphys; ++ph) next[ph].insert(ts.values[ph].front());
    for (size_t t = 0; t < p.threads.size(); ++t) {
      Run r = run_thread(p, static_cast<int>(t), ts, lim);
      ts.threads.push_back(std::move(r.traces));
      for (auto [ph, v] : r.written) next[ph].insert(v);
      writes += r.most_writes + r.most_colls;
      for (auto& [key, vs] : r.coll_given) next_coll[t].emplace(key, std::vector<uint64_t>(vs.begin(), vs.end()));
    }
    bool changed = next_coll != ts.coll_values;
    ts.coll_values = std::move(next_coll);
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
    // execution has; they are never read, so stopping there is exact. A
    // warp collective passes values on like a write and a read, so W
    // counts the collectives of a path too.
    if (!changed || round > static_cast<int>(writes) + 1) break;
  }
  return ts;
}

}  // namespace ptxcheck::litmus
