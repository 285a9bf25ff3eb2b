// Litmus front ends: every Dat3M corpus test parses, lowers and yields
// traces; malformed input fails with file:line:col; the native format reads
// PTX thread bodies.
#include <catch2/catch.hpp>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "parser/litmus/litmus_ast.hpp"
#include "semantics/interp/trace_exec.hpp"
#include "semantics/litmus/program.hpp"
#include "semantics/litmus/traces.hpp"

using namespace ptxcheck;
using namespace ptxcheck::litmus;
namespace fs = std::filesystem;

namespace {
std::string env_or(const char* name, const char* dflt) {
  const char* v = std::getenv(name);
  return v ? v : dflt;
}

SourcePos error_pos(std::string_view text) {
  try {
    (void)parse_litmus_text(text, "t.litmus");
  } catch (const InputError& e) {
    CHECK(e.file() == "t.litmus");
    return e.pos();
  }
  FAIL("no InputError for malformed input");
  return {};
}
}  // namespace

TEST_CASE("all Dat3M PTX corpus tests parse, lower and trace", "[dat3m-corpus]") {
  fs::path root = fs::path(env_or("PTXCHECK_SHARED", "../shared")) / "corpus/dat3m-ptx/litmus/PTX";
  if (!fs::exists(root)) {
    WARN("corpus not found at " << root << "; skipped");
    return;
  }
  int n = 0, with_loops = 0;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (e.path().extension() != ".litmus") continue;
    ++n;
    INFO(e.path());
    Test t = parse_litmus_file(e.path().string());
    REQUIRE(!t.threads.empty());
    Program p = lower(t);
    TraceSet ts = build_traces(p, TraceLimits{});
    for (const auto& th : ts.threads) CHECK(th.traces.size() + th.cut > 0);
    with_loops += ts.bound_hit();
  }
  CHECK(n == 748);
  CHECK(with_loops > 0);  // CADP spin loops exercise the bound
}

TEST_CASE("Dat3M dialect constructs map to the model's vocabulary", "[dat3m-syntax]") {
  Test t = parse_litmus_text(R"(PTX demo
"doc"
{ x=0; y @ texture aliases x; P1:r3=7 }
 P0@cta 0,gpu 0                 | P1@cta 1,gpu 0           ;
 atom.acq_rel.gpu.cas r1, x, 0, 2 | tld.weak r0, y         ;
 red.relaxed.sys.add x, 1       | bar.cta.sync 1, r3, 2    ;
 fence.proxy.texture            | LC00:                    ;
exists (P1:r0 == 2 \/ ~(x != 3))
)",
                             "demo.litmus");
  REQUIRE(t.threads.size() == 2);
  CHECK(t.threads[1].place.cta == 1);
  const Instr& cas = t.threads[0].code[0];
  CHECK(cas.kind == InstrKind::Rmw);
  CHECK(cas.op == AluOp::Cas);
  CHECK(cas.order == mm::Order::AcqRel);
  CHECK(cas.scope == mm::Scope::GPU);
  CHECK(cas.args.size() == 2);
  CHECK(t.threads[0].code[1].kind == InstrKind::Red);
  CHECK(t.threads[0].code[2].pfence == mm::ProxyFenceKind::Texture);
  CHECK(t.threads[1].code[0].proxy == mm::Proxy::Texture);
  const Instr& bar = t.threads[1].code[1];
  CHECK(bar.bar == mm::BarrierOp::Sync);
  CHECK(bar.bar_count == 2);
  CHECK(bar.args[1].is_reg);
  CHECK(t.cond.kind == Cond::Or);
  Program p = lower(t);
  // y aliases x: one physical location, two names.
  CHECK(p.locations[p.loc_index("y")].physical == p.locations[p.loc_index("x")].physical);
  CHECK(p.locations[p.loc_index("y")].proxy == mm::Proxy::Texture);
  CHECK(p.threads[1].reg_init[p.threads[1].slot("r3")] == 7);
}

