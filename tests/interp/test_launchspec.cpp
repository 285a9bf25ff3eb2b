// Launch-spec validation and exact value reading/printing
// (semantics/interp/launch_spec.hpp, values.hpp).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <regex>
#include <string>

#include "semantics/interp/launch_spec.hpp"
#include "semantics/interp/launch_spec_reader.hpp"
#include "semantics/interp/values.hpp"

using namespace ptxcheck;
using namespace ptxcheck::interp;

namespace {
std::string src_dir() {
  const char* s = std::getenv("PTXCHECK_SRC");
  return s ? s : ".";
}
// The expectation a malformed spec carries in its "_expect" key (keys
// starting with `_` are ignored by the loader): "LINE:COL message".
struct Expect {
  uint32_t line = 0, col = 0;
  std::string msg;
};
Expect expectation(const std::string& text) {
  static const std::regex re(R"re("_expect"\s*[:,]\s*"(\d+):(\d+) ([^"]*)")re");
  std::smatch m;
  REQUIRE(std::regex_search(text, m, re));
  return {static_cast<uint32_t>(std::stoul(m[1])), static_cast<uint32_t>(std::stoul(m[2])), m[3]};
}
}  // namespace

TEST_CASE("malformed launch specs are refused at the offending token", "[launchspec]") {
  const std::filesystem::path dir = std::filesystem::path(src_dir()) / "tests" / "interp" / "bad_specs";
  size_t n = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    ++n;
    const std::string path = entry.path().string();
    DYNAMIC_SECTION(entry.path().filename().string()) {
      const Expect want = expectation(read_file_text(path));
      try {
        load_launch_spec(path);
        FAIL("accepted " << path);
      } catch (const InputError& e) {
        INFO(format_error(e.file(), e.pos(), e.what()));
        CHECK(e.file() == path);
        CHECK(e.pos().line == want.line);
        CHECK(e.pos().col == want.col);
        CHECK(std::string(e.what()).find(want.msg) != std::string::npos);
      }
    }
  }
  CHECK(n >= 16);
}

TEST_CASE("a valid spec materialises every init form", "[launchspec]") {
  std::string text = R"({ "ptx": "k.ptx", "kernel": "k", "grid": [2, 3], "block": [64],
    "buffers": {
      "a": { "type": "f32", "count": 5, "init": { "iota": { "start": 0, "step": 0.5 } } },
      "b": { "type": "s16", "count": 5, "init": { "values": [1, -2] } },
      "c": { "type": "u64", "count": 2, "init": { "fill": 18446744073709551615 } },
      "h": { "type": "f16", "count": 2, "init": { "values": ["0x3c00", "-0.0"] } },
      "z": { "type": "b8", "count": 3, "init": "zero" } },
    "args": [ { "buffer": "a" }, { "s64": -1 }, { "f32": 0.1 } ],
    "outputs": ["a", "c"] })";
  LaunchSpec s = parse_launch_spec("t.json", text, "/dir");
  CHECK(s.ptx_path == "/dir/k.ptx");
  CHECK(s.grid == std::array<uint32_t, 3>{2, 3, 1});
  CHECK(s.block == std::array<uint32_t, 3>{64, 1, 1});
  float a[5];
  std::memcpy(a, s.buffer("a")->init.data(), 20);
  CHECK(a[0] == 0.0f);
  CHECK(a[3] == 1.5f);
  int16_t b[5];
  std::memcpy(b, s.buffer("b")->init.data(), 10);
  CHECK((b[0] == 1 && b[1] == -2 && b[2] == 1 && b[3] == -2 && b[4] == 1));
  uint64_t c[2];
  std::memcpy(c, s.buffer("c")->init.data(), 16);
  CHECK(c[1] == UINT64_MAX);
  uint16_t h[2];
  std::memcpy(h, s.buffer("h")->init.data(), 4);
  CHECK(h[0] == 0x3c00);
  CHECK(h[1] == 0x8000);
  REQUIRE(s.args.size() == 3);
  CHECK(s.args[1].bits == UINT64_MAX);
  CHECK(s.args[2].bits == 0x3dcccccd);
  CHECK(s.args[0].size() == 8);
}

