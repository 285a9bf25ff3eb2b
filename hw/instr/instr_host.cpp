// ptxcheck-instr-host: run one launch spec on a GPU through the CUDA driver
// API and record every output buffer (hw/README.md, "Instruction harness").
//
//   ptxcheck-instr-host SPEC.json --out RECORDING.json [--device N]
//
// SPEC follows docs/launch-spec.md with these restrictions: buffer
// init is "zero", {"fill": V}, {"values": [...]}, {"iota": {...}} or
// {"file": PATH}, where V and the values are integers, hex-string bit
// patterns ("0x3f800000"), or for f16/bf16/f32/f64 buffers numbers read by
// value (an integer too) and "nan", "inf", "-inf", "-0.0"; scalar args are
// integer types, f32 or f64. The recording is
//   {"format": "ptxcheck-instr-recording/1", "spec": <spec path relative to the
//    recording's folder>, "kernel", "gpu", "compute_capability",
//    "driver_version", "outputs": {NAME: ["0x<raw bits>", ...]}}
// with each element's raw little-endian bits, zero-padded to its width.
// Exit: 0 recorded; 1 a CUDA call failed; 2 usage error or unsupported spec.
//
// An ordinary driver-API program on purpose: only <cuda.h>, primary
// context, cuModuleLoadData, cuMemAlloc, cuLaunchKernel. It links against
// libcuda.so.1, so the real driver or the interpreter-backed shim
// (LD_LIBRARY_PATH) runs it unchanged.
#include <cuda.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct SpecError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void check(CUresult r, const char* call) {
  if (r == CUDA_SUCCESS) return;
  const char* name = nullptr;
  if (cuGetErrorName(r, &name) != CUDA_SUCCESS || !name) name = "unknown CUresult";
  throw CudaError(std::string(call) + " failed: " + name + " (" + std::to_string(static_cast<int>(r)) + ")");
}
#define CU(call) check(call, #call)

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw SpecError("cannot read " + p.string());
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

unsigned elem_size(const std::string& t) {
  if (t == "b8" || t == "u8" || t == "s8") return 1;
  if (t == "u16" || t == "s16" || t == "f16" || t == "bf16") return 2;
  if (t == "u32" || t == "s32" || t == "f32") return 4;
  if (t == "u64" || t == "s64" || t == "f64") return 8;
  throw SpecError("unknown element type '" + t + "'");
}

bool is_float_type(const std::string& t) { return t == "f16" || t == "bf16" || t == "f32" || t == "f64"; }

// A double rounded to nearest even into a binary format with E exponent and
// M fraction bits (f16: 5/10, bf16: 8/7, f32: 8/23); a NaN becomes the
// canonical NaN (all bits but the sign set), as docs/launch-spec.md reads it.
uint64_t narrow_bits(double d, int E, int M) {
  const uint64_t sign = std::signbit(d) ? 1ull << (E + M) : 0;
  const uint64_t inf = ((1ull << E) - 1) << M;
  if (std::isnan(d)) return (1ull << (E + M)) - 1;
  const double a = std::fabs(d);
  if (std::isinf(a)) return sign | inf;
  if (a == 0) return sign;
  const int bias = (1 << (E - 1)) - 1, emin = 1 - bias;
  int e;
  std::frexp(a, &e);
  const int exp = std::max(e - 1, emin);           // a = 1.f * 2^exp, or subnormal
  const double q = std::rint(std::ldexp(a, M - exp));  // exact scaling, then round to nearest even
  uint64_t r = static_cast<uint64_t>(q);
  if (e - 1 < emin) return sign | r;                // subnormal (r == 2^M is the smallest normal)
  uint64_t biased = static_cast<uint64_t>(exp + bias);
  if (r == (2ull << M)) r >>= 1, ++biased;           // rounded up to the next binade
  if (biased >= (1ull << E) - 1) return sign | inf;
  return sign | (biased << M) | (r - (1ull << M));
}

uint64_t float_bits(double d, const std::string& type) {
  if (type == "f64") {
    if (std::isnan(d)) return 0x7fffffffffffffffull;
    uint64_t b;
    std::memcpy(&b, &d, 8);
    return b;
  }
  if (type == "f32") {
    if (std::isnan(d)) return 0x7fffffff;
    float f = static_cast<float>(d);
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
  }
  return type == "f16" ? narrow_bits(d, 5, 10) : narrow_bits(d, 8, 7);
}