TEST_CASE("Dat3M dialect: ptxcheck's async-proxy extension", "[dat3m-syntax]") {
  Test t = parse_litmus_text(R"(PTX async
{ s=1; s @ shared; g=0; bar @ shared; }
 P0@cta 0,gpu 0                                      | P1@cta 0,gpu 0 ;
 fence.proxy.async.shared::cta                       | mbarrier.try_wait.parity.shared::cta.b64 r0, bar, 0 ;
 cp.async.bulk.global.shared::cta.bulk_group g, s, 4 | fence.proxy.async.global ;
 cp.async.bulk.wait_group.read 0                     | fence.proxy.async ;
exists (P1:r0 == 1)
)",
                             "async.litmus");
  const Instr& f = t.threads[0].code[0];
  CHECK(f.kind == InstrKind::ProxyFence);
  CHECK(f.pfence == mm::ProxyFenceKind::Async);
  CHECK(f.fspace == mm::StateSpace::Shared);
  CHECK(t.threads[1].code[1].fspace == mm::StateSpace::Global);
  CHECK(t.threads[1].code[2].fspace == mm::StateSpace::Any);
  const Instr& cp = t.threads[0].code[1];
  CHECK(cp.kind == InstrKind::Ptx);
  CHECK(cp.ptx_text == "cp.async.bulk.global.shared::cta.bulk_group [g], [s], 4;");
  CHECK(t.threads[0].code[2].ptx_text == "cp.async.bulk.wait_group.read 0;");
  CHECK(t.threads[1].code[0].dst == "r0");
  Program p = lower(t);
  CHECK(p.locations[p.loc_index("s")].space == mm::StateSpace::Shared);
  CHECK(p.locations[p.loc_index("s")].init == 1);
  CHECK(p.locations[p.loc_index("g")].space == mm::StateSpace::Global);
  CHECK(p.locations[p.loc_index("bar")].space == mm::StateSpace::Shared);
  // Malformed forms.
  CHECK(error_pos("PTX t\n{ s=0; }\n P0@cta 0,gpu 0 ;\n cp.async.bulk.global.shared::cta g, s, 4 ;\nexists (s == 1)\n")
            .line == 4);
  CHECK(error_pos("PTX t\n{ s=0; }\n P0@cta 0,gpu 0 ;\n fence.proxy.async.local ;\nexists (s == 1)\n").line == 4);
  CHECK(error_pos("PTX t\n{ s=0; }\n P0@cta 0,gpu 0 ;\n cp.async.bulk.wait_group.all 0 ;\nexists (s == 1)\n").line ==
        4);
}

TEST_CASE("malformed litmus input reports file:line:col", "[litmus-errors]") {
  SourcePos p = error_pos("PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\n frob r0, x ;\nexists (x == 1)\n");
  CHECK(p.line == 5);
  CHECK(p.col == 2);
  p = error_pos("PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.acquire.gpu x, 1 ;\nexists (x == 1)\n");
  CHECK(p.line == 4);
  CHECK_THROWS_AS(lower(parse_litmus_text("PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n goto LC09 ;\nexists (x == 1)\n", "t")),
                  InputError);
  p = error_pos(
      "PTX t\n{\n  .global .u32 x = 0;\n}\nT0 @ cta 0 {\n  st.global.u32 [x], 1;\n  ld.global.u32 %r0 [x];\n}\nexists "
      "(x == 1)\n");
  CHECK(p.line == 7);
  p = error_pos("PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (P0:r0 == )\n");
  CHECK(p.line == 5);
  CHECK(p.col == 18);
  p = error_pos("");
  CHECK(p.line == 1);
}

TEST_CASE("doc strings and comments do not decide the dialect", "[native]") {
  // A brace pair then a newline inside the doc string once sent a native
  // test to the Dat3M reader ("expected declaration").
  const char* native =
      "PTX t\n\"a {}\nb\"\n(* c { } *)\n{\n  .global .u32 d = 0;\n}\n"
      "T0 @ cta 0 {\n  st.global.u32 [d], 1;\n}\nexists (d == 1)\n";
  Test t = parse_litmus_text(native, "t.litmus");
  REQUIRE(t.threads.size() == 1);
  CHECK(t.threads[0].code.size() == 1);
  const char* dat3m = "PTX t\n\"{ T0 {}\n}\"\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (x == 1)\n";
  Test d = parse_litmus_text(dat3m, "t.litmus");
  REQUIRE(d.threads.size() == 1);
}

