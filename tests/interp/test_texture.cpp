// Texture sampling (semantics/interp/texture.cpp) against the CUDA C++
// Programming Guide's texture-fetching formulas, computed here independently
// (in double): nearest-point, linear filtering with 9-bit fixed-point
// weights, normalized coordinates, the address modes, tld4's footprint
// order, normalized-float reads of 8-bit texels, and txq.
#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <vector>

#include "semantics/interp/texture.hpp"

using namespace ptxcheck::interp;

namespace {

constexpr int W = 5, H = 3;

struct Img {
  std::vector<uint8_t> bytes;
  TexDesc d;
  explicit Img(AddrMode m, bool linear, bool normalized) {
    bytes.resize(W * H * 4);
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) {
        float v = static_cast<float>(x * 3 + y * 100) + 0.5f;
        std::memcpy(&bytes[(y * W + x) * 4], &v, 4);
      }
    d.dims = 2;
    d.addr = 0x1000;
    d.width = W;
    d.height = H;
    d.pitch = W * 4;
    d.slice = W * H * 4;
    d.addr_mode = {m, m, m};
    d.linear = linear;
    d.normalized = normalized;
  }
  TexReader reader() {
    return [this](uint64_t a, unsigned n, uint8_t* out) {
      if (a < 0x1000 || a - 0x1000 + n > bytes.size()) return false;
      std::memcpy(out, &bytes[a - 0x1000], n);
      return true;
    };
  }
  float at(int x, int y) const {
    float v;
    std::memcpy(&v, &bytes[(y * W + x) * 4], 4);
    return v;
  }
};

int index(int i, int n, AddrMode m, bool& border) {
  border = false;
  switch (m) {
    case AddrMode::Wrap: return ((i % n) + n) % n;
    case AddrMode::Clamp: return i < 0 ? 0 : i >= n ? n - 1 : i;
    case AddrMode::Mirror: {
      int p = static_cast<int>(std::floor(static_cast<double>(i) / n));
      int r = i - p * n;
      return p % 2 ? n - 1 - r : r;
    }
    case AddrMode::Border: border = i < 0 || i >= n; return i;
  }
  return i;
}

double texel(const Img& img, int x, int y, AddrMode m) {
  bool bx, by;
  x = index(x, W, m, bx);
  y = index(y, H, m, by);
  return bx || by ? 0.0 : img.at(x, y);
}

float sample(Img& img, float x, float y, TexSite::Kind kind = TexSite::Tex, uint32_t* all = nullptr) {
  TexSite s;
  s.kind = kind;
  s.geom = TexSite::G2d;
  s.float_coords = true;
  s.dtype = NumKind::F;
  uint32_t c[2] = {std::bit_cast<uint32_t>(x), std::bit_cast<uint32_t>(y)};
  uint32_t out[4];
  std::string why;
  REQUIRE(tex_sample(img.d, s, c, img.reader(), out, why));
  if (all) std::memcpy(all, out, sizeof out);
  return std::bit_cast<float>(out[0]);
}

}  // namespace

TEST_CASE("nearest-point sampling takes T[floor(x)] under each address mode", "[texture]") {
  for (AddrMode m : {AddrMode::Clamp, AddrMode::Border}) {
    Img img(m, false, false);
    for (float x : {0.0f, 0.99f, 2.5f, 4.999f, -0.5f, -3.0f, 5.0f, 7.25f})
      for (float y : {0.5f, 2.9f, -1.0f, 3.0f})
        CHECK(sample(img, x, y) ==
              static_cast<float>(texel(img, static_cast<int>(std::floor(x)), static_cast<int>(std::floor(y)), m)));
  }
  // Wrap and mirror need normalized coordinates; unnormalized they clamp.
  Img wrap(AddrMode::Wrap, false, false);
  CHECK(sample(wrap, 7.5f, 1.5f) == static_cast<float>(texel(wrap, 7, 1, AddrMode::Clamp)));
  for (AddrMode m : {AddrMode::Wrap, AddrMode::Mirror}) {
    Img img(m, false, true);
    for (float u : {0.05f, 0.5f, 1.3f, -0.3f, 2.7f})
      CHECK(sample(img, u, 0.5f) == static_cast<float>(texel(img, static_cast<int>(std::floor(u * W)), 1, m)));
  }
}

