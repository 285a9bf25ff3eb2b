#include "semantics/interp/launch_spec.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "semantics/interp/launch_spec_reader.hpp"
#include "semantics/interp/worker_pool.hpp"
#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

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

void arg_bytes(const ArgSpec& a, const std::function<uint64_t(const ArgSpec&)>& ref, uint8_t* out) {
  if (a.is_struct) {
    std::memset(out, 0, a.struct_size);  // padding is zero
    for (size_t i = 0; i < a.fields.size(); ++i) arg_bytes(a.fields[i], ref, out + a.offsets[i]);
    return;
  }
  if (a.is_bytes) {
    std::memcpy(out, a.raw.data(), a.raw.size());
    return;
  }
  uint64_t v = a.is_ref() ? ref(a) : a.bits;
  std::memcpy(out, &v, a.size());  // little-endian host
}

int LaunchSpec::buffer_index(const std::string& name) const {
  for (size_t i = 0; i < buffers.size(); ++i)
    if (buffers[i].name == name) return static_cast<int>(i);
  return -1;
}

void fill_elements(const BufferFill& f, ElemType t, uint8_t* out, uint64_t first, uint64_t n) {
  const unsigned sz = elem_size(t);
  // One loop per element size: a fixed-size copy is a plain store
  // (little-endian host).
  auto each = [&]<size_t N>(auto value) {
    uint8_t* p = out;
    for (uint64_t i = first; i < first + n; ++i, p += N) {
      const uint64_t v = value(i);
      std::memcpy(p, &v, N);
    }
  };
  auto by_size = [&](auto value) {
    switch (sz) {
      case 1: each.operator()<1>(value); break;
      case 2: each.operator()<2>(value); break;
      case 4: each.operator()<4>(value); break;
      default: each.operator()<8>(value); break;
    }
  };
  switch (f.kind) {
    case BufferFill::Kind::Bytes: throw std::logic_error("fill_elements: the bytes were given, not described");
    case BufferFill::Kind::Zero: std::memset(out, 0, n * sz); return;
    case BufferFill::Kind::Values: {
      // The values repeat.
      const uint64_t* vals = f.vals.data();
      const uint64_t nv = f.vals.size();
      auto fill = [&]<size_t N>() {
        uint8_t* p = out;
        for (uint64_t i = 0, k = first % nv; i < n; ++i, p += N) {
          std::memcpy(p, &vals[k], N);
          if (++k == nv) k = 0;
        }
      };
      switch (sz) {
        case 1: fill.operator()<1>(); break;
        case 2: fill.operator()<2>(); break;
        case 4: fill.operator()<4>(); break;
        default: fill.operator()<8>(); break;
      }
      return;
    }
    case BufferFill::Kind::Iota: break;
  }
  if (!elem_is_float(t)) {  // exact modular arithmetic in the element width
    by_size([&](uint64_t i) { return f.start + i * f.step; });
    return;
  }
  const double sv = float_bits_to_double(f.start, ElemType::f64), dv = float_bits_to_double(f.step, ElemType::f64);
  // The index as a double, counted up: the same value as converting i
  // (exact below 2^53; a buffer has at most 2^30 elements), and no
  // 64-bit integer conversion per element.
  uint8_t* p = out;
  double di = static_cast<double>(first);
  // f64 and f32: four elements a turn, each from its own exact index
  // (di + 1 ... di + 3), so that the turns do not wait on one running sum.
  auto four = [&]<class T>() {
    uint64_t i = 0;
    for (; i + 4 <= n; i += 4, p += 4 * sizeof(T), di += 4) {
      const T x[4] = {static_cast<T>(sv + di * dv), static_cast<T>(sv + (di + 1) * dv),
                      static_cast<T>(sv + (di + 2) * dv), static_cast<T>(sv + (di + 3) * dv)};
      std::memcpy(p, x, sizeof x);
    }
    for (; i < n; ++i, p += sizeof(T), di += 1) {
      const T x = static_cast<T>(sv + di * dv);
      std::memcpy(p, &x, sizeof x);
    }
  };
  if (t == ElemType::f64) {
    four.operator()<double>();
  } else if (t == ElemType::f32) {
    four.operator()<float>();
  } else {
    for (uint64_t i = 0; i < n; ++i, p += sz, di += 1) {
      const uint64_t v = double_to_float_bits(sv + di * dv, t);
      std::memcpy(p, &v, sz);  // f16, bf16
    }
  }
}

