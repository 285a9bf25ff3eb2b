// wgmma, wgmma.mma_async.sp and mma.sp tests: from a configuration
// (wgmma_pick.cpp), the shared-memory image, the kernel, the launch spec and
// the manifest. PTX ISA sections: wgmma_gen.cpp's header comment.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "hw/instr/wgmma_detail.hpp"

namespace ptxcheck::instrgen::wgmma_detail {

namespace {

// One instruction line of a kernel body.
void emit(std::string& body, const std::string& s) { body += "\t" + s + "\n"; }

// The start of every kernel: %r0 the thread's index, %rd0 and %rd1 the
// global addresses of the `in` and `out` buffers.
void emit_params(std::string& body) {
  emit(body, "mov.u32 %r0, %tid.x;");
  emit(body, "ld.param.u64 %rd0, [in_ptr];");
  emit(body, "cvta.to.global.u64 %rd0, %rd0;");
  emit(body, "ld.param.u64 %rd1, [out_ptr];");
  emit(body, "cvta.to.global.u64 %rd1, %rd1;");
}

// Loads registers reg0..reg<n-1> (type ty) from the thread's n words of
// `in` at byte offset off (the words of all threads lie in thread order).
void emit_loads(std::string& body, const std::string& reg, unsigned n, unsigned off, const char* ty) {
  emit(body, "mul.wide.u32 %rd2, %r0, " + std::to_string(4 * n) + ";");
  emit(body, "add.s64 %rd3, %rd0, %rd2;");
  for (unsigned i = 0; i < n; ++i)
    emit(body, std::string("ld.global.") + ty + " " + reg + std::to_string(i) + ", [%rd3+" +
                   std::to_string(off + 4 * i) + "];");
}

// Stores the thread's nd D registers dreg0.. to its own 64-bit slots of
// `out` (address register rd) and returns.
void emit_stores(std::string& body, unsigned nd, bool f32d, const std::string& dreg, const std::string& rd) {
  emit(body, "mul.wide.u32 %rd2, %r0, " + std::to_string(nd * 8) + ";");
  emit(body, "add.s64 " + rd + ", %rd1, %rd2;");
  for (unsigned i = 0; i < nd; ++i)
    emit(body, std::string("st.global.") + (f32d ? "f32" : "b32") + " [" + rd + "+" + std::to_string(8 * i) + "], " +
                   dreg + std::to_string(i) + ";");
  emit(body, "ret;");
}

// The rest of test t for kernel k of instruction mn: nd result slots per
// thread (D registers of type c.d), the launch spec (one block of
// `threads`, `in` holding in_values) and the manifest.
void finish_test(Test& t, Kernel k, const Cfg& c, const std::string& mn, unsigned threads, unsigned nd,
                 const nlohmann::json& in_values) {
  Slot s;
  s.mnemonic = mn;
  s.ty = c.d == "f16" ? "f16x2" : c.d;
  s.bits = 32;
  s.nan_any = c.special;
  nlohmann::json slots = nlohmann::json::array();
  for (unsigned i = 0; i < nd; ++i) {
    t.slots.push_back(s);
    slots.push_back(
        {{"mnemonic", s.mnemonic}, {"type", s.ty}, {"bits", s.bits}, {"approx", false}, {"nan_any", s.nan_any}});
  }
  t.mnemonics.push_back(mn);
  nlohmann::json spec = {{"ptx", k.name + ".ptx"},
                         {"kernel", "instr"},
                         {"grid", {1, 1, 1}},
                         {"block", {threads, 1, 1}},
                         {"dynamic_shared_bytes", 0},
                         {"buffers",
                          {{"in", {{"type", "u32"}, {"count", in_values.size()}, {"init", {{"values", in_values}}}}},
                           {"out", {{"type", "u64"}, {"count", threads * nd}, {"init", "zero"}}}}},
                         {"args", {{{"buffer", "in"}}, {{"buffer", "out"}}}},
                         {"outputs", {"out"}}};
  k.spec_json = spec.dump(1) + "\n";
  nlohmann::json man = {{"format", "ptxcheck-instrgen-manifest/1"},
                        {"spec", k.name + ".json"},
                        {"output", "out"},
                        {"threads", threads},
                        {"slots_per_thread", nd},
                        {"slots", slots}};
  k.manifest_json = man.dump(1) + "\n";
  t.variants.push_back(std::move(k));
}

}  // namespace

Test build_test(Rng& rng, const Cfg& c, uint64_t seed, unsigned index) {
  Test t;
  char stem[64];
  std::snprintf(stem, sizeof stem, "%s%llu_%04u", c.sparse ? "s" : "w", static_cast<unsigned long long>(seed), index);
  t.stem = stem;

  // Shared-memory image: A (64 rows) at 0 unless A is in registers, B (N
  // rows) at the next 1024-byte boundary; both regions 1024-aligned so that
  // every swizzle pattern starts at its region (descriptor base offset 0).
  // .sp: A is the packed 64 x K/2 matrix (rows of 32 bytes as in the dense
  // forms), B has rows of 64 bytes of K.
  Layout la, lb = pick_layout(rng, c.n, c.trans_b, c.sparse ? 4 : 2);
  uint32_t a_off = 0, b_off = 0;
  if (!c.a_regs) {
    la = pick_layout(rng, 64, c.trans_a, 2);
    b_off = (la.bytes + 1023) / 1024 * 1024;
  }
  const uint32_t img_bytes = (b_off + lb.bytes + 1023) / 1024 * 1024;
  const unsigned img_words = img_bytes / 4;
  std::vector<uint32_t> image(img_words, 0);
  // Special operands: about one dot product in four meets one (2K operand
  // elements each), so that most results stay finite and check the layout.
  const unsigned sp = c.special ? (c.sparse ? 320 : 160) / c.k : 0;
  if (!c.a_regs) {
    auto v = pack(rng, c.a, la.bytes / 4, sp);
    std::copy(v.begin(), v.end(), image.begin() + a_off / 4);
  }
  {
    auto v = pack(rng, c.b, lb.bytes / 4, sp);
    std::copy(v.begin(), v.end(), image.begin() + b_off / 4);
  }
  const unsigned nd = c.d == "f16" ? c.n / 4 : c.n / 2;
  std::vector<uint32_t> acc(kThreads * nd);
  for (auto& w : acc) w = accumulator(rng, c);
  std::vector<uint32_t> afrag;
  if (c.a_regs) afrag = pack(rng, c.a, kThreads * 4, sp);
  std::vector<uint32_t> meta;  // .sp: every thread's sp-meta register
  if (c.sparse)
    for (unsigned i = 0; i < kThreads; ++i) meta.push_back(sp_meta_word(rng, c.a == "tf32", c.unordered));

  // The instruction (9.7.15.5.2 syntax per type family).
  std::string mn = std::string(c.sparse ? "wgmma.mma_async.sp" : "wgmma.mma_async") + ".sync.aligned.m64n" +
                   std::to_string(c.n) + "k" + std::to_string(c.k) + "." + c.d + "." + c.a + "." + c.b;
  if (c.a == "b1") mn += ".and.popc";
  if (c.satfinite) mn += ".satfinite";
  const bool f32d = c.d == "f32";
  const std::string dreg = f32d ? "%f" : "%d";
  std::string dlist = "{";
  for (unsigned i = 0; i < nd; ++i) dlist += (i ? ", " : "") + dreg + std::to_string(i);
  dlist += "}";
  std::string ops = dlist + ", " + (c.a_regs ? std::string("{%a0, %a1, %a2, %a3}") : std::string("%rd4")) + ", %rd5";
  if (c.sparse) ops += ", %r7, " + std::to_string(c.sel);  // sp-meta, sp-sel
  ops += ", %p1";
  if (is_float_in(c.a)) ops += ", " + std::to_string(c.scale_a) + ", " + std::to_string(c.scale_b);
  if (c.a == "f16" || c.a == "bf16") {
    if (!c.a_regs) ops += std::string(", ") + (c.trans_a ? "1" : "0");
    ops += std::string(", ") + (c.trans_b ? "1" : "0");
  }

  const unsigned acc_base = img_words * 4, a_base = (img_words + kThreads * nd) * 4;
  const unsigned meta_base = (img_words + kThreads * nd + static_cast<unsigned>(afrag.size())) * 4;
  std::string body;
  auto L = [&](const std::string& s) { emit(body, s); };
  emit_params(body);
  L("mov.u32 %r1, smem;");
  L("mov.u32 %r2, %r0;");
  body += "COPY:\t// the image, word by word (generic-proxy writes)\n";
  L("mul.wide.u32 %rd2, %r2, 4;");
  L("add.s64 %rd3, %rd0, %rd2;");
  L("ld.global.b32 %r3, [%rd3];");
  L("shl.b32 %r4, %r2, 2;");
  L("add.u32 %r4, %r4, %r1;");
  L("st.shared.b32 [%r4], %r3;");
  L("add.u32 %r2, %r2, 128;");
  L("setp.lt.u32 %p0, %r2, " + std::to_string(img_words) + ";");
  L("@%p0 bra COPY;");
  emit_loads(body, dreg, nd, acc_base, f32d ? "f32" : "b32");
  if (c.a_regs) emit_loads(body, "%a", 4, a_base, "b32");
  if (c.sparse) {
    L("mul.wide.u32 %rd2, %r0, 4;");
    L("add.s64 %rd3, %rd0, %rd2;");
    L("ld.global.b32 %r7, [%rd3+" + std::to_string(meta_base) + "];\t// sp-meta");
  }
  L("fence.proxy.async.shared::cta;\t// the image -> wgmma's async-proxy reads (PTX ISA 8.6)");
  L("bar.sync 0;");
  auto desc = [&](const char* reg, const char* tmp, uint32_t off, const Layout& l) {
    L(std::string("add.u32 ") + tmp + ", %r1, " + std::to_string(off + l.kofs) + ";\t// " + l.what + ", LBO " +
      std::to_string(l.lbo) + ", SBO " + std::to_string(l.sbo));
    L(std::string("shr.u32 ") + tmp + ", " + tmp + ", 4;");
    L(std::string("and.b32 ") + tmp + ", " + tmp + ", 16383;");
    L(std::string("cvt.u64.u32 ") + reg + ", " + tmp + ";");
    L(std::string("or.b64 ") + reg + ", " + reg + ", " + hex64(desc_const(l)) + ";");
  };
  if (!c.a_regs) desc("%rd4", "%r5", a_off, la);
  desc("%rd5", "%r6", b_off, lb);
  L(std::string(c.scale_d ? "setp.ne.u32" : "setp.eq.u32") +
    " %p1, %r0, 0xffffffff;\t// scale-d = " + (c.scale_d ? "1" : "0"));
  L("wgmma.fence.sync.aligned;");
  L(mn + " " + ops + ";");
  L("wgmma.commit_group.sync.aligned;");
  L("wgmma.wait_group.sync.aligned 0;");
  emit_stores(body, nd, f32d, dreg, "%rd6");

  std::string decls = "\t.shared .align 1024 .b8 smem[" + std::to_string(img_bytes) +
                      "];\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<" + (c.sparse ? "8" : "7") + ">;\n\t.reg .b64 %rd<7>;\n";
  decls += std::string("\t.reg ") + (f32d ? ".f32 %f<" : ".b32 %d<") + std::to_string(nd) + ">;\n";
  if (c.a_regs) decls += "\t.reg .b32 %a<4>;\n";

  nlohmann::json in_values = nlohmann::json::array();
  for (uint32_t w : image) in_values.push_back(w);
  for (uint32_t w : acc) in_values.push_back(w);
  for (uint32_t w : afrag) in_values.push_back(w);
  for (uint32_t w : meta) in_values.push_back(w);

  // wgmma needs PTX ISA 8.0; mixed .s8/.u8 operands 8.4 (ptxas: "WGMMA with
  // mixed integer types requires PTX ISA .version 8.4").
  // wgmma.mma_async.sp: PTX ISA 8.2.
  const std::string version = c.d == "s32" && c.a != c.b ? "8.4" : c.sparse ? "8.2" : "8.0";
  Kernel k;
  k.sm = 90;
  k.name = t.stem + ".sm_90";
  std::string summary = mn + (c.a_regs ? ", A from registers" : ", A " + la.what) + ", B " + lb.what + ", scale-d " +
                        (c.scale_d ? "1" : "0") + (c.special ? ", inf/NaN/-0 operands" : "") +
                        (c.sparse ? ", sp-sel " + std::to_string(c.sel) : "") +
                        (c.unordered ? ", metadata index pairs in either order" : "");
  k.ptx = std::string("// Generated by ptxcheck-instrgen wgmma") + (c.sparse ? " --sparse" : "") + " (seed " +
          std::to_string(seed) + ", test " + std::to_string(index) + "); do not edit.\n// " + summary + "\n.version " +
          version +
          "\n.target sm_90a\n.address_size 64\n\n.visible .entry instr(\n\t.param .u64 in_ptr,\n\t"
          ".param .u64 out_ptr\n)\n.reqntid 128\n{\n" +
          decls + body + "}\n";
  finish_test(t, std::move(k), c, mn, kThreads, nd, in_values);
  return t;
}

// An mma.sp test: one warp loads its A, B, C and metadata registers from
// `in` (per lane, in that order of regions), issues the instruction and
// stores every D register to its own 64-bit slot of `out`. Variant sm_80
// (f16/bf16/tf32/integer), sm_89 (.e4m3/.e5m2) or sm_120 (.kind::f8f6f4,
// target sm_120a).
Test build_mma_sp(Rng& rng, const Cfg& c, uint64_t seed, unsigned index) {
  const bool ordered = c.ordered, kind = c.kind;
  Test t;
  char stem[64];
  std::snprintf(stem, sizeof stem, "p%llu_%04u", static_cast<unsigned long long>(seed), index);
  t.stem = stem;
  const unsigned na = c.k * in_bits(c.a) / 128, nb = c.k * in_bits(c.b) / 128, nd = c.d == "f16" ? 2 : 4;
  const unsigned sp = c.special ? 160 / c.k : 0;
  std::vector<uint32_t> a = pack(rng, c.a, 32 * na, sp), b = pack(rng, c.b, 32 * nb, sp);
  std::vector<uint32_t> acc(32 * nd);
  for (auto& w : acc) w = accumulator(rng, c);
  std::vector<uint32_t> meta;
  for (unsigned l = 0; l < 32; ++l) meta.push_back(sp_meta_word(rng, c.a == "tf32", c.unordered));

  std::string mn = std::string(ordered ? "mma.sp::ordered_metadata" : "mma.sp") + ".sync.aligned.m16n8k" +
                   std::to_string(c.k) + ".row.col" + (kind ? ".kind::f8f6f4" : "") +
                   (c.satfinite ? ".satfinite" : "") + "." + c.d + "." + c.a + "." + c.b + "." + c.d;
  const bool f32d = c.d == "f32";
  const std::string dreg = f32d ? "%f" : "%d", creg = f32d ? "%g" : "%c";
  auto list = [](const std::string& r, unsigned n) {
    std::string s = "{";
    for (unsigned i = 0; i < n; ++i) s += (i ? ", " : "") + r + std::to_string(i);
    return s + "}";
  };
  const unsigned boff = 32 * na * 4, coff = boff + 32 * nb * 4, eoff = coff + 32 * nd * 4;
  std::string body;
  auto L = [&](const std::string& s) { emit(body, s); };
  emit_params(body);
  emit_loads(body, "%a", na, 0, "b32");
  emit_loads(body, "%b", nb, boff, "b32");
  emit_loads(body, creg, nd, coff, f32d ? "f32" : "b32");
  L("mul.wide.u32 %rd2, %r0, 4;");
  L("add.s64 %rd3, %rd0, %rd2;");
  L("ld.global.b32 %e, [%rd3+" + std::to_string(eoff) + "];\t// metadata");
  L(mn + " " + list(dreg, nd) + ", " + list("%a", na) + ", " + list("%b", nb) + ", " + list(creg, nd) + ", %e, " +
    std::to_string(c.sel) + ";");
  emit_stores(body, nd, f32d, dreg, "%rd4");
  const std::string cd = f32d ? ".f32" : ".b32";
  std::string decls = "\t.reg .b32 %r<1>;\n\t.reg .b64 %rd<5>;\n\t.reg .b32 %a<" + std::to_string(na) +
                      ">;\n\t.reg .b32 %b<" + std::to_string(nb) + ">;\n\t.reg " + cd + " " + creg + "<" +
                      std::to_string(nd) + ">;\n\t.reg " + cd + " " + dreg + "<" + std::to_string(nd) +
                      ">;\n\t.reg .b32 %e;\n";

  nlohmann::json in_values = nlohmann::json::array();
  for (const auto* v : {&a, &b, &acc, &meta})
    for (uint32_t w : *v) in_values.push_back(w);
  // Targets as ptxas 13 accepts them: fp8 needs sm_89, .kind::f8f6f4 sm_120a
  // (PTX ISA 8.8); ::ordered_metadata needs PTX ISA 8.5.
  const bool fp8 = c.a == "e4m3" || c.a == "e5m2";
  Kernel k;
  k.sm = kind ? 120 : fp8 ? 89 : 80;
  k.name = t.stem + ".sm_" + std::to_string(k.sm);
  const std::string target = kind ? "sm_120a" : fp8 ? "sm_89" : "sm_80";
  const std::string summary = mn + ", selector " + std::to_string(c.sel) + (c.special ? ", inf/NaN/-0 operands" : "") +
                              (c.unordered ? ", metadata index pairs in either order" : "");
  k.ptx = "// Generated by ptxcheck-instrgen mma-sp (seed " + std::to_string(seed) + ", test " + std::to_string(index) +
          "); do not edit.\n// " + summary + "\n.version " + (kind ? "8.8" : "8.5") + "\n.target " + target +
          "\n.address_size 64\n\n.visible .entry instr(\n\t.param .u64 in_ptr,\n\t.param .u64 out_ptr\n)\n"
          ".reqntid 32\n{\n" +
          decls + body + "}\n";
  finish_test(t, std::move(k), c, mn, 32, nd, in_values);
  return t;
}

}  // namespace ptxcheck::instrgen::wgmma_detail