// Raw bits of one value (docs/launch-spec.md: values are read by value): an
// integer, a hex-string bit pattern, or for floating-point buffers any number
// and the strings "nan", "inf", "-inf", "-0.0" and decimal spellings.
uint64_t value_bits(const json& v, const std::string& type) {
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    if (s.rfind("0x", 0) == 0 || s.rfind("0X", 0) == 0) return std::stoull(s.substr(2), nullptr, 16);
    if (is_float_type(type)) {
      std::string m = s[0] == '-' || s[0] == '+' ? s.substr(1) : s;
      double d;
      if (m == "nan" || m == "NaN") d = std::numeric_limits<double>::quiet_NaN();
      else if (m == "inf" || m == "Infinity") d = std::numeric_limits<double>::infinity();
      else {
        char* end = nullptr;
        d = std::strtod(m.c_str(), &end);
        if (m.empty() || *end) throw SpecError("unsupported value \"" + s + "\"");
      }
      if (s[0] == '-') d = -d;
      uint64_t b = float_bits(d, type);
      if (std::isnan(d) && s[0] == '-') b |= 1ull << (elem_size(type) * 8 - 1);
      return b;
    }
    throw SpecError("unsupported value \"" + s + "\"");
  }
  if (is_float_type(type)) {
    if (!v.is_number()) throw SpecError("unsupported value " + v.dump() + " for type " + type);
    return float_bits(v.get<double>(), type);
  }
  if (v.is_number_unsigned()) return v.get<uint64_t>();
  if (v.is_number_integer()) return static_cast<uint64_t>(v.get<int64_t>());
  throw SpecError("unsupported value " + v.dump() + " for type " + type);
}

void put(std::vector<uint8_t>& bytes, size_t i, unsigned es, uint64_t bits) {
  for (unsigned k = 0; k < es; ++k) bytes[i * es + k] = static_cast<uint8_t>(bits >> (8 * k));
}

std::vector<uint8_t> initial_bytes(const json& b, const fs::path& dir) {
  const std::string type = b.at("type").get<std::string>();
  const unsigned es = elem_size(type);
  const uint64_t count = b.at("count").get<uint64_t>();
  std::vector<uint8_t> bytes(count * es, 0);
  const json init = b.value("init", json("zero"));
  if (init.is_string() && init.get<std::string>() == "zero") return bytes;
  if (init.contains("fill")) {
    const uint64_t v = value_bits(init.at("fill"), type);
    for (uint64_t i = 0; i < count; ++i) put(bytes, i, es, v);
  } else if (init.contains("values")) {
    const json& vs = init.at("values");
    if (vs.empty()) throw SpecError("empty values list");
    for (uint64_t i = 0; i < count; ++i) put(bytes, i, es, value_bits(vs[i % vs.size()], type));
  } else if (init.contains("iota")) {
    const json& io = init.at("iota");
    if (is_float_type(type)) {
      for (uint64_t i = 0; i < count; ++i) {
        double d = io.at("start").get<double>() + static_cast<double>(i) * io.at("step").get<double>();
        put(bytes, i, es, value_bits(json(d), type));
      }
    } else {
      for (uint64_t i = 0; i < count; ++i)
        put(bytes, i, es, static_cast<uint64_t>(io.at("start").get<int64_t>() + static_cast<int64_t>(i) * io.at("step").get<int64_t>()));
    }
  } else if (init.contains("file")) {
    std::string data = read_file(dir / init.at("file").get<std::string>());
    if (data.size() != bytes.size()) throw SpecError("init file size does not match count * element size");
    std::memcpy(bytes.data(), data.data(), bytes.size());
  } else {
    throw SpecError("unsupported init " + init.dump());
  }
  return bytes;
}

std::array<unsigned, 3> dims(const json& j, const char* key) {
  std::array<unsigned, 3> d{1, 1, 1};
  if (!j.contains(key)) return d;
  const json& a = j.at(key);
  if (!a.is_array() || a.empty() || a.size() > 3) throw SpecError(std::string(key) + " needs 1 to 3 numbers");
  for (size_t i = 0; i < a.size(); ++i) d[i] = a[i].get<unsigned>();
  return d;
}

std::string hex(uint64_t v, unsigned es) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%0*llx", static_cast<int>(es * 2), static_cast<unsigned long long>(v));
  return buf;
}