TEST_CASE("native format: PTX thread bodies, aliases, placement", "[native]") {
  Test t = parse_litmus_text(R"(PTX cowr
{
  .global .u32 d1 = 0;
  .global .u32 d2 aliases d1;
  .global .u32 t aliases d1 via texture;
}
T0 @ cta 2, cluster 1, gpu 0 {
  st.global.u32 [d1], 1;
  fence.proxy.alias;
  ld.global.u32 %r1, [d2];
  setp.eq.u32 %p, %r1, 1;
  @%p bra DONE;
  atom.global.acq_rel.gpu.add.u32 %r2, [d1], 5;
DONE:
  red.global.add.u32 [d1], 1;
}
exists (T0:%r1 == 1)
)",
                             "n.litmus");
  REQUIRE(t.threads.size() == 1);
  CHECK(t.threads[0].place.cta == 2);
  CHECK(t.threads[0].place.cluster == 1);
  const auto& c = t.threads[0].code;
  REQUIRE(c.size() == 8);
  CHECK(c[1].kind == InstrKind::ProxyFence);
  CHECK(c[3].op == AluOp::Setp);
  CHECK(c[4].kind == InstrKind::Branch);
  CHECK(c[5].order == mm::Order::AcqRel);
  CHECK(c[6].kind == InstrKind::Label);
  CHECK(c[7].kind == InstrKind::Red);
  Program p = lower(t);
  CHECK(p.locations[p.loc_index("t")].proxy == mm::Proxy::Texture);
  CHECK(p.locations[p.loc_index("d2")].physical == p.locations[p.loc_index("d1")].physical);
}

TEST_CASE("native format: vector operands in a thread body", "[native]") {
  // `{%r0, %r1}` once ended the thread body at its '}' ("expected '}'").
  Test t = parse_litmus_text(R"(PTX pack
{
  .global .u64 d = 0;
}
T0 @ cta 0 {
  mov.u32 %r0, 1;
  mov.u32 %r1, 2;
  mov.b64 %rd0, {%r0, %r1};
  st.global.u64 [d], %rd0;
}
exists (d == 8589934593)
)",
                             "pack.litmus");
  REQUIRE(t.threads.size() == 1);
  const auto& c = t.threads[0].code;
  REQUIRE(c.size() == 4);
  CHECK(c[2].text == "mov.b64 %rd0, {%r0, %r1}");
  CHECK(c[3].kind == InstrKind::Store);
  CHECK(error_pos("PTX t\n{\n  .global .u32 d = 0;\n}\nT0 @ cta 0 {\n  mov.b64 %rd0, {%r0, %r1;\n}\n"
                  "exists (d == 1)\n")
            .line >= 5);
}

TEST_CASE("traces: values, dependencies, RMW pairing and the loop bound", "[traces]") {
  Test t = parse_litmus_text(R"(PTX tr
{ x=0; y=0; }
 P0@cta 0,gpu 0          | P1@cta 0,gpu 0 ;
 ld.weak r0, x           | st.weak x, 1 ;
 st.weak y, r0           | st.weak x, 2 ;
 LC00:                   | ;
 atom.relaxed.gpu.add r1, y, 1 | ;
 bne r1, 0, LC00         | ;
exists (P0:r0 == 2)
)",
                             "tr.litmus");
  Program p = lower(t);
  TraceLimits lim;
  lim.unroll = 1;
  TraceSet ts = build_traces(p, lim);
  CHECK(ts.values[p.locations[p.loc_index("x")].physical] == std::vector<uint64_t>{0, 1, 2});
  // y may hold x's values and their increments.
  CHECK(ts.values[p.locations[p.loc_index("y")].physical].size() >= 3);
  CHECK(ts.bound_hit());
  bool saw_dep = false, saw_pair = false, saw_ctrl = false;
  for (const auto& tr : ts.threads[0].traces) {
    for (auto [a, b] : tr.data)
      if (tr.events[a].kind == mm::EventKind::Read && tr.events[b].kind == mm::EventKind::Write) saw_dep = true;
    for (const auto& e : tr.events)
      if (e.rmw_pair >= 0) saw_pair |= tr.events[e.rmw_pair].rmw_pair >= 0;
    saw_ctrl |= !tr.ctrl.empty();
  }
  CHECK(saw_dep);
  CHECK(saw_pair);
  CHECK(saw_ctrl);
  CHECK(ts.threads[1].traces.size() == 1);
}

