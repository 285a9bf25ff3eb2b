// Recording comparison: raw bits per element, approx bounds from the
// arithmetic layer (semantics/arith/resolve.hpp within_bound).
#include "hw/instr/compare.hpp"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "parser/diagnostic.hpp"
#include "semantics/arith/resolve.hpp"
#include "semantics/interp/run.hpp"

namespace ptxcheck::instrgen {
namespace fs = std::filesystem;
namespace {

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, {}, "cannot read file");
  std::stringstream ss;
  ss << in.rdbuf();
  try {
    return nlohmann::json::parse(ss.str());
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path, {}, std::string("malformed JSON: ") + e.what());
  }
}

bool is_nan(uint64_t v, unsigned bits) {
  if (bits == 64) return (v & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (v & 0xfffffffffffffull);
  if (bits == 32) return (v & 0x7f800000u) == 0x7f800000u && (v & 0x7fffffu);
  return false;
}

std::string hex(uint64_t v, unsigned bits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%0*llx", static_cast<int>((bits + 3) / 4), static_cast<unsigned long long>(v));
  return buf;
}

uint64_t mask(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

}  // namespace

bool slot_matches(const Slot& s, uint64_t got, uint64_t ref) {
  got &= mask(s.bits);
  ref &= mask(s.bits);
  if (got == ref) return true;
  if (s.nan_any && is_nan(got, s.bits) && is_nan(ref, s.bits)) return true;
  if (s.approx) {
    auto r = arith::resolve(s.mnemonic);
    return r && arith::within_bound(*r.desc, got, ref);
  }
  return false;
}

std::vector<Slot> load_manifest(const std::string& path, unsigned& per_thread) {
  auto j = read_json(path);
  try {
    per_thread = j.at("slots_per_thread").get<unsigned>();
    std::vector<Slot> out;
    for (const auto& s : j.at("slots"))
      out.push_back({s.at("mnemonic").get<std::string>(), s.at("type").get<std::string>(), s.at("bits").get<unsigned>(),
                     s.at("approx").get<bool>(), s.at("nan_any").get<bool>()});
    if (out.size() != per_thread) throw InputError(path, {}, "slots_per_thread does not match the slot list");
    return out;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path, {}, std::string("malformed manifest: ") + e.what());
  }
}

CompareResult compare_values(const std::vector<Slot>& slots, const std::vector<uint64_t>& got,
                             const std::vector<uint64_t>& ref) {
  CompareResult r;
  if (slots.empty() || got.size() != ref.size()) {
    r.mismatches = 1;
    r.messages.push_back("element counts differ: recording " + std::to_string(got.size()) + ", ptxcheck " +
                         std::to_string(ref.size()));
    return r;
  }
  for (size_t e = 0; e < got.size(); ++e) {
    const Slot& s = slots[e % slots.size()];
    ++r.compared;
    if (s.approx) ++r.approx_checked;
    if (slot_matches(s, got[e], ref[e])) continue;
    ++r.mismatches;
    if (r.messages.size() < 20)
      r.messages.push_back("thread " + std::to_string(e / slots.size()) + " slot " + std::to_string(e % slots.size()) +
                           " (" + s.mnemonic + "): gpu " + hex(got[e] & mask(s.bits), s.bits) + ", ptxcheck " +
                           hex(ref[e] & mask(s.bits), s.bits));
  }
  return r;
}

namespace {

struct Ran {
  interp::RunReport rep;
  std::vector<uint64_t> values;  // of the output buffer
};

Ran run_out(const std::string& spec_path, const std::string& out_name) {
  interp::RunOptions opt;
  Ran r{interp::run_spec_file(spec_path, opt), {}};
  int b = r.rep.spec.buffer_index(out_name);
  if (b < 0) throw InputError(spec_path, {}, "no buffer '" + out_name + "'");
  const auto& bytes = r.rep.result.buffers.at(static_cast<size_t>(b));
  const unsigned es = interp::elem_size(r.rep.spec.buffers[static_cast<size_t>(b)].type);
  for (size_t i = 0; i + es <= bytes.size(); i += es) {
    uint64_t v = 0;
    for (unsigned k = 0; k < es; ++k) v |= uint64_t{bytes[i + k]} << (8 * k);
    r.values.push_back(v);
  }
  return r;
}

}  // namespace

CompareResult compare_recording(const std::string& rec_path, const std::string& manifest) {
  auto rec = read_json(rec_path);
  std::string spec_rel, out_name = "out";
  std::vector<uint64_t> got;
  try {
    spec_rel = rec.at("spec").get<std::string>();
    const auto& outs = rec.at("outputs");
    if (!outs.contains(out_name)) throw InputError(rec_path, {}, "recording has no output 'out'");
    for (const auto& v : outs.at(out_name)) got.push_back(std::stoull(v.get<std::string>(), nullptr, 16));
  } catch (const nlohmann::json::exception& e) {
    throw InputError(rec_path, {}, std::string("malformed recording: ") + e.what());
  } catch (const std::invalid_argument&) {
    throw InputError(rec_path, {}, "output values must be hex strings");
  }
  const std::string spec = (fs::path(rec_path).parent_path() / spec_rel).string();
  unsigned per_thread = 0;
  auto slots = load_manifest(manifest.empty() ? manifest_path_for(spec) : manifest, per_thread);
  Ran ran = run_out(spec, out_name);
  CompareResult r = compare_values(slots, got, ran.values);
  if (!ran.rep.result.ok) {
    ++r.mismatches;
    r.messages.insert(r.messages.begin(), "ptxcheck run reported an error diagnostic");
  }
  return r;
}

std::string self_recording(const std::string& spec_path, const std::string& rec_dir) {
  Ran ran = run_out(spec_path, "out");
  nlohmann::json vals = nlohmann::json::array();
  for (uint64_t v : ran.values) vals.push_back(hex(v, 64));
  nlohmann::json rec = {{"format", "ptxcheck-instr-recording/1"},
                        {"spec", fs::relative(fs::absolute(spec_path), fs::absolute(rec_dir)).string()},
                        {"kernel", ran.rep.spec.kernel},
                        {"gpu", "ptxcheck (synthetic)"},
                        {"compute_capability", "0.0"},
                        {"driver_version", 0},
                        {"outputs", {{"out", vals}}}};
  return rec.dump(1) + "\n";
}

}  // namespace ptxcheck::instrgen
