// The symbolic per-thread executor (semantics/interp/trace_exec): reads fork
// over value sets, events carry the lowering's order and scope, and the
// addr/data/ctrl dependencies follow the registers.
#include <catch2/catch.hpp>

#include <algorithm>

#include "parser/parse.hpp"
#include "semantics/interp/lower.hpp"
#include "semantics/interp/trace_exec.hpp"

using namespace ptxcheck;
using namespace ptxcheck::interp;

namespace {

const char* kKernel = R"(.version 8.0
.target sm_90
.address_size 64
.global .u32 x;
.global .u32 y;
.visible .entry k()
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  .reg .pred %p;
  ld.relaxed.gpu.global.u32 %r0, [x];
  add.u32 %r1, %r0, 1;
  st.release.gpu.global.u32 [y], %r1;
  mul.wide.u32 %rd0, %r0, 0;
  mov.u64 %rd1, y;
  add.u64 %rd2, %rd1, %rd0;
  atom.global.add.u32 %r2, [%rd2], 3;
  setp.eq.u32 %p, %r0, 0;
  @%p bra DONE;
  st.volatile.global.u32 [y], 7;
DONE:
  fence.sc.cta;
  exit;
}
)";

class Env : public TraceEnv {
 public:
  explicit Env(const Program& p) : p_(p) {}
  int locate(Space, uint64_t addr, unsigned, const Inst&) const override {
    for (size_t g = 0; g < p_.globals.size(); ++g)
      if (p_.globals[g].addr == addr) return static_cast<int>(g);
    throw InputError("k.ptx", {}, "no location");
  }
  int locate_start(Space sp, uint64_t addr, unsigned& size, const Inst& in) const override {
    size = 4;
    return locate(sp, addr, size, in);
  }
  const std::vector<uint64_t>& values(int loc) const override { return loc == 0 ? x_ : y_; }
  uint64_t sreg(SReg) const override { return 0; }

 private:
  const Program& p_;
  std::vector<uint64_t> x_{0, 5}, y_{0};
};

bool has(const std::vector<std::pair<int, int>>& v, int a, int b) {
  return std::find(v.begin(), v.end(), std::make_pair(a, b)) != v.end();
}

}  // namespace

TEST_CASE("trace_exec: one trace per read value, with events and dependencies", "[kernels]") {
  auto m = parse_module(kKernel, "k.ptx");
  Program p = lower(m, "k", {}, "k.json");
  Env env(p);
  ThreadPaths paths = trace_paths(p, p.kernel, {}, env, TraceLimits{});
  // x reads 0 or 5; the atom reads y's only value 0.
  REQUIRE(paths.traces.size() == 2);
  const ThreadTrace& t0 = paths.traces[0];  // x = 0: the branch skips the volatile store
  const ThreadTrace& t5 = paths.traces[1];
  REQUIRE(t0.events.size() == 5);  // R x, W y, R y, W y (atom), F
  REQUIRE(t5.events.size() == 6);  // ... and W y = 7 before the fence
  CHECK(t0.events[0].kind == mm::EventKind::Read);
  CHECK(t0.events[0].order == mm::Order::Relaxed);
  CHECK(t0.events[0].scope == mm::Scope::GPU);
  CHECK(t0.events[1].value == 1);
  CHECK(t5.events[1].value == 6);
  CHECK(t5.events[1].order == mm::Order::Release);
  // atom.add without .sem/.scope: relaxed at gpu scope (PTX ISA 9.7.13.5).
  CHECK(t5.events[2].order == mm::Order::Relaxed);
  CHECK(t5.events[2].scope == mm::Scope::GPU);
  CHECK(t5.events[2].rmw_pair == 3);
  CHECK(t5.events[3].value == 3);
  // volatile = relaxed.sys (PTX ISA 8.4.2).
  CHECK(t5.events[4].value == 7);
  CHECK(t5.events[4].order == mm::Order::Relaxed);
  CHECK(t5.events[4].scope == mm::Scope::Sys);
  CHECK(t5.events[5].kind == mm::EventKind::Fence);
  CHECK(t5.events[5].order == mm::Order::SC);
  CHECK(t5.events[5].scope == mm::Scope::CTA);
  // Dependencies: data R x -> W y; addr R x -> both halves of the atom
  // (through mul.wide and add); ctrl R x -> the guarded store and the fence.
  CHECK(has(t5.data, 0, 1));
  CHECK(has(t5.addr, 0, 2));
  CHECK(has(t5.addr, 0, 3));
  CHECK(has(t5.ctrl, 0, 4));
  CHECK(has(t5.ctrl, 0, 5));
  CHECK_FALSE(has(t5.ctrl, 0, 1));
  CHECK(paths.written.size() == 5);
}

TEST_CASE("trace_exec: loops obey the unroll bound", "[kernels]") {
  const char* spin = R"(.version 8.0
.target sm_90
.address_size 64
.global .u32 f;
.visible .entry k()
{
  .reg .b32 %r<2>;
  .reg .pred %p;
  mov.u32 %r1, 0;
L:
  ld.acquire.gpu.global.u32 %r0, [f];
  add.u32 %r1, %r1, 1;
  setp.eq.u32 %p, %r0, 0;
  @%p bra L;
  exit;
}
)";
  auto m = parse_module(spin, "k.ptx");
  Program p = lower(m, "k", {}, "k.json");
  class E : public TraceEnv {
   public:
    int locate(Space, uint64_t, unsigned, const Inst&) const override { return 0; }
    int locate_start(Space, uint64_t, unsigned& size, const Inst&) const override {
      size = 4;
      return 0;
    }
    const std::vector<uint64_t>& values(int) const override { return v; }
    uint64_t sreg(SReg) const override { return 0; }
    std::vector<uint64_t> v{0, 1};
  } env;
  TraceLimits lim;
  lim.unroll = 2;
  ThreadPaths paths = trace_paths(p, p.kernel, {}, env, lim);
  // Reads 1 at the first, second or third attempt; reading 0 three times is cut.
  CHECK(paths.traces.size() == 3);
  CHECK(paths.cut == 1);
}
