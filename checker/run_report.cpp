// The report of `ptxcheck run` (text and JSON output objects, docs/launch-spec.md)
// and its --expect comparison; see run_report.hpp.
#include "checker/run_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <sstream>

#include "semantics/interp/values_fmt.hpp"
#include "semantics/interp/worker_pool.hpp"
#include "support/error.hpp"

namespace ptxcheck::cli {

using namespace interp;

namespace {

// The values of buffer `b`, each after `sep` but the first (which gets
// `first`), appended to out: format_value's spellings, written in place.
// A large buffer is written in `jobs` slices, one thread each, joined in order.
void append_values(std::string& out, const RunReport& r, size_t b, const char* first, const char* sep, unsigned jobs) {
  const BufferSpec& bs = r.spec.buffers[b];
  const uint8_t* bytes = r.result.buffers.at(b).data();
  const unsigned sz = elem_size(bs.type);
  const size_t nf = std::strlen(first), ns = std::strlen(sep);
  auto slice = [&](std::string& o, uint64_t lo, uint64_t hi) {
    constexpr size_t kBuf = 1 << 16;  // written here, appended to o when full
    std::unique_ptr<char[]> buf(new char[kBuf]);
    size_t at = 0;
    o.reserve(o.size() + (hi - lo) * (ns + 12));
    for (uint64_t i = lo; i < hi; ++i) {
      if (at + kValueChars + nf + ns > kBuf) {
        o.append(buf.get(), at);
        at = 0;
      }
      for (const char* c = i ? sep : first; *c;) buf[at++] = *c++;
      uint64_t v = 0;
      std::memcpy(&v, bytes + i * sz, sz);  // little-endian host
      at += format_value_to(buf.get() + at, v, bs.type);
    }
    o.append(buf.get(), at);
  };
  constexpr uint64_t kSlice = 1 << 16;  // values per thread, at least
  const uint64_t nt = std::min<uint64_t>(jobs, bs.count / kSlice);
  if (nt < 2) {
    slice(out, 0, bs.count);
    return;
  }
  std::vector<std::string> parts(nt);
  const uint64_t per = (bs.count + nt - 1) / nt;
  // On the process's kept threads (semantics/interp/worker_pool.hpp).
  interp::run_jobs(static_cast<unsigned>(nt), [&](unsigned k) {
    slice(parts[k], std::min<uint64_t>(bs.count, k * per), std::min<uint64_t>(bs.count, (k + 1) * per));
  });
  for (const auto& p : parts) out += p;
}

}  // namespace

std::vector<std::string> buffer_values(const RunReport& r, size_t b) {
  const BufferSpec& bs = r.spec.buffers[b];
  const auto& bytes = r.result.buffers.at(b);
  unsigned sz = elem_size(bs.type);
  std::vector<std::string> out;
  out.reserve(bs.count);
  for (uint64_t i = 0; i < bs.count; ++i) {
    uint64_t v = 0;
    std::memcpy(&v, &bytes[i * sz], sz);
    out.push_back(format_value(v, bs.type));
  }
  return out;
}

std::string jstr(const std::string& s) {
  std::string o = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      o += '\\';
      o += static_cast<char>(c);
    } else if (c < 0x20) {
      char b[8];
      std::snprintf(b, sizeof b, "\\u%04x", c);
      o += b;
    } else {
      o += static_cast<char>(c);
    }
  }
  return o + "\"";
}

std::string coords(const std::array<uint32_t, 3>& a) {
  return "[" + std::to_string(a[0]) + ", " + std::to_string(a[1]) + ", " + std::to_string(a[2]) + "]";
}

namespace {

const char* status(const RunReport& r) { return r.result.ok ? "ok" : "error"; }

// The "race" member of a race diagnostic: the location and both accesses
// (the earlier first), docs/races.md.
std::string race_json(const RaceInfo& ri) {
  auto access = [](const RaceAccess& a) {
    char addr[32];
    std::snprintf(addr, sizeof addr, "0x%llx", static_cast<unsigned long long>(a.address));
    return "{\"access\": \"" + std::string(a.write ? "write" : "read") + "\", \"cta\": " + coords(a.cta) +
           ", \"thread\": " + coords(a.thread) + ", \"warp\": " + std::to_string(a.warp) +
           ", \"lane\": " + std::to_string(a.lane) + ", \"line\": " + std::to_string(a.line) +
           ", \"col\": " + std::to_string(a.col) + ", \"source\": " + jstr(a.source) + ", \"address\": \"" + addr +
           "\", \"size\": " + std::to_string(a.size) + ", \"order\": " + jstr(a.order) + "}";
  };
  std::string o = "{\"space\": " + jstr(ri.space);
  if (ri.shared) o += ", \"owner_cta\": " + coords(ri.owner);
  return o + ", \"accesses\": [" + access(ri.first) + ", " + access(ri.second) + "]}";
}

}  // namespace