// Buffers of 1 MiB or more are zeroed after their pages were made present
// in one call, and filled in parts on up to `threads` threads
// (launch_spec.cpp zero_bytes, SpecReader::fill); every byte must still be
// the init's, with any number of threads, and the sizes exact (an odd size
// ends inside a page and splits unevenly).
TEST_CASE("large buffers hold exactly their init bytes", "[launchspec]") {
  std::string text = R"({ "ptx": "k.ptx", "kernel": "k", "grid": [1], "block": [1],
    "buffers": {
      "z": { "type": "b8", "count": 3145731, "init": "zero" },
      "f": { "type": "u32", "count": 524289, "init": { "fill": 4294967295 } },
      "v": { "type": "u16", "count": 1048579, "init": { "values": [1, 2, 3, 4, 5] } },
      "i": { "type": "s32", "count": 1048576, "init": { "iota": { "start": 7, "step": 3 } } },
      "g": { "type": "f32", "count": 1048573, "init": { "iota": { "start": -50, "step": 0.25 } } } },
    "args": [ { "buffer": "z" } ] })";
  LaunchSpec s = parse_launch_spec("t.json", text, "/dir");
  for (unsigned threads : {2u, 3u, 16u}) {
    INFO(threads << " threads");
    const std::string file = "t.json";  // (the reader keeps a reference)
    spec_detail::SpecReader r(file, "/dir");
    r.threads = threads;
    LaunchSpec t = r.spec(text);
    REQUIRE(t.buffers.size() == s.buffers.size());
    for (size_t k = 0; k < s.buffers.size(); ++k) {
      INFO("buffer " << s.buffers[k].name);
      const bool same = t.buffers[k].init == s.buffers[k].init;  // (not printed: megabytes)
      CHECK(same);
    }
  }
  const std::vector<uint8_t>& z = s.buffer("z")->init;
  REQUIRE(z.size() == 3145731);
  CHECK(std::all_of(z.begin(), z.end(), [](uint8_t v) { return v == 0; }));
  const std::vector<uint8_t>& f = s.buffer("f")->init;
  REQUIRE(f.size() == 4 * 524289);
  CHECK(std::all_of(f.begin(), f.end(), [](uint8_t v) { return v == 0xff; }));
  const std::vector<uint8_t>& in = s.buffer("i")->init;
  REQUIRE(in.size() == 4 * 1048576);
  bool iota = true;
  for (size_t k = 0; k < 1048576 && iota; ++k) {
    int32_t v;
    std::memcpy(&v, in.data() + 4 * k, 4);
    iota = v == static_cast<int32_t>(7 + 3 * k);
  }
  CHECK(iota);
  const std::vector<uint8_t>& v = s.buffer("v")->init;
  REQUIRE(v.size() == 2 * 1048579);
  bool values = true;
  for (size_t k = 0; k < 1048579 && values; ++k) values = v[2 * k] == 1 + k % 5 && v[2 * k + 1] == 0;
  CHECK(values);
  const std::vector<uint8_t>& g = s.buffer("g")->init;
  REQUIRE(g.size() == 4 * 1048573);
  float g_last;
  std::memcpy(&g_last, g.data() + 4 * 1048572, 4);
  CHECK(g_last == static_cast<float>(-50 + 1048572 * 0.25));
}

// With several threads the reader makes the large buffers after the last
// one: one alone in parts, several side by side (buffers()). Each mix of
// large and small buffers holds the bytes one thread gives them.
TEST_CASE("large buffers made after the last one hold their init bytes", "[launchspec]") {
  const char* const texts[] = {// one large buffer among small ones
                               R"({ "ptx": "k.ptx", "kernel": "k", "grid": [1], "block": [1],
    "buffers": {
      "a": { "type": "u8", "count": 7, "init": { "values": [9, 8] } },
      "i": { "type": "u32", "count": 1048577, "init": { "iota": { "start": 5, "step": 7 } } },
      "b": { "type": "f32", "count": 3, "init": { "fill": 1.5 } } },
    "args": [ { "buffer": "i" } ] })",
                               // three large ones (more than the threads), the middle one zero
                               R"({ "ptx": "k.ptx", "kernel": "k", "grid": [1], "block": [1],
    "buffers": {
      "x": { "type": "f64", "count": 262145, "init": { "iota": { "start": 1, "step": -0.5 } } },
      "z": { "type": "u16", "count": 524290 },
      "y": { "type": "s8", "count": 1048579, "init": { "values": [-1, 2, -3] } } },
    "args": [ { "buffer": "x" } ] })"};
  for (const char* text : texts) {
    LaunchSpec s = parse_launch_spec("t.json", text, "/dir");
    for (unsigned threads : {2u, 3u}) {
      INFO(threads << " threads");
      const std::string file = "t.json";  // (the reader keeps a reference)
      spec_detail::SpecReader r(file, "/dir");
      r.threads = threads;
      LaunchSpec t = r.spec(text);
      REQUIRE(t.buffers.size() == s.buffers.size());
      for (size_t k = 0; k < s.buffers.size(); ++k) {
        INFO("buffer " << s.buffers[k].name);
        CHECK(t.buffers[k].init.size() == s.buffers[k].count * elem_size(s.buffers[k].type));
        const bool same = t.buffers[k].init == s.buffers[k].init;  // (not printed: megabytes)
        CHECK(same);
      }
    }
  }
}

