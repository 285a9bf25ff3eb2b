#include "semantics/interp/launch_spec.hpp"

#include <cmath>
#include <cstring>
#include <filesystem>

namespace ptxcheck::interp {

const BufferSpec* LaunchSpec::buffer(const std::string& name) const {
  int i = buffer_index(name);
  return i < 0 ? nullptr : &buffers[static_cast<size_t>(i)];
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
      std::string data;
      try {
        data = read_file_text(path);
      } catch (const InputError&) {
        fail(v.pos, "cannot read init file '" + path + "'");
      }
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
      if (k == "buffer") {
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
                                         "buffers", "args", "outputs", "description", "comment", "tags",
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
