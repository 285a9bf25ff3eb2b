// Execution of IrOp::Tex (texture.hpp): tex, tld4, txq (PTX ISA 9.7.10.3-5)
// and suld, sust, suq (9.7.11.1, 9.7.11.2, 9.7.11.4), lane by lane. Texel
// and surface accesses are global-memory accesses of the thread (bounds,
// uninitialised reads and race detection as for ld/st).
#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>

#include "semantics/interp/exec_util.hpp"
#include "semantics/interp/machine_state.hpp"
#include "semantics/interp/texture.hpp"

namespace ptxcheck::interp {
namespace {

// binary32 bits to binary16 bits, rounding to nearest even (overflow to
// infinity, NaN kept quiet).
uint16_t f32_to_f16_rn(uint32_t f) {
  const uint32_t sign = (f >> 16) & 0x8000u;
  const uint32_t e = (f >> 23) & 0xffu, m = f & 0x7fffffu;
  if (e == 0xff) return static_cast<uint16_t>(sign | 0x7c00u | (m ? 0x200u | (m >> 13) : 0u));
  const int exp = static_cast<int>(e) - 127 + 15;
  if (exp >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
  uint32_t mant = m | (e ? 0x800000u : 0u);
  int shift = exp >= 1 ? 13 : 14 - exp;  // subnormal halves shift further
  if (e == 0) return static_cast<uint16_t>(sign);  // binary32 subnormals are below half's range
  if (shift > 24) return static_cast<uint16_t>(sign);
  uint32_t q = mant >> shift, rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
  if (rem > half || (rem == half && (q & 1))) ++q;
  // exp >= 1: q holds the implicit bit at 1 << 10; its carry bumps the exponent.
  uint32_t h = exp >= 1 ? (static_cast<uint32_t>(exp) << 10) + (q - 0x400u) : q;
  return static_cast<uint16_t>(sign | h);
}

}  // namespace

void Machine::exec_tex(Warp& w, const Inst& in, uint32_t m) {
  Cta& c = *w.cta;
  Thread* T = &c.threads[w.first];
  const TexSite& s = *prog.tex[in.target];
  // Once per instruction, not per lane: the texel reader (one pointer to
  // the lane's thread captured, so std::function stores it without an
  // allocation), the object of the previous lane's handle (lanes usually
  // share one), the copy of an object with an explicit sampler's state.
  Thread* tp = nullptr;
  struct Ctx {
    Machine* m;
    Warp* w;
    const Inst* in;
    Thread** tp;
  } ctx{this, &w, &in, &tp};
  const Ctx* cp = &ctx;
  const TexReader rd = [cp](uint64_t a, unsigned n, uint8_t* out) {
    Where wh;
    if (!cp->m->access(*cp->w, **cp->tp, *cp->in, Space::Global, a, n, false, false, wh)) return false;
    std::memcpy(out, &wh.region->bytes[wh.off], n);
    return true;
  };
  uint64_t last_h = 0;
  const TexDesc* last_d = nullptr;
  TexDesc with_smp;
  for (uint32_t b = m; b; b &= b - 1) {
    const uint32_t l = static_cast<uint32_t>(std::countr_zero(b));
    Thread& t = T[l];
    tp = &t;
    const uint64_t h = get(s.handle, t, l, w);
    const TexDesc* d = nullptr;
    if (last_d && h == last_h) {
      d = last_d;
    } else if (textures_) {
      if (auto it = textures_->find(h); it != textures_->end()) d = &it->second;
      last_h = h;
      last_d = d;
    }
    if (s.kind == TexSite::Istypep) {
      const bool r = d && (s.istype == 0 ? !d->surface && !d->sampler : s.istype == 1 ? d->sampler : d->surface);
      put(t, s.vals[0], r, 1);
      continue;
    }
    const bool surf_op = s.kind == TexSite::Suld || s.kind == TexSite::Sust || s.kind == TexSite::Sured ||
                         s.kind == TexSite::Suq;
    // txq's sampler queries may name a .samplerref (9.7.10.5).
    const bool sampler_ok = s.kind == TexSite::Txq && d && d->sampler;
    if (!d || (!sampler_ok && (d->surface != surf_op || d->sampler))) {
      char buf[120];
      std::snprintf(buf, sizeof buf, "%s object 0x%llx is not a live %s object", surf_op ? "surface" : "texture",
                    static_cast<unsigned long long>(h), surf_op ? "surface" : "texture");
      diag(DiagKind::Texture, true, c, t, in, buf);
      stop_ = true;
      return;
    }
    if (s.kind == TexSite::Txq || s.kind == TexSite::Suq) {
      // txq.level: the queried level (an out-of-range one reads 0).
      const int64_t level = s.mip == TexSite::Level ? std::max<int64_t>(0, static_cast<int32_t>(get(s.lod, t, l, w)))
                                                     : -1;
      put(t, s.vals[0], tex_query(*d, static_cast<TexQuery>(s.query), level), 32);
      continue;
    }
    uint32_t co[4] = {};
    for (size_t k = 0; k < s.coords.size() && k < 4; ++k) co[k] = static_cast<uint32_t>(get(s.coords[k], t, l, w));
    if (s.kind == TexSite::Tex || s.kind == TexSite::Tld4) {
      if (s.sampler.kind != Opnd::None) {  // [a, b, c]: b's sampler state (independent mode)
        const uint64_t sh = get(s.sampler, t, l, w);
        auto it = textures_->find(sh);
        if (it == textures_->end() || !it->second.sampler) {
          char buf[120];
          std::snprintf(buf, sizeof buf, "sampler 0x%llx is not a bound .samplerref", static_cast<unsigned long long>(sh));
          diag(DiagKind::Texture, true, c, t, in, buf);
          stop_ = true;
          return;
        }
        with_smp = tex_with_sampler(*d, it->second);
        d = &with_smp;
      }
      TexArgs args;
      if (s.mip == TexSite::Level) args.lod = static_cast<uint32_t>(get(s.lod, t, l, w));
      for (size_t k = 0; k < s.dpdx.size() && k < 3; ++k) {
        args.dpdx[k] = std::bit_cast<float>(static_cast<uint32_t>(get(s.dpdx[k], t, l, w)));
        args.dpdy[k] = std::bit_cast<float>(static_cast<uint32_t>(get(s.dpdy[k], t, l, w)));
      }
      for (size_t k = 0; k < s.offset.size() && k < 3; ++k) {
        args.offset[k] = static_cast<int32_t>(get(s.offset[k], t, l, w));
        if (args.offset[k] < -8 || args.offset[k] > 7) {  // 9.7.10.3: "Offset value is in the range of -8 to +7"
          diag(DiagKind::Texture, true, c, t, in,
               "texel offset " + std::to_string(args.offset[k]) + " is outside -8..+7 (PTX ISA 9.7.10.3 tex)");
          stop_ = true;
          return;
        }
      }
      uint32_t r[4];
      std::string why;
      if (!tex_sample(*d, s, co, rd, r, why, args)) {
        if (!stop_) diag(DiagKind::Texture, true, c, t, in, why);
        stop_ = true;
        return;
      }
      if (s.half == 1) {  // .v4.f16: each channel rounded to nearest even half
        for (unsigned k = 0; k < 4; ++k) put(t, s.vals[k], f32_to_f16_rn(r[k]), 16);
      } else if (s.half == 2) {  // .v2.f16x2: {r, g} and {b, a}, the first in the low half
        for (unsigned k = 0; k < 2; ++k)
          put(t, s.vals[k], f32_to_f16_rn(r[2 * k]) | uint32_t{f32_to_f16_rn(r[2 * k + 1])} << 16, 32);
      } else {
        for (unsigned k = 0; k < 4; ++k) put(t, s.vals[k], r[k], 32);
      }
      continue;
    }
    // suld.b / sust.b: x in bytes, y and z in elements (rows, slices);
    // a1d/a2d: the layer first (PTX ISA 9.7.11.1).
    const bool layered_geom = s.geom == TexSite::A1d || s.geom == TexSite::A2d;
    const uint32_t* xyz = layered_geom ? co + 1 : co;
    const unsigned naxes = s.geom == TexSite::G1d || s.geom == TexSite::A1d ? 1 : s.geom == TexSite::G3d ? 3 : 2;
    if (layered_geom != d->layered || naxes != d->dims) {
      diag(DiagKind::Texture, true, c, t, in, "the surface object's geometry does not match the instruction's");
      stop_ = true;
      return;
    }
    // sust.p: one texel; sured: one .ctype value; suld.b/sust.b: the vector.
    const unsigned bytes = s.kind == TexSite::Sust && s.formatted ? static_cast<unsigned>(d->elem_bytes())
                                                                   : static_cast<unsigned>(s.vals.size()) * s.elem_bits / 8;
    int64_t x = static_cast<int32_t>(xyz[0]);
    // .p: "the lowest dimension coordinate represents a sample offset rather
    // than a byte offset" (sust.p: a texel; sured.p: "scaled by the
    // data-size given by .ctype").
    if (s.formatted) x *= bytes;
    int64_t y = naxes > 1 ? static_cast<int32_t>(xyz[1]) : 0, z = naxes > 2 ? static_cast<int32_t>(xyz[2]) : 0;
    const int64_t row = static_cast<int64_t>(d->width * d->elem_bytes());
    const int64_t hgt = static_cast<int64_t>(d->height), dep = static_cast<int64_t>(d->layered ? 1 : d->depth);
    uint64_t layer = layered_geom ? co[0] : 0;
    bool out_of_range = x < 0 || x + bytes > row || y < 0 || y >= hgt || z < 0 || z >= dep ||
                        (layered_geom && layer >= d->depth);
    if (out_of_range) {
      if (s.clamp == 0) {  // .trap: "causes an execution trap on out-of-bounds addresses"
        char buf[160];
        std::snprintf(buf, sizeof buf, "%s.trap out of range: x = %lld bytes, y = %lld, z = %lld on a %llux%llux%llu surface",
                      s.kind == TexSite::Suld ? "suld" : s.kind == TexSite::Sured ? "sured" : "sust",
                      static_cast<long long>(x), static_cast<long long>(y),
                      static_cast<long long>(z), static_cast<unsigned long long>(d->width),
                      static_cast<unsigned long long>(d->height), static_cast<unsigned long long>(d->depth));
        diag(DiagKind::OutOfBounds, true, c, t, in, buf);
        stop_ = true;
        return;
      }
      if (s.clamp == 2) {  // .zero: loads return zero, stores are ignored
        if (s.kind == TexSite::Suld)
          for (const auto& v : s.vals) put(t, v, 0, s.elem_bits == 64 ? 64 : 32);
        continue;
      }
      // .clamp: the nearest surface location.
      x = std::clamp<int64_t>(x, 0, row - bytes) / bytes * bytes;
      y = std::clamp<int64_t>(y, 0, hgt - 1);
      z = std::clamp<int64_t>(z, 0, dep - 1);
      layer = std::min<uint64_t>(layer, d->depth - 1);
    }
    const uint64_t a = d->addr + static_cast<uint64_t>(x) + static_cast<uint64_t>(y) * d->pitch +
                       (static_cast<uint64_t>(z) + layer) * d->slice;
    if (s.kind == TexSite::Sust && s.formatted && s.vals.size() < d->channels) {
      // 9.7.11.2: "Surface sample components that do not occur in the source
      // vector will be written with an unpredictable value."
      diag(DiagKind::Texture, true, c, t, in,
           "sust.p writes " + std::to_string(s.vals.size()) + " components to a " + std::to_string(d->channels) +
               "-channel surface: the others would get unpredictable values (PTX ISA 9.7.11.2)");
      stop_ = true;
      return;
    }
    if (s.kind == TexSite::Sured && s.formatted && d->kind == ChanKind::Float) {
      diag(DiagKind::Texture, true, c, t, in,
           "sured.p on a float surface: the ISA defines it for UINT and SINT formats only (PTX ISA 9.7.11.3)");
      stop_ = true;
      return;
    }
    Where wh;
    if (!access(w, t, in, Space::Global, a, bytes, s.kind != TexSite::Suld, s.kind == TexSite::Sured, wh)) return;
    if (s.kind == TexSite::Sured) {
      // One atomic read-modify-write of the .ctype value (9.7.11.3); .p reads
      // .b32/.b64 as signed when the surface holds SINT data.
      uint8_t* p = &wh.region->bytes[wh.off];
      const bool sgn = s.formatted ? d->kind == ChanKind::Signed : s.red_signed;
      uint64_t old_v = load_n(p, bytes), v = get(s.vals[0], t, l, w);
      if (bytes == 4) v &= 0xffffffffull;
      auto as_signed = [&](uint64_t u) {
        return bytes == 4 ? static_cast<int64_t>(static_cast<int32_t>(u)) : static_cast<int64_t>(u);
      };
      uint64_t r = old_v;
      switch (s.red_op) {
        case TexSite::RAdd: r = old_v + v; break;
        case TexSite::RMin: r = sgn ? (as_signed(v) < as_signed(old_v) ? v : old_v) : std::min(v, old_v); break;
        case TexSite::RMax: r = sgn ? (as_signed(v) > as_signed(old_v) ? v : old_v) : std::max(v, old_v); break;
        case TexSite::RAnd: r = old_v & v; break;
        case TexSite::ROr: r = old_v | v; break;
      }
      store_n(p, r, bytes);
      wh.region->mark_init(wh.off, bytes);
      continue;
    }
    if (s.kind == TexSite::Sust && s.formatted) {
      // sust.p: "If the surface format contains UNORM, SNORM, or FLOAT data,
      // then .f32 is assumed; ... UINT data, then .u32 ...; SINT data, then
      // .s32 ... The source data is then converted from this type to the
      // surface sample format" (9.7.11.2). CUDA arrays hold UINT, SINT or
      // FLOAT data. Our reading of the conversion (the ISA does not spell it
      // out): integers saturate to the channel's range, as OpenCL's
      // write_imagei/write_imageui (which compile to sust.p) do; floats round
      // to nearest even to half.
      uint8_t* p = &wh.region->bytes[wh.off];
      const unsigned cb = d->chan_bytes, bits = 8u * cb;
      for (unsigned ch = 0; ch < d->channels; ++ch) {
        const uint32_t v = static_cast<uint32_t>(get(s.vals[ch], t, l, w));
        uint64_t out = v;
        if (d->kind == ChanKind::Float) {
          out = cb == 2 ? f32_to_f16_rn(v) : v;
        } else if (d->kind == ChanKind::Unsigned) {
          out = bits < 32 ? std::min<uint64_t>(v, (1ull << bits) - 1) : v;
        } else if (bits < 32) {
          const int64_t lo = -(int64_t{1} << (bits - 1)), hi = (int64_t{1} << (bits - 1)) - 1;
          out = static_cast<uint64_t>(std::clamp<int64_t>(static_cast<int32_t>(v), lo, hi));
        }
        store_n(p + ch * cb, out, cb);
      }
      wh.region->mark_init(wh.off, bytes);
      continue;
    }
    const unsigned eb = s.elem_bits / 8u;
    for (size_t k = 0; k < s.vals.size(); ++k) {
      uint8_t* p = &wh.region->bytes[wh.off + k * eb];
      if (s.kind == TexSite::Suld) {
        uint64_t v = 0;
        std::memcpy(&v, p, eb);
        put(t, s.vals[k], v, s.elem_bits == 64 ? 64 : 32);
      } else {
        uint64_t v = get(s.vals[k], t, l, w);
        std::memcpy(p, &v, eb);
      }
    }
    if (s.kind == TexSite::Sust) wh.region->mark_init(wh.off, bytes);
  }
}

}  // namespace ptxcheck::interp
