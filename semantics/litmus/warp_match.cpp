// Matching warp collectives of litmus traces (warp_match.hpp).
#include "semantics/litmus/warp_match.hpp"

#include <bit>
#include <functional>
#include <map>

#include "semantics/interp/warp_coll.hpp"

namespace ptxcheck::litmus {

namespace {

const interp::Inst& coll_inst(const Program& p, int t, const interp::TraceColl& c) {
  return p.ir->threads[static_cast<size_t>(t)].prog.code[c.pc];
}

SourcePos coll_pos(const Program& p, int t, const interp::TraceColl& c) {
  const interp::Inst& in = coll_inst(p, t, c);
  return SourcePos{in.line, in.col};  // the test file's position (to_ir.hpp)
}

}  // namespace

bool has_colls(const std::vector<const Trace*>& pick) {
  for (const Trace* t : pick)
    if (!t->colls.empty()) return true;
  return false;
}

CollMatch match_colls(const Program& p, const std::vector<const Trace*>& pick) {
  CollMatch m;
  const int n = static_cast<int>(pick.size());
  m.group.resize(pick.size());
  auto anomaly = [&](int t, const interp::TraceColl& c, std::string msg) {
    if (m.status != CollMatch::Ok) return;
    m.status = CollMatch::Anomaly;
    m.message = std::move(msg);
    m.pos = coll_pos(p, t, c);
  };
  // Per thread: for each lane w, the indices of its collectives including w.
  std::vector<std::vector<std::vector<int>>> with(pick.size());
  for (int t = 0; t < n; ++t) {
    with[t].assign(32, {});
    const auto& cs = pick[t]->colls;
    for (int k = 0; k < static_cast<int>(cs.size()); ++k)
      for (uint32_t b = cs[k].mask; b; b &= b - 1) with[t][std::countr_zero(b)].push_back(k);
  }
  std::vector<std::vector<int>> seen(pick.size());
  for (int t = 0; t < n; ++t) {
    const auto& cs = pick[t]->colls;
    const LThread& lt = p.threads[t];
    const std::vector<int>& warp = p.warps[lt.warp];
    m.group[t].assign(cs.size(), {});
    std::vector<uint32_t> cnt(32, 0);
    for (int k = 0; k < static_cast<int>(cs.size()); ++k) {
      const interp::TraceColl& c = cs[k];
      auto& g = m.group[t][k];
      g.assign(warp.size(), {-1, -1});
      g[lt.lane] = {t, k};
      for (uint32_t b = c.mask & ~(1u << lt.lane); b; b &= b - 1) {
        const uint32_t w = static_cast<uint32_t>(std::countr_zero(b));
        const int u = warp[w];
        const uint32_t i = cnt[w]++;
        const auto& theirs = with[u][lt.lane];
        if (c.blocked || i >= theirs.size()) {
          anomaly(t, c,
                  "lane " + std::to_string(w) + " (thread T" + std::to_string(u) +
                      ") of the membermask ends without executing this warp collective; a collective "
                      "whose lanes exit is not modelled in a litmus thread");
          continue;
        }
        const interp::TraceColl& o = pick[u]->colls[theirs[i]];
        const interp::Inst &a = coll_inst(p, t, c), &bb = coll_inst(p, u, o);
        if (o.mask != c.mask || a.op != bb.op || a.mode != bb.mode || a.flags != bb.flags || a.atom != bb.atom ||
            a.size != bb.size || a.nk != bb.nk || a.fn.fn != bb.fn.fn || a.fn.cfg != bb.fn.cfg || a.ndst != bb.ndst) {
          anomaly(t, c,
                  "lane " + std::to_string(w) + " (thread T" + std::to_string(u) +
                      ") meets this warp collective with another instruction or membermask (line " +
                      std::to_string(coll_pos(p, u, o).line) + "): they wait for each other forever");
          continue;
        }
        g[w] = {u, theirs[i]};
      }
    }
  }
  if (m.status == CollMatch::Anomaly) {
    // Still reject combinations whose well-formed collectives disagree.
  }
  // Every lane of a group must name the same group; results must agree.
  for (int t = 0; t < n; ++t)
    for (int k = 0; k < static_cast<int>(pick[t]->colls.size()); ++k) {
      const auto& g = m.group[t][k];
      bool whole = true;
      for (auto [u, j] : g)
        if (u >= 0 && m.group[u][j] != g) whole = false;
      const interp::TraceColl& c = pick[t]->colls[k];
      for (uint32_t b = c.mask; b; b &= b - 1)
        if (g[std::countr_zero(b)].first < 0) whole = false;
      if (!whole) {
        anomaly(t, c,
                "the lanes of this warp collective's membermask meet in different collectives: they wait for "
                "each other forever");
        continue;
      }
      interp::CollOperands op;
      for (uint32_t b = c.mask; b; b &= b - 1) {
        const uint32_t w = static_cast<uint32_t>(std::countr_zero(b));
        const interp::TraceColl& o = pick[g[w].first]->colls[g[w].second];
        op.a[w] = o.a;
        op.b[w] = o.b;
        op.c[w] = o.c;
      }
      interp::CollResult r;
      interp::warp_collective_values(coll_inst(p, t, c), c.mask, c.mask,
                                     static_cast<uint32_t>(p.warps[p.threads[t].warp].size()), op, r);
      if (r.d0[c.lane] != c.d0 || r.d1[c.lane] != c.d1) {
        m.status = CollMatch::Infeasible;
        return m;
      }
    }
  if (m.status != CollMatch::Ok) return m;
  // The groups must be ordered consistently with each lane's program
  // order, or the collectives wait for each other in a cycle.
  std::map<std::pair<int, int>, int> gid;  // canonical member (lowest lane) -> group
  auto id_of = [&](int t, int k) {
    const auto& g = m.group[t][k];
    for (auto x : g)
      if (x.first >= 0) return gid.try_emplace(x, static_cast<int>(gid.size())).first->second;
    return -1;
  };
  std::vector<std::set<int>> succ;
  for (int t = 0; t < n; ++t)
    for (int k = 0; k + 1 < static_cast<int>(pick[t]->colls.size()); ++k) {
      int a = id_of(t, k), b = id_of(t, k + 1);
      if (static_cast<int>(succ.size()) <= std::max(a, b)) succ.resize(std::max(a, b) + 1);
      succ[a].insert(b);
    }
  std::vector<int> state(succ.size(), 0);
  std::function<bool(int)> cyclic = [&](int v) {
    state[v] = 1;
    for (int x : succ[v])
      if (state[x] == 1 || (state[x] == 0 && cyclic(x))) return true;
    state[v] = 2;
    return false;
  };
  for (int v = 0; v < static_cast<int>(succ.size()); ++v)
    if (state[v] == 0 && cyclic(v)) {
      for (int t = 0; t < n; ++t)
        if (!pick[t]->colls.empty()) {
          anomaly(t, pick[t]->colls.front(),
                  "warp collectives of this warp wait for each other in a cycle (a deadlock)");
          break;
        }
      break;
    }
  return m;
}

void coll_deps(const Program& p, const std::vector<const Trace*>& pick, const CollMatch& m,
               const std::vector<int>& base, int t, int k, std::set<int>& out, std::set<std::pair<int, int>>& done) {
  if (!done.insert({t, k}).second) return;
  const interp::TraceColl& c = pick[t]->colls[k];
  const interp::Inst& in = coll_inst(p, t, c);
  if (in.op == interp::IrOp::WarpSync || in.op == interp::IrOp::Elect) return;
  uint32_t from = c.mask & ~(1u << c.lane);
  if (in.op == interp::IrOp::Shfl) {
    interp::CollOperands op;
    op.b[c.lane] = c.b;
    op.c[c.lane] = c.c;
    interp::CollResult r;
    interp::warp_collective_values(in, 1u << c.lane, c.mask, 32, op, r);
    from = static_cast<uint32_t>(r.src[c.lane]) == c.lane ? 0 : 1u << r.src[c.lane];
  }
  const auto& g = m.group[t][k];
  for (uint32_t b = from; b; b &= b - 1) {
    const uint32_t w = static_cast<uint32_t>(std::countr_zero(b));
    if (w >= g.size() || g[w].first < 0) continue;
    auto [u, j] = g[w];
    for (int x : pick[u]->colls[j].a_deps) {
      if (x >= 0)
        out.insert(base[u] + x);
      else
        coll_deps(p, pick, m, base, u, -x - 1, out, done);
    }
  }
}

}  // namespace ptxcheck::litmus
