// Scaling families (families.hpp). Thread i runs in CTA i of GPU 0, so
// gpu-scoped operations of different threads are morally strong (8.7) and
// nothing synchronizes through a CTA scope.
#include "bench/litmus/families.hpp"

namespace ptxcheck::bench {
namespace {

std::string head(const std::string& name, int n, const std::vector<std::string>& locs) {
  std::string s = "PTX " + name + "-" + std::to_string(n) + "\n{\n";
  for (const auto& l : locs) s += "  .global .u32 " + l + " = 0;\n";
  return s + "}\n";
}

std::string thread(int i, const std::string& body) {
  return "T" + std::to_string(i) + " @ cta " + std::to_string(i) + ", gpu 0 {\n" + body + "}\n";
}

std::string x(int i) { return "x" + std::to_string(i); }
std::string st(const std::string& l, int v, const char* sem = "relaxed") {
  return "  st.global." + std::string(sem) + ".gpu.u32 [" + l + "], " + std::to_string(v) + ";\n";
}
std::string ld(const std::string& r, const std::string& l, const char* sem = "relaxed") {
  return "  ld.global." + std::string(sem) + ".gpu.u32 " + r + ", [" + l + "];\n";
}
std::string join(const std::vector<std::string>& parts) {
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i) s += (i ? " /\\ " : "") + parts[i];
  return "exists (" + s + ")\n";
}

std::vector<std::string> xs(int n) {
  std::vector<std::string> v;
  for (int i = 0; i < n; ++i) v.push_back(x(i));
  return v;
}

// SB ring: Ti writes x_i, fence.sc, reads x_{i+1}; all reads 0 is forbidden:
// the first fence in Fence-SC order synchronizes with its predecessor's
// (8.9.3), so that thread's read is caused by the store it missed (8.10.6).
std::string sb_ring(int n) {
  std::string s = head("sb-ring", n, xs(n));
  std::vector<std::string> c;
  for (int i = 0; i < n; ++i) {
    s += thread(i, st(x(i), 1) + "  fence.sc.gpu;\n" + ld("%r", x((i + 1) % n)));
    c.push_back("T" + std::to_string(i) + ":%r == 0");
  }
  return s + join(c);
}

// IRIW with n-2 readers, fence.sc between each reader's two loads, readers
// alternating the order of x and y; every reader seeing its first location
// written and its second not is forbidden (two readers in opposite orders
// already are: Fence-SC orders their fences, 8.10.2 and 8.10.6).
std::string iriw(int n) {
  std::string s = head("iriw", n, {"x", "y"});
  s += thread(0, st("x", 1)) + thread(1, st("y", 1));
  std::vector<std::string> c;
  for (int i = 2; i < n; ++i) {
    const bool odd = i % 2;
    s += thread(i, ld("%a", odd ? "y" : "x") + "  fence.sc.gpu;\n" + ld("%b", odd ? "x" : "y"));
    c.push_back("T" + std::to_string(i) + ":%a == 1 /\\ T" + std::to_string(i) + ":%b == 0");
  }
  return s + join(c);
}

// MP chain with fences: T0 writes data, fence.acq_rel, flag x1; Ti reads
// x_i, fence.acq_rel, writes x_{i+1}; the last reads its flag and data.
// Seeing every flag but stale data is forbidden: each fence pair forms
// release/acquire patterns (8.8) that synchronize (8.9.4), base causality
// is transitive (8.9.5), and the stale read contradicts it (8.10.6).
std::string mp_chain(int n) {
  std::vector<std::string> locs{"d"};
  for (int i = 1; i < n; ++i) locs.push_back(x(i));
  std::string s = head("mp-chain", n, locs);
  std::vector<std::string> c;
  s += thread(0, st("d", 1) + "  fence.acq_rel.gpu;\n" + st(x(1), 1));
  for (int i = 1; i < n; ++i) {
    std::string body = ld("%f", x(i)) + "  fence.acq_rel.gpu;\n";
    body += i + 1 < n ? st(x(i + 1), 1) : ld("%d", "d");
    s += thread(i, body);
    c.push_back("T" + std::to_string(i) + ":%f == 1");
  }
  c.push_back("T" + std::to_string(n - 1) + ":%d == 0");
  return s + join(c);
}

// ISA2 chain: as the MP chain, with st.release / ld.acquire on the flags
// instead of fences (8.8 forms 1 and 2). Forbidden likewise.
std::string isa2_chain(int n) {
  std::vector<std::string> locs{"d"};
  for (int i = 1; i < n; ++i) locs.push_back(x(i));
  std::string s = head("isa2-chain", n, locs);
  std::vector<std::string> c;
  s += thread(0, st("d", 1) + st(x(1), 1, "release"));
  for (int i = 1; i < n; ++i) {
    std::string body = ld("%f", x(i), "acquire");
    body += i + 1 < n ? st(x(i + 1), 1, "release") : ld("%d", "d");
    s += thread(i, body);
    c.push_back("T" + std::to_string(i) + ":%f == 1");
  }
  c.push_back("T" + std::to_string(n - 1) + ":%d == 0");
  return s + join(c);
}

// WRC chain: T0 writes d; T1 reads it, fence.acq_rel, writes x1; Ti reads
// x_{i-1}, fence.acq_rel, writes x_i; the last reads its flag, fence, d.
// Forbidden: observation of T0's write (8.9.2) followed by base causality
// through the fence chain is causality (8.9.5), so the last read of d
// cannot miss it (8.10.6).
std::string wrc_chain(int n) {
  std::vector<std::string> locs{"d"};
  for (int i = 1; i < n - 1; ++i) locs.push_back(x(i));
  std::string s = head("wrc-chain", n, locs);
  std::vector<std::string> c;
  s += thread(0, st("d", 1));
  for (int i = 1; i < n; ++i) {
    const std::string in = i == 1 ? "d" : x(i - 1);
    std::string body = ld("%f", in) + "  fence.acq_rel.gpu;\n";
    body += i + 1 < n ? st(x(i), 1) : ld("%d", "d");
    s += thread(i, body);
    c.push_back("T" + std::to_string(i) + ":%f == 1");
  }
  c.push_back("T" + std::to_string(n - 1) + ":%d == 0");
  return s + join(c);
}

// LB ring without dependencies: Ti reads x_i, then writes 1 to x_{i+1}.
// Every read seeing 1 is allowed: nothing orders a read before the po-later
// store of another thread (8.10.4 forbids only dependency cycles).
std::string lb_ring(int n) {
  std::string s = head("lb-ring", n, xs(n));
  std::vector<std::string> c;
  for (int i = 0; i < n; ++i) {
    s += thread(i, ld("%r", x(i)) + st(x((i + 1) % n), 1));
    c.push_back("T" + std::to_string(i) + ":%r == 1");
  }
  return s + join(c);
}

// 2+2W ring with fence.sc: Ti writes x_i = 1, fence.sc, x_{i+1} = 2. Every
// location ending with 1 is forbidden: the first fence in Fence-SC order
// synchronizes with its predecessor's, which orders that predecessor's
// write of 2 after this thread's write of 1 in causality, hence in
// coherence (8.10.1).
std::string two_two_w_ring(int n) {
  std::string s = head("2+2w-ring", n, xs(n));
  std::vector<std::string> c;
  for (int i = 0; i < n; ++i) {
    s += thread(i, st(x(i), 1) + "  fence.sc.gpu;\n" + st(x((i + 1) % n), 2));
    c.push_back(x(i) + " == 1");
  }
  return s + join(c);
}

}  // namespace

const std::vector<Family>& families() {
  static const std::vector<Family> all = {
      {"sb-ring", sb_ring, 2, false},       {"iriw", iriw, 4, false},
      {"mp-chain", mp_chain, 2, false},     {"isa2-chain", isa2_chain, 2, false},
      {"wrc-chain", wrc_chain, 3, false},   {"lb-ring", lb_ring, 2, true},
      {"2+2w-ring", two_two_w_ring, 2, false},
  };
  return all;
}

}  // namespace ptxcheck::bench
