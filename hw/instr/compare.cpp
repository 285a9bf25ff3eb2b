// Recording comparison: raw bits per element, approx bounds from the
// arithmetic layer (semantics/arith/resolve.hpp within_bound).
#include "hw/instr/compare.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "parser/diagnostic.hpp"
#include "parser/parse.hpp"
#include "semantics/interp/json_pos.hpp"
#include "semantics/interp/lower.hpp"
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

std::vector<uint64_t> out_values(const interp::RunReport& rep, const std::string& spec_path,
                                 const std::string& out_name) {
  int b = rep.spec.buffer_index(out_name);
  if (b < 0) throw InputError(spec_path, {}, "no buffer '" + out_name + "'");
  std::vector<uint64_t> vals;
  const auto& bytes = rep.result.buffers.at(static_cast<size_t>(b));
  const unsigned es = interp::elem_size(rep.spec.buffers[static_cast<size_t>(b)].type);
  for (size_t i = 0; i + es <= bytes.size(); i += es) {
    uint64_t v = 0;
    for (unsigned k = 0; k < es; ++k) v |= uint64_t{bytes[i + k]} << (8 * k);
    vals.push_back(v);
  }
  return vals;
}

Ran run_out(const std::string& spec_path, const std::string& out_name) {
  interp::RunOptions opt;
  Ran r{interp::run_spec_file(spec_path, opt), {}};
  r.values = out_values(r.rep, spec_path, out_name);
  return r;
}

std::string trim(const std::string& l) {
  size_t a = l.find_first_not_of(" \t\r"), b = l.find_last_not_of(" \t\r");
  return a == std::string::npos ? std::string() : l.substr(a, b - a + 1);
}

// The generator's store of a result: "st.global.bN [%outp+OFF], %REG;".
bool parse_store(const std::string& t, unsigned& bits, unsigned& off, std::string& reg) {
  char r[64];
  if (std::sscanf(t.c_str(), "st.global.b%u [%%outp+%u], %63[^;];", &bits, &off, r) != 3) return false;
  reg = r;
  return true;
}

// Operands of "op.mods %d, %a, %b;" in order.
std::vector<std::string> operands_of(const std::string& t) {
  std::vector<std::string> ops;
  size_t sp = t.find(' ');
  if (sp == std::string::npos) return ops;
  std::string rest = t.substr(sp + 1);
  if (!rest.empty() && rest.back() == ';') rest.pop_back();
  std::stringstream ss(rest);
  std::string o;
  while (std::getline(ss, o, ',')) ops.push_back(trim(o));
  return ops;
}

// The recorded PTX rewritten for the isolated replay (compare.hpp): every
// stored result register is reloaded from the hardware's value of its slot
// (a buffer passed as an extra kernel parameter), so each instruction runs
// on the hardware's inputs. With src >= 0 the instruction of each .approx
// slot becomes a move of its source operand `src` (its last one when it has
// fewer), which then lands in the slot. Empty when the PTX is not in the
// shape of the arithmetic tests (`gen`).
std::string isolated_ptx(const std::string& ptx, const std::string& path, const std::vector<Slot>& slots, int src) {
  std::vector<std::string> lines;
  {
    std::stringstream ss(ptx);
    std::string l;
    while (std::getline(ss, l)) lines.push_back(l);
  }
  bool param = false, setup = false;
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string t = trim(lines[i]);
    unsigned bits = 0, off = 0;
    std::string reg;
    if (src >= 0 && i + 1 < lines.size() && parse_store(trim(lines[i + 1]), bits, off, reg) && off % 8 == 0 &&
        off / 8 < slots.size() && slots[off / 8].approx) {
      auto ops = operands_of(t);
      if (ops.size() < 2 || ops[0] != reg) throw InputError(path, {}, "approx slot without its instruction: " + t);
      size_t k = std::min<size_t>(static_cast<size_t>(src) + 1, ops.size() - 1);
      out += "\tmov.b" + std::to_string(bits) + " " + reg + ", " + ops[k] + ";\n";
      continue;
    }
    out += lines[i] + "\n";
    if (t == ".param .u64 out_ptr") {
      out.pop_back();
      out += ",\n\t.param .u64 ptxcheck_hw_ptr\n";
      param = true;
    } else if (t == "add.s64 %outp, %outp, %off;") {
      out += "\tld.param.u64 %ptxcheck_hw, [ptxcheck_hw_ptr];\n"
             "\tcvta.to.global.u64 %ptxcheck_hw, %ptxcheck_hw;\n\tadd.s64 %ptxcheck_hw, %ptxcheck_hw, %off;\n";
      setup = true;
    } else if (t == ".reg .b64 %inp, %outp, %off;") {
      out += "\t.reg .b64 %ptxcheck_hw;\n";
    } else if (parse_store(t, bits, off, reg)) {
      if (!setup) throw InputError(path, {}, "store before the output pointer is set up");
      out += "\tld.global.b" + std::to_string(bits) + " " + reg + ", [%ptxcheck_hw+" + std::to_string(off) + "];\n";
    }
  }
  if (!param || !setup) return {};  // not an arithmetic test (e.g. a wgmma test)
  return out;
}