TEST_CASE("linear filtering uses 9-bit fixed-point weights (8 fractional bits)", "[texture]") {
  for (AddrMode m : {AddrMode::Clamp, AddrMode::Border}) {
    Img img(m, true, false);
    for (float x : {0.5f, 1.0f, 1.3f, 2.001f, 4.9f, -0.7f, 5.6f})
      for (float y : {0.5f, 0.77f, 2.6f, -0.2f}) {
        double xb = x - 0.5, yb = y - 0.5;
        int i = static_cast<int>(std::floor(xb)), j = static_cast<int>(std::floor(yb));
        double a = std::nearbyint((xb - i) * 256) / 256, b = std::nearbyint((yb - j) * 256) / 256;
        double want = (1 - a) * (1 - b) * texel(img, i, j, m) + a * (1 - b) * texel(img, i + 1, j, m) +
                      (1 - a) * b * texel(img, i, j + 1, m) + a * b * texel(img, i + 1, j + 1, m);
        CHECK(sample(img, x, y) == Approx(want).epsilon(1e-6).margin(1e-6));
      }
  }
  // A weight of 1/512 rounds to 0 or 1/256, never stays 1/512: between two
  // texels 3 apart the result moves in steps of 3/256.
  Img img(AddrMode::Clamp, true, false);
  float v = sample(img, 1.5f + 1.0f / 512 + 1.0f / 4096, 0.5f);
  double step = (v - img.at(1, 0)) / 3.0 * 256;
  CHECK(step == Approx(std::nearbyint(step)).margin(1e-3));
}

TEST_CASE("tld4 returns the footprint counter-clockwise from lower left", "[texture]") {
  Img img(AddrMode::Clamp, true, false);
  uint32_t all[4];
  sample(img, 2.7f, 1.2f, TexSite::Tld4, all);  // footprint i = 2, j = 0
  CHECK(std::bit_cast<float>(all[0]) == img.at(2, 1));
  CHECK(std::bit_cast<float>(all[1]) == img.at(3, 1));
  CHECK(std::bit_cast<float>(all[2]) == img.at(3, 0));
  CHECK(std::bit_cast<float>(all[3]) == img.at(2, 0));
}

TEST_CASE("8-bit texels read as normalized floats or as integers; txq", "[texture]") {
  std::vector<uint8_t> bytes = {0, 51, 255, 7, 200, 1, 2, 3};  // two uchar4 texels
  TexDesc d;
  d.addr = 0x2000;
  d.width = 2;
  d.channels = 4;
  d.chan_bytes = 1;
  d.kind = ChanKind::Unsigned;
  TexReader rd = [&](uint64_t a, unsigned n, uint8_t* out) {
    if (a < 0x2000 || a - 0x2000 + n > bytes.size()) return false;
    std::memcpy(out, &bytes[a - 0x2000], n);
    return true;
  };
  TexSite s;
  s.geom = TexSite::G1d;
  s.float_coords = false;
  s.dtype = NumKind::F;
  uint32_t c[1] = {0}, out[4];
  std::string why;
  REQUIRE(tex_sample(d, s, c, rd, out, why));
  CHECK(std::bit_cast<float>(out[1]) == 51.0f / 255.0f);
  CHECK(std::bit_cast<float>(out[2]) == 1.0f);
  s.dtype = NumKind::U;
  c[0] = 1;
  REQUIRE(tex_sample(d, s, c, rd, out, why));
  CHECK(out[0] == 200);
  CHECK(out[3] == 3);
  s.geom = TexSite::G2d;  // the object is 1D: refused, not read out of shape
  CHECK_FALSE(tex_sample(d, s, c, rd, out, why));
  CHECK(tex_query(d, TexQuery::Width) == 2);
  CHECK(tex_query(d, TexQuery::NormalizedCoords) == 0);
}