namespace {

constexpr size_t kLargeBuffer = size_t{1} << 20;  // bytes; smaller buffers are filled by one thread

// Runs part(first, count) over [0, n) in up to `threads` parts of at least
// `least` items each, on as many threads (the caller's is one of them).
// (The threads are the process's kept ones: worker_pool.hpp.)
template <class F>
void in_parts(uint64_t n, unsigned threads, uint64_t least, F part) {
  const uint64_t k = std::clamp<uint64_t>(std::min<uint64_t>(threads, n / least), 1, 16);
  if (k == 1) {
    part(0, n);
    return;
  }
  run_jobs(static_cast<unsigned>(k), [&part, n, k](unsigned i) { part(n * i / k, n * (i + 1) / k - n * i / k); });
}

// v = n zero bytes. A large buffer's pages are first made present with
// madvise(MADV_POPULATE_WRITE) (Linux 5.14), in parts on `threads`
// threads, instead of one page fault per 4 KiB page while the zeros are
// written: the spec reader is serial work of every launch, and for the
// bench's saxpy (two 4 MiB buffers) the faults were most of it (2 x 4 MiB
// zeroed: 2.5 ms -> 1.1 ms on one thread). Without the call (other
// kernels, other systems) the pages fault as before.
void zero_bytes(std::vector<uint8_t>& v, size_t n, unsigned threads) {
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  if (n >= kLargeBuffer) {
    v.reserve(n);
    const uintptr_t p = reinterpret_cast<uintptr_t>(v.data()), page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
    const uintptr_t s = (p + page - 1) & ~(page - 1), e = (p + n) & ~(page - 1);
    if (e > s)
      in_parts((e - s) / page, threads, (kLargeBuffer / 2) / page, [&](uint64_t first, uint64_t count) {
        (void)madvise(reinterpret_cast<void*>(s + first * page), count * page, MADV_POPULATE_WRITE);  // a hint
      });
  }
#else
  (void)threads;
#endif
  v.assign(n, 0);
}

}  // namespace

