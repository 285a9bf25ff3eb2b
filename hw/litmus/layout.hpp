// Where each test instance runs in one launch (GPUHarbor's scheme, made
// general over the scope tree): the grid has `testing` CTAs running
// instances and stress CTAs after them; every role thread of an instance
// sits in the CTA, cluster and warp the test's placement asks for, and each
// hardware thread runs at most one role of one instance, so a test's spin
// loops and barriers never wait on a later role of the same thread.
// Contract: plan_launch throws std::invalid_argument when the parameters
// cannot host one instance (too few testing CTAs or threads per CTA);
// otherwise check_launch(b, plan) returns "" for every plan it makes.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "hw/common/params.hpp"
#include "hw/common/rng.hpp"
#include "hw/litmus/bundle.hpp"

namespace ptxcheck::hw {

// Kernel configuration words (u32 array, the kernel's `cfg` parameter).
enum Cfg : uint32_t {
  kTestingCtas, kMemStress, kMemStressIters, kMemStressPattern, kPreStress, kPreStressIters,
  kPreStressPattern, kBarrier, kBarrierTarget, kSpinLimit, kLines, kCfgLines = 16, kCfgWords = 16 + 64
};

struct LaunchPlan {
  uint32_t grid = 0;      // CTAs launched (a multiple of the cluster size)
  uint32_t testing = 0;   // logical CTAs < testing run instances
  uint32_t block = 0;     // threads per CTA
  uint32_t instances = 0;
  std::vector<uint32_t> blockmap;  // physical CTA -> logical CTA
  std::vector<int32_t> roles;      // logical CTA * block + tid -> instance * nroles + role, or -1
  std::vector<uint64_t> loc_offset;  // instance * nlocs + loc -> byte offset in test memory
  uint64_t mem_bytes = 0;
  uint64_t scratch_bytes = 0;
  std::vector<uint32_t> cfg;       // kCfgWords words
};

uint32_t permute_id(uint32_t id, uint32_t factor, uint32_t n);  // bijective on [0, n)

LaunchPlan plan_launch(const Bundle& b, const Params& p, Rng& rng);

// Checks a plan against the bundle: each instance has each role exactly
// once, same test CTA <=> same hardware CTA, same test cluster <=> same
// hardware cluster, same warp group <=> same warp, locations disjoint.
std::string check_launch(const Bundle& b, const LaunchPlan& plan);

}  // namespace ptxcheck::hw
