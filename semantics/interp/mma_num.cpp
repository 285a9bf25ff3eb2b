// The numeric policy of mma/wmma (docs/mma.md): every product A[i][k]*B[k][j]
// is exact, the k products and C[i][j] are summed exactly in a wide
// fixed-point accumulator, and the sum is rounded once, to nearest even, to
// the destination type. PTX ISA 9.7.14 leaves the internal precision and
// order of the tensor-core accumulation unspecified; this is the one
// deterministic choice that does not depend on an order.
#include <algorithm>
#include <bit>
#include <cstring>

#include "semantics/arith/softfloat.hpp"
#include "semantics/interp/mma.hpp"

namespace ptxcheck::interp {

namespace {

using arith::Cls;
using arith::Fmt;
using arith::u128;
using arith::Unp;

// Fixed point with 70 64-bit limbs; bit 0 weighs 2^-kBias. Products of two
// f64 (>= 2^-2148) and sums of up to 65 terms below 2^2049 fit, so every
// supported sum is exact. The positive and the negative terms are summed
// apart (no borrow runs up to the top limb) over the limbs they touched,
// [lo_, hi_]; the sum is their difference. reset() clears what add wrote.
class ExactSum {
 public:
  static constexpr int kLimbs = 70, kBias = 2200;
  void add(bool neg, u128 mant, int exp) {  // += (-1)^neg * mant * 2^exp
    int p = exp + kBias;
    unsigned li = static_cast<unsigned>(p) / 64, sh = static_cast<unsigned>(p) % 64;
    uint64_t w[3];
    w[0] = static_cast<uint64_t>(mant << sh);
    w[1] = static_cast<uint64_t>(sh ? mant >> (64 - sh) : mant >> 64);
    w[2] = sh ? static_cast<uint64_t>(mant >> (128 - sh)) : 0;
    uint64_t* L = neg ? n_ : p_;
    uint64_t carry = 0;
    unsigned i = li;
    for (; i < kLimbs; ++i) {
      uint64_t x = i - li < 3 ? w[i - li] : 0;
      if (i - li >= 3 && !carry) break;
      uint64_t s = L[i] + x;
      uint64_t c1 = s < x;
      uint64_t s2 = s + carry;
      carry = c1 | (s2 < s);
      L[i] = s2;
    }
    lo_ = std::min(lo_, static_cast<int>(li));
    hi_ = std::max(hi_, static_cast<int>(i) - 1);
  }
  bool zero() const {
    for (int i = lo_; i <= hi_; ++i)
      if (p_[i] != n_[i]) return false;
    return true;
  }
  void reset() {
    for (int i = lo_; i <= hi_; ++i) p_[i] = n_[i] = 0;
    lo_ = kLimbs;
    hi_ = -1;
  }
  // Rounds the (nonzero) sum to f with .rn: the sign, then the 120 bits
  // from the magnitude's most significant bit down and a sticky bit for the
  // rest.
  uint64_t round(const Fmt& f) {
    int h = hi_;
    while (h > lo_ && p_[h] == n_[h]) --h;
    const bool neg = n_[h] > p_[h];
    const uint64_t *a = neg ? n_ : p_, *b = neg ? p_ : n_;
    uint64_t borrow = 0;
    for (int i = lo_; i <= h; ++i) {  // m_ = |P - N| (a >= b); limbs above h are equal
      uint64_t d = a[i] - b[i];
      uint64_t b1 = a[i] < b[i];
      m_[i] = d - borrow;
      borrow = b1 | (d < borrow);
    }
    while (h > lo_ && !m_[h]) --h;
    const int top = h;
    auto limb = [&](int i) { return i >= lo_ && i <= top ? m_[i] : uint64_t{0}; };
    auto word = [&](int pos) {  // bits pos .. pos + 63 of the magnitude (pos >= 0)
      const int li = pos / 64, sh = pos % 64;
      return sh ? (limb(li) >> sh) | (limb(li + 1) << (64 - sh)) : limb(li);
    };
    const int msb = top * 64 + 63 - std::countl_zero(m_[top]);
    const int lo = msb - 119, from = std::max(lo, 0);
    // Bits above msb are zero: the two words hold exactly bits from .. msb.
    const u128 mant = (static_cast<u128>(word(from + 64)) << 64) | word(from);
    bool sticky = false;
    if (lo > 0) {
      for (int i = 0; i < lo / 64 && !sticky; ++i) sticky = limb(i) != 0;
      if (!sticky && lo % 64) sticky = (limb(lo / 64) & ((uint64_t(1) << (lo % 64)) - 1)) != 0;
    }
    return arith::round_pack(f, neg, from - kBias, mant, sticky, arith::Round::rn, 0);
  }

