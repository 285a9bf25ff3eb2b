// What the generator tells the host program about one litmus test besides
// its PTX: roles (test threads) and where the scope tree puts them, the
// test's memory locations, and the outcome tuple to record. Written as
// TEST.bundle.json beside TEST.sm_XX.ptx (hw/README.md "Bundle").
// Contract: a Bundle read back by bundle_from_json equals the one written;
// from_json throws std::invalid_argument on a malformed file.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ptxcheck::hw {

// Placement of one test thread. Test clusters are numbered 0..K-1; a CTA is
// (cluster, rank) with rank < cluster_size; inside a CTA, threads that share
// a warp form a group (threads without a warp get a group each). The CTAs
// of one rank are its slices: a hardware CTA of that rank hosts every slice
// (for different instances), side by side in each warp.
struct Role {
  int thread = 0;   // test thread index
  int cluster = 0;  // test cluster index k
  int rank = 0;     // CTA rank inside the cluster
  int group = 0;    // warp group index inside the test CTA
  int lane = 0;     // position inside the group
  int slice = 0;    // index of the test CTA among the CTAs of this rank
};

struct BundleLoc {
  std::string name;
  uint64_t init = 0;
  uint32_t size = 4;  // bytes
};

// One component of the outcome tuple, in ptxcheck's state order (registers
// by thread then name, then locations by name).
struct ObsVar {
  std::string name;  // "1:%r0" or "x"
  bool is_reg = true;
  int role = -1;     // registers: the role that stores it
  int out = -1;      // registers: index in the instance's output record
  int loc = -1;      // locations: index into Bundle::locs
  uint32_t size = 8; // width for printing as a signed value
};

struct Bundle {
  std::string test;         // test name
  std::string litmus_path;  // as given to the generator
  std::string litmus_text;  // the test's source, so recordings replay alone
  std::string arch;         // sm_80, sm_90
  std::string kernel = "litmus_test";
  int clusters = 1;         // K
  int cluster_size = 1;     // CTAs per cluster launched (1 = no cluster launch)
  int group_size = 1;       // largest warp group
  std::vector<int> groups_per_rank;  // most warp groups of a test CTA of this rank
  std::vector<int> slices_per_rank;  // test CTAs of this rank
  std::vector<Role> roles;
  std::vector<BundleLoc> locs;
  std::vector<ObsVar> obs;
  int nout = 0;             // u64 register slots per instance (plus one status word)
};

nlohmann::json bundle_to_json(const Bundle& b);
Bundle bundle_from_json(const nlohmann::json& j);

// ptxcheck's state text for one outcome: "name=value; ..." with values
// printed signed at their width, exactly as semantics/litmus/check.cpp does.
std::string outcome_text(const Bundle& b, const std::vector<uint64_t>& values);

}  // namespace ptxcheck::hw