TEST_CASE("mipmap levels halve with floor, and the LOD takes the bias and the clamps", "[texture]") {
  TexDesc d;
  d.dims = 2;
  d.width = 8;
  d.height = 4;
  d.normalized = true;
  CHECK(tex_max_levels(d) == 4);  // 1 + floor(log2 8)
  d.width = 5;
  d.height = 3;
  CHECK(tex_max_levels(d) == 3);
  d.width = 8;
  d.height = 4;
  d.levels = tex_mip_levels(d, 4);  // 8x4, 4x2, 2x1, 1x1 f32 texels one after another
  REQUIRE(d.levels.size() == 4);
  CHECK(d.levels[1].offset == 8 * 4 * 4);
  CHECK((d.levels[2].width == 2 && d.levels[2].height == 1 && d.levels[2].offset == 128 + 32));
  CHECK((d.levels[3].width == 1 && d.levels[3].height == 1 && d.levels[3].offset == 168));
  d.mip_max = 3;
  TexSite s;
  s.geom = TexSite::G2d;
  s.float_coords = true;
  s.mip = TexSite::Grad;
  TexArgs a;
  a.dpdx[0] = 0.25f;                // 2 texels of level 0 per step in x
  a.dpdy[1] = 0.125f;               // 0.5 texels in y
  CHECK(tex_lod(d, s, a) == 1.0f);  // log2(max(2, 0.5))
  d.mip_bias = 0.5f;
  CHECK(tex_lod(d, s, a) == 1.5f);
  d.mip_max = 1.25f;
  CHECK(tex_lod(d, s, a) == 1.25f);
  s.mip = TexSite::Level;
  a.lod = std::bit_cast<uint32_t>(-3.0f);
  d.mip_min = 0.75f;
  CHECK(tex_lod(d, s, a) == 0.75f);
  s.mip = TexSite::Base;
  CHECK(tex_lod(d, s, a) == 0.0f);  // "Pick level 0"
  CHECK(tex_query(d, TexQuery::NumMipmapLevels) == 4);
  CHECK(tex_query(d, TexQuery::Width, 2) == 2);
  CHECK(tex_query(d, TexQuery::Width, 4) == 0);  // no such level
}

TEST_CASE("a 1D fetch on a 2D array of one row reads row 0; other geometry mismatches are errors", "[texture]") {
  // cuArrayCreate: "one-dimensional if height is 0, two-dimensional
  // otherwise"; cudaMallocArray(w, 1) is a 2D array of one row, which
  // cuda-samples' volumeRender samples with tex1D.
  auto fetch = [](Img& img, TexSite::Geom g, std::vector<float> co, float& v) {
    TexSite s;
    s.geom = g;
    s.float_coords = true;
    s.dtype = NumKind::F;
    std::vector<uint32_t> c;
    for (float f : co) c.push_back(std::bit_cast<uint32_t>(f));
    uint32_t out[4];
    std::string why;
    const bool ok = tex_sample(img.d, s, c.data(), img.reader(), out, why);
    v = ok ? std::bit_cast<float>(out[0]) : 0.0f;
    if (!ok)
      CHECK(why ==
            "the texture object's geometry (" + std::to_string(img.d.dims) + "D) does not match the instruction's");
    return ok;
  };
  float v;
  for (AddrMode m : {AddrMode::Clamp, AddrMode::Border}) {
    Img img(m, true, false);
    img.d.height = 1;
    // Linear with 1D rules: no second axis, so no blend with a border row.
    for (float x : {0.5f, 1.3f, 4.9f, -0.7f, 5.6f}) {
      double xb = x - 0.5;
      int i = static_cast<int>(std::floor(xb));
      double a = std::nearbyint((xb - i) * 256) / 256;
      double want = (1 - a) * texel(img, i, 0, m) + a * texel(img, i + 1, 0, m);
      REQUIRE(fetch(img, TexSite::G1d, {x}, v));
      CHECK(v == Approx(want).epsilon(1e-6).margin(1e-6));
    }
    img.d.linear = false;
    REQUIRE(fetch(img, TexSite::G1d, {3.7f}, v));
    CHECK(v == img.at(3, 0));
  }
  Img rows(AddrMode::Clamp, false, false);  // H = 3 rows: a genuine mismatch
  CHECK_FALSE(fetch(rows, TexSite::G1d, {1.5f}, v));
  CHECK_FALSE(fetch(rows, TexSite::G3d, {1.5f, 0.5f, 0.5f}, v));
  rows.d.height = 1;
  CHECK_FALSE(fetch(rows, TexSite::G3d, {1.5f, 0.5f, 0.5f}, v));
  rows.d.dims = 1;  // a 1D array under tex.2d stays an error too
  CHECK_FALSE(fetch(rows, TexSite::G2d, {1.5f, 0.5f}, v));
}
