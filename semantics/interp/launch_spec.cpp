#include "semantics/interp/launch_spec.hpp"

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace ptxcheck::interp {

const BufferSpec* LaunchSpec::buffer(const std::string& name) const {
  int i = buffer_index(name);
  return i < 0 ? nullptr : &buffers[static_cast<size_t>(i)];
}
const TensorMapSpec* LaunchSpec::tensormap(const std::string& name) const {
  for (const auto& t : tensormaps)
    if (t.name == name) return &t;
  return nullptr;
}

int LaunchSpec::buffer_index(const std::string& name) const {
  for (size_t i = 0; i < buffers.size(); ++i)
    if (buffers[i].name == name) return static_cast<int>(i);
  return -1;
}

namespace {

constexpr uint64_t kMaxBufferBytes = 1ull << 30;

class SpecReader {
 public:
  SpecReader(const std::string& file, const std::string& dir) : file_(file), dir_(dir) {}

  [[noreturn]] void fail(SourcePos p, const std::string& msg) { throw InputError(file_, p, msg); }

  const JNode& need(const JNode& obj, const char* key, JNode::Kind kind, const char* what) {
    const JNode* n = obj.find(key);
    if (!n) fail(obj.pos, std::string("missing \"") + key + "\" (" + what + ")");
    if (n->kind != kind)
      fail(n->pos, std::string("\"") + key + "\" must be " + JNode::kind_name(kind) + ", got " +
                       JNode::kind_name(n->kind));
    return *n;
  }

  uint64_t uint_of(const JNode& n, const char* what, uint64_t max) {
    uint64_t v = 0;
    if (n.kind != JNode::Kind::Number || n.text.find_first_of(".eE-") != std::string::npos)
      fail(n.pos, std::string(what) + " must be a non-negative integer");
    if (n.text.size() > 19) fail(n.pos, std::string(what) + " is too large");
    v = std::stoull(n.text);
    if (v > max) fail(n.pos, std::string(what) + " is too large (at most " + std::to_string(max) + ")");
    return v;
  }

  std::array<uint32_t, 3> dims(const JNode& root, const char* key, bool required, uint64_t max) {
    std::array<uint32_t, 3> d{1, 1, 1};
    const JNode* n = root.find(key);
    if (!n) {
      if (required) fail(root.pos, std::string("missing \"") + key + "\" (1 to 3 positive integers)");
      return d;
    }
    if (n->is_number()) {  // a bare number is accepted as [n]
      d[0] = static_cast<uint32_t>(uint_of(*n, key, max));
      if (!d[0]) fail(n->pos, std::string(key) + " dimensions must be positive");
      return d;
    }
    if (!n->is_array() || n->items.empty() || n->items.size() > 3)
      fail(n->pos, std::string("\"") + key + "\" must be an array of 1 to 3 positive integers");
    for (size_t i = 0; i < n->items.size(); ++i) {
      d[i] = static_cast<uint32_t>(uint_of(n->items[i], key, max));
      if (!d[i]) fail(n->items[i].pos, std::string(key) + " dimensions must be positive");
    }
    return d;
  }

  std::string resolve(const std::string& rel) const {
    std::filesystem::path p(rel);
    if (p.is_absolute() || dir_.empty()) return rel;
    return (std::filesystem::path(dir_) / p).string();
  }

  void fill_values(BufferSpec& b, const std::vector<uint64_t>& vals) {
    unsigned sz = elem_size(b.type);
    for (uint64_t i = 0; i < b.count; ++i) {
      uint64_t v = vals[i % vals.size()];
      std::memcpy(&b.init[i * sz], &v, sz);  // little-endian host
    }
  }

  void init_iota(BufferSpec& b, const JNode& io) {
    const JNode* s = io.find("start");
    const JNode* d = io.find("step");
    if (!io.is_object()) fail(io.pos, "\"iota\" must be an object {\"start\": S, \"step\": D}");
    for (const auto& m : io.members)
      if (m.first != "start" && m.first != "step") fail(io.key_position(m.first), "unknown key \"" + m.first + "\" in iota");
    JNode zero;
    zero.kind = JNode::Kind::Number;
    zero.text = "0";
    JNode one = zero;
    one.text = "1";
    if (!s) s = &zero;
    if (!d) d = &one;
    unsigned sz = elem_size(b.type);
    if (!elem_is_float(b.type)) {
      // Integers: exact modular arithmetic in the element width.
      ElemType wide = elem_is_signed(b.type) || b.type == ElemType::b8 ? ElemType::s64 : ElemType::u64;
      uint64_t sv = read_value(*s, wide, file_), dv = read_value(*d, wide, file_);
      for (uint64_t i = 0; i < b.count; ++i) {
        uint64_t v = sv + i * dv;
        std::memcpy(&b.init[i * sz], &v, sz);
      }
      return;
    }
    // Floats: start + i*step evaluated in double, then rounded to the type.
    double sv = float_bits_to_double(read_value(*s, ElemType::f64, file_), ElemType::f64);
    double dv = float_bits_to_double(read_value(*d, ElemType::f64, file_), ElemType::f64);
    for (uint64_t i = 0; i < b.count; ++i) {
      double x = sv + static_cast<double>(i) * dv;
      uint64_t v;
      if (b.type == ElemType::f64) {
        std::memcpy(&v, &x, 8);
      } else if (b.type == ElemType::f32) {
        float f = static_cast<float>(x);
        uint32_t u;
        std::memcpy(&u, &f, 4);
        v = u;
      } else {
        v = double_to_float_bits(x, b.type);
      }
      std::memcpy(&b.init[i * sz], &v, sz);
    }
  }

  void init_buffer(BufferSpec& b, const JNode& init) {
    if (init.is_string()) {
      if (init.text != "zero") fail(init.pos, "unknown init \"" + init.text + "\" (expected \"zero\" or an object)");
      return;  // already zeroed
    }
    if (!init.is_object() || init.members.size() != 1)
      fail(init.pos, "\"init\" must be \"zero\" or an object with one of fill, iota, values, file");
    const std::string& k = init.members[0].first;
    const JNode& v = init.members[0].second;
    if (k == "fill") {
      fill_values(b, {read_value(v, b.type, file_)});
    } else if (k == "iota") {
      init_iota(b, v);
    } else if (k == "values") {
      if (!v.is_array() || v.items.empty()) fail(v.pos, "\"values\" must be a non-empty array");
      std::vector<uint64_t> vals;
      for (const auto& it : v.items) vals.push_back(read_value(it, b.type, file_));
      fill_values(b, vals);
    } else if (k == "file") {
      if (!v.is_string()) fail(v.pos, "\"file\" must be a path string");
      std::string path = resolve(v.text);
      // At most one byte more than the buffer is read, so that a device or
      // a pipe (/dev/zero, a FIFO) cannot make the read endless.
      std::ifstream in(path, std::ios::binary);
      if (!in || std::filesystem::is_directory(path)) fail(v.pos, "cannot read init file '" + path + "'");
      std::string data(b.init.size() + 1, '\0');
      in.read(data.data(), static_cast<std::streamsize>(data.size()));
      data.resize(static_cast<size_t>(in.gcount()));
      if (data.size() > b.init.size())
        fail(v.pos, "init file '" + path + "' has more than the " + std::to_string(b.init.size()) +
                        " bytes the buffer needs");
      if (data.size() != b.init.size())
        fail(v.pos, "init file '" + path + "' has " + std::to_string(data.size()) + " bytes; buffer needs " +
                        std::to_string(b.init.size()));
      std::memcpy(b.init.data(), data.data(), data.size());
    } else {
      fail(init.key_pos[0], "unknown init kind \"" + k + "\" (expected fill, iota, values or file)");
    }
  }

  void buffers(LaunchSpec& s, const JNode& root) {
    const JNode* bs = root.find("buffers");
    if (!bs) return;
    if (!bs->is_object()) fail(bs->pos, "\"buffers\" must be an object mapping names to buffers");
    uint64_t total = 0;
    for (size_t i = 0; i < bs->members.size(); ++i) {
      const auto& [name, bn] = bs->members[i];
      if (!bn.is_object()) fail(bn.pos, "buffer \"" + name + "\" must be an object");
      for (size_t j = 0; j < bn.members.size(); ++j) {
        const std::string& k = bn.members[j].first;
        if (k != "type" && k != "count" && k != "init")
          fail(bn.key_pos[j], "unknown key \"" + k + "\" in buffer \"" + name + "\"");
      }
      BufferSpec b;
      b.name = name;
      b.pos = bs->key_pos[i];
      const JNode& tn = need(bn, "type", JNode::Kind::String, "element type");
      auto t = elem_type_from(tn.text);
      if (!t) fail(tn.pos, "unknown element type \"" + tn.text + "\" (b8 u8 s8 u16 s16 u32 s32 u64 s64 f16 bf16 f32 f64)");
      b.type = *t;
      const JNode* cn = bn.find("count");
      if (!cn) fail(bn.pos, "buffer \"" + name + "\": missing \"count\"");
      b.count = uint_of(*cn, "count", kMaxBufferBytes);
      uint64_t bytes = b.count * elem_size(b.type);
      total += bytes;
      if (total > kMaxBufferBytes) throw LimitError("buffers exceed 1 GiB in all");
      b.init.assign(bytes, 0);
      if (const JNode* in = bn.find("init")) init_buffer(b, *in);
      s.buffers.push_back(std::move(b));
    }
  }

  // "tensormaps": {NAME: {"buffer", "type", "dims", "strides", "box",
  // "element_strides", "swizzle", "interleave", "oob_fill", "offset",
  // "im2col": {"lower", "upper", "channels", "pixels"}}} (docs/launch-spec.md).
  void tensormaps(LaunchSpec& s, const JNode& root) {
    const JNode* ts = root.find("tensormaps");
    if (!ts) return;
    if (!ts->is_object()) fail(ts->pos, "\"tensormaps\" must be an object mapping names to tensor maps");
    static const char* const kKeys[] = {"buffer", "type", "dims", "strides", "box", "element_strides", "swizzle",
                                        "interleave", "oob_fill", "offset", "im2col", "l2_promotion"};
    for (size_t i = 0; i < ts->members.size(); ++i) {
      // Plain references: the lambdas below capture tn (clang 14 cannot
      // capture a structured binding).
      const std::string& name = ts->members[i].first;
      const JNode& tn = ts->members[i].second;
      if (!tn.is_object()) fail(tn.pos, "tensor map \"" + name + "\" must be an object");
      for (size_t j = 0; j < tn.members.size(); ++j) {
        bool ok = false;
        for (const char* k : kKeys) ok = ok || tn.members[j].first == k;
        if (!ok) fail(tn.key_pos[j], "unknown key \"" + tn.members[j].first + "\" in tensor map \"" + name + "\"");
      }
      TensorMapSpec t;
      t.name = name;
      t.pos = ts->key_pos[i];
      const JNode& b = need(tn, "buffer", JNode::Kind::String, "the buffer the tensor map describes");
      if (s.buffer_index(b.text) < 0) fail(b.pos, "unknown buffer \"" + b.text + "\"");
      t.buffer = b.text;
      const JNode& ty = need(tn, "type", JNode::Kind::String, "element type");
      int dt = tensormap_dtype_from(ty.text);
      if (dt < 0) fail(ty.pos, "unknown tensor element type \"" + ty.text + "\"");
      t.tm.dtype = static_cast<uint8_t>(dt);
      auto list = [&](const char* key, uint64_t* out, size_t n, bool required, uint64_t max) -> size_t {
        const JNode* l = tn.find(key);
        if (!l) {
          if (required) fail(tn.pos, std::string("missing \"") + key + "\"");
          return 0;
        }
        if (!l->is_array() || l->items.size() != n)
          fail(l->pos, std::string("\"") + key + "\" must be an array of " + std::to_string(n) + " integers");
        for (size_t k = 0; k < n; ++k) out[k] = uint_of(l->items[k], key, max);
        return n;
      };
      const JNode& dn = need(tn, "dims", JNode::Kind::Array, "1 to 5 dimensions, innermost first");
      if (dn.items.empty() || dn.items.size() > 5) fail(dn.pos, "\"dims\" must have 1 to 5 entries");
      t.tm.rank = static_cast<uint8_t>(dn.items.size());
      list("dims", t.tm.dims, t.tm.rank, true, 1ull << 32);
      list("strides", t.tm.strides + 1, t.tm.rank - 1u, t.tm.rank > 1, 1ull << 40);
      t.tm.strides[0] = tensormap_elem_bytes(t.tm.dtype);
      uint64_t tmp[5] = {1, 1, 1, 1, 1};
      if (tn.find("im2col")) {
        t.tm.mode = 1;
        const JNode& ic = *tn.find("im2col");
        if (!ic.is_object()) fail(ic.pos, "\"im2col\" must be an object");
        auto sints = [&](const char* key, int32_t* out) {
          const JNode* l = ic.find(key);
          size_t n = t.tm.rank - 2u;
          if (!l || !l->is_array() || l->items.size() != n)
            fail(l ? l->pos : ic.pos, std::string("\"") + key + "\" must be an array of " + std::to_string(n) + " integers");
          for (size_t k = 0; k < n; ++k) {
            int64_t v = static_cast<int64_t>(read_value(l->items[k], ElemType::s64, file_));
            if (v < -32768 || v > 32767) fail(l->items[k].pos, "im2col corner out of range");
            out[k] = static_cast<int32_t>(v);
          }
        };
        sints("lower", t.tm.lower);
        sints("upper", t.tm.upper);
        const JNode* c = ic.find("channels");
        const JNode* px = ic.find("pixels");
        if (!c || !px) fail(ic.pos, "\"im2col\" needs \"channels\" and \"pixels\"");
        t.tm.channels = static_cast<uint32_t>(uint_of(*c, "channels", 256));
        t.tm.pixels = static_cast<uint32_t>(uint_of(*px, "pixels", 1024));
      } else {
        list("box", tmp, t.tm.rank, true, 256);
        for (unsigned d = 0; d < 5; ++d) t.tm.box[d] = static_cast<uint32_t>(tmp[d]);
      }
      uint64_t es[5] = {1, 1, 1, 1, 1};
      list("element_strides", es, t.tm.rank, false, 8);
      for (unsigned d = 0; d < 5; ++d) t.tm.estride[d] = static_cast<uint32_t>(es[d]);
      auto choice = [&](const char* key, std::initializer_list<const char*> names) -> uint8_t {
        const JNode* n = tn.find(key);
        if (!n) return 0;
        uint8_t i = 0;
        for (const char* nm : names) {
          if (n->is_string() && n->text == nm) return i;
          ++i;
        }
        fail(n->pos, std::string("unknown \"") + key + "\" value");
      };
      t.tm.swizzle = choice("swizzle", {"none", "32B", "64B", "128B"});
      t.tm.interleave = choice("interleave", {"none", "16B", "32B"});
      t.tm.oob_nan = choice("oob_fill", {"zero", "nan"});
      t.tm.l2 = choice("l2_promotion", {"none", "64B", "128B", "256B"});
      if (const JNode* o = tn.find("offset")) t.tm.addr = uint_of(*o, "offset", 1ull << 40);
      TensorMap chk = t.tm;
      chk.addr = 0;
      std::string why = tensormap_check(chk);
      if (!why.empty()) fail(t.pos, "tensor map \"" + name + "\": " + why);
      if (t.tm.addr % 16) fail(tn.key_position("offset"), "tensor map offset must be a multiple of 16");
      s.tensormaps.push_back(std::move(t));
    }
  }

  void args(LaunchSpec& s, const JNode& root) {
    const JNode* as = root.find("args");
    if (!as) return;
    if (!as->is_array()) fail(as->pos, "\"args\" must be an array");
    s.args_pos = as->pos;
    for (const auto& an : as->items) {
      if (!an.is_object() || an.members.size() != 1)
        fail(an.pos, "an argument must be an object with one key: {\"buffer\": NAME} or {TYPE: VALUE}");
      ArgSpec a;
      a.pos = an.pos;
      const auto& [k, v] = an.members[0];
      if (k == "tensormap") {
        if (!v.is_string() || !s.tensormap(v.text)) fail(v.pos, "\"tensormap\" must name an entry of \"tensormaps\"");
        a.tensormap = v.text;
      } else if (k == "buffer") {
        if (!v.is_string()) fail(v.pos, "\"buffer\" must name a buffer");
        if (s.buffer_index(v.text) < 0) fail(v.pos, "unknown buffer \"" + v.text + "\"");
        a.is_buffer = true;
        a.buffer = v.text;
      } else {
        auto t = elem_type_from(k);
        if (!t) fail(an.key_pos[0], "unknown argument type \"" + k + "\"");
        a.type = *t;
        a.bits = read_value(v, a.type, file_);
      }
      s.args.push_back(std::move(a));
    }
  }

  LaunchSpec spec(const std::string& text) {
    JNode root = parse_json(file_, text);
    if (!root.is_object()) fail(root.pos, "a launch spec must be a JSON object");
    static const char* const kKnown[] = {"ptx", "kernel", "grid", "block", "cluster", "dynamic_shared_bytes",
                                         "buffers", "tensormaps", "args", "outputs", "description", "comment", "tags",
                                         "source", "notes"};
    for (size_t i = 0; i < root.members.size(); ++i) {
      const std::string& k = root.members[i].first;
      bool ok = !k.empty() && k[0] == '_';
      for (const char* kk : kKnown) ok = ok || k == kk;
      if (!ok) fail(root.key_pos[i], "unknown key \"" + k + "\" in launch spec");
    }
    LaunchSpec s;
    s.file = file_;
    s.dir = dir_;
    const JNode& p = need(root, "ptx", JNode::Kind::String, "path of the PTX module");
    s.ptx_path = resolve(p.text);
    s.ptx_pos = p.pos;
    const JNode& k = need(root, "kernel", JNode::Kind::String, "name of the .entry to run");
    s.kernel = k.text;
    s.kernel_pos = k.pos;
    s.grid = dims(root, "grid", true, 0x7fffffff);
    s.block = dims(root, "block", true, 1024);
    uint64_t threads = uint64_t{s.block[0]} * s.block[1] * s.block[2];
    if (threads > 1024) fail(root.key_position("block"), "a CTA has at most 1024 threads; block gives " + std::to_string(threads));
    if (s.block[1] > 1024 || s.block[2] > 64) fail(root.key_position("block"), "block dimensions exceed 1024 x 1024 x 64");
    if (s.grid[1] > 65535 || s.grid[2] > 65535) fail(root.key_position("grid"), "grid y and z are at most 65535");
    if (root.find("cluster")) {
      s.cluster = dims(root, "cluster", false, 16);
      s.explicit_cluster = true;
      for (int i = 0; i < 3; ++i)
        if (s.grid[i] % s.cluster[i])
          fail(root.key_position("cluster"), "grid must be a multiple of the cluster shape in every dimension");
    }
    if (const JNode* d = root.find("dynamic_shared_bytes"))
      s.dynamic_shared_bytes = static_cast<uint32_t>(uint_of(*d, "dynamic_shared_bytes", 1u << 24));
    buffers(s, root);
    tensormaps(s, root);
    args(s, root);
    if (const JNode* o = root.find("outputs")) {
      if (!o->is_array()) fail(o->pos, "\"outputs\" must be an array of buffer names");
      for (const auto& it : o->items) {
        if (!it.is_string()) fail(it.pos, "\"outputs\" must list buffer names");
        if (s.buffer_index(it.text) < 0) fail(it.pos, "output \"" + it.text + "\" is not a buffer");
        s.outputs.push_back(it.text);
      }
    }
    return s;
  }

 private:
  const std::string& file_;
  std::string dir_;
};

}  // namespace

LaunchSpec parse_launch_spec(const std::string& file, const std::string& text, const std::string& dir) {
  return SpecReader(file, dir).spec(text);
}

LaunchSpec load_launch_spec(const std::string& path) {
  std::string text = read_file_text(path);
  std::string dir = std::filesystem::path(path).parent_path().string();
  return parse_launch_spec(path, text, dir);
}

}  // namespace ptxcheck::interp
