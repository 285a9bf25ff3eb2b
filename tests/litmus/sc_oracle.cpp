// Brute-force SC oracle (sc_oracle.hpp).
#include "tests/litmus/sc_oracle.hpp"

#include <algorithm>
#include <functional>

namespace ptxcheck::testing {

namespace {

bool acyclic(int n, const std::vector<std::vector<int>>& adj) {
  std::vector<int> state(n, 0);  // 0 new, 1 on stack, 2 done
  std::function<bool(int)> dfs = [&](int v) {
    state[v] = 1;
    for (int w : adj[v]) {
      if (state[w] == 1) return false;
      if (state[w] == 0 && !dfs(w)) return false;
    }
    state[v] = 2;
    return true;
  };
  for (int v = 0; v < n; ++v)
    if (state[v] == 0 && !dfs(v)) return false;
  return true;
}

}  // namespace

mm::EngineStats ScOracle::enumerate(const mm::Skeleton& s, const mm::Model&, const mm::Limits&,
                                    const mm::Visitor& visit) {
  mm::EngineStats st;
  int n = static_cast<int>(s.events.size());
  int nphys = 0;
  for (const auto& l : s.locations) nphys = std::max(nphys, l.physical + 1);
  std::vector<int> init(nphys, -1);
  std::vector<std::vector<int>> writes(nphys);
  std::vector<int> reads;
  for (int e = 0; e < n; ++e) {
    const auto& ev = s.events[e];
    if (ev.kind == mm::EventKind::Init) init[s.physical(e)] = e;
    if (ev.kind == mm::EventKind::Write) writes[s.physical(e)].push_back(e);
    if (ev.kind == mm::EventKind::Read) reads.push_back(e);
  }
  std::vector<std::vector<int>> cand;
  for (int r : reads) {
    std::vector<int> c;
    int ph = s.physical(r);
    if (init[ph] >= 0 && s.events[init[ph]].value == s.events[r].value) c.push_back(init[ph]);
    for (int w : writes[ph])
      if (s.events[w].value == s.events[r].value && w != s.events[r].rmw_pair) c.push_back(w);
    if (c.empty()) return st;
    cand.push_back(c);
  }
  std::vector<size_t> ri(reads.size(), 0);
  bool stop = false;
  while (!stop) {
    std::vector<std::vector<int>> perm = writes;
    bool more_co = true;
    while (more_co && !stop) {
      ++st.candidates;
      // position of each write in its location's co
      std::vector<int> pos(n, -1);
      for (int ph = 0; ph < nphys; ++ph) {
        if (init[ph] >= 0) pos[init[ph]] = 0;
        for (size_t k = 0; k < perm[ph].size(); ++k) pos[perm[ph][k]] = static_cast<int>(k) + 1;
      }
      std::vector<std::vector<int>> adj(n);
      for (const auto& po : s.po)
        for (size_t k = 1; k < po.size(); ++k) adj[po[k - 1]].push_back(po[k]);
      for (int ph = 0; ph < nphys; ++ph) {
        std::vector<int> chain;
        if (init[ph] >= 0) chain.push_back(init[ph]);
        chain.insert(chain.end(), perm[ph].begin(), perm[ph].end());
        for (size_t k = 1; k < chain.size(); ++k) adj[chain[k - 1]].push_back(chain[k]);
      }
      bool atomic_ok = true;
      for (size_t k = 0; k < reads.size(); ++k) {
        int r = reads[k], w = cand[k][ri[k]];
        adj[w].push_back(r);
        int ph = s.physical(r);
        // fr: r before every co-successor of w
        for (int w2 : perm[ph])
          if (pos[w2] > pos[w]) adj[r].push_back(w2);
        int own = s.events[r].rmw_pair;
        if (own >= 0 && pos[own] != pos[w] + 1) atomic_ok = false;
      }
      if (atomic_ok && acyclic(n, adj)) {
        mm::Execution ex;
        ex.rf.assign(n, -1);
        for (size_t k = 0; k < reads.size(); ++k) ex.rf[reads[k]] = cand[k][ri[k]];
        ex.final_write.assign(nphys, -1);
        for (int ph = 0; ph < nphys; ++ph) {
          int prev = init[ph];
          for (int w : perm[ph]) {
            if (prev >= 0) ex.co.emplace_back(prev, w);
            prev = w;
          }
          ex.final_write[ph] = prev;
        }
        ++st.consistent;
        if (!visit(ex)) stop = true;
      }
      more_co = false;
      for (auto& w : perm)
        if (std::next_permutation(w.begin(), w.end())) {
          more_co = true;
          break;
        }
    }
    size_t k = 0;
    for (; k < ri.size(); ++k) {
      if (++ri[k] < cand[k].size()) break;
      ri[k] = 0;
    }
    if (k == ri.size()) break;
  }
  return st;
}

}  // namespace ptxcheck::testing
