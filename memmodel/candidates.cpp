// Candidate executions by brute force (candidates.hpp): rf by value, co by
// permutation.
#include "memmodel/candidates.hpp"

#include <algorithm>

namespace ptxcheck::mm {

void for_each_candidate(const Skeleton& s, int num_physical, uint64_t budget,
                        const std::function<bool(const Execution&)>& f) {
  const size_t nphys = static_cast<size_t>(num_physical);
  std::vector<int> reads;
  std::vector<std::vector<int>> cand, writes(nphys);
  std::vector<int> init(nphys, -1);
  for (size_t e = 0; e < s.events.size(); ++e) {
    const Event& ev = s.events[e];
    if (ev.kind != EventKind::Write && ev.kind != EventKind::Init) continue;
    const auto ph = static_cast<size_t>(s.physical(static_cast<int>(e)));
    if (ev.kind == EventKind::Write)
      writes[ph].push_back(static_cast<int>(e));
    else
      init[ph] = static_cast<int>(e);
  }
  for (size_t r = 0; r < s.events.size(); ++r) {
    const Event& ev = s.events[r];
    if (ev.kind != EventKind::Read) continue;
    const bool any = ev.any_value;
    std::vector<int> c;
    for (size_t w = 0; w < s.events.size(); ++w) {
      const Event& ew = s.events[w];
      const bool is_w = ew.kind == EventKind::Write || ew.kind == EventKind::Init;
      if (is_w && s.physical(static_cast<int>(w)) == s.physical(static_cast<int>(r)) &&
          (any || ew.any_value || ew.value == ev.value) && static_cast<int>(w) != ev.rmw_pair)
        c.push_back(static_cast<int>(w));
    }
    if (c.empty()) return;
    reads.push_back(static_cast<int>(r));
    cand.push_back(std::move(c));
  }
  std::vector<size_t> ri(reads.size(), 0);
  auto spend = [&budget] { return budget > 0 && budget-- > 0; };
  while (spend()) {
    Execution ex;
    ex.rf.assign(s.events.size(), -1);
    for (size_t k = 0; k < reads.size(); ++k) ex.rf[static_cast<size_t>(reads[k])] = cand[k][ri[k]];
    std::vector<std::vector<int>> perm = writes;
    for (auto& w : perm) std::sort(w.begin(), w.end());
    for (bool more = true; more && spend();) {
      ex.co.clear();
      ex.final_write.assign(nphys, -1);
      for (size_t ph = 0; ph < nphys; ++ph) {
        int prev = init[ph];
        for (int w : perm[ph]) {
          if (prev >= 0) ex.co.emplace_back(prev, w);
          prev = w;
        }
        ex.final_write[ph] = prev;
      }
      if (!f(ex)) return;
      more = false;
      for (auto& w : perm)
        if (std::next_permutation(w.begin(), w.end())) {
          more = true;
          break;
        }
    }
    size_t k = 0;
    for (; k < ri.size(); ++k) {
      if (++ri[k] < cand[k].size()) break;
      ri[k] = 0;
    }
    if (k == ri.size()) return;
  }
}

}  // namespace ptxcheck::mm
