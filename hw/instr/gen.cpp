// Kernel, launch spec and manifest of one random instruction test.
#include "hw/instr/gen.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "hw/instr/edges.hpp"
#include "hw/instr/forms.hpp"

namespace ptxcheck::instrgen {
namespace {

// Input slot types: every arithmetic type at least once; f32/f64/u32 twice
// (f32/f64 carry most forms, u32 feeds shift counts and bit positions).
const std::vector<std::string> kInputs = {"u16", "s16", "u32", "s32", "u32", "u64", "s64", "f16", "bf16", "f16x2",
                                          "bf16x2", "f32", "f32", "f64", "f64", "pred"};

struct Val {
  char cls;
  std::string ty;
  std::string reg;
};

struct Builder {
  Rng& rng;
  std::map<char, unsigned> next;
  std::vector<Val> pool;
  std::string body;

  std::string fresh(char cls) {
    const char* pre = cls == 'p' ? "%p" : cls == 'h' ? "%h" : cls == 'r' ? "%r" : "%rd";
    return pre + std::to_string(next[cls]++);
  }
  // A register of class `cls`, preferably one holding type `ty`.
  std::string pick(char cls, const std::string& ty) {
    std::vector<const Val*> same, any;
    for (const auto& v : pool)
      if (v.cls == cls) (v.ty == ty ? same : any).push_back(&v);
    if (!same.empty() && (any.empty() || rng.chance(70))) return same[rng.below(same.size())]->reg;
    if (any.empty() && same.empty()) throw std::logic_error("instrgen: no register of class " + std::string(1, cls));
    return any.empty() ? same[rng.below(same.size())]->reg : any[rng.below(any.size())]->reg;
  }
  void line(const std::string& s) { body += "\t" + s + ";\n"; }
};

std::string bty(char cls) { return cls == 'p' ? ".pred" : "." + std::string("b") + std::to_string(class_bits(cls)); }

// Draws a form legal under `mask` (bit 0 sm_80, bit 1 sm_90): a family first,
// so that one family with many spellings (cvt) does not crowd the others.
const Form& draw_form(Rng& rng, unsigned need, bool prefer_new) {
  static std::map<unsigned, std::map<std::string, std::vector<const Form*>>> by;
  auto& fam = by[need * 2 + prefer_new];
  if (fam.empty())
    for (const auto& f : forms())
      if ((f.sm_mask & need) == need && (!prefer_new || f.sm_mask == 2)) fam[f.family].push_back(&f);
  if (fam.empty()) throw std::logic_error("instrgen: no legal forms (is legal.inc empty?)");
  std::vector<const std::vector<const Form*>*> weighted;
  for (const auto& [name, v] : fam)
    for (int w = 0; w < (name == "cvt" ? 6 : name == "setp" ? 2 : 1); ++w) weighted.push_back(&v);
  const auto& v = *weighted[rng.below(weighted.size())];
  return *v[rng.below(v.size())];
}

nlohmann::json slot_json(const Slot& s) {
  return {{"mnemonic", s.mnemonic}, {"type", s.ty}, {"bits", s.bits}, {"approx", s.approx}, {"nan_any", s.nan_any}};
}

}  // namespace

std::string manifest_path_for(const std::string& spec_path) {
  std::string p = spec_path;
  if (p.size() > 5 && p.compare(p.size() - 5, 5, ".json") == 0) p.resize(p.size() - 5);
  return p + ".manifest.json";
}

Test generate(uint64_t seed, unsigned index, const GenOptions& opt) {
  Rng rng(seed * 0x100000001b3ull ^ (uint64_t{index} << 20) ^ 0x5eed);
  rng.next();
  const bool sm90_only = rng.below(3) == 0;
  const unsigned need = sm90_only ? 2 : 3;
  Test t;
  char stem[64];
  std::snprintf(stem, sizeof stem, "s%llu_%04u", static_cast<unsigned long long>(seed), index);
  t.stem = stem;

  Builder b{rng, {}, {}, {}};
  // Prologue: per-thread input and output pointers (PTX ISA 9.7.9.8 ld.param,
  // 9.7.9.20 cvta, 10 special registers %tid).
  const unsigned ni = static_cast<unsigned>(kInputs.size());
  b.line("mov.u32 %tix, %tid.x");
  b.line("ld.param.u64 %inp, [in_ptr]");
  b.line("cvta.to.global.u64 %inp, %inp");
  b.line("ld.param.u64 %outp, [out_ptr]");
  b.line("cvta.to.global.u64 %outp, %outp");
  b.line("mul.wide.u32 %off, %tix, " + std::to_string(ni * 8));
  b.line("add.s64 %inp, %inp, %off");
  std::string out_scale_line_marker = "@@OUTSCALE@@";
  b.body += out_scale_line_marker;
  for (unsigned k = 0; k < ni; ++k) {
    const std::string& ty = kInputs[k];
    const std::string addr = "[%inp+" + std::to_string(8 * k) + "]";
    if (ty == "pred") {
      std::string r = b.fresh('r'), p = b.fresh('p');
      b.line("ld.global.b32 " + r + ", " + addr);
      b.line("setp.ne.b32 " + p + ", " + r + ", 0");
      b.pool.push_back({'p', ty, p});
      continue;
    }
    unsigned bits = ty.find("x2") != std::string::npos ? 32 : static_cast<unsigned>(std::stoul(ty.substr(ty[0] == 'b' ? 2 : 1)));
    char cls = reg_class(bits);
    std::string r = b.fresh(cls);
    b.line("ld.global.b" + std::to_string(bits) + " " + r + ", " + addr);
    b.pool.push_back({cls, ty, r});
  }

  for (unsigned n = 0; n < opt.length; ++n) {
    const Form& f = draw_form(rng, need, sm90_only && rng.chance(30));
    std::vector<std::string> srcs;
    for (size_t k = 0; k < f.srcs.size(); ++k) {
      const Operand& o = f.srcs[k];
      if (o.imm_max >= 0) {
        srcs.push_back(std::to_string(rng.below(o.imm_max + 1)));
        continue;
      }
      std::string r = b.pick(o.cls, o.ty);
      if (f.nonzero_divisor && k == 1) {  // d = (b == 0) ? 1 : b
        std::string p = b.fresh('p'), nz = b.fresh(o.cls);
        std::string w = "b" + std::to_string(class_bits(o.cls));
        b.line("setp.eq." + w + " " + p + ", " + r + ", 0");
        b.line("selp." + w + " " + nz + ", 1, " + r + ", " + p);
        r = nz;
      }
      srcs.push_back(r);
    }
    std::string d = b.fresh(f.dst.cls);
    std::string text = f.mnemonic + " " + d;
    for (const auto& s : srcs) text += ", " + s;
    b.line(text);
    t.mnemonics.push_back(f.mnemonic);
    Slot s;
    s.mnemonic = f.mnemonic;
    s.ty = f.dst.ty;
    s.approx = f.approx;
    s.nan_any = f.dst.ty == "f64" && f.family != "abs" && f.family != "neg" && f.family != "copysign" &&
                f.family != "selp";
    const std::string addr = "[%outp+" + std::to_string(8 * t.slots.size()) + "]";
    if (f.dst.cls == 'p') {
      std::string r = b.fresh('r');
      b.line("selp.u32 " + r + ", 1, 0, " + d);
      b.line("st.global.b32 " + addr + ", " + r);
      s.bits = 32;
    } else {
      s.bits = class_bits(f.dst.cls);
      b.line("st.global.b" + std::to_string(s.bits) + " " + addr + ", " + d);
    }
    t.slots.push_back(s);
    if (!f.approx) b.pool.push_back({f.dst.cls, f.dst.ty, d});
  }
  const unsigned ns = static_cast<unsigned>(t.slots.size());
  std::string scale = "\tmul.wide.u32 %off, %tix, " + std::to_string(ns * 8) + ";\n\tadd.s64 %outp, %outp, %off;\n";
  b.body.replace(b.body.find(out_scale_line_marker), out_scale_line_marker.size(), scale);

  std::string decls = "\t.reg .b32 %tix;\n\t.reg .b64 %inp, %outp, %off;\n";
  for (auto [cls, count] : b.next)
    if (count)
      decls += "\t.reg " + bty(cls) + " " + (cls == 'p' ? "%p" : cls == 'h' ? "%h" : cls == 'r' ? "%r" : "%rd") +
               "<" + std::to_string(count) + ">;\n";

  // Inputs: every thread its own draw of every input slot.
  nlohmann::json in_values = nlohmann::json::array();
  for (unsigned th = 0; th < opt.threads; ++th)
    for (unsigned k = 0; k < ni; ++k) in_values.push_back(draw(rng, kInputs[k]));

  nlohmann::json slots = nlohmann::json::array();
  for (const auto& s : t.slots) slots.push_back(slot_json(s));
  for (int sm : {80, 90}) {
    if (sm == 80 && sm90_only) continue;
    Kernel k;
    k.sm = sm;
    k.name = t.stem + ".sm_" + std::to_string(sm);
    k.ptx = "// Generated by ptxcheck-instrgen (seed " + std::to_string(seed) + ", test " + std::to_string(index) +
            "); do not edit.\n.version 8.0\n.target sm_" + std::to_string(sm) +
            "\n.address_size 64\n\n.visible .entry instr(\n\t.param .u64 in_ptr,\n\t.param .u64 out_ptr\n)\n{\n" +
            decls + b.body + "\tret;\n}\n";
    nlohmann::json spec = {
        {"ptx", k.name + ".ptx"},
        {"kernel", "instr"},
        {"grid", {1, 1, 1}},
        {"block", {opt.threads, 1, 1}},
        {"dynamic_shared_bytes", 0},
        {"buffers",
         {{"in", {{"type", "u64"}, {"count", opt.threads * ni}, {"init", {{"values", in_values}}}}},
          {"out", {{"type", "u64"}, {"count", opt.threads * ns}, {"init", "zero"}}}}},
        {"args", {{{"buffer", "in"}}, {{"buffer", "out"}}}},
        {"outputs", {"out"}}};
    k.spec_json = spec.dump(1) + "\n";
    nlohmann::json man = {{"format", "ptxcheck-instrgen-manifest/1"}, {"spec", k.name + ".json"},
                          {"output", "out"}, {"threads", opt.threads}, {"slots_per_thread", ns},
                          {"slots", slots}};
    k.manifest_json = man.dump(1) + "\n";
    t.variants.push_back(std::move(k));
  }
  return t;
}

void write_test(const Test& t, const std::string& dir) {
  std::filesystem::create_directories(dir);
  auto put = [&](const std::string& name, const std::string& text) {
    std::ofstream f(std::filesystem::path(dir) / name, std::ios::binary);
    f << text;
    if (!f) throw std::runtime_error("cannot write " + (std::filesystem::path(dir) / name).string());
  };
  for (const auto& k : t.variants) {
    put(k.name + ".ptx", k.ptx);
    put(k.name + ".json", k.spec_json);
    put(k.name + ".manifest.json", k.manifest_json);
  }
}

}  // namespace ptxcheck::instrgen
