// resolve(): split a mnemonic into opcode, modifiers and types, then ask each
// instruction family in turn. All string work happens here, at decode time.
#include "semantics/arith/resolve.hpp"

#include <array>

#include "semantics/arith/family.hpp"

namespace ptxcheck::arith {
namespace {

struct TyInfo {
  std::string_view name;
  unsigned bits;
};

constexpr std::array kTys = {
#define X(name, bits, kind) TyInfo{#name, bits},
#include "semantics/arith/types.def"
#undef X
};

}  // namespace

unsigned ty_bits(Ty t) { return kTys[static_cast<size_t>(t)].bits; }
std::string_view ty_name(Ty t) { return kTys[static_cast<size_t>(t)].name; }

std::optional<Ty> ty_from_name(std::string_view s) {
  for (size_t i = 0; i < kTys.size(); ++i)
    if (kTys[i].name == s) return static_cast<Ty>(i);
  return std::nullopt;
}

bool Parsed::only(std::initializer_list<std::string_view> allowed, std::string* stray) const {
  for (const auto& m : mods) {
    bool ok = false;
    for (auto a : allowed) ok = ok || a == m;
    if (!ok) {
      *stray = m;
      return false;
    }
  }
  return true;
}

bool float_round(const Parsed& p, Round* rm, bool* present, bool allow_rna) {
  int n = 0;
  *present = false;
  auto take = [&](const char* name, Round r) {
    if (p.has(name)) {
      *rm = r;
      ++n;
    }
  };
  take("rn", Round::rn);
  take("rz", Round::rz);
  take("rm", Round::rm);
  take("rp", Round::rp);
  if (allow_rna) take("rna", Round::rna);
  *present = n == 1;
  return n <= 1;
}

bool int_round(const Parsed& p, Round* rm, bool* present) {
  int n = 0;
  auto take = [&](const char* name, Round r) {
    if (p.has(name)) {
      *rm = r;
      ++n;
    }
  };
  take("rni", Round::rn);
  take("rzi", Round::rz);
  take("rmi", Round::rm);
  take("rpi", Round::rp);
  *present = n == 1;
  return n <= 1;
}

OpDesc make_desc(OpFn fn, uint64_t cfgv, Ty dst, std::initializer_list<Ty> srcs) {
  OpDesc d;
  d.fn = fn;
  d.cfg = cfgv;
  d.dst = dst;
  for (Ty t : srcs) d.src[d.nsrc++] = t;
  return d;
}

Resolved resolve(std::string_view m, const ResolveOptions& opts) {
  Resolved out;
  Parsed p;
  p.opts = opts;
  size_t pos = 0;
  bool first = true;
  while (pos <= m.size()) {
    size_t dot = m.find('.', pos);
    if (dot == std::string_view::npos) dot = m.size();
    std::string_view tok = m.substr(pos, dot - pos);
    if (tok.empty()) {
      out.error = "malformed mnemonic '" + std::string(m) + "'";
      return out;
    }
    if (first) {
      p.op = std::string(tok);
      first = false;
    } else if (auto t = ty_from_name(tok)) {
      p.types.push_back(*t);
    } else {
      p.mods.emplace_back(tok);
    }
    pos = dot + 1;
  }
  using Fam = Res (*)(const Parsed&, OpDesc&, std::string&);
  static constexpr Fam kFams[] = {resolve_int,     resolve_bits, resolve_float,  resolve_approx,
                                  resolve_compare, resolve_cvt,  resolve_video, resolve_video_simd};
  OpDesc d;
  for (Fam f : kFams) {
    std::string err;
    switch (f(p, d, err)) {
      case Res::not_mine: continue;
      case Res::ok: out.desc = d; return out;
      case Res::error:
        out.error = std::string(m) + ": " + err;
        return out;
    }
  }
  out.error = std::string(m) + ": unsupported instruction or type combination";
  return out;
}

}  // namespace ptxcheck::arith

namespace ptxcheck::arith::fast {

Form form_of(const OpDesc& d) {
  for (Form (*family)(const OpDesc&) : {int_fast_form, bits_fast_form, compare_fast_form, float_fast_form, approx_fast_form, cvt_fast_form}) {
    Form f = family(d);
    if (f.op != Op::none) return f;
  }
  return Form{};
}

}  // namespace ptxcheck::arith::fast