// Runs `spec0` with PTX text `ptx` and the hardware values `got` as the
// extra buffer; the output buffer's values.
std::vector<uint64_t> run_isolated(const interp::LaunchSpec& spec0, const std::string& ptx,
                                   const std::string& spec_path, const std::string& out_name,
                                   const std::vector<uint64_t>& got) {
  interp::LaunchSpec spec = spec0;
  interp::BufferSpec hwb;
  hwb.name = "ptxcheck_hw";
  hwb.type = interp::ElemType::u64;
  hwb.count = got.size();
  for (uint64_t v : got)
    for (unsigned k = 0; k < 8; ++k) hwb.init.push_back(static_cast<uint8_t>(v >> (8 * k)));
  spec.buffers.push_back(hwb);
  interp::ArgSpec a;
  a.is_buffer = true;
  a.buffer = hwb.name;
  spec.args.push_back(a);
  ast::Module m = parse_module(ptx, spec.ptx_path);
  m.file = spec.ptx_path;
  interp::Program p = interp::lower(m, spec.kernel, spec.kernel_pos, spec.file);
  interp::RunReport rep{spec, interp::run_program(p, spec, interp::RunOptions{})};
  if (!rep.result.ok) throw InputError(spec_path, {}, "the isolated replay reported an error diagnostic");
  return out_values(rep, spec_path, out_name);
}

// divergences.txt beside a recording: "RECORDING SLOT reason..." lines
// (docs: corpus/hw/README.md); the slots listed for this recording.
std::set<size_t> load_divergences(const std::string& rec_path) {
  std::set<size_t> out;
  const fs::path f = fs::path(rec_path).parent_path() / "divergences.txt";
  std::ifstream in(f);
  if (!in) return out;
  const std::string name = fs::path(rec_path).filename().string();
  std::string line;
  unsigned n = 0;
  while (std::getline(in, line)) {
    ++n;
    std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    std::stringstream ss(t);
    std::string file, reason;
    long long slot = -1;
    ss >> file >> slot;
    std::getline(ss, reason);
    if (!ss.eof() || slot < 0 || trim(reason).empty())
      throw InputError(f.string(), SourcePos{n, 1}, "expected 'RECORDING SLOT reason'");
    if (file == name) out.insert(static_cast<size_t>(slot));
  }
  return out;
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
  // `ptxcheck run` on the recorded spec must succeed; the values compared
  // are the isolated replay's (compare.hpp).
  Ran ran = run_out(spec, out_name);
  if (!ran.rep.result.ok || slots.empty() || got.size() != ran.values.size()) {
    CompareResult r = compare_values(slots, got, ran.values);
    if (!ran.rep.result.ok) {
      ++r.mismatches;
      r.messages.insert(r.messages.begin(), "ptxcheck run reported an error diagnostic");
    }
    return r;
  }
  const std::string ptx = interp::read_file_text(ran.rep.spec.ptx_path);
  const std::string& ptx_path = ran.rep.spec.ptx_path;
  const std::string iso_ptx = isolated_ptx(ptx, ptx_path, slots, -1);
  if (iso_ptx.empty()) return compare_values(slots, got, ran.values);  // no chain to isolate: wgmma tests
  const auto iso = run_isolated(ran.rep.spec, iso_ptx, spec, out_name, got);
  // The source operands of the .approx slots, replayed only when a value
  // is not ptxcheck's own (the second source only for two-source forms).
  std::vector<uint64_t> src[2];
  auto sources = [&](int k) -> const std::vector<uint64_t>& {
    if (src[k].empty()) src[k] = run_isolated(ran.rep.spec, isolated_ptx(ptx, ptx_path, slots, k), spec, out_name, got);
    return src[k];
  };
  const auto divergent = load_divergences(rec_path);
  CompareResult r;
  for (size_t e = 0; e < got.size(); ++e) {
    const Slot& s = slots[e % slots.size()];
    const uint64_t g = got[e] & mask(s.bits), ref = iso[e] & mask(s.bits);
    ++r.compared;
    bool ok = slot_matches(s, g, ref);
    if (s.approx) {
      ++r.approx_checked;
      ok = g == ref;
      if (!ok) {
        auto res = arith::resolve(s.mnemonic);
        if (res) {
          const uint64_t in[4] = {sources(0)[e], res.desc->nsrc > 1 ? sources(1)[e] : 0, 0, 0};
          ok = arith::within_approx_bound(*res.desc, in, g);
        }
      }
    }
    if (ok) continue;
    if (divergent.count(e % slots.size()) != 0) {
      ++r.divergent;
      continue;
    }
    ++r.mismatches;
    if (r.messages.size() < 20)
      r.messages.push_back("thread " + std::to_string(e / slots.size()) + " slot " + std::to_string(e % slots.size()) +
                           " (" + s.mnemonic + "): gpu " + hex(g, s.bits) + ", ptxcheck " + hex(ref, s.bits));
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
