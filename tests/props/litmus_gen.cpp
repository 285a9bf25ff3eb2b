// Cycle-based random litmus tests (litmus_gen.hpp). The construction runs
// in three passes over the cycle: edges (with event types), locations and
// values, then instructions per thread.
#include "tests/props/litmus_gen.hpp"

#include <map>

#include "memmodel/names.hpp"

namespace ptxcheck::props {

using namespace ptxcheck::litmus;

namespace {

enum class E { Rf, Fr, Co, Po, Data, Ctrl, Rmw };

struct Edge {
  E kind = E::Po;
  bool ext = false;       // between threads (rf, fr, co only)
  bool src_w = false;     // type of the event it leaves
  bool dst_w = false;     // type of the event it enters
  bool same_loc = false;  // a po-like edge that stays on its location (po-loc)
  mm::Order fence = mm::Order::Weak;  // Weak = no fence on this po edge
  mm::Scope fscope = mm::Scope::Sys;
};

bool po_like(E k) { return k == E::Po || k == E::Data || k == E::Ctrl; }

const mm::Scope kScopes[] = {mm::Scope::Sys, mm::Scope::GPU, mm::Scope::CTA, mm::Scope::Cluster};
std::string edge_name(const Edge& e) {
  auto t = [](bool w) { return w ? "W" : "R"; };
  std::string rw = std::string(t(e.src_w)) + t(e.dst_w);
  switch (e.kind) {
    case E::Rf: return e.ext ? "Rfe" : "Rfi";
    case E::Fr: return e.ext ? "Fre" : "Fri";
    case E::Co: return e.ext ? "Coe" : "Coi";
    case E::Rmw: return "Rmw";
    case E::Data: return std::string("DpData") + (e.same_loc ? "s" : "d") + "W";
    case E::Ctrl: return std::string("DpCtrl") + (e.same_loc ? "s" : "d") + t(e.dst_w);
    case E::Po:
      if (e.fence == mm::Order::Weak) return std::string(e.same_loc ? "Pos" : "Pod") + rw;
      return std::string("Fence.") + mm::to_string(e.fence) + "." + mm::to_string(e.fscope) + (e.same_loc ? ".s" : ".d") + rw;
  }
  return "?";
}

// An internal edge leaving an event of type `cur`; `end` >= 0 forces the type it enters.
Edge internal_edge(const Pick& pick, bool cur, int end, bool strong) {
  std::vector<E> cands;
  for (E k : {E::Po, E::Rf, E::Fr, E::Co, E::Data, E::Ctrl, E::Rmw}) {
    bool src = k == E::Rf || k == E::Co;  // write-sourced kinds
    bool any_src = k == E::Po;
    if (!any_src && src != cur) continue;
    bool dst_fixed = k != E::Po && k != E::Ctrl;
    bool dst = k == E::Fr || k == E::Co || k == E::Data || k == E::Rmw;
    if (end >= 0 && dst_fixed && dst != static_cast<bool>(end)) continue;
    cands.push_back(k);
  }
  Edge e;
  e.kind = cands[pick(static_cast<int>(cands.size()))];
  e.src_w = cur;
  if (e.kind == E::Po || e.kind == E::Ctrl) e.dst_w = end >= 0 ? static_cast<bool>(end) : pick(2) == 1;
  else e.dst_w = e.kind == E::Fr || e.kind == E::Co || e.kind == E::Data || e.kind == E::Rmw;
  if (e.kind == E::Po && pick(2) == 1) {
    const mm::Order fences[] = {mm::Order::SC, mm::Order::AcqRel, mm::Order::Acquire, mm::Order::Release};
    e.fence = fences[pick(4)];
    e.fscope = kScopes[pick(strong ? 2 : 4)];
  }
  return e;
}

struct Place {
  int gpu = 0, cluster = 0, cta = 0, warp = -1;
};

std::vector<Place> placement(const GenOptions& opt, const Pick& pick, int k) {
  std::vector<Place> ps(1);
  ps[0].warp = opt.warps ? 0 : -1;
  int next_cta = 1, next_gpu = 1, next_warp = 1, next_shared = 500;
  for (int i = 1; i < k; ++i) {
    const Place par = ps[pick(i)];
    enum { SameGpu, SameCta, SameCluster, OtherGpu, SameWarp };
    int rel = pick(opt.warps ? 5 : 4);
    Place p = par;
    if (rel != SameWarp && opt.warps) p.warp = next_warp++;
    if (rel == SameGpu || rel == OtherGpu || rel == SameCluster) p.cta = next_cta++;
    if (rel == OtherGpu) p.gpu = next_gpu++;
    if (rel == SameGpu || rel == OtherGpu) p.cluster = p.cta + 1000 * p.gpu;  // a cluster of its own
    if (rel == SameCluster && par.cluster == par.cta + 1000 * par.gpu) {
      // The parent's CTA was its own cluster: give it a shared id (PTX ISA 8.5 cluster scope).
      int s = next_shared++;
      for (auto& q : ps)
        if (q.gpu == par.gpu && q.cluster == par.cluster) q.cluster = s;
      p.cluster = s;
    }
    ps.push_back(p);
  }
  return ps;
}

Instr access(InstrKind kind, mm::Order o, mm::Scope s, const std::string& loc) {
  Instr in;
  in.kind = kind;
  in.order = o;
  in.scope = o == mm::Order::Weak ? mm::Scope::Sys : s;
  in.loc = loc;
  return in;
}
Operand imm(uint64_t v) { return Operand{false, "", v}; }
Operand reg(const std::string& r) { return Operand{true, r, 0}; }

Cond cmp(CondValue l, uint64_t v) {
  Cond c;
  c.kind = Cond::Cmp;
  c.lhs = std::move(l);
  c.rhs.kind = CondValue::Const;
  c.rhs.value = v;
  return c;
}

}  // namespace

Test generate(const GenOptions& opt, const Pick& pick) {
  // 1. Edges: k external edges, each preceded by a thread's internal chain.
  int k = 2 + pick(std::max(1, opt.max_threads - 1));
  std::vector<Edge> ext(k);
  for (auto& e : ext) {
    e.kind = static_cast<E>(pick(3));  // Rf, Fr, Co
    e.ext = true;
    e.src_w = e.kind != E::Fr;
    e.dst_w = e.kind != E::Rf;
  }
  std::vector<Edge> edges;
  std::vector<int> thread_of;  // per event (the source of edges[i] is event i)
  for (int t = 0; t < k; ++t) {
    bool start = ext[(t + k - 1) % k].dst_w, end = ext[t].src_w;
    int len = pick(opt.max_internal + 1);
    if (len == 0 && start != end) len = 1;
    bool cur = start;
    for (int j = 0; j < len; ++j) {
      Edge e = internal_edge(pick, cur, j + 1 == len ? static_cast<int>(end) : -1, opt.strong);
      edges.push_back(e);
      thread_of.push_back(t);
      cur = e.dst_w;
    }
    edges.push_back(ext[t]);
    thread_of.push_back(t);
  }
  const int n = static_cast<int>(edges.size());
  auto in_edge = [&](int ev) -> const Edge& { return edges[(ev + n - 1) % n]; };

  // 2. Locations: each po-like edge moves to a new one, unless it is the
  // only one (then it is po-loc). Values: walking the cycle from a location's
  // first event, writes take 1, 2, ... (the cycle's coherence order) and
  // each read sees the latest write so far.
  int m = 0;
  for (const auto& e : edges) m += po_like(e.kind);
  if (m == 1)
    for (auto& e : edges) e.same_loc |= po_like(e.kind);
  int last = -1;
  for (int i = 0; i < n; ++i)
    if (po_like(edges[i].kind) && !edges[i].same_loc) last = i;
  std::vector<int> loc(n, 0);
  int nlocs = 1;
  for (int i = 1; i < n; ++i) {
    const Edge& e = edges[i - 1];
    loc[i] = po_like(e.kind) && !e.same_loc ? (i - 1 == last ? 0 : nlocs++) : loc[i - 1];
  }
  std::vector<uint64_t> value(n, 0), counter(nlocs, 0);
  std::vector<int> writes(nlocs, 0);
  int s = (last + 1) % n;
  for (int j = 0; j < n; ++j) {
    int ev = (s + j) % n;
    bool w = edges[ev].src_w;
    value[ev] = w ? ++counter[loc[ev]] : counter[loc[ev]];
    writes[loc[ev]] += w;
  }
  const char* names[] = {"x", "y", "z", "w", "u", "v"};
  auto loc_name = [&](int l) { return l < 6 ? std::string(names[l]) : "x" + std::to_string(l); };

  // 3. Instructions.
  Test t;
  t.name = opt.name_prefix;
  for (int i = 0; i < n; ++i) t.name += (i ? "+" : "") + edge_name(edges[i]);
  for (int l = 0; l < nlocs; ++l) {
    LocDecl d;
    d.name = loc_name(l);
    t.locs.push_back(d);
  }
  auto places = placement(opt, pick, k);
  t.threads.resize(k);
  for (int i = 0; i < k; ++i) {
    auto& p = t.threads[i].place;
    p.name = "P" + std::to_string(i);
    p.gpu = places[i].gpu;
    p.cta = places[i].cta;
    p.cluster = places[i].cluster;
    p.warp = places[i].warp;
  }
  std::vector<Cond> conj;
  std::vector<int> nreg(k, 0), nlabel(k, 0);
  std::vector<std::string> reg_of(n);  // register holding a read event's value
  for (int ev = 0; ev < n; ++ev) {
    const int th = thread_of[ev];
    auto& code = t.threads[th].code;
    const Edge& in = in_edge(ev);
    const Edge& out = edges[ev];
    const std::string x = loc_name(loc[ev]);
    auto fresh = [&] { return "r" + std::to_string(nreg[th]++); };
    auto scope = [&] { return kScopes[pick(opt.strong ? 2 : 4)]; };  // strong: .sys or .gpu
    // A plain access's order: Weak is choice 0 unless opt.strong rules it out.
    auto plain = [&](mm::Order other1, mm::Order other2) {
      const mm::Order os[] = {mm::Order::Weak, other1, other2};
      return opt.strong ? os[1 + pick(2)] : os[pick(3)];
    };
    auto observe = [&](const std::string& r, uint64_t v) {
      CondValue cv;
      cv.kind = CondValue::Reg;
      cv.thread = th;
      cv.name = r;
      conj.push_back(cmp(cv, v));
    };
    if (!in.ext && in.kind == E::Rmw) {
      // The write half: emitted with its read as one atom.
    } else if (!in.ext && in.kind == E::Data) {
      // PTX ISA 8.10.4 dependencies: the stored value is computed from the read register.
      std::string src = reg_of[(ev + n - 1) % n], tmp = fresh();
      Instr a;
      a.kind = InstrKind::Alu;
      a.op = AluOp::Xor;
      a.dst = tmp;
      a.args = {reg(src), reg(src)};
      code.push_back(a);
      a.op = AluOp::Add;
      a.args = {reg(tmp), imm(value[ev])};
      code.push_back(a);
      Instr st = access(InstrKind::Store, plain(mm::Order::Relaxed, mm::Order::Release), scope(), x);
      st.args = {reg(tmp)};
      code.push_back(st);
    } else if (!out.src_w && out.kind == E::Rmw) {
      // One atom for both halves (PTX ISA 9.7.13.5): reads value[ev], writes value[ev + 1].
      const mm::Order os[] = {mm::Order::Relaxed, mm::Order::Acquire, mm::Order::Release, mm::Order::AcqRel};
      Instr a = access(InstrKind::Rmw, os[pick(4)], scope(), x);
      uint64_t nv = value[(ev + 1) % n];
      switch (pick(3)) {
        case 0: a.op = AluOp::Exch, a.args = {imm(nv)}; break;
        case 1: a.op = AluOp::Cas, a.args = {imm(value[ev]), imm(nv)}; break;
        default: a.op = AluOp::Add, a.args = {imm(nv - value[ev])}; break;
      }
      a.dst = reg_of[ev] = fresh();
      observe(a.dst, value[ev]);
      code.push_back(a);
    } else if (!out.src_w) {  // a read
      Instr r;
      if (pick(4) < 3) {
        r = access(InstrKind::Load, plain(mm::Order::Relaxed, mm::Order::Acquire), scope(), x);
      } else {  // an atom that writes back what it read
        const mm::Order os[] = {mm::Order::Relaxed, mm::Order::Acquire, mm::Order::Release, mm::Order::AcqRel};
        r = access(InstrKind::Rmw, os[pick(4)], scope(), x);
        r.op = AluOp::Add;
        r.args = {imm(0)};
      }
      r.dst = reg_of[ev] = fresh();
      observe(r.dst, value[ev]);
      code.push_back(r);
    } else {  // a write
      int how = pick(4);
      Instr w;
      if (how < 2) {
        w = access(InstrKind::Store, plain(mm::Order::Relaxed, mm::Order::Release), scope(), x);
        w.args = {imm(value[ev])};
      } else if (how == 2) {  // red.add: the write after value - 1 in coherence
        const mm::Order os[] = {mm::Order::Relaxed, mm::Order::Release};
        w = access(InstrKind::Red, os[pick(2)], scope(), x);
        w.op = AluOp::Add;
        w.args = {imm(1)};
      } else {
        const mm::Order os[] = {mm::Order::Relaxed, mm::Order::Release, mm::Order::Acquire, mm::Order::AcqRel};
        w = access(InstrKind::Rmw, os[pick(4)], scope(), x);
        w.op = AluOp::Exch;
        w.args = {imm(value[ev])};
        w.dst = fresh();
      }
      code.push_back(w);
    }
    // What the outgoing edge puts before the next event of this thread.
    if (out.ext) continue;
    if (out.kind == E::Po && out.fence != mm::Order::Weak) {
      Instr f;
      f.kind = InstrKind::Fence;
      f.order = out.fence;
      f.scope = out.fscope;
      code.push_back(f);
    } else if (out.kind == E::Ctrl) {
      // `@%r bra L; L:` -- both paths meet, but the next event depends on the branch (8.10.4).
      std::string label = "L" + std::to_string(th) + "_" + std::to_string(nlabel[th]++);
      Instr b;
      b.kind = InstrKind::Branch;
      b.cmp = CmpOp::Ne;
      b.args = {reg(reg_of[ev]), imm(0)};
      b.target = label;
      code.push_back(b);
      Instr l;
      l.kind = InstrKind::Label;
      l.target = label;
      code.push_back(l);
    }
  }
  for (int l = 0; l < nlocs; ++l) {
    if (writes[l] < 2) continue;
    CondValue cv;
    cv.kind = CondValue::Loc;
    cv.name = loc_name(l);
    conj.push_back(cmp(cv, counter[l]));
  }
  if (conj.size() == 1) t.cond = conj[0];
  else if (!conj.empty()) t.cond.kind = Cond::And, t.cond.kids = std::move(conj);
  return t;
}

bool fits(const Test& t, const GenOptions& opt) {
  std::map<std::string, int> writes;
  int accesses = 0;
  for (const auto& th : t.threads)
    for (const auto& in : th.code) {
      bool w = in.kind == InstrKind::Store || in.kind == InstrKind::Rmw || in.kind == InstrKind::Red;
      accesses += w || in.kind == InstrKind::Load;
      writes[in.loc] += w;
    }
  for (const auto& [loc, n] : writes)
    if (n > opt.max_writes_per_loc) return false;
  return accesses <= opt.max_accesses;
}

}  // namespace ptxcheck::props