TEST_CASE("decimals round correctly to every float type", "[launchspec]") {
  CHECK(*decimal_to_float_bits("0.1", ElemType::f32) == 0x3dcccccd);
  CHECK(*decimal_to_float_bits("0.1", ElemType::f16) == 0x2e66);
  CHECK(*decimal_to_float_bits("0.1", ElemType::bf16) == 0x3dcd);
  CHECK(*decimal_to_float_bits("0.100000001490116119384765625", ElemType::f32) == 0x3dcccccd);
  CHECK(*decimal_to_float_bits("-0.0", ElemType::f64) == 0x8000000000000000ull);
  CHECK(*decimal_to_float_bits("-inf", ElemType::f16) == 0xfc00);
  CHECK(*decimal_to_float_bits("1e-3", ElemType::f64) == 0x3f50624dd2f1a9fcull);
  CHECK(*decimal_to_float_bits("65520", ElemType::f16) == 0x7c00);  // rounds to +inf
  CHECK(*decimal_to_float_bits("65519.99", ElemType::f16) == 0x7bff);
  // 1 + 2^-11 + 2^-60: just above the f16 tie between 1 and 1 + 2^-10. Going
  // through a double loses the 2^-60 and rounds the tie to even (wrong).
  CHECK(*decimal_to_float_bits("1.00048828125000000086736173798840354720596224069595336914062", ElemType::f16) ==
        0x3c01);
  CHECK(*decimal_to_float_bits("1.00048828125", ElemType::f16) == 0x3c00);  // exact tie: even
  CHECK(!decimal_to_float_bits("1.5.2", ElemType::f32));
}

TEST_CASE("integers are read exactly beyond 2^53", "[launchspec]") {
  JNode n;
  n.kind = JNode::Kind::Number;
  n.text = "9007199254740993";
  CHECK(read_value(n, ElemType::u64, "f") == 9007199254740993ull);
  n.text = "-9223372036854775808";
  CHECK(read_value(n, ElemType::s64, "f") == 0x8000000000000000ull);
  n.text = "18446744073709551616";
  CHECK_THROWS_AS(read_value(n, ElemType::u64, "f"), InputError);
  n.text = "4.0";
  CHECK(read_value(n, ElemType::u32, "f") == 4);
  n.text = "4.5";
  CHECK_THROWS_AS(read_value(n, ElemType::u32, "f"), InputError);
}

TEST_CASE("printed values read back bit-exactly", "[launchspec]") {
  // Every f16 and bf16 pattern, and random f32/f64 patterns.
  for (uint32_t b = 0; b < 0x10000; ++b) {
    for (ElemType t : {ElemType::f16, ElemType::bf16}) {
      std::string s = format_value(b, t);
      if (s.front() == '"') s = s.substr(1, s.size() - 2);
      auto back = decimal_to_float_bits(s, t);
      REQUIRE(back);
      REQUIRE(*back == b);
    }
  }
  std::mt19937_64 rng(42);
  for (int i = 0; i < 20000; ++i) {
    uint64_t b64 = rng();
    uint64_t b32 = b64 & 0xffffffffu;
    for (auto [t, b] : {std::pair{ElemType::f32, b32}, std::pair{ElemType::f64, b64}}) {
      std::string s = format_value(b, t);
      if (s.front() == '"') s = s.substr(1, s.size() - 2);
      auto back = decimal_to_float_bits(s, t);
      REQUIRE(back);
      REQUIRE(*back == b);
    }
  }
  CHECK(format_value(0x7fffffff, ElemType::f32) == "\"nan\"");
  CHECK(format_value(0x7fc00000, ElemType::f32) == "\"0x7fc00000\"");
  CHECK(format_value(0xff800000, ElemType::f32) == "\"-inf\"");
  CHECK(format_value(0x3dcccccd, ElemType::f32) == "0.1");
  CHECK(format_value(0x2e66, ElemType::f16) == "0.1");
  CHECK(format_value(0xffffffff, ElemType::s32) == "-1");
  CHECK(format_value(0xffffffff, ElemType::u32) == "4294967295");
}