TEST_CASE("mixed-size accesses: granules, events per granule, refusals", "[native]") {
  // PTX ISA 8.2.1: .u32 x accessed whole, as [x+1] (u8) and [x+2] (u16):
  // granules [0:1] [1:2] [2:4], one event per granule an access covers.
  Test t = parse_litmus_text(R"(PTX m
{
  .global .u32 x = 0x04030201;
  .global .u32 y = 0;
}
T0 @ cta 0, gpu 0 {
  st.global.u32 [x], 0x12345678;
  ld.global.u16 %r0, [x+2];
  st.global.u8 [x+1], 0xab;
  atom.global.relaxed.gpu.add.u32 %r1, [x], 1;
  st.global.u32 [y], 7;
}
exists (T0:%r0 == 4660)
)",
                             "m.litmus");
  Program p = lower(t);
  const int x = p.loc_index("x"), y = p.loc_index("y");
  REQUIRE(p.split(x) >= 0);
  CHECK(p.split(y) < 0);
  const Split& sp = p.splits[p.split(x)];
  CHECK(sp.cuts == std::vector<uint32_t>{0, 1, 2});
  REQUIRE(sp.granules.size() == 3);
  CHECK(p.locations[sp.granules[0]].name == "x[0:1]");
  CHECK(p.locations[sp.granules[2]].name == "x[2:4]");
  CHECK(p.locations[sp.granules[0]].init == 0x01);
  CHECK(p.locations[sp.granules[2]].init == 0x0403);
  TraceSet ts = build_traces(p, TraceLimits{});
  REQUIRE(ts.threads[0].traces.size() >= 1);
  const Trace& tr = ts.threads[0].traces[0];
  // st.u32: 3 writes; ld.u16: 1 read; st.u8: 1 write; atom.u32: 3 reads + 3 writes; st y: 1.
  REQUIRE(tr.events.size() == 12);
  CHECK(tr.events[0].value == 0x78);
  CHECK(tr.events[1].value == 0x56);
  CHECK(tr.events[2].value == 0x1234);
  CHECK(tr.access[2] == 0);
  CHECK(tr.events[0].span == 4);
  CHECK(tr.events[3].span == ((2u << 16) | 2));
  CHECK(tr.events[4].span == ((1u << 16) | 1));
  for (int k = 0; k < 3; ++k) CHECK(tr.events[5 + k].rmw_pair == 8 + k);
  CHECK(tr.events[11].span == 0);
  // The final value of a split location is its granules' bytes.
  std::vector<mm::Event> ev(3);
  ev[0].value = 0x11, ev[1].value = 0x22, ev[2].value = 0x4433;
  std::vector<int> fin(static_cast<size_t>(p.nphys), -1);
  fin[p.locations[sp.granules[0]].physical] = 0;
  fin[p.locations[sp.granules[1]].physical] = 1;
  fin[p.locations[sp.granules[2]].physical] = 2;
  CHECK(p.final_values(ev, fin)[x] == 0x44332211);

  auto error_of = [](const char* text) {
    try {
      Test u = parse_litmus_text(text, "e.litmus");
      Program q = lower(u);
      (void)build_traces(q, TraceLimits{});
    } catch (const InputError& e) {
      return std::to_string(e.pos().line) + ": " + e.what();
    }
    return std::string("no error");
  };
  // An offset that no thread names as [x+N]: a computed address.
  CHECK(error_of("PTX e\n{\n  .global .u32 x = 0;\n}\nT0 @ cta 0 {\n  ld.global.u16 %r0, [x];\n"
                 "  mov.u64 %rd0, x;\n  ld.global.u8 %r1, [%rd0+3];\n}\nexists (T0:%r0 == 0)\n")
            .starts_with("8: a 1-byte access at offset 3 of the 4-byte location 'x' through a computed address"));
  // A location with an alias.
  CHECK(error_of("PTX e\n{\n  .global .u32 x = 0;\n  .global .u32 z aliases x;\n}\nT0 @ cta 0 {\n"
                 "  ld.global.u16 %r0, [x+2];\n}\nexists (T0:%r0 == 0)\n")
            .find("has an alias and mixed-size accesses") != std::string::npos);
  // Past the end of the location.
  CHECK(error_of("PTX e\n{\n  .global .u32 x = 0;\n  .global .u32 w = 0;\n}\nT0 @ cta 0 {\n"
                 "  ld.global.u32 %r0, [x+2];\n}\nexists (T0:%r0 == 0)\n")
            .find("reaches past its end") != std::string::npos);
}

