// Internal to hw/instr: what the wgmma, wgmma.mma_async.sp and mma.sp test
// generators share. wgmma_pick.cpp draws a test's configuration and operand
// values (wgmma_gen.cpp's header comment gives the PTX ISA sections);
// wgmma_emit.cpp writes its shared-memory image, kernel, spec and manifest.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "hw/instr/edges.hpp"
#include "hw/instr/wgmma_gen.hpp"

namespace ptxcheck::instrgen::wgmma_detail {

constexpr unsigned kThreads = 128;  // one warpgroup

struct Cfg {
  std::string a, b, d;     // operand and accumulator types
  unsigned k = 16, n = 8;  // shape m64nNkK
  bool a_regs = false, satfinite = false, special = false, scale_d = true;
  int scale_a = 1, scale_b = 1;
  bool trans_a = false, trans_b = false;
  // wgmma.mma_async.sp (PTX ISA 9.7.15.6): k is the logical K (twice the
  // dense one), A the packed 64 x K/2 matrix; sel the sparsity selector;
  // unordered: some metadata indices name the second position first.
  bool sparse = false, unordered = false;
  unsigned sel = 0;
  // mma.sp (PTX ISA 9.7.14.6.3): ::ordered_metadata, .kind::f8f6f4
  bool ordered = false, kind = false;
};

// A canonical layout of one operand and its descriptor fields.
struct Layout {
  unsigned mode = 0;  // descriptor swizzle field
  uint32_t lbo = 0, sbo = 0, kofs = 0, bytes = 0;
  std::string what;  // for the kernel comment
};

bool is_float_in(const std::string& t);
unsigned in_bits(const std::string& t);
// n 32-bit words of random operands of type t (special values per mille).
std::vector<uint32_t> pack(Rng& rng, const std::string& t, unsigned words, unsigned special_permille);
uint32_t accumulator(Rng& rng, const Cfg& c);
// A random canonical layout of `rows` rows of `chunks` 16-byte chunks of K
// (2: 32 bytes, every dense wgmma operand and the packed A of .sp; 4: the
// B operand of wgmma.mma_async.sp), K-major or MN-major.
Layout pick_layout(Rng& rng, unsigned rows, bool mn_major, unsigned chunks);
uint32_t sp_meta_word(Rng& rng, bool tf32, bool unordered);
uint64_t desc_const(const Layout& l);
std::string hex64(uint64_t v);
Cfg pick_cfg(Rng& rng);
Cfg pick_cfg_sp(Rng& rng);
Cfg pick_cfg_mma_sp(Rng& rng);

// The test of configuration c (wgmma_emit.cpp).
Test build_test(Rng& rng, const Cfg& c, uint64_t seed, unsigned index);
Test build_mma_sp(Rng& rng, const Cfg& c, uint64_t seed, unsigned index);

}  // namespace ptxcheck::instrgen::wgmma_detail