TEST_CASE("struct and bytes arguments are laid out as C lays out a struct", "[launchspec]") {
  std::string text = R"({ "ptx": "k.ptx", "kernel": "k", "grid": [1], "block": [1],
    "buffers": { "p": { "type": "f32", "count": 4 } },
    "args": [ { "struct": [ { "u8": 7 }, { "f64": 1.5 }, { "u16": 258 },
                            { "struct": [ { "u8": 1 }, { "buffer": "p" } ] }, { "bytes": [9, 8, 7] } ] },
              { "bytes": [1, 2, 3, 4, 5] } ] })";
  LaunchSpec s = parse_launch_spec("t.json", text, "/dir");
  REQUIRE(s.args.size() == 2);
  const ArgSpec& a = s.args[0];
  // u8 at 0, f64 at 8, u16 at 16, the inner struct (align 8, 16 bytes) at
  // 24, bytes at 40; 43 rounded up to 48.
  CHECK(a.offsets == std::vector<uint32_t>{0, 8, 16, 24, 40});
  CHECK(a.size() == 48);
  CHECK(a.align() == 8);
  CHECK(s.args[1].size() == 5);
  CHECK(s.args[1].align() == 1);
  std::vector<uint8_t> out(48, 0xee);
  arg_bytes(
      a, [](const ArgSpec& r) { return r.is_buffer ? 0x1122334455667788ull : 0; }, out.data());
  CHECK(out[0] == 7);
  CHECK(out[1] == 0);  // padding is zero
  double d;
  std::memcpy(&d, &out[8], 8);
  CHECK(d == 1.5);
  CHECK((out[16] == 2 && out[17] == 1));
  CHECK(out[24] == 1);
  uint64_t p;
  std::memcpy(&p, &out[32], 8);
  CHECK(p == 0x1122334455667788ull);
  CHECK((out[40] == 9 && out[41] == 8 && out[42] == 7 && out[47] == 0));
}

TEST_CASE("arrays, textures and surfaces get their geometry, sampling state and handles", "[launchspec]") {
  std::string text = R"({ "ptx": "k.ptx", "kernel": "k", "grid": [1], "block": [1],
    "buffers": { "b": { "type": "u8", "count": 4096 } },
    "arrays": { "a": { "buffer": "b", "format": "u16", "channels": 2, "extent": [8, 4], "layers": 3 } },
    "textures": { "t": { "array": "a", "normalized": true, "address": ["mirror", "border"], "filter": "linear",
                         "read": "normalized_float", "border": [0.5, 1] },
                  "p": { "buffer": "b", "format": "f32", "channels": 4, "extent": [10, 3], "pitch": 256, "offset": 512 } },
    "surfaces": { "s": { "array": "a" } },
    "args": [ { "texture": "p" }, { "surface": "s" } ] })";
  LaunchSpec s = parse_launch_spec("t.json", text, "/dir");
  const TexObjSpec* t = s.texobj("t", false);
  REQUIRE(t != nullptr);
  CHECK(t->handle == 1);
  CHECK((t->desc.layered && t->desc.dims == 2 && t->desc.width == 8 && t->desc.height == 4 && t->desc.depth == 3));
  CHECK((t->desc.pitch == 32 && t->desc.slice == 128 && t->desc.chan_bytes == 2 && t->desc.channels == 2));
  CHECK((t->desc.addr_mode[0] == AddrMode::Mirror && t->desc.addr_mode[1] == AddrMode::Border &&
         t->desc.addr_mode[2] == AddrMode::Clamp));
  CHECK((t->desc.linear && t->desc.normalized && !t->desc.read_as_integer));
  CHECK((t->desc.border[0] == 0.5f && t->desc.border[1] == 1.0f && t->desc.border[2] == 0.0f));
  const TexObjSpec* p = s.texobj("p", false);
  REQUIRE(p != nullptr);
  CHECK(
      (p->handle == 2 && p->desc.dims == 2 && p->desc.pitch == 256 && p->desc.addr == 512 && p->desc.read_as_integer));
  const TexObjSpec* sf = s.texobj("s", true);
  REQUIRE(sf != nullptr);
  CHECK((sf->handle == 3 && sf->desc.surface));
  CHECK(s.texobj("s", false) == nullptr);
  // The pitched texture must fit its buffer: 256 * 2 + 160 bytes from 3584 do not.
  std::string big = text;
  big.replace(big.find("\"offset\": 512"), 13, "\"offset\": 3584");
  CHECK_THROWS_AS(parse_launch_spec("t.json", big, "/dir"), InputError);
}