int record(const std::string& spec_path, const std::string& out_path, int device) {
  const fs::path dir = fs::path(spec_path).parent_path();
  json spec;
  try {
    spec = json::parse(read_file(spec_path));
  } catch (const json::exception& e) {
    throw SpecError(std::string("malformed spec: ") + e.what());
  }
  const std::string ptx = read_file(dir / spec.at("ptx").get<std::string>());
  const std::string kernel = spec.at("kernel").get<std::string>();

  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, device));
  char name[256] = {0};
  CU(cuDeviceGetName(name, sizeof name - 1, dev));
  int major = 0, minor = 0, driver = 0;
  CU(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
  CU(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
  CU(cuDriverGetVersion(&driver));
  CUcontext ctx;
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));
  CUmodule mod;
  CU(cuModuleLoadData(&mod, ptx.c_str()));
  CUfunction fn;
  CU(cuModuleGetFunction(&fn, mod, kernel.c_str()));

  struct Buf {
    std::string name, type;
    CUdeviceptr ptr = 0;
    std::vector<uint8_t> bytes;
  };
  std::vector<Buf> bufs;
  for (const auto& [bname, b] : spec.at("buffers").items()) {
    Buf x{bname, b.at("type").get<std::string>(), 0, initial_bytes(b, dir)};
    CU(cuMemAlloc(&x.ptr, x.bytes.empty() ? 1 : x.bytes.size()));
    if (!x.bytes.empty()) CU(cuMemcpyHtoD(x.ptr, x.bytes.data(), x.bytes.size()));
    bufs.push_back(std::move(x));
  }
  auto find = [&](const std::string& n) -> Buf& {
    for (auto& b : bufs)
      if (b.name == n) return b;
    throw SpecError("no buffer named '" + n + "'");
  };
  std::vector<std::array<uint8_t, 8>> storage;
  for (const auto& a : spec.value("args", json::array())) {
    std::array<uint8_t, 8> s{};
    if (a.contains("buffer")) {
      CUdeviceptr p = find(a.at("buffer").get<std::string>()).ptr;
      std::memcpy(s.data(), &p, sizeof p);
    } else {
      if (a.size() != 1) throw SpecError("a scalar argument has exactly one type key");
      const std::string t = a.begin().key();
      uint64_t bits = value_bits(a.begin().value(), t);
      std::memcpy(s.data(), &bits, 8);  // little-endian: low bytes first
      (void)elem_size(t);
    }
    storage.push_back(s);
  }
  std::vector<void*> params;
  for (auto& s : storage) params.push_back(s.data());
  const auto g = dims(spec, "grid"), b = dims(spec, "block");
  const unsigned shmem = spec.value("dynamic_shared_bytes", 0u);
  CU(cuLaunchKernel(fn, g[0], g[1], g[2], b[0], b[1], b[2], shmem, nullptr, params.empty() ? nullptr : params.data(),
                    nullptr));
  CU(cuCtxSynchronize());

  json outputs = json::object();
  for (const auto& on : spec.value("outputs", json::array())) {
    Buf& x = find(on.get<std::string>());
    CU(cuMemcpyDtoH(x.bytes.data(), x.ptr, x.bytes.size()));
    const unsigned es = elem_size(x.type);
    json vals = json::array();
    for (size_t i = 0; i + es <= x.bytes.size(); i += es) {
      uint64_t v = 0;
      for (unsigned k = 0; k < es; ++k) v |= uint64_t{x.bytes[i + k]} << (8 * k);
      vals.push_back(hex(v, es));
    }
    outputs[x.name] = vals;
  }
  for (auto& x : bufs) CU(cuMemFree(x.ptr));
  CU(cuModuleUnload(mod));
  CU(cuDevicePrimaryCtxRelease(dev));

  const fs::path out_dir = fs::absolute(out_path).parent_path();
  json rec = {{"format", "ptxcheck-instr-recording/1"},
              {"spec", fs::relative(fs::absolute(spec_path), out_dir).string()},
              {"kernel", kernel},
              {"gpu", name},
              {"compute_capability", std::to_string(major) + "." + std::to_string(minor)},
              {"driver_version", driver},
              {"outputs", outputs}};
  std::ofstream out(out_path);
  out << rec.dump(1) << "\n";
  if (!out) throw SpecError("cannot write " + out_path);
  return 0;
}

constexpr const char* kUsage = "usage: ptxcheck-instr-host SPEC.json --out RECORDING.json [--device N]\n";

}  // namespace

int main(int argc, char** argv) {
  std::string spec, out;
  int device = 0;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--out" && i + 1 < argc) {
      out = argv[++i];
    } else if (a == "--device" && i + 1 < argc) {
      device = std::atoi(argv[++i]);
    } else if (a == "-h" || a == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (spec.empty() && !a.empty() && a[0] != '-') {
      spec = a;
    } else {
      std::fprintf(stderr, "ptxcheck-instr-host: unexpected argument '%s'\n%s", a.c_str(), kUsage);
      return 2;
    }
  }
  if (spec.empty() || out.empty()) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  try {
    return record(spec, out, device);
  } catch (const CudaError& e) {
    std::fprintf(stderr, "ptxcheck-instr-host: %s\n", e.what());
    return 1;
  } catch (const SpecError& e) {
    std::fprintf(stderr, "%s: error: %s\n", spec.c_str(), e.what());
    return 2;
  } catch (const json::exception& e) {
    std::fprintf(stderr, "%s: error: %s\n", spec.c_str(), e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error: %s\n", spec.c_str(), e.what());
    return 2;
  }
}
