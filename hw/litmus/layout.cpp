// Launch planning (layout.hpp).
#include "hw/litmus/layout.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <stdexcept>
#include <tuple>

namespace ptxcheck::hw {

uint32_t permute_id(uint32_t id, uint32_t factor, uint32_t n) {
  if (n == 0 || std::gcd(factor % n, n) != 1) return id;  // not a bijection: keep the order
  return static_cast<uint32_t>((uint64_t{id} * factor) % n);
}

LaunchPlan plan_launch(const Bundle& b, const Params& p, Rng& rng) {
  LaunchPlan plan;
  const uint32_t cs = b.cluster_size, nroles = static_cast<uint32_t>(b.roles.size());
  const uint32_t W = p.workgroupSize, wsz = std::min<uint32_t>(32, W), nw = W >= 32 ? W / 32 : 1;
  const uint32_t tc = p.testingWorkgroups / cs;  // testing clusters
  if (tc < static_cast<uint32_t>(b.clusters))
    throw std::invalid_argument("testingWorkgroups: the test needs " + std::to_string(b.clusters * cs) +
                                " testing CTAs");
  // Per rank j: an instance slot takes groups_j warps, and in each warp
  // slices_j * group_size lanes; lanes_j slots share those warps.
  std::vector<uint32_t> lanes(cs);
  uint32_t slots = UINT32_MAX;
  for (uint32_t j = 0; j < cs; ++j) {
    uint32_t g = b.groups_per_rank[j], sl = b.slices_per_rank[j];
    if (g == 0 || sl == 0) continue;
    lanes[j] = wsz / (sl * b.group_size);
    slots = std::min(slots, (nw / g) * lanes[j]);
  }
  if (slots == 0 || slots == UINT32_MAX)
    throw std::invalid_argument("workgroupSize: too small for one instance of the test");
  plan.block = W;
  plan.testing = tc * cs;
  plan.instances = tc * slots;
  uint32_t max_clusters = std::max(tc, p.maxWorkgroups / cs);
  uint32_t grid_clusters = tc + rng.below(max_clusters - tc + 1);
  plan.grid = grid_clusters * cs;

  // Shuffled cluster ids, ranks kept (a cluster is launched as consecutive CTAs).
  std::vector<uint32_t> order(grid_clusters);
  std::iota(order.begin(), order.end(), 0u);
  if (rng.percent(p.shufflePct))
    for (uint32_t i = grid_clusters; i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
  plan.blockmap.resize(plan.grid);
  for (uint32_t blk = 0; blk < plan.grid; ++blk) plan.blockmap[blk] = order[blk / cs] * cs + blk % cs;

  // Roles: instance (anchor cluster a, slot s = ws * lanes + l); GPUHarbor's
  // workgroup striping generalised to K clusters: cluster k goes to
  // a + k * d(s), d(s) in [1, (tc-1)/(K-1)], so the K clusters are distinct.
  plan.roles.assign(size_t{plan.testing} * W, -1);
  const uint32_t K = b.clusters;
  const uint32_t dmax = K > 1 ? std::max<uint32_t>(1, (tc - 1) / (K - 1)) : 1;
  for (uint32_t a = 0; a < tc; ++a)
    for (uint32_t s = 0; s < slots; ++s) {
      uint32_t inst = a * slots + s, d = 1 + s % dmax;
      for (uint32_t r = 0; r < nroles; ++r) {
        const Role& ro = b.roles[r];
        uint32_t lj = lanes[ro.rank], ws = s / lj, l = s % lj;
        uint32_t cl = (a + ro.cluster * d) % tc;
        uint32_t cta = cl * cs + ro.rank;
        uint32_t warp = ws * b.groups_per_rank[ro.rank] + ro.group;
        uint32_t lane = (l * b.slices_per_rank[ro.rank] + ro.slice) * b.group_size + ro.lane;
        uint32_t tid = permute_id(warp, p.permuteThread, nw) * wsz + permute_id(lane, p.permuteThread, wsz);
        plan.roles[size_t{cta} * W + tid] = static_cast<int32_t>(inst * nroles + r);
      }
    }

  // Locations: slot P_l(i) * nlocs + l, P_0 the identity and P_l a
  // permutation, so neighbouring words belong to different instances.
  uint32_t unit = 4;
  for (const auto& l : b.locs) unit = std::max(unit, l.size);
  const uint32_t nlocs = static_cast<uint32_t>(b.locs.size()), I = plan.instances;
  plan.loc_offset.resize(size_t{I} * nlocs);
  for (uint32_t i = 0; i < I; ++i)
    for (uint32_t l = 0; l < nlocs; ++l) {
      uint32_t pi = l == 0 ? i : permute_id((i + l) % I, p.permuteLocation, I);
      plan.loc_offset[size_t{i} * nlocs + l] = (uint64_t{pi} * nlocs + l) * p.memStride * unit;
    }
  plan.mem_bytes = std::max<uint64_t>(unit, uint64_t{I} * nlocs * p.memStride * unit);

  // Stress: target lines chosen among 16 per requested line.
  const uint32_t line_words = std::max<uint32_t>(1, p.stressLineSize / 4);
  const uint32_t regions = 16 * p.stressTargetLines;
  plan.scratch_bytes = uint64_t{regions} * line_words * 4;
  plan.cfg.assign(kCfgWords, 0);
  plan.cfg[kTestingCtas] = plan.testing;
  plan.cfg[kMemStress] = rng.percent(p.memStressPct);
  plan.cfg[kMemStressIters] = p.memStressIterations;
  plan.cfg[kMemStressPattern] = p.memStressPattern;
  plan.cfg[kPreStress] = rng.percent(p.preStressPct);
  plan.cfg[kPreStressIters] = p.preStressIterations;
  plan.cfg[kPreStressPattern] = p.preStressPattern;
  plan.cfg[kBarrier] = rng.percent(p.barrierPct);
  plan.cfg[kBarrierTarget] = I * nroles;
  plan.cfg[kSpinLimit] = p.spinLimit;
  plan.cfg[kLines] = p.stressTargetLines;
  for (uint32_t k = 0; k < p.stressTargetLines; ++k) plan.cfg[kCfgLines + k] = rng.below(regions) * line_words;
  return plan;
}

std::string check_launch(const Bundle& b, const LaunchPlan& plan) {
  const uint32_t nroles = static_cast<uint32_t>(b.roles.size()), W = plan.block;
  const uint32_t cs = b.cluster_size;
  // instance -> role -> (logical CTA, tid)
  std::vector<std::vector<std::pair<int64_t, uint32_t>>> where(plan.instances,
                                                               std::vector<std::pair<int64_t, uint32_t>>(nroles, {-1, 0}));
  for (size_t g = 0; g < plan.roles.size(); ++g) {
    int32_t v = plan.roles[g];
    if (v < 0) continue;
    uint32_t inst = v / nroles, r = v % nroles;
    if (inst >= plan.instances) return "role value out of range";
    if (where[inst][r].first >= 0) return "instance " + std::to_string(inst) + " has role " + std::to_string(r) + " twice";
    where[inst][r] = {static_cast<int64_t>(g / W), static_cast<uint32_t>(g % W)};
  }
  const uint32_t wsz = std::min<uint32_t>(32, W);
  for (uint32_t i = 0; i < plan.instances; ++i)
    for (uint32_t r = 0; r < nroles; ++r) {
      if (where[i][r].first < 0) return "instance " + std::to_string(i) + " lacks role " + std::to_string(r);
      for (uint32_t q = 0; q < nroles; ++q) {
        const Role &x = b.roles[r], &y = b.roles[q];
        bool same_cta = x.cluster == y.cluster && x.rank == y.rank;
        bool same_cluster = x.cluster == y.cluster;
        bool same_warp = same_cta && x.group == y.group;
        auto [ca, ta] = where[i][r];
        auto [cb, tb] = where[i][q];
        if (same_cta != (ca == cb)) return "instance " + std::to_string(i) + ": CTA placement of roles differs";
        if (same_cluster != (ca / cs == cb / cs)) return "instance " + std::to_string(i) + ": cluster placement differs";
        if (same_cta && same_warp != (ta / wsz == tb / wsz)) return "instance " + std::to_string(i) + ": warp placement differs";
        if (ca == cb && r != q && ta == tb) return "two roles on one thread";
      }
    }
  std::set<uint64_t> seen;
  for (uint64_t off : plan.loc_offset)
    if (!seen.insert(off).second || off >= plan.mem_bytes) return "location slots overlap or overflow";
  std::vector<uint32_t> sorted = plan.blockmap;
  std::sort(sorted.begin(), sorted.end());
  for (uint32_t k = 0; k < sorted.size(); ++k)
    if (sorted[k] != k) return "blockmap is not a permutation";
  for (uint32_t blk = 0; blk < plan.grid; ++blk)
    if (plan.blockmap[blk] % cs != blk % cs) return "blockmap breaks a cluster";
  return "";
}

}  // namespace ptxcheck::hw
