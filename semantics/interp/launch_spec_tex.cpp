// Launch specs (launch_spec.hpp): CUDA arrays, texture and surface objects,
// sampler state and the bindings of .texref/.surfref/.samplerref variables
// (docs/launch-spec.md).
#include <bit>
#include <string>
#include <vector>

#include "semantics/interp/launch_spec.hpp"
#include "semantics/interp/launch_spec_reader.hpp"

namespace ptxcheck::interp {

const ArraySpec* LaunchSpec::array(const std::string& name) const {
  for (const auto& a : arrays)
    if (a.name == name) return &a;
  return nullptr;
}
const TexObjSpec* LaunchSpec::texobj(const std::string& name, bool surface) const {
  for (const auto& t : textures)
    if (t.name == name && t.desc.surface == surface) return &t;
  return nullptr;
}

namespace spec_detail {

// "format" and "channels" of an array or of a texture over linear memory.
void SpecReader::format(TexDesc& d, const JNode& obj) {
  const JNode& f = need(obj, "format", JNode::Kind::String, "texel format: u8 u16 u32 s8 s16 s32 f16 f32");
  if (!tex_format_by_name(f.text, d.kind, d.chan_bytes))
    fail(f.pos, "unknown texel format \"" + f.text + "\" (u8 u16 u32 s8 s16 s32 f16 f32)");
  d.channels = 1;
  if (const JNode* c = obj.find("channels")) {
    uint64_t n = uint_of(*c, "channels", 4);
    if (n != 1 && n != 2 && n != 4) fail(c->pos, "\"channels\" must be 1, 2 or 4");
    d.channels = static_cast<uint8_t>(n);
  }
}

// "extent": [w], [w, h] or [w, h, d] (at most max_dims entries).
unsigned SpecReader::extent(TexDesc& d, const JNode& obj, unsigned max_dims, bool required) {
  const JNode* e = obj.find("extent");
  if (!e) {
    if (required) fail(obj.pos, "missing \"extent\" ([width], [width, height] or [width, height, depth])");
    return 0;
  }
  if (!e->is_array() || e->items.empty() || e->items.size() > max_dims)
    fail(e->pos, "\"extent\" must be an array of 1 to " + std::to_string(max_dims) + " positive integers");
  uint64_t v[3] = {1, 1, 1};
  for (size_t i = 0; i < e->items.size(); ++i) {
    // The CUDA driver's largest array extents (cuArray3DCreate).
    v[i] = uint_of(e->items[i], "extent", i < 2 ? 1u << 20 : 1u << 16);
    if (!v[i]) fail(e->items[i].pos, "extent dimensions must be positive");
  }
  d.width = v[0], d.height = v[1], d.depth = v[2];
  d.dims = static_cast<uint8_t>(e->items.size());
  return d.dims;
}

// "arrays": {NAME: {"buffer", "format", "channels", "extent", "layers"}}.
void SpecReader::arrays(LaunchSpec& s, const JNode& root) {
  const JNode* as = root.find("arrays");
  if (!as) return;
  if (!as->is_object()) fail(as->pos, "\"arrays\" must be an object mapping names to CUDA arrays");
  for (size_t i = 0; i < as->members.size(); ++i) {
    const std::string& name = as->members[i].first;
    const JNode& an = as->members[i].second;
    if (!an.is_object()) fail(an.pos, "array \"" + name + "\" must be an object");
    only_keys(an, {"buffer", "format", "channels", "extent", "layers", "levels", "cubemap"}, "array \"" + name + "\"");
    ArraySpec a;
    a.name = name;
    a.pos = as->key_pos[i];
    const JNode& b = need(an, "buffer", JNode::Kind::String, "the buffer holding the texels");
    const BufferSpec* buf = s.buffer(b.text);
    if (!buf) fail(b.pos, "unknown buffer \"" + b.text + "\"");
    a.buffer = b.text;
    format(a.desc, an);
    extent(a.desc, an, 3, true);
    if (const JNode* l = an.find("layers")) {
      if (a.desc.dims == 3) fail(l->pos, "a layered array has a 1D or 2D extent");
      a.desc.layered = true;
      a.desc.depth = uint_of(*l, "layers", 2048 * 6);
      if (!a.desc.depth) fail(l->pos, "\"layers\" must be positive");
    }
    if (boolean(an, "cubemap", false)) {
      // CUDA_ARRAY3D_CUBEMAP: six square faces; with "layers", a cubemap
      // array (tex.acube) of layers / 6 cubemaps.
      const SourcePos cp = an.key_position("cubemap");
      if (a.desc.dims != 2 || a.desc.width != a.desc.height) fail(cp, "a cubemap has a square 2D extent [w, w]");
      a.desc.cubemap = true;
      a.desc.cube_layered = a.desc.layered;
      if (a.desc.layered && a.desc.depth % 6) fail(cp, "a cubemap array has a multiple of 6 \"layers\" (faces)");
      if (!a.desc.layered) a.desc.depth = 6;
      a.desc.layered = true;
    } else if (a.desc.layered && a.desc.depth > 2048) {
      fail(an.key_position("layers"), "layers is too large (at most 2048)");
    }
    a.desc.pitch = a.desc.width * a.desc.elem_bytes();
    a.desc.slice = a.desc.pitch * a.desc.height;
    uint64_t need_bytes = a.desc.slice * a.desc.depth;
    if (const JNode* lv = an.find("levels")) {
      // A mipmapped array (cuMipmappedArrayCreate): level k's texels follow
      // level k-1's, each level's extents halved (floor, at least 1).
      const unsigned most = tex_max_levels(a.desc);
      const uint64_t n = uint_of(*lv, "levels", most);
      if (!n) fail(lv->pos, "\"levels\" must be 1 to " + std::to_string(most) + " (1 + floor(log2(largest extent)))");
      a.desc.levels = tex_mip_levels(a.desc, static_cast<unsigned>(n));
      const TexLevel& last = a.desc.levels.back();
      need_bytes = last.offset + last.slice * last.depth;
    }
    if (buf->init.size() < need_bytes)
      fail(b.pos, "array \"" + name + "\" needs " + std::to_string(need_bytes) + " bytes; buffer \"" + b.text +
                      "\" has " + std::to_string(buf->init.size()));
    s.arrays.push_back(std::move(a));
  }
}

// "textures": {NAME: {"array" | "buffer" + "format", "channels", "extent",
// "pitch", "offset"; "address", "filter", "normalized", "read", "border"}}
// and "surfaces": {NAME: {"array"}}.
void SpecReader::texobjs(LaunchSpec& s, const JNode& root, bool surface) {
  const char* key = surface ? "surfaces" : "textures";
  const char* what = surface ? "surface" : "texture";
  const JNode* ts = root.find(key);
  if (!ts) return;
  if (!ts->is_object())
    fail(ts->pos, std::string("\"") + key + "\" must be an object mapping names to " + what + " objects");
  for (size_t i = 0; i < ts->members.size(); ++i) {
    const std::string& name = ts->members[i].first;
    const JNode& tn = ts->members[i].second;
    const std::string label = std::string(what) + " \"" + name + "\"";
    if (!tn.is_object()) fail(tn.pos, label + " must be an object");
    TexObjSpec t;
    t.name = name;
    t.pos = ts->key_pos[i];
    t.desc.surface = surface;
    t.handle = s.textures.size() + 1;  // as the driver's: small integers from 1
    const JNode* arr = tn.find("array");
    if (surface) {
      only_keys(tn, {"array", "level"}, label);
      if (!arr) fail(tn.pos, label + ": missing \"array\" (a surface object names a CUDA array)");
    } else if (arr) {
      only_keys(tn,
                {"array", "level", "address", "filter", "normalized", "read", "border", "mipmap_filter", "mipmap_bias",
                 "min_mipmap_level", "max_mipmap_level"},
                label);
    } else {
      only_keys(tn,
                {"buffer", "format", "channels", "extent", "pitch", "offset", "address", "filter", "normalized", "read",
                 "border"},
                label);
    }
    if (arr) {
      if (!arr->is_string() || !s.array(arr->text)) fail(arr->pos, "\"array\" must name an entry of \"arrays\"");
      const ArraySpec& a = *s.array(arr->text);
      t.array = a.name;
      t.buffer = a.buffer;
      t.desc = a.desc;
      t.desc.surface = surface;
      if (const JNode* lv = tn.find("level")) {
        // One level of a mipmapped array, as an array of its own
        // (cuMipmappedArrayGetLevel); surfaces bind levels so.
        if (a.desc.levels.empty()) fail(lv->pos, "\"level\" needs an array with \"levels\"");
        const uint64_t k = uint_of(*lv, "level", a.desc.levels.size() - 1);
        const TexLevel L = a.desc.levels[k];
        t.desc.levels.clear();
        t.desc.addr = L.offset;
        t.desc.width = L.width, t.desc.height = L.height, t.desc.depth = L.depth;
        t.desc.pitch = L.pitch, t.desc.slice = L.slice;
      } else if (surface && !a.desc.levels.empty()) {
        fail(arr->pos, label + ": a surface binds one level of a mipmapped array (add \"level\")");
      }
    } else if (!surface) {
      // Linear memory (1D, CU_RESOURCE_TYPE_LINEAR) or pitched 2D memory
      // (CU_RESOURCE_TYPE_PITCH2D) of a buffer.
      const JNode* b = tn.find("buffer");
      if (!b) fail(tn.pos, label + ": missing \"array\" or \"buffer\"");
      if (!b->is_string() || !s.buffer(b->text)) fail(b->pos, "\"buffer\" must name a buffer");
      const BufferSpec& buf = *s.buffer(b->text);
      t.buffer = b->text;
      format(t.desc, tn);
      uint64_t off = 0;
      if (const JNode* o = tn.find("offset")) {
        off = uint_of(*o, "offset", kMaxBufferBytes);
        if (off % t.desc.elem_bytes()) fail(o->pos, "\"offset\" must be a multiple of the texel size");
      }
      const uint64_t eb = t.desc.elem_bytes();
      const uint64_t avail = buf.init.size() > off ? buf.init.size() - off : 0;
      unsigned nd = extent(t.desc, tn, 2, false);
      if (nd == 0) {  // the whole buffer from `offset`
        t.desc.width = avail / eb;
        t.desc.dims = 1;
        if (!t.desc.width) fail(b->pos, label + ": buffer \"" + b->text + "\" holds no texel after the offset");
      }
      t.desc.pitch = t.desc.width * eb;
      if (const JNode* p = tn.find("pitch")) {
        if (t.desc.dims != 2) fail(p->pos, "\"pitch\" needs a 2D \"extent\"");
        t.desc.pitch = uint_of(*p, "pitch", kMaxBufferBytes);
        if (t.desc.pitch < t.desc.width * eb)
          fail(p->pos, "\"pitch\" is less than a row of the extent (" + std::to_string(t.desc.width * eb) + " bytes)");
      }
      t.desc.slice = t.desc.pitch * t.desc.height;
      const uint64_t span = t.desc.pitch * (t.desc.height - 1) + t.desc.width * eb;
      if (span > avail)
        fail(b->pos, label + " needs " + std::to_string(span) + " bytes from offset " + std::to_string(off) +
                         "; buffer \"" + b->text + "\" has " + std::to_string(buf.init.size()));
      t.desc.addr = off;
    }
    if (!surface) sampling(t, tn, label);
    s.textures.push_back(std::move(t));
  }
}

// "references": {VAR: {"texture": NAME} | {"surface": NAME} |
// {"sampler": {"address", "filter", "force_unnormalized"}}}: module-scope
// .texref/.surfref/.samplerref variables (PTX ISA 5.3) bound by name; the
// run checks that the PTX declares them.
void SpecReader::references(LaunchSpec& s, const JNode& root) {
  const JNode* rs = root.find("references");
  if (!rs) return;
  if (!rs->is_object()) fail(rs->pos, "\"references\" must be an object mapping variable names to bindings");
  for (size_t i = 0; i < rs->members.size(); ++i) {
    const std::string& var = rs->members[i].first;
    const JNode& rn = rs->members[i].second;
    const std::string label = "reference \"" + var + "\"";
    if (!rn.is_object() || rn.members.size() != 1)
      fail(rn.pos, label + " must be {\"texture\": NAME}, {\"surface\": NAME} or {\"sampler\": {...}}");
    RefSpec r;
    r.var = var;
    r.pos = rs->key_pos[i];
    const std::string& kind = rn.members[0].first;
    const JNode& v = rn.members[0].second;
    if (kind == "texture" || kind == "surface") {
      r.surface = kind == "surface";
      if (!v.is_string() || !s.texobj(v.text, r.surface))
        fail(v.pos, "\"" + kind + "\" must name an entry of \"" + (r.surface ? "surfaces" : "textures") + "\"");
      r.object = v.text;
    } else if (kind == "sampler") {
      r.sampler = true;
      r.smp.sampler = true;
      if (!v.is_object()) fail(v.pos, label + ": \"sampler\" must be an object");
      only_keys(v, {"address", "filter", "force_unnormalized"}, label);
      address_filter(r.smp, v, label, false);
      r.smp.force_unnormalized = boolean(v, "force_unnormalized", false);
    } else {
      fail(rn.key_pos[0], label + ": unknown binding \"" + kind + "\" (texture, surface, sampler)");
    }
    s.refs.push_back(std::move(r));
  }
}

// "filter" or "mipmap_filter": "point" or "linear" (true).
bool SpecReader::linear_filter(const JNode& f, const char* key) {
  if (!f.is_string() || (f.text != "point" && f.text != "linear"))
    fail(f.pos, std::string("\"") + key + "\" must be \"point\" or \"linear\"");
  return f.text == "linear";
}

// "address" and "filter" of a texture object or of a sampler reference:
// one address mode for every dimension or an array of 1 to 3 (the rest
// clamp). With `unnormalized`, wrap and mirror are refused (the rule
// quoted at sampling()).
void SpecReader::address_filter(TexDesc& d, const JNode& obj, const std::string& label, bool unnormalized) {
  d.addr_mode = {AddrMode::Clamp, AddrMode::Clamp, AddrMode::Clamp};
  if (const JNode* am = obj.find("address")) {
    std::vector<const JNode*> modes;
    if (am->is_string()) {
      modes.assign(3, am);
    } else if (am->is_array() && !am->items.empty() && am->items.size() <= 3) {
      for (const auto& it : am->items) modes.push_back(&it);
    } else {
      fail(am->pos, "\"address\" must be a mode or an array of 1 to 3 modes (wrap, clamp, mirror, border)");
    }
    for (size_t k = 0; k < modes.size(); ++k) {
      const JNode& m = *modes[k];
      if (!m.is_string() || !tex_addr_mode_by_name(m.text, d.addr_mode[k]))
        fail(m.pos, "unknown address mode (wrap, clamp, mirror, border)");
      if (unnormalized && (d.addr_mode[k] == AddrMode::Wrap || d.addr_mode[k] == AddrMode::Mirror))
        fail(m.pos, label + ": wrap and mirror addressing need \"normalized\": true");
    }
  }
  if (const JNode* f = obj.find("filter")) d.linear = linear_filter(*f, "filter");
}

// The sampling state of a texture object (CUDA_TEXTURE_DESC). Rules of the
// CUDA C++ Programming Guide, "Texture Object API": wrap and mirror
// addressing "are only supported for normalized texture coordinates";
// cudaReadModeNormalizedFloat applies to 8- and 16-bit integer texels;
// linear filtering "is only valid for returned values of floating-point
// type".
void SpecReader::sampling(TexObjSpec& t, const JNode& tn, const std::string& label) {
  TexDesc& d = t.desc;
  d.normalized = boolean(tn, "normalized", false);
  address_filter(d, tn, label, !d.normalized);
  d.read_as_integer = true;  // cudaReadModeElementType
  if (const JNode* r = tn.find("read")) {
    if (!r->is_string() || (r->text != "element" && r->text != "normalized_float"))
      fail(r->pos, "\"read\" must be \"element\" or \"normalized_float\"");
    if (r->text == "normalized_float") {
      if (d.kind == ChanKind::Float || d.chan_bytes == 4)
        fail(r->pos, label + ": \"normalized_float\" reads need 8- or 16-bit integer texels");
      d.read_as_integer = false;
    }
  }
  if (d.linear && d.kind != ChanKind::Float && d.read_as_integer)
    fail(tn.key_position("filter"),
         label + ": linear filtering of integer texels needs \"read\": \"normalized_float\"");
  // Mipmaps (CUDA_TEXTURE_DESC::mipmapFilterMode, ::mipmapLevelBias,
  // ::minMipmapLevelClamp, ::maxMipmapLevelClamp); the driver: "for CUDA
  // mipmapped arrays, [normalized coordinates have] to be set".
  static const char* const kMip[] = {"mipmap_filter", "mipmap_bias", "min_mipmap_level", "max_mipmap_level"};
  if (d.levels.empty()) {
    for (const char* k : kMip)
      if (tn.find(k)) fail(tn.key_position(k), label + ": \"" + k + "\" needs an array with \"levels\"");
  } else {
    if (!d.normalized)
      fail(tn.pos, label + ": a mipmapped texture needs \"normalized\": true (as the CUDA driver requires)");
    if (const JNode* f = tn.find("mipmap_filter")) {
      d.mip_linear = linear_filter(*f, "mipmap_filter");
      if (d.mip_linear && d.kind != ChanKind::Float && d.read_as_integer)
        fail(f->pos, label + ": linear mipmap filtering of integer texels needs \"read\": \"normalized_float\"");
    }
    auto num = [&](const char* k, float dflt) {
      const JNode* n = tn.find(k);
      return n ? std::bit_cast<float>(static_cast<uint32_t>(read_value(*n, ElemType::f32, file_))) : dflt;
    };
    d.mip_bias = num("mipmap_bias", 0.0f);
    d.mip_min = num("min_mipmap_level", 0.0f);
    d.mip_max = num("max_mipmap_level", static_cast<float>(d.levels.size() - 1));
  }
  if (const JNode* b = tn.find("border")) {
    if (!b->is_array() || b->items.empty() || b->items.size() > 4)
      fail(b->pos, "\"border\" must be an array of 1 to 4 numbers (the border colour's channels)");
    for (size_t k = 0; k < b->items.size(); ++k) {
      uint64_t bits = read_value(b->items[k], ElemType::f32, file_);
      d.border[k] = std::bit_cast<float>(static_cast<uint32_t>(bits));
    }
  }
}

}  // namespace spec_detail
}  // namespace ptxcheck::interp
