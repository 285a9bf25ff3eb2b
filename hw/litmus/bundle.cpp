// Bundle file (bundle.hpp).
#include "hw/litmus/bundle.hpp"

#include <stdexcept>

namespace ptxcheck::hw {

using nlohmann::json;

json bundle_to_json(const Bundle& b) {
  json j;
  j["format"] = "ptxcheck-litmus-bundle/1";
  j["test"] = b.test;
  j["litmus_path"] = b.litmus_path;
  j["litmus_text"] = b.litmus_text;
  j["arch"] = b.arch;
  j["kernel"] = b.kernel;
  j["clusters"] = b.clusters;
  j["cluster_size"] = b.cluster_size;
  j["group_size"] = b.group_size;
  j["groups_per_rank"] = b.groups_per_rank;
  j["slices_per_rank"] = b.slices_per_rank;
  j["nout"] = b.nout;
  for (const auto& r : b.roles)
    j["roles"].push_back({{"thread", r.thread}, {"cluster", r.cluster}, {"rank", r.rank},
                          {"group", r.group}, {"lane", r.lane}, {"slice", r.slice}});
  for (const auto& l : b.locs) j["locs"].push_back({{"name", l.name}, {"init", l.init}, {"size", l.size}});
  j["obs"] = json::array();
  for (const auto& o : b.obs)
    j["obs"].push_back({{"name", o.name}, {"is_reg", o.is_reg}, {"role", o.role}, {"out", o.out},
                        {"loc", o.loc}, {"size", o.size}});
  return j;
}

Bundle bundle_from_json(const json& j) {
  try {
    if (j.at("format") != "ptxcheck-litmus-bundle/1") throw std::invalid_argument("bundle: unknown format");
    Bundle b;
    b.test = j.at("test");
    b.litmus_path = j.at("litmus_path");
    b.litmus_text = j.at("litmus_text");
    b.arch = j.at("arch");
    b.kernel = j.at("kernel");
    b.clusters = j.at("clusters");
    b.cluster_size = j.at("cluster_size");
    b.group_size = j.at("group_size");
    b.groups_per_rank = j.at("groups_per_rank").get<std::vector<int>>();
    b.slices_per_rank = j.at("slices_per_rank").get<std::vector<int>>();
    b.nout = j.at("nout");
    for (const auto& r : j.at("roles"))
      b.roles.push_back({r.at("thread"), r.at("cluster"), r.at("rank"), r.at("group"), r.at("lane"), r.at("slice")});
    for (const auto& l : j.at("locs")) b.locs.push_back({l.at("name"), l.at("init"), l.at("size")});
    for (const auto& o : j.at("obs"))
      b.obs.push_back({o.at("name"), o.at("is_reg"), o.at("role"), o.at("out"), o.at("loc"), o.at("size")});
    if (b.roles.empty() || b.cluster_size < 1 || b.group_size < 1 ||
        static_cast<int>(b.groups_per_rank.size()) != b.cluster_size ||
        static_cast<int>(b.slices_per_rank.size()) != b.cluster_size)
      throw std::invalid_argument("bundle: inconsistent shape");
    for (const auto& r : b.roles)
      if (r.rank < 0 || r.rank >= b.cluster_size || r.cluster < 0 || r.cluster >= b.clusters ||
          r.group < 0 || r.group >= b.groups_per_rank[r.rank] || r.lane < 0 || r.lane >= b.group_size ||
          r.slice < 0 || r.slice >= b.slices_per_rank[r.rank])
        throw std::invalid_argument("bundle: role placement out of range");
    for (const auto& o : b.obs)
      if (o.is_reg ? (o.out < 0 || o.out >= b.nout || o.role < 0 || o.role >= static_cast<int>(b.roles.size()))
                   : (o.loc < 0 || o.loc >= static_cast<int>(b.locs.size())))
        throw std::invalid_argument("bundle: observed variable out of range");
    return b;
  } catch (const json::exception& e) {
    throw std::invalid_argument(std::string("bundle: ") + e.what());
  }
}

std::string outcome_text(const Bundle& b, const std::vector<uint64_t>& values) {
  std::string text;
  for (size_t i = 0; i < b.obs.size() && i < values.size(); ++i) {
    uint64_t v = values[i];
    uint32_t size = b.obs[i].size;
    int64_t s;
    if (size >= 8) {
      s = static_cast<int64_t>(v);
    } else {
      uint64_t m = (uint64_t{1} << (8 * size)) - 1, sign = uint64_t{1} << (8 * size - 1);
      s = static_cast<int64_t>(((v & m) ^ sign) - sign);
    }
    text += b.obs[i].name + "=" + std::to_string(s) + "; ";
  }
  if (!text.empty()) text.pop_back();
  return text;
}

}  // namespace ptxcheck::hw
