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

void Machine::exec_tex(Warp& w, const Inst& in, uint32_t m) {
  Cta& c = *w.cta;
  Thread* T = &c.threads[w.first];
  const TexSite& s = *prog.tex[in.target];
  for (uint32_t b = m; b; b &= b - 1) {
    const uint32_t l = static_cast<uint32_t>(std::countr_zero(b));
    Thread& t = T[l];
    const uint64_t h = get(s.handle, t, l, w);
    const TexDesc* d = nullptr;
    if (textures_)
      if (auto it = textures_->find(h); it != textures_->end()) d = &it->second;
    if (s.kind == TexSite::Istypep) {
      const bool r = d && (s.istype == 0 ? !d->surface && !d->sampler : s.istype == 1 ? d->sampler : d->surface);
      put(t, s.vals[0], r, 1);
      continue;
    }
    const bool surf_op = s.kind == TexSite::Suld || s.kind == TexSite::Sust || s.kind == TexSite::Suq;
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
      TexDesc with_smp;
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
      TexReader rd = [&](uint64_t a, unsigned n, uint8_t* out) {
        Where wh;
        if (!access(w, t, in, Space::Global, a, n, false, false, wh)) return false;
        std::memcpy(out, &wh.region->bytes[wh.off], n);
        return true;
      };
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
      for (unsigned k = 0; k < 4; ++k) put(t, s.vals[k], r[k], 32);
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
    const unsigned bytes = static_cast<unsigned>(s.vals.size()) * s.elem_bits / 8;
    int64_t x = static_cast<int32_t>(xyz[0]);
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
                      s.kind == TexSite::Suld ? "suld" : "sust", static_cast<long long>(x), static_cast<long long>(y),
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
    Where wh;
    if (!access(w, t, in, Space::Global, a, bytes, s.kind == TexSite::Sust, false, wh)) return;
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