std::string format_json(const RunReport& r, unsigned jobs) {
  std::ostringstream o;
  o << "{\n  \"kernel\": " << jstr(r.spec.kernel) << ",\n  \"status\": \"" << status(r) << "\",\n  \"outputs\": {";
  bool first = true;
  for (const auto& name : r.spec.outputs) {
    size_t b = static_cast<size_t>(r.spec.buffer_index(name));
    o << (first ? "\n" : ",\n") << "    " << jstr(name) << ": [";
    first = false;
    std::string vals;
    append_values(vals, r, b, "", ", ", jobs);
    o.write(vals.data(), static_cast<std::streamsize>(vals.size()));
    o << "]";
  }
  o << (first ? "},\n" : "\n  },\n");
  o << "  \"diagnostics\": [";
  for (size_t i = 0; i < r.result.diagnostics.size(); ++i) {
    const Diagnostic& d = r.result.diagnostics[i];
    o << (i ? ",\n" : "\n") << "    {\"kind\": " << jstr(d.kind) << ", \"severity\": " << jstr(d.severity)
      << ", \"kernel\": " << jstr(d.kernel) << ", \"cta\": " << coords(d.cta) << ", \"thread\": " << coords(d.thread)
      << ", \"file\": " << jstr(d.file) << ", \"line\": " << d.line << ", \"col\": " << d.col
      << ", \"message\": " << jstr(d.message) << ", \"count\": " << d.count;
    if (d.race) o << ", \"race\": " << race_json(*d.race);
    o << "}";
  }
  o << (r.result.diagnostics.empty() ? "],\n" : "\n  ],\n");
  if (!r.result.printf_output.empty()) o << "  \"stdout\": " << jstr(r.result.printf_output) << ",\n";
  char secs[64];
  std::snprintf(secs, sizeof secs, "%.6f", r.result.seconds);
  o << "  \"stats\": {\"thread_instructions\": " << r.result.thread_instructions << ", \"seconds\": " << secs
    << "}\n}\n";
  return o.str();
}

std::string format_text(const RunReport& r, unsigned jobs) {
  std::ostringstream head;
  head << r.result.printf_output;
  head << "kernel " << r.spec.kernel << ": " << status(r) << " (" << r.result.thread_instructions
       << " thread instructions, " << r.result.seconds << " s)\n";
  std::string out = head.str();
  for (const auto& name : r.spec.outputs) {  // written in place: they can be large
    out += name;
    out += " =";
    append_values(out, r, static_cast<size_t>(r.spec.buffer_index(name)), " ", " ", jobs);
    out += '\n';
  }
  std::ostringstream o;
  for (const auto& d : r.result.diagnostics) {
    o << d.file << ':' << d.line << ':' << d.col << ": " << d.severity << ": " << d.kind << ": " << d.message
      << " (kernel " << d.kernel << ", CTA " << coords(d.cta) << ", thread " << coords(d.thread) << ")";
    if (d.count > 1) o << " [" << d.count << " times]";
    o << '\n';
  }
  return out + o.str();
}

namespace {

// Distance in ulps between two float bit patterns of the same type
// (monotonic integer mapping of the sign-magnitude encoding).
uint64_t ulp_distance(uint64_t a, uint64_t b, ElemType t) {
  unsigned n = elem_size(t) * 8;
  uint64_t sign = 1ull << (n - 1);
  auto key = [&](uint64_t x) -> __int128 {
    return (x & sign) ? -static_cast<__int128>(x & ~sign) : static_cast<__int128>(x);
  };
  __int128 d = key(a) - key(b);
  if (d < 0) d = -d;
  return d > static_cast<__int128>(UINT64_MAX) ? UINT64_MAX : static_cast<uint64_t>(d);
}

}  // namespace

ExpectOutcome check_expected(const RunReport& r, const std::string& path) {
  std::string text = read_file_text(path);
  JNode root = parse_json(path, text);
  if (!root.is_object()) throw InputError(path, root.pos, "an expected-output file must be a JSON object");
  uint64_t ulps = 0;
  if (const JNode* tol = root.find("tolerance")) {
    const JNode* u = tol->is_object() ? tol->find("ulp") : nullptr;
    if (!u || !u->is_number() || u->text.find_first_of(".-eE") != std::string::npos)
      throw InputError(path, tol->pos, "\"tolerance\" must be {\"ulp\": N} with N a non-negative integer");
    ulps = std::stoull(u->text);
  }
  ExpectOutcome out;
  for (size_t i = 0; i < root.members.size(); ++i) {
    const auto& [name, vals] = root.members[i];
    if (name == "tolerance") continue;
    int bi = r.spec.buffer_index(name);
    if (bi < 0) throw InputError(path, root.key_pos[i], "\"" + name + "\" is not a buffer of the launch spec");
    const BufferSpec& bs = r.spec.buffers[static_cast<size_t>(bi)];
    if (!vals.is_array()) throw InputError(path, vals.pos, "expected values of \"" + name + "\" must be an array");
    if (vals.items.size() != bs.count)
      throw InputError(path, vals.pos,
                       "\"" + name + "\" lists " + std::to_string(vals.items.size()) + " values; the buffer has " +
                           std::to_string(bs.count));
    unsigned sz = elem_size(bs.type);
    const auto& bytes = r.result.buffers.at(static_cast<size_t>(bi));
    for (size_t k = 0; k < vals.items.size(); ++k) {
      uint64_t want = read_value(vals.items[k], bs.type, path);
      uint64_t got = 0;
      std::memcpy(&got, &bytes[k * sz], sz);
      ++out.compared;
      bool ok = got == want;
      if (!ok && ulps && elem_is_float(bs.type)) {
        bool gn = std::isnan(float_bits_to_double(got, bs.type)), wn = std::isnan(float_bits_to_double(want, bs.type));
        ok = (gn && wn) || (!gn && !wn && ulp_distance(got, want, bs.type) <= ulps);
      }
      if (!ok) {
        out.ok = false;
        if (++out.mismatch_count <= 10)
          out.mismatches.push_back(name + "[" + std::to_string(k) + "]: expected " + format_value(want, bs.type) +
                                   ", got " + format_value(got, bs.type));
      }
    }
  }
  return out;
}

}  // namespace ptxcheck::cli
