// Candidate spellings (PTX ISA 9.7.1-9.7.10: arithmetic, comparison,
// logic, data movement and conversion) and their
// operand types from the arithmetic layer; legality from legal.inc.
#include "hw/instr/forms.hpp"

#include <string_view>
#include <unordered_map>

#include "semantics/arith/resolve.hpp"

namespace ptxcheck::instrgen {
namespace {

using Strs = std::vector<std::string>;

const Strs kInt = {"s16", "u16", "s32", "u32", "s64", "u64"};
const Strs kRnd = {"rn", "rz", "rm", "rp"};
const Strs kIRnd = {"rni", "rzi", "rmi", "rpi"};
const Strs kFCmp = {"eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
const Strs kSCmp = {"eq", "ne", "lt", "le", "gt", "ge"};
const Strs kUCmp = {"eq", "ne", "lo", "ls", "hi", "hs", "lt", "ge"};
const Strs kTestp = {"finite", "infinite", "number", "notanumber", "normal", "subnormal"};

bool is_signed(const std::string& t) { return t[0] == 's'; }
bool is_float(const std::string& t) { return t[0] == 'f' || (t[0] == 'b' && t[1] == 'f'); }
unsigned bits_of(const std::string& t) { return t == "bf16" ? 16 : static_cast<unsigned>(std::stoul(t.substr(1))); }

// `base` + every combination of the optional parts (in order) + `.ty`.
void combos(Strs& out, const std::string& base, const std::vector<Strs>& parts, const std::string& ty,
            size_t k = 0, const std::string& acc = "") {
  if (k == parts.size()) {
    out.push_back(base + acc + "." + ty);
    return;
  }
  for (const auto& p : parts[k]) combos(out, base, parts, ty, k + 1, p.empty() ? acc : acc + "." + p);
}

void integer_forms(Strs& c) {
  for (const auto& t : kInt) {
    for (const char* op : {"add", "sub", "mul.lo", "mul.hi", "mad.lo", "mad.hi", "div", "rem", "min", "max", "sad"})
      c.push_back(std::string(op) + "." + t);
    if (bits_of(t) < 64) c.insert(c.end(), {"mul.wide." + t, "mad.wide." + t});
    if (is_signed(t)) c.insert(c.end(), {"abs." + t, "neg." + t});
    for (const auto& cmp : is_signed(t) ? kSCmp : kUCmp) c.push_back("setp." + cmp + "." + t);
    c.push_back("selp." + t);
    c.push_back("shr." + t);
  }
  c.insert(c.end(), {"add.sat.s32", "sub.sat.s32", "mad.hi.sat.s32", "mul24.lo.s32", "mul24.hi.s32",
                     "mul24.lo.u32", "mul24.hi.u32", "mad24.lo.s32", "mad24.hi.s32", "mad24.lo.u32",
                     "mad24.hi.u32", "mad24.hi.sat.s32", "min.relu.s32", "max.relu.s32", "min.s16x2",
                     "max.u16x2", "min.relu.s16x2", "setp.lt.and.s32", "setp.ne.or.u64", "setp.ge.xor.s16"});
  for (const char* b : {"b16", "b32", "b64"})
    for (const char* op : {"and", "or", "xor", "not", "cnot", "shl", "shr", "selp"})
      c.push_back(std::string(op) + "." + b);
  for (const char* op : {"and", "or", "xor", "not"}) c.push_back(std::string(op) + ".pred");
  for (const char* b : {"b32", "b64"})
    for (const char* op : {"popc", "clz", "brev", "bfi"}) c.push_back(std::string(op) + "." + b);
  for (const char* t : {"s32", "u32", "s64", "u64"})
    c.insert(c.end(), {std::string("bfind.") + t, std::string("bfind.shiftamt.") + t, std::string("bfe.") + t});
  for (const char* lr : {"l", "r"})
    for (const char* m : {"clamp", "wrap"}) c.push_back(std::string("shf.") + lr + "." + m + ".b32");
  for (const char* m : {"", ".f4e", ".b4e", ".rc8", ".ecl", ".ecr", ".rc16"}) c.push_back(std::string("prmt.b32") + m);
  c.push_back("lop3.b32");
  for (const char* a : {"u32", "s32"})
    for (const char* b : {"u32", "s32"}) {
      c.push_back(std::string("dp4a.") + a + "." + b);
      for (const char* h : {"lo", "hi"}) c.push_back(std::string("dp2a.") + h + "." + a + "." + b);
    }
  for (const char* m : {"clamp", "wrap"}) {
    c.push_back(std::string("bmsk.") + m + ".b32");
    c.push_back(std::string("szext.") + m + ".s32");
    c.push_back(std::string("szext.") + m + ".u32");
  }
}

void float_forms(Strs& c) {
  const Strs opt_rnd = {"", "rn", "rz", "rm", "rp"}, ftz = {"", "ftz"}, sat = {"", "sat"};
  for (const char* op : {"add", "sub", "mul"}) {
    combos(c, op, {opt_rnd, ftz, sat}, "f32");
    combos(c, op, {opt_rnd}, "f64");
  }
  combos(c, "fma", {kRnd, ftz, sat}, "f32");
  combos(c, "mad", {kRnd, ftz, sat}, "f32");
  combos(c, "fma", {kRnd}, "f64");
  combos(c, "div", {kRnd, ftz}, "f32");
  combos(c, "div", {{"approx", "full"}, ftz}, "f32");
  combos(c, "div", {kRnd}, "f64");
  for (const char* op : {"rcp", "sqrt"}) {
    combos(c, op, {kRnd, ftz}, "f32");
    combos(c, op, {{"approx"}, ftz}, "f32");
    combos(c, op, {kRnd}, "f64");
  }
  c.insert(c.end(), {"rcp.approx.ftz.f64", "rsqrt.approx.f64", "rsqrt.approx.ftz.f64", "tanh.approx.f32"});
  for (const char* op : {"rsqrt", "sin", "cos", "lg2", "ex2"}) combos(c, op, {{"approx"}, ftz}, "f32");
  for (const char* op : {"abs", "neg"}) {
    combos(c, op, {ftz}, "f32");
    c.push_back(std::string(op) + ".f64");
  }
  for (const char* op : {"min", "max"}) {
    combos(c, op, {ftz, {"", "NaN"}}, "f32");
    c.push_back(std::string(op) + ".xorsign.abs.f32");
    c.push_back(std::string(op) + ".f64");
  }
  for (const char* t : {"f32", "f64"}) {
    c.push_back(std::string("copysign.") + t);
    c.push_back(std::string("selp.") + t);
    for (const auto& m : kTestp) c.push_back("testp." + m + "." + t);
    for (const auto& cmp : kFCmp) c.push_back("setp." + cmp + "." + t);
  }
  for (const auto& cmp : kFCmp) c.push_back("setp." + cmp + ".ftz.f32");
  c.insert(c.end(), {"setp.lt.and.ftz.f32", "setp.equ.or.f64", "setp.gt.xor.f32"});
}

void half_forms(Strs& c) {
  const Strs ftz = {"", "ftz"}, sat = {"", "sat"}, rn = {"", "rn"};
  for (const char* t : {"f16", "f16x2"}) {
    for (const char* op : {"add", "sub", "mul"}) combos(c, op, {rn, ftz, sat}, t);
    combos(c, "fma.rn", {ftz, sat}, t);
    combos(c, "fma.rn", {ftz, {"relu"}}, t);
    combos(c, "neg", {ftz}, t);
    combos(c, "abs", {ftz}, t);
    for (const char* op : {"min", "max"}) {
      combos(c, op, {ftz, {"", "NaN"}}, t);
      c.push_back(std::string(op) + ".xorsign.abs." + t);
    }
    combos(c, "ex2.approx", {ftz}, t);
    c.push_back(std::string("tanh.approx.") + t);
  }
  for (const auto& cmp : kFCmp) {
    c.push_back("setp." + cmp + ".f16");
    c.push_back("setp." + cmp + ".ftz.f16");
    c.push_back("setp." + cmp + ".bf16");
  }
  for (const char* t : {"bf16", "bf16x2"}) {
    for (const char* op : {"add", "sub", "mul"}) combos(c, op, {rn}, t);
    combos(c, "fma.rn", {{"", "relu"}}, t);
    c.push_back(std::string("neg.") + t);
    c.push_back(std::string("abs.") + t);
    for (const char* op : {"min", "max"}) {
      combos(c, op, {{"", "NaN"}}, t);
      c.push_back(std::string(op) + ".xorsign.abs." + t);
    }
    c.push_back(std::string("ex2.approx.ftz.") + t);
    c.push_back(std::string("tanh.approx.") + t);
  }
}

void cvt_forms(Strs& c) {
  const Strs all = {"s16", "u16", "s32", "u32", "s64", "u64", "f16", "bf16", "f32", "f64"};
  const Strs ftz = {"", "ftz"}, sat = {"", "sat"};
  for (const auto& d : all)
    for (const auto& s : all) {
      const std::string ty = d + "." + s;
      const bool fd = is_float(d), fs = is_float(s);
      const Strs f = s == "f32" || d == "f32" ? ftz : Strs{""};
      if (!fd && !fs) {
        combos(c, "cvt", {sat}, ty);
      } else if (fd && !fs) {
        combos(c, "cvt", {kRnd, sat}, ty);
      } else if (!fd && fs) {
        combos(c, "cvt", {kIRnd, f, sat}, ty);
      } else if (d == s) {
        combos(c, "cvt", {kIRnd, f, sat}, ty);
        combos(c, "cvt", {f, {"sat"}}, ty);
      } else if (bits_of(d) < bits_of(s) || bits_of(d) == bits_of(s)) {
        combos(c, "cvt", {kRnd, f, sat}, ty);
        combos(c, "cvt", {{"rn"}, {"relu"}}, ty);
      } else {
        combos(c, "cvt", {f, sat}, ty);
      }
    }
  combos(c, "cvt.rn", {{"", "relu"}, {"", "satfinite"}}, "f16x2.f32");
  combos(c, "cvt", {{"rn", "rz"}, {"", "relu"}, {"", "satfinite"}}, "bf16x2.f32");
  combos(c, "cvt", {{"rna", "rn", "rz"}, {"", "satfinite"}}, "tf32.f32");
}

// PTX_LEGAL(mnemonic, mask) lines written by `ptxcheck-instrgen probe`.
const std::unordered_map<std::string_view, unsigned>& legal_table() {
  static const std::unordered_map<std::string_view, unsigned> t = {
#define PTX_LEGAL(mn, mask) {mn, mask},
#include "hw/instr/legal.inc"
#undef PTX_LEGAL
  };
  return t;
}

}  // namespace

char reg_class(unsigned bits) { return bits == 1 ? 'p' : bits <= 16 ? 'h' : bits <= 32 ? 'r' : 'd'; }
unsigned class_bits(char cls) { return cls == 'p' ? 1 : cls == 'h' ? 16 : cls == 'r' ? 32 : 64; }

std::vector<std::string> candidates() {
  Strs c;
  integer_forms(c);
  float_forms(c);
  half_forms(c);
  cvt_forms(c);
  return c;
}

bool make_form(const std::string& mn, Form& f) {
  auto r = arith::resolve(mn);
  if (!r) return false;
  const arith::OpDesc& d = *r.desc;
  auto opnd = [](arith::Ty t) {
    Operand o;
    o.ty = std::string(arith::ty_name(t));
    unsigned b = arith::ty_bits(t);
    if (b == 8) b = 16;  // 8-bit values live in 16-bit registers
    o.cls = reg_class(b);
    return o;
  };
  f = Form{};
  f.mnemonic = mn;
  f.family = mn.substr(0, mn.find('.'));
  f.dst = opnd(d.dst);
  if (d.aux_out) return false;  // carry chains and p|q pairs are not generated
  for (unsigned k = 0; k < d.nsrc; ++k) f.srcs.push_back(opnd(d.src[k]));
  if (f.family == "lop3") {
    if (f.srcs.size() != 4) return false;
    f.srcs[3].imm_max = 255;  // immLut
  }
  f.approx = d.bound.kind != arith::ErrBound::exact;
  f.nonzero_divisor = (f.family == "div" || f.family == "rem") && f.dst.ty[0] != 'f';
  return true;
}

unsigned legal_mask(const std::string& mn) {
  auto it = legal_table().find(mn);
  return it == legal_table().end() ? 0 : it->second;
}

const std::vector<Form>& forms() {
  static const std::vector<Form> all = [] {
    std::vector<Form> out;
    for (const auto& mn : candidates()) {
      Form f;
      unsigned m = legal_mask(mn);
      if (m && make_form(mn, f)) {
        f.sm_mask = m;
        out.push_back(std::move(f));
      }
    }
    return out;
  }();
  return all;
}

}  // namespace ptxcheck::instrgen