namespace {
// Whitespace-normalised text of a file of the source tree.
std::string flat_doc(const std::string& rel) {
  std::ifstream f(fs::path(env_or("PTXCHECK_SRC", ".")) / rel);
  std::stringstream ss;
  ss << f.rdbuf();
  std::string out;
  for (char ch : ss.str()) {
    if (std::isspace(static_cast<unsigned char>(ch))) {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += ch;
    }
  }
  return out;
}
}  // namespace

TEST_CASE("native format: calls to prelude functions", "[native]") {
  const std::string head =
      "PTX c\n{\n  .global .u32 x = 0;\n  .global .u32 y = 0;\n}\n"
      ".func (.param .b32 r) twice(.param .b32 v)\n{\n  .reg .b32 %a;\n"
      "  ld.param.u32 %a, [v];\n  add.u32 %a, %a, %a;\n  st.global.u32 [y], %a;\n"
      "  st.param.b32 [r], %a;\n  ret;\n}\n"
      ".extern .func nobody(.param .b32 v);\n";
  auto thread = [&](const std::string& body) {
    return head + "T0 @ cta 0, gpu 0 {\n  ld.global.u32 %r0, [x];\n  " + body + "\n}\nexists (0 == 0)\n";
  };
  // The function's store is an event of the thread, with its source line,
  // and depends (data) on the thread's load through argument and frame.
  Test t = parse_litmus_text(thread("call (%r1), twice, (%r0);"), "c.litmus");
  REQUIRE(t.funcs.size() == 2);
  Program p = lower(t);
  TraceSet ts = build_traces(p, TraceLimits{});
  REQUIRE(ts.threads[0].traces.size() == 1);
  const Trace& tr = ts.threads[0].traces[0];
  REQUIRE(tr.events.size() == 2);
  CHECK(tr.events[1].kind == mm::EventKind::Write);
  CHECK(tr.events[1].label == "st.global.u32 [y], %a (line 11)");
  CHECK(tr.data == std::vector<std::pair<int, int>>{{0, 1}});
  // Errors at the call: count, size, no body; the interpreter's lowering
  // reports the first two as well.
  auto err = [&](const std::string& body) {
    try {
      Test tq = parse_litmus_text(thread(body), "c.litmus");  // lower() keeps a pointer to it
      Program q = lower(tq);
      build_traces(q, TraceLimits{});
    } catch (const InputError& e) {
      return std::make_pair(e.pos(), std::string(e.what()));
    }
    return std::make_pair(SourcePos{}, std::string());
  };
  auto [p1, m1] = err("call (%r1), twice, (%r0, %r0);");
  CHECK(p1.line == 18);
  CHECK(p1.col == 3);
  CHECK(m1.find("with 2 argument(s); it takes 1") != std::string::npos);
  auto [p2, m2] = err("cvt.u64.u32 %rd0, %r0;\n  call (%r1), twice, (%rd0);");
  CHECK(p2.line == 19);
  CHECK(m2.find("argument 1 is a 64-bit register") != std::string::npos);
  auto [p3, m3] = err("call nobody, (%r0);");
  CHECK(p3.line == 18);
  CHECK(m3.find("'nobody' that has no body") != std::string::npos);
  auto [p4, m4] = err("call (%r1), nosuch, (%r0);");
  CHECK(p4.line == 18);
  CHECK(m4.find("unknown function 'nosuch'") != std::string::npos);
}

