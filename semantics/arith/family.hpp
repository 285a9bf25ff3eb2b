// Internal: a parsed mnemonic and the per-family resolvers behind resolve().
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "semantics/arith/fast.hpp"
#include "semantics/arith/resolve.hpp"
#include "semantics/arith/softfloat.hpp"

namespace ptxcheck::arith {

struct Parsed {
  std::string op;
  std::vector<std::string> mods;  // non-type modifiers, in source order
  std::vector<Ty> types;          // type suffixes, in source order
  ResolveOptions opts;
  bool has(std::string_view m) const {
    for (const auto& x : mods)
      if (x == m) return true;
    return false;
  }
  // Every modifier is one of `allowed`; otherwise names the first stray one.
  bool only(std::initializer_list<std::string_view> allowed, std::string* stray) const;
};

enum class Res { not_mine, ok, error };

// cfg layout shared by the float families.
namespace cfg {
inline constexpr uint32_t kRoundMask = 7;  // Round value
inline constexpr uint32_t kFtz = 1u << 3;
inline constexpr uint32_t kSat = 1u << 4;
inline constexpr uint32_t kRelu = 1u << 5;
inline constexpr uint32_t kNaN = 1u << 6;
inline constexpr uint32_t kXorsign = 1u << 7;
inline constexpr uint32_t kSatFin = 1u << 8;
inline constexpr uint32_t kSubShift = 16;  // family-specific sub-operation
inline Round round(uint32_t c) { return static_cast<Round>(c & kRoundMask); }
inline uint32_t sub(uint32_t c) { return c >> kSubShift; }
}  // namespace cfg

// Parses the rounding modifier among mods: .rn .rz .rm .rp (.rna when
// allow_rna). Returns false if there are two. *present says if one was found.
bool float_round(const Parsed& p, Round* rm, bool* present, bool allow_rna = false);
bool int_round(const Parsed& p, Round* rm, bool* present);  // .rni .rzi .rmi .rpi

OpDesc make_desc(OpFn fn, uint64_t cfgv, Ty dst, std::initializer_list<Ty> srcs);

Res resolve_int(const Parsed& p, OpDesc& d, std::string& err);
Res resolve_bits(const Parsed& p, OpDesc& d, std::string& err);
Res resolve_float(const Parsed& p, OpDesc& d, std::string& err);
Res resolve_approx(const Parsed& p, OpDesc& d, std::string& err);
Res resolve_compare(const Parsed& p, OpDesc& d, std::string& err);
Res resolve_cvt(const Parsed& p, OpDesc& d, std::string& err);
// cvt with e2m1x2/e2m3x2/e3m2x2/ue8m0x2 operands or .rs (cvt_narrow.cpp).
Res resolve_cvt_narrow(const Parsed& p, OpDesc& d, std::string& err);
Res resolve_video(const Parsed& p, OpDesc& d, std::string& err);
Res resolve_video_simd(const Parsed& p, OpDesc& d, std::string& err);

// Sub-operations of the IEEE float family (cfg::sub of float_ops kernels).
enum FOp : uint32_t { o_add, o_sub, o_mul, o_fma, o_div, o_rcp, o_sqrt, o_abs, o_neg, o_min, o_max,
                      o_copysign, o_testp };

// The inline forms of fast.hpp, by family (form_of in resolve.cpp asks each).
fast::Form int_fast_form(const OpDesc& d);
fast::Form bits_fast_form(const OpDesc& d);
fast::Form compare_fast_form(const OpDesc& d);
fast::Form float_fast_form(const OpDesc& d);
fast::Form cvt_fast_form(const OpDesc& d);     // cvt.cpp: integer to integer without .sat
fast::Form approx_fast_form(const OpDesc& d);  // approx.cpp: div.approx.f32 on the host FPU

// Host-FPU fast path for .rn f32/f64 arithmetic (host_fast.cpp): the kernel
// for sub-operation `sub` (float_ops.cpp numbering) or nullptr when the host
// cannot be trusted or the operation has no fast form.
OpFn host_rn_kernel(Ty t, uint32_t sub);
// .rz/.rm/.rp f64 add/sub/mul/div on the host FPU (host_fast.cpp), with
// soft_f64_arith (float_ops.cpp, the software kernel) where the host's
// error terms are not exact; nullptr when the host cannot be trusted.
OpFn host_dir_kernel(Ty t, uint32_t sub);
uint64_t soft_f64_arith(const uint64_t* s, uint64_t* aux, uint64_t c);
// The same for f16/bf16/f16x2/bf16x2 add/sub/mul/fma (half_fast.cpp).
OpFn host_half_kernel(Ty t, uint32_t sub);

// Shared float helpers (float_ops.cpp).
// Finishes a float result: canonical NaN, rounding with .ftz, then .sat
// ([0,1], NaN -> +0, PTX ISA 9.7.3.3 add) or .relu (negative -> +0, NaN ->
// canonical NaN, PTX ISA 9.7.4.4 fma, 9.7.9.21 cvt).
uint64_t finish(const Fmt& f, const Unp& r, uint32_t c);
uint64_t sat01(const Fmt& f, uint64_t bits);
// Orderable key of a float bit pattern: -0 < +0, NaN excluded by the caller.
int64_t order_key(const Fmt& f, uint64_t bits);
bool is_nan_bits(const Fmt& f, uint64_t bits);

}  // namespace ptxcheck::arith
