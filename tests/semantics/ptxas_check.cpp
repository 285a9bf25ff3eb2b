// Every mnemonic in corpus/instr/*.vec must be valid PTX: this writes one
// instance of each (operand registers typed from the resolved OpDesc) into a
// kernel and asks ptxas to assemble it. Skipped (with a warning) when ptxas
// is absent. Video selector tokens (asel_ etc.) are not PTX syntax; those
// mnemonics are left out.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>

#include "semantics/arith/resolve.hpp"

using namespace ptxcheck::arith;
namespace fs = std::filesystem;

namespace {

std::string reg(Ty t, int i) {
  unsigned b = ty_bits(t);
  std::string n = std::to_string(i);
  if (t == Ty::pred) return "%p" + n;
  if (t == Ty::e2m1x2) return "%bb" + n;  // PTX ISA 5.2.5.1: e2m1x2 lives in a .b8 register
  if (b == 8) return (t == Ty::s8 ? "%sc" : "%uc") + n;
  if (b == 16) return "%rs" + n;
  if (b == 32) return "%r" + n;
  return "%rd" + n;
}

// One PTX statement exercising mnemonic m.
std::string statement(const std::string& m, const OpDesc& d) {
  std::string op = m.substr(0, m.find('.'));
  unsigned n = d.nsrc;
  if (op == "addc" || op == "subc" || op == "madc") --n;  // carry-in is implicit (CC.CF)
  std::string s = m + " ";
  if (op == "lop3" && n == 5) return s + "%r0|%p0, %r1, %r2, %r3, 0x96, %p1;";
  s += (op == "setp" && d.aux_out) ? "%p0|%p1" : reg(d.dst, 0);
  for (unsigned i = 0; i < n; ++i) s += ", " + ((op == "lop3" && i == 3) ? std::string("0x96") : reg(d.src[i], int(i) + 1));
  return s + ";";
}

// cvt forms introduced after PTX ISA 9.0, the newest version the CUDA 13.0
// ptxas implements: .bf16x2 to fp8/fp6/fp4 and .f16x2 to fp6 (PTX 9.1),
// .bf16x2 from fp8/fp6/fp4 (PTX 9.2).
bool newer_than_ptxas(const std::string& m) {
  if (m.rfind("cvt.", 0) != 0) return false;
  size_t b = m.rfind('.'), a = m.rfind('.', b - 1);
  std::string dst = m.substr(a + 1, b - a - 1), src = m.substr(b + 1);
  auto small = [](const std::string& t) {
    return t == "e4m3x2" || t == "e5m2x2" || t == "e2m1x2" || t == "e2m3x2" || t == "e3m2x2";
  };
  return (src == "bf16x2" && small(dst)) || (dst == "bf16x2" && small(src)) ||
         (src == "f16x2" && (dst == "e2m3x2" || dst == "e3m2x2"));
}

}  // namespace

TEST_CASE("ptxas accepts every mnemonic of the instruction vectors", "[ptxas]") {
  const char* env = std::getenv("PTXAS");
  std::string ptxas = env != nullptr ? env : "/usr/local/cuda/bin/ptxas";
  if (!fs::exists(ptxas)) {
    WARN("ptxas not found at " << ptxas << ": skipped");
    return;
  }
  const char* src = std::getenv("PTXCHECK_SRC");
  fs::path dir = fs::path(src != nullptr ? src : ".") / "corpus" / "instr";
  std::set<std::string> mns;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".vec") continue;
    std::ifstream in(e.path());
    for (std::string line; std::getline(in, line);) {
      std::istringstream ls(line);
      std::string m;
      if ((ls >> m) && m[0] != '#' && m.find('_') == std::string::npos && !newer_than_ptxas(m)) mns.insert(m);
    }
  }
  REQUIRE(mns.size() > 1000);
  std::ostringstream ptx;
  ptx << ".version 9.0\n.target sm_100a\n.address_size 64\n.visible .entry k() {\n"
      << ".reg .pred %p<8>;\n.reg .s8 %sc<8>;\n.reg .u8 %uc<8>;\n.reg .b8 %bb<8>;\n.reg .b16 %rs<8>;\n"
      << ".reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n";
  for (const auto& m : mns) {
    auto r = resolve(m);
    INFO(m << ": " << r.error);
    REQUIRE(r);
    ptx << "  " << statement(m, *r.desc) << "\n";
  }
  ptx << "  ret;\n}\n";
  fs::path tmp = fs::temp_directory_path() / ("ptxcheck_arith_" + std::to_string(::getpid()));
  fs::create_directories(tmp);
  { std::ofstream(tmp / "all.ptx") << ptx.str(); }
  std::string cmd = "'" + ptxas + "' -arch=sm_100a '" + (tmp / "all.ptx").string() + "' -o '" +
                    (tmp / "all.cubin").string() + "' > '" + (tmp / "log").string() + "' 2>&1";
  int rc = std::system(cmd.c_str());
  std::ifstream log(tmp / "log");
  std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  INFO(text.substr(0, 4000));
  CHECK(rc == 0);
  fs::remove_all(tmp);
}