 private:
  uint64_t p_[kLimbs] = {}, n_[kLimbs] = {}, m_[kLimbs] = {};
  int lo_ = kLimbs, hi_ = -1;
};

const Fmt& fmt_of(MElem e) {
  switch (e) {
    case MElem::f16: return arith::kF16;
    case MElem::bf16: return arith::kBF16;
    case MElem::tf32: return arith::kTF32;  // the low 13 bits of the container are ignored
    case MElem::f64: return arith::kF64;
    case MElem::e4m3: return arith::kE4M3;
    case MElem::e5m2: return arith::kE5M2;
    case MElem::e3m2: return arith::kE3M2;
    case MElem::e2m3: return arith::kE2M3;
    case MElem::e2m1: return arith::kE2M1;
    default: return arith::kF32;
  }
}

// The value bits of an element: .kind::f8f6f4 keeps .e2m1 in bits 5..2 and
// .e3m2/.e2m3 in bits 5..0 of its 8-bit container (PTX ISA 9.7.14.6.3); the
// padding bits are ignored.
uint64_t payload(MElem e, uint64_t v) {
  if (e == MElem::e2m1) return (v >> 2) & 15;
  if (e == MElem::e3m2 || e == MElem::e2m3) return v & 63;
  return v;
}

bool is_int(MElem e) {
  return e == MElem::s8 || e == MElem::u8 || e == MElem::s32 || e == MElem::s4 || e == MElem::u4 || e == MElem::b1;
}

int64_t int_of(MElem e, uint64_t bits) {
  switch (e) {
    case MElem::s8: return static_cast<int8_t>(bits);
    case MElem::u8: return static_cast<uint8_t>(bits);
    case MElem::s4: return static_cast<int64_t>((bits & 15) ^ 8) - 8;
    case MElem::u4: return static_cast<int64_t>(bits & 15);
    case MElem::b1: return static_cast<int64_t>(bits & 1);
    default: return static_cast<int32_t>(bits);
  }
}

}  // namespace

void mma_compute(const MmaShape& s, const uint64_t* A, const uint64_t* B, const uint64_t* C, uint64_t* D) {
  if (is_int(s.a)) {
    // Integer mma (PTX ISA 9.7.14.5.14): exact sum; .satfinite clamps to the
    // s32 range, otherwise the result wraps modulo 2^32. .b1: the number of
    // k with a AND (XOR) b set, plus C.
    // The elements are converted once (B transposed, so that both run along k).
    std::vector<int64_t> ia(s.m * s.k), ib(s.k * s.n);
    for (unsigned i = 0; i < s.m * s.k; ++i) ia[i] = int_of(s.a, A[i]);
    for (unsigned k = 0; k < s.k; ++k)
      for (unsigned j = 0; j < s.n; ++j) ib[j * s.k + k] = int_of(s.b, B[k * s.n + j]);
    for (unsigned i = 0; i < s.m; ++i)
      for (unsigned j = 0; j < s.n; ++j) {
        int64_t acc = s.use_c ? int_of(MElem::s32, C[i * s.n + j]) : 0;
        const int64_t *x = &ia[i * s.k], *y = &ib[j * s.k];
        if (s.bop == 0)
          for (unsigned k = 0; k < s.k; ++k) acc += x[k] * y[k];
        else
          for (unsigned k = 0; k < s.k; ++k) acc += s.bop == 1 ? (x[k] & y[k]) : (x[k] ^ y[k]);
        if (s.satfinite) acc = std::min<int64_t>(INT32_MAX, std::max<int64_t>(INT32_MIN, acc));
        D[i * s.n + j] = static_cast<uint32_t>(acc);
      }
    return;
  }
  const Fmt &fa = fmt_of(s.a), &fb = fmt_of(s.b), &fc = fmt_of(s.c), &fd = fmt_of(s.d);
  std::vector<Unp> ua(s.m * s.k), ub(s.k * s.n);
  for (size_t i = 0; i < ua.size(); ++i) ua[i] = arith::unpack(fa, payload(s.a, A[i]), false);
  for (size_t i = 0; i < ub.size(); ++i) ub[i] = arith::unpack(fb, payload(s.b, B[i]), false);
  ExactSum acc;
  for (unsigned i = 0; i < s.m; ++i)
    for (unsigned j = 0; j < s.n; ++j) {
      acc.reset();
      bool nan = false, pinf = false, ninf = false, all_negzero = true;
      auto term = [&](const Unp& v) {
        if (v.cls == Cls::nan) nan = true;
        else if (v.cls == Cls::inf) (v.sign ? ninf : pinf) = true;
        else if (v.cls == Cls::finite) acc.add(v.sign, v.mant, v.exp);
        if (!(v.cls == Cls::zero && v.sign)) all_negzero = false;
      };
      for (unsigned k = 0; k < s.k; ++k) {
        const Unp &x = ua[i * s.k + k], &y = ub[k * s.n + j];
        if (x.cls == Cls::nan || y.cls == Cls::nan) {
          nan = true;
        } else if (x.cls == Cls::inf || y.cls == Cls::inf) {
          if (x.cls == Cls::zero || y.cls == Cls::zero) nan = true;  // inf * 0
          else term({Cls::inf, x.sign != y.sign, 0, 0});
        } else if (x.cls == Cls::zero || y.cls == Cls::zero) {
          term({Cls::zero, x.sign != y.sign, 0, 0});
        } else {
          term({Cls::finite, x.sign != y.sign, x.exp + y.exp, x.mant * y.mant});
        }
      }
      if (s.use_c) term(arith::unpack(fc, C[i * s.n + j], false));
      uint64_t r;
      if (nan || (pinf && ninf)) r = arith::canonical_nan(fd);
      else if (pinf || ninf) r = arith::inf_bits(fd, ninf);
      else if (acc.zero()) r = arith::zero_bits(fd, all_negzero);
      else r = acc.round(fd);
      D[i * s.n + j] = r;
    }
}

// Sparse A (PTX ISA 9.7.14.6.1, 9.7.15.6.1): row r of the logical A has
// K/cw chunks of cw elements (sp_chunk) holding cw/2 stored elements each,
// at the positions the chunk's metadata index gives (sp_decode; for 4:8
// pair-wise sparsity the indices name 2-element sub-chunks); the lane and
// bits of the index are sp_meta_pos's. D[r][j] sums the products of the
// stored elements with the B rows they face, plus C: the pruned positions
// are structural zeros that contribute no term (docs/mma.md, "Sparse
// wgmma"). A chunk with an undefined index contributes nothing (A and B
// +0 in its place).
bool mma_sp_compute(const MmaShape& s, unsigned sel, bool ordered, const uint32_t* meta, const uint64_t* A,
                    const uint64_t* B, const uint64_t* C, uint64_t* D, SpBad* bad) {
  const unsigned bits = melem_bits(s.a), cw = sp_chunk(bits), per = cw / 2, sub = bits == 4 ? 2 : 1;
  const unsigned K = s.k, KA = K / 2, N = s.n;
  std::vector<uint64_t> Ar(KA), Br(KA * N), Cr(N), Dr(N);
  MmaShape row = s;
  row.m = 1, row.k = KA;
  bool good = true;
  for (unsigned r = 0; r < s.m; ++r) {
    for (unsigned q = 0; q < K / cw; ++q) {
      const SpMetaPos mp = sp_meta_pos(bits, K, sel, r % 16, q);
      const unsigned th = 32 * (r / 16) + mp.lane, nib = (meta[th] >> mp.bit) & 15;
      unsigned pos[2] = {0, 0};
      const bool ok = sp_decode(bits, nib, ordered, pos);
      if (!ok && good) {
        good = false;
        if (bad) *bad = {r, q * cw, cw, th, mp.bit, nib};
      }
      for (unsigned j = 0; j < per; ++j) {
        const unsigned kc = q * per + j, kl = q * cw + sub * pos[j / sub] + j % sub;
        Ar[kc] = ok ? A[r * KA + kc] : 0;
        for (unsigned n = 0; n < N; ++n) Br[kc * N + n] = ok ? B[kl * N + n] : 0;
      }
    }
    for (unsigned n = 0; n < N; ++n) Cr[n] = C[r * N + n];
    mma_compute(row, Ar.data(), Br.data(), Cr.data(), Dr.data());
    for (unsigned n = 0; n < N; ++n) D[r * N + n] = Dr[n];
  }
  return good;
}

}  // namespace ptxcheck::interp