namespace spec_detail {

std::array<uint32_t, 3> SpecReader::dims(const JNode& root, const char* key, bool required, uint64_t max) {
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

std::string SpecReader::resolve(const std::string& rel) const {
  std::filesystem::path p(rel);
  if (p.is_absolute() || dir_.empty()) return rel;
  return (std::filesystem::path(dir_) / p).string();
}

void SpecReader::fill(BufferSpec& b) {
  if (defer_) return;  // made with the others after the last buffer (buffers())
  const unsigned sz = elem_size(b.type);
  in_parts(
      b.count, b.init.size() >= kLargeBuffer ? threads : 1, (kLargeBuffer / 2) / sz,
      [&](uint64_t first, uint64_t count) { fill_elements(b.fill, b.type, b.init.data() + first * sz, first, count); });
}

void SpecReader::fill_values(BufferSpec& b, const std::vector<uint64_t>& vals) {
  b.fill.kind = BufferFill::Kind::Values;
  b.fill.vals = vals;
  fill(b);
}

void SpecReader::init_iota(BufferSpec& b, const JNode& io) {
  const JNode* s = io.find("start");
  const JNode* d = io.find("step");
  if (!io.is_object()) fail(io.pos, "\"iota\" must be an object {\"start\": S, \"step\": D}");
  for (const auto& m : io.members)
    if (m.first != "start" && m.first != "step")
      fail(io.key_position(m.first), "unknown key \"" + m.first + "\" in iota");
  JNode zero;
  zero.kind = JNode::Kind::Number;
  zero.text = "0";
  JNode one = zero;
  one.text = "1";
  if (!s) s = &zero;
  if (!d) d = &one;
  // Integers: exact modular arithmetic in the element width; floats:
  // start + i*step evaluated in double, then rounded to the type.
  const ElemType wide = elem_is_float(b.type)                              ? ElemType::f64
                        : elem_is_signed(b.type) || b.type == ElemType::b8 ? ElemType::s64
                                                                           : ElemType::u64;
  b.fill.kind = BufferFill::Kind::Iota;
  b.fill.start = read_value(*s, wide, file_);
  b.fill.step = read_value(*d, wide, file_);
  fill(b);
}

void SpecReader::init_buffer(BufferSpec& b, const JNode& init) {
  if (init.is_string()) {
    if (init.text != "zero") fail(init.pos, "unknown init \"" + init.text + "\" (expected \"zero\" or an object)");
    b.fill.kind = BufferFill::Kind::Zero;
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
      fail(v.pos,
           "init file '" + path + "' has more than the " + std::to_string(b.init.size()) + " bytes the buffer needs");
    if (data.size() != b.init.size())
      fail(v.pos, "init file '" + path + "' has " + std::to_string(data.size()) + " bytes; buffer needs " +
                      std::to_string(b.init.size()));
    std::memcpy(b.init.data(), data.data(), data.size());
    b.fill.kind = BufferFill::Kind::Bytes;
  } else {
    fail(init.key_pos[0], "unknown init kind \"" + k + "\" (expected fill, iota, values or file)");
  }
}

void SpecReader::buffers(LaunchSpec& s, const JNode& root) {
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
    if (!t)
      fail(tn.pos, "unknown element type \"" + tn.text + "\" (b8 u8 s8 u16 s16 u32 s32 u64 s64 f16 bf16 f32 f64)");
    b.type = *t;
    const JNode* cn = bn.find("count");
    if (!cn) fail(bn.pos, "buffer \"" + name + "\": missing \"count\"");
    b.count = uint_of(*cn, "count", kMaxBufferBytes);
    uint64_t bytes = b.count * elem_size(b.type);
    total += bytes;
    if (total > kMaxBufferBytes) throw LimitError("buffers exceed 1 GiB in all");
    // With several threads a large buffer is made after the last one (its
    // description, b.fill, now), so that the large buffers are made side
    // by side, one a thread, below. A "file" buffer is read now.
    const JNode* in = bn.find("init");
    defer_ = threads > 1 && bytes >= kLargeBuffer &&
             !(in && in->is_object() && in->members.size() == 1 && in->members[0].first == "file");
    if (!defer_) zero_bytes(b.init, bytes, threads);
    b.fill.kind = BufferFill::Kind::Zero;
    if (in) init_buffer(b, *in);
    if (defer_) pending.push_back(s.buffers.size());
    defer_ = false;
    s.buffers.push_back(std::move(b));
  }
  // The deferred large buffers: one alone is made in parts on the threads
  // (populated, zeroed, filled); several are made side by side, each by
  // one thread, so that their zeroing, serial in the parts, runs in
  // parallel too, and the threads start once (bench saxpy, two 4 MiB iota
  // buffers, 2 threads, 25 reads: median 2.9-3.1 ms -> 1.8-2.4 ms; stencil2d
  // 0.75-0.84 -> 0.56-0.58 ms; one thread: 2.7 ms). Populating fresh pages
  // on two threads at once is hardly faster than on one (the kernel's page
  // allocation), the zeroing and the fill are.
  // Their memory is reserved here, so that no thread allocates.
  auto make = [&](BufferSpec& b, unsigned t) {
    zero_bytes(b.init, b.count * elem_size(b.type), t);
    if (b.fill.kind != BufferFill::Kind::Zero) fill(b);
  };
  if (pending.size() == 1) {
    make(s.buffers[pending[0]], threads);
  } else if (!pending.empty()) {
    const unsigned all = threads;
    threads = 1;  // (fill(): each buffer on one thread)
    for (size_t k : pending) s.buffers[k].init.reserve(s.buffers[k].count * elem_size(s.buffers[k].type));
    in_parts(pending.size(), all, 1, [&](uint64_t first, uint64_t count) {
      for (uint64_t k = first; k < first + count; ++k) make(s.buffers[pending[k]], 1);
    });
    threads = all;
  }
  pending.clear();
}

// "tensormaps": {NAME: {"buffer", "type", "dims", "strides", "box",
// "element_strides", "swizzle", "interleave", "oob_fill", "offset",
// "im2col": {"lower", "upper", "channels", "pixels"},
// "im2col_wide": {"mode", "lower", "upper", "channels", "pixels"}}}
// (docs/launch-spec.md).
void SpecReader::tensormaps(LaunchSpec& s, const JNode& root) {
  const JNode* ts = root.find("tensormaps");
  if (!ts) return;
  if (!ts->is_object()) fail(ts->pos, "\"tensormaps\" must be an object mapping names to tensor maps");
  static const char* const kKeys[] = {"buffer",          "type",        "dims",        "strides",  "box",
                                      "element_strides", "swizzle",     "interleave",  "oob_fill", "offset",
                                      "im2col",          "im2col_wide", "l2_promotion"};
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
    if (tn.find("im2col") && tn.find("im2col_wide"))
      fail(tn.key_position("im2col_wide"), "a tensor map has \"im2col\" or \"im2col_wide\", not both");
    if (const JNode* iw = tn.find("im2col_wide")) {
      // cuTensorMapEncodeIm2colWide: the W corners (scalars), channels,
      // pixels (W mode only) and the mode "w" | "w128".
      if (!iw->is_object()) fail(iw->pos, "\"im2col_wide\" must be an object");
      only_keys(*iw, {"mode", "lower", "upper", "channels", "pixels"}, "\"im2col_wide\"");
      const JNode* md = iw->find("mode");
      if (!md || !md->is_string() || (md->text != "w" && md->text != "w128"))
        fail(md ? md->pos : iw->pos, "\"im2col_wide\" needs \"mode\": \"w\" or \"w128\"");
      t.tm.mode = md->text == "w" ? TensorMap::WideW : TensorMap::WideW128;
      if (t.tm.rank < 3) fail(dn.pos, "an im2col wide tensor map has 3 to 5 dimensions");
      auto corner = [&](const char* key) -> int32_t {
        const JNode* v = iw->find(key);
        if (!v) fail(iw->pos, std::string("\"im2col_wide\" needs \"") + key + "\"");
        int64_t x = static_cast<int64_t>(read_value(*v, ElemType::s64, file_));
        if (x < -32768 || x > 32767) fail(v->pos, "im2col wide corner out of range");
        return static_cast<int32_t>(x);
      };
      t.tm.lower[0] = corner("lower");
      t.tm.upper[0] = corner("upper");
      const JNode* c = iw->find("channels");
      if (!c) fail(iw->pos, "\"im2col_wide\" needs \"channels\"");
      t.tm.channels = static_cast<uint32_t>(uint_of(*c, "channels", 256));
      const JNode* px = iw->find("pixels");
      if (t.tm.mode == TensorMap::WideW && !px) fail(iw->pos, "\"im2col_wide\" mode \"w\" needs \"pixels\"");
      if (px) t.tm.pixels = static_cast<uint32_t>(uint_of(*px, "pixels", 1024));
    } else if (tn.find("im2col")) {
      t.tm.mode = 1;
      const JNode& ic = *tn.find("im2col");
      if (!ic.is_object()) fail(ic.pos, "\"im2col\" must be an object");
      auto sints = [&](const char* key, int32_t* out) {
        const JNode* l = ic.find(key);
        size_t n = t.tm.rank - 2u;
        if (!l || !l->is_array() || l->items.size() != n)
          fail(l ? l->pos : ic.pos,
               std::string("\"") + key + "\" must be an array of " + std::to_string(n) + " integers");
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
    // The CUtensorMapSwizzle names: the last three are the 128B mode with
    // 32B, 32B + 8B flip and 64B atomicity (PTX ISA 5.5.7).
    tensormap_set_cu_swizzle(t.tm, choice("swizzle", {"none", "32B", "64B", "128B", "128B_atom_32B",
                                                      "128B_atom_32B_flip_8B", "128B_atom_64B"}));
    t.tm.interleave = choice("interleave", {"none", "16B", "32B"});
    t.tm.oob_nan = choice("oob_fill", {"zero", "nan"});
    t.tm.l2 = choice("l2_promotion", {"none", "64B", "128B", "256B"});
    if (const JNode* o = tn.find("offset")) t.tm.addr = uint_of(*o, "offset", 1ull << 40);
    TensorMap chk = t.tm;
    chk.addr = 0;
    std::string why = tensormap_check(chk);
    if (!why.empty()) fail(t.pos, "tensor map \"" + name + "\": " + why);
    if (t.tm.addr % 16) fail(tn.key_position("offset"), "tensor map offset must be a multiple of 16");
    if (t.tm.addr % 32 && t.tm.interleave == 2)
      fail(tn.key_position("offset"), "a 32B-interleaved tensor map's offset must be a multiple of 32");
    s.tensormaps.push_back(std::move(t));
  }
}

// One argument, or one field of a "struct" argument (no tensor map).
ArgSpec SpecReader::arg(const LaunchSpec& s, const JNode& an, bool field, unsigned depth) {
  if (!an.is_object() || an.members.size() != 1)
    fail(an.pos, "an argument must be an object with one key: {\"buffer\": NAME} or {TYPE: VALUE}");
  ArgSpec a;
  a.pos = an.pos;
  const auto& [k, v] = an.members[0];
  if (k == "tensormap") {
    if (field) fail(an.key_pos[0], "a tensor map cannot be a field of a \"struct\" argument");
    if (!v.is_string() || !s.tensormap(v.text)) fail(v.pos, "\"tensormap\" must name an entry of \"tensormaps\"");
    a.tensormap = v.text;
  } else if (k == "buffer") {
    if (!v.is_string()) fail(v.pos, "\"buffer\" must name a buffer");
    if (s.buffer_index(v.text) < 0) fail(v.pos, "unknown buffer \"" + v.text + "\"");
    a.is_buffer = true;
    a.buffer = v.text;
  } else if (k == "texture" || k == "surface") {
    const bool surf = k == "surface";
    if (!v.is_string() || !s.texobj(v.text, surf))
      fail(v.pos, "\"" + k + "\" must name an entry of \"" + (surf ? "surfaces" : "textures") + "\"");
    (surf ? a.surface : a.texture) = v.text;
  } else if (k == "bytes") {
    // Raw bytes of a by-value aggregate (.param .align N .b8 NAME[K]).
    if (!v.is_array() || v.items.empty()) fail(v.pos, "\"bytes\" must be a non-empty array of integers 0 to 255");
    if (v.items.size() > 4096) fail(v.pos, "\"bytes\" has more than 4096 entries");
    for (const auto& it : v.items) a.raw.push_back(static_cast<uint8_t>(uint_of(it, "a byte", 255)));
    a.is_bytes = true;
  } else if (k == "struct") {
    // Fields laid out as C lays out a struct: each at the next multiple
    // of its alignment, the size a multiple of the largest alignment.
    if (!v.is_array() || v.items.empty()) fail(v.pos, "\"struct\" must be a non-empty array of fields");
    if (depth >= 8) fail(v.pos, "\"struct\" arguments nest at most 8 deep");
    a.is_struct = true;
    uint64_t off = 0;
    for (const auto& f : v.items) {
      ArgSpec fa = arg(s, f, true, depth + 1);
      off = (off + fa.align() - 1) / fa.align() * fa.align();
      a.struct_align = std::max(a.struct_align, fa.align());
      a.offsets.push_back(static_cast<uint32_t>(off));
      off += fa.size();
      if (off > 4096) fail(f.pos, "a \"struct\" argument has more than 4096 bytes");
      a.fields.push_back(std::move(fa));
    }
    a.struct_size = static_cast<uint32_t>((off + a.struct_align - 1) / a.struct_align * a.struct_align);
  } else {
    auto t = elem_type_from(k);
    if (!t) fail(an.key_pos[0], "unknown argument type \"" + k + "\"");
    a.type = *t;
    a.bits = read_value(v, a.type, file_);
  }
  return a;
}

void SpecReader::args(LaunchSpec& s, const JNode& root) {
  const JNode* as = root.find("args");
  if (!as) return;
  if (!as->is_array()) fail(as->pos, "\"args\" must be an array");
  s.args_pos = as->pos;
  for (const auto& an : as->items) s.args.push_back(arg(s, an, false, 0));
}

LaunchSpec SpecReader::spec(const std::string& text) {
  JNode root = parse_json(file_, text);
  if (!root.is_object()) fail(root.pos, "a launch spec must be a JSON object");
  static const char* const kKnown[] = {
      "ptx",     "kernel",     "grid",        "block",    "cluster",  "dynamic_shared_bytes",
      "buffers", "tensormaps", "arrays",      "textures", "surfaces", "references",
      "args",    "outputs",    "description", "comment",  "tags",     "source",
      "notes",   "cooperative"};
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
  if (threads > 1024)
    fail(root.key_position("block"), "a CTA has at most 1024 threads; block gives " + std::to_string(threads));
  if (s.block[1] > 1024 || s.block[2] > 64)
    fail(root.key_position("block"), "block dimensions exceed 1024 x 1024 x 64");
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
  s.cooperative = boolean(root, "cooperative", false);
  if (s.cooperative && s.cluster[0] * s.cluster[1] * s.cluster[2] != 1)
    fail(root.key_position("cooperative"), "a cooperative launch with clusters of more than one CTA is not supported");
  buffers(s, root);
  tensormaps(s, root);
  arrays(s, root);
  texobjs(s, root, false);
  texobjs(s, root, true);
  references(s, root);
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

}  // namespace spec_detail

using spec_detail::SpecReader;

LaunchSpec parse_launch_spec(const std::string& file, const std::string& text, const std::string& dir) {
  return SpecReader(file, dir).spec(text);
}

LaunchSpec load_launch_spec(const std::string& path) { return spec_detail::read_spec_file(path, 1); }

LaunchSpec spec_detail::read_spec_file(const std::string& path, unsigned threads) {
  std::string text = read_file_text(path);
  SpecReader r(path, std::filesystem::path(path).parent_path().string());
  r.threads = std::max(1u, threads);
  return r.spec(text);
}

}  // namespace ptxcheck::interp