TEST_CASE("every IR operation runs in a litmus thread or is refused with a documented reason", "[native]") {
  using interp::IrOp;
  // One thread body per operation that symbolic threads run (in some form).
  const std::map<IrOp, std::string> sample = {
      {IrOp::Nop, "cp.async.bulk.commit_group;"},
      {IrOp::Arith, "add.u32 %r0, %r1, 1;"},
      {IrOp::Mov, "mov.u32 %r0, 5;"},
      {IrOp::Pack, "mov.b64 %rd0, {%r1, %r2};"},
      {IrOp::Unpack, "mov.b64 {%r1, %r2}, %rd0;"},
      {IrOp::Ld, "ld.global.u32 %r0, [x];"},
      {IrOp::St, "st.global.u32 [x], 1;"},
      {IrOp::Atom, "atom.global.add.u32 %r0, [x], 1;"},
      {IrOp::Red, "red.global.add.u32 [x], 1;"},
      {IrOp::Bra, "L0: bra L0;"},
      {IrOp::Ret, "ret;"},
      {IrOp::Call, "call (%r0), f, (%r1);"},
      {IrOp::Alloca, "alloca.u64 %rd0, 16, 8;"},
      {IrOp::StackSave, "stacksave.u64 %rd0;"},
      {IrOp::StackRestore, "stackrestore.u64 %rd0;"},
      {IrOp::Exit, "exit;"},
      {IrOp::Fence, "fence.sc.gpu;"},
      {IrOp::Cvta, "cvta.global.u64 %rd0, %rd1;"},
      {IrOp::BarSync, "bar.sync 0;"},
      {IrOp::BarArrive, "bar.arrive 1, 64;"},
      {IrOp::WarpSync, "bar.warp.sync 1;"},
      {IrOp::Shfl, "shfl.sync.idx.b32 %r0, 1, 0, 0x1f, 1;"},
      {IrOp::Vote, "vote.sync.any.pred %p0, 1, 1;"},
      {IrOp::Match, "match.any.sync.b32 %r0, 1, 1;"},
      {IrOp::Redux, "redux.sync.add.u32 %r0, 1, 1;"},
      {IrOp::Elect, "elect.sync %r0|%p0, 1;"},
      {IrOp::Mbarrier, "mbarrier.try_wait.parity.shared::cta.b64 %p0, [bar], 0;"},
      {IrOp::CpAsync, "cp.async.ca.shared.global [s], [x], 4;"},
      {IrOp::BulkCopy, "cp.async.bulk.global.shared::cta.bulk_group [x], [s], 4;"},
  };
  const std::string docs = flat_doc("docs/litmus-format.md");
  REQUIRE(!docs.empty());
  int runs = 0, refused = 0;
  std::vector<IrOp> ops;
  // clang-format off
#define IR_OP(id) ops.push_back(IrOp::id);
#include "semantics/interp/ir_ops.def"
#undef IR_OP
  // clang-format on
  for (IrOp op : ops) {
    const char* why = interp::trace_limit(op);
    INFO("IR operation " << static_cast<int>(op));
    if (why) {
      // The reason is documented word for word.
      CHECK(docs.find(why) != std::string::npos);
      CHECK(!sample.count(op));
      ++refused;
      continue;
    }
    REQUIRE(sample.count(op));
    const std::string text =
        "PTX c\n{\n  .global .u32 x = 0;\n  .shared .u32 s = 0;\n  .shared .b64 bar = 0;\n}\n"
        ".func (.reg .b32 r) f(.reg .b32 a) { mov.b32 r, a; ret; }\n"
        "T0 @ cta 0, gpu 0 {\n  " +
        sample.at(op) + "\n}\nexists (0 == 0)\n";
    INFO(text);
    Test t = parse_litmus_text(text, "c.litmus");
    Program p = lower(t);  // trace_check accepts the thread
    bool found = false;
    for (const interp::Inst& in : p.ir->threads[0].prog.code) found = found || in.op == op;
    CHECK(found);
    ++runs;
  }
  CHECK(runs == static_cast<int>(sample.size()));
  CHECK(refused > 0);
}
