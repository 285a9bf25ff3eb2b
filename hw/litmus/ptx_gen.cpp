// Litmus test -> PTX kernel and bundle (ptx_gen.hpp).
#include "hw/litmus/ptx_gen.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "hw/litmus/layout.hpp"
#include "hw/litmus/ptx_instr.hpp"
#include "semantics/litmus/program.hpp"

namespace ptxcheck::hw {

using litmus::InstrKind;

namespace {

// Scope tree -> roles (PTX ISA 8.5): clusters numbered by first appearance,
// CTAs by rank inside their cluster, warp groups per rank.
void place_roles(const litmus::Program& p, Bundle& b) {
  std::map<int, int> cluster_ix;                 // test cluster id -> k
  std::map<std::pair<int, int>, int> cta_rank;   // (k, cta id) -> rank
  std::map<int, int> cta_cluster;                // cta id -> cluster id
  std::vector<int> ranks_in;                     // per k
  int gpu = p.threads.empty() ? 0 : p.threads[0].place.gpu;
  for (const auto& th : p.threads) {
    const auto& pl = th.place;
    if (pl.gpu != gpu) throw NotExpressible("threads on several GPUs (the harness uses one device)");
    auto [it, fresh] = cta_cluster.emplace(pl.cta, pl.cluster);
    if (!fresh && it->second != pl.cluster) throw NotExpressible("CTA " + std::to_string(pl.cta) + " in two clusters");
    if (!cluster_ix.count(pl.cluster)) {
      cluster_ix.emplace(pl.cluster, static_cast<int>(cluster_ix.size()));
      ranks_in.push_back(0);
    }
    int k = cluster_ix[pl.cluster];
    if (!cta_rank.count({k, pl.cta})) cta_rank[{k, pl.cta}] = ranks_in[k]++;
  }
  b.clusters = static_cast<int>(cluster_ix.size());
  b.cluster_size = std::max(1, ranks_in.empty() ? 1 : *std::max_element(ranks_in.begin(), ranks_in.end()));
  if (b.cluster_size > 8) throw NotExpressible("more than 8 CTAs in one cluster (the portable cluster size)");
  b.groups_per_rank.assign(b.cluster_size, 0);
  b.slices_per_rank.assign(b.cluster_size, 0);
  std::map<std::pair<int, int>, int> slice_of, groups_in;  // (k, rank) -> slice, groups so far
  std::map<std::tuple<int, int, int>, int> group_of;       // (k, rank, warp) -> group
  std::map<std::tuple<int, int, int>, int> group_fill;     // (k, rank, group) -> members
  for (size_t t = 0; t < p.threads.size(); ++t) {
    const auto& pl = p.threads[t].place;
    Role r;
    r.thread = static_cast<int>(t);
    r.cluster = cluster_ix[pl.cluster];
    r.rank = cta_rank[{r.cluster, pl.cta}];
    auto cta = std::make_pair(r.cluster, r.rank);
    if (!slice_of.count(cta)) slice_of[cta] = b.slices_per_rank[r.rank]++;
    r.slice = slice_of[cta];
    auto key = std::make_tuple(r.cluster, r.rank, pl.warp);
    if (pl.warp >= 0 && group_of.count(key)) {
      r.group = group_of[key];
    } else {
      r.group = groups_in[cta]++;
      if (pl.warp >= 0) group_of[key] = r.group;
    }
    b.groups_per_rank[r.rank] = std::max(b.groups_per_rank[r.rank], groups_in[cta]);
    r.lane = group_fill[{r.cluster, r.rank, r.group}]++;
    b.group_size = std::max(b.group_size, r.lane + 1);
    b.roles.push_back(r);
  }
  if (b.group_size > 32) throw NotExpressible("more than 32 threads in one warp");
}

// Every CTA-wide barrier must be unconditional and each thread's barrier
// ids a prefix of one common sequence, which idle threads and the others
// complete after their code (hardware barriers count every thread of the CTA).
std::vector<uint64_t> barrier_sequence(const litmus::Program& p, std::vector<size_t>& done) {
  std::vector<uint64_t> common;
  for (const auto& th : p.threads) {
    std::vector<uint64_t> seq;
    bool branches = false;
    for (const auto& li : th.code) {
      const auto& in = *li.src;
      branches |= in.kind == InstrKind::Branch || in.kind == InstrKind::Jump;
      if (in.kind != InstrKind::Barrier) continue;
      if (in.bar != mm::BarrierOp::Sync) throw NotExpressible(th.place.name + " '" + in.text + "': only bar.sync is emitted");
      if (in.bar_count >= 0) throw NotExpressible(th.place.name + " '" + in.text + "': barrier with a thread count");
      for (size_t k = 1; k < li.args.size(); ++k)
        if (li.args[k].reg >= 0) throw NotExpressible(th.place.name + " '" + in.text + "': barrier id from a register");
      if (!li.args.empty() && (li.args[0].reg >= 0 || li.args[0].imm > 15))
        throw NotExpressible(th.place.name + " '" + in.text + "': barrier id must be an immediate 0..15");
      seq.push_back(li.args.empty() ? 0 : li.args[0].imm);
    }
    if (!seq.empty() && branches) throw NotExpressible(th.place.name + ": barriers together with branches");
    const auto& lo = seq.size() < common.size() ? seq : common;
    const auto& hi = seq.size() < common.size() ? common : seq;
    if (!std::equal(lo.begin(), lo.end(), hi.begin())) throw NotExpressible("threads use barriers in different orders");
    if (seq.size() > common.size()) common = seq;
    done.push_back(seq.size());
  }
  return common;
}

// The outcome tuple in ptxcheck's state order (semantics/litmus/check.cpp).
void observe(const litmus::Program& p, Bundle& b) {
  std::set<std::pair<int, std::string>> regs;
  std::set<std::string> locs;
  std::vector<const litmus::Cond*> stack{&p.test->cond};
  while (!stack.empty()) {
    const litmus::Cond* c = stack.back();
    stack.pop_back();
    for (const auto& k : c->kids) stack.push_back(&k);
    if (c->kind != litmus::Cond::Cmp) continue;
    for (const litmus::CondValue* v : {&c->lhs, &c->rhs}) {
      if (v->kind == litmus::CondValue::Reg) regs.insert({v->thread, v->name});
      if (v->kind == litmus::CondValue::Loc) locs.insert(v->name);
    }
  }
  if (regs.empty() && locs.empty())
    for (size_t t = 0; t < p.threads.size(); ++t)
      for (const auto& r : p.threads[t].regs) regs.insert({static_cast<int>(t), r});
  for (const auto& [t, r] : regs)
    b.obs.push_back({std::to_string(t) + ":" + r, true, t, b.nout++, -1, 8});
  for (const auto& l : locs) {
    int ix = p.loc_index(l);
    b.obs.push_back({l, false, -1, -1, ix, p.locations[ix].size});
  }
}

std::string stress_loop(const std::string& tag, int iters_cfg, int pattern_cfg) {
  // %v7 = scratch line of this CTA; pattern bit 1 clear: first access stores,
  // bit 0 clear: second access stores (GPUHarbor's four patterns).
  return fmt::format(R"(  ld.global.u32 %w1, [%cfg+{0}];
  ld.global.u32 %w2, [%cfg+{1}];
  ld.global.u32 %w3, [%cfg+{2}];
  rem.u32 %w3, %lcta, %w3;
  mul.wide.u32 %v6, %w3, 4;
  add.u64 %v6, %cfg, %v6;
  ld.global.u32 %w3, [%v6+{3}];
  mul.wide.u32 %v6, %w3, 4;
  add.u64 %v7, %scr, %v6;
  and.b32 %w4, %w2, 2;
  setp.eq.u32 %p2, %w4, 0;
  and.b32 %w4, %w2, 1;
  setp.eq.u32 %p3, %w4, 0;
  mov.u32 %w5, 0;
{4}_LOOP:
  setp.ge.u32 %p0, %w5, %w1;
  @%p0 bra {4}_DONE;
  @%p2 st.volatile.global.u32 [%v7], %w5;
  @!%p2 ld.volatile.global.u32 %w6, [%v7];
  add.u32 %w5, %w5, 1;
  @%p3 st.volatile.global.u32 [%v7], %w5;
  @!%p3 ld.volatile.global.u32 %w6, [%v7];
  bra {4}_LOOP;
{4}_DONE:
)",
                     4 * iters_cfg, 4 * pattern_cfg, 4 * kLines, 4 * kCfgLines, tag);
}

std::string barriers(const std::vector<uint64_t>& seq, size_t from) {
  std::string s;
  for (size_t k = from; k < seq.size(); ++k) s += fmt::format("  barrier.sync {};\n", seq[k]);
  return s;
}

}  // namespace

Generated generate(const litmus::Test& t, const std::string& arch, const std::string& litmus_path,
                   const std::string& litmus_text) {
  if (arch != "sm_80" && arch != "sm_90") throw NotExpressible("arch must be sm_80 or sm_90");
  for (const auto& l : t.locs) {
    if (!l.alias_of.empty()) throw NotExpressible("location '" + l.name + "' aliases another (needs virtual memory aliasing)");
    if (l.proxy != mm::Proxy::Generic) throw NotExpressible("location '" + l.name + "' is accessed through a non-generic proxy");
    if (l.space != "global" && l.space != "generic")
      throw NotExpressible("location '" + l.name + "' in ." + l.space + " (only global memory is emitted)");
  }
  litmus::Program p = litmus::lower(t);
  Generated g;
  Bundle& b = g.bundle;
  b.test = t.name;
  b.litmus_path = litmus_path;
  b.litmus_text = litmus_text;
  b.arch = arch;
  if (p.threads.empty()) throw NotExpressible("no threads");
  if (p.threads.size() > 32) throw NotExpressible("more than 32 threads");
  place_roles(p, b);
  if (b.cluster_size > 1 && arch != "sm_90") throw NotExpressible("clusters of several CTAs need sm_90");
  for (const auto& l : p.locations) b.locs.push_back({l.name, l.init, l.size});
  observe(p, b);
  std::vector<size_t> done;
  std::vector<uint64_t> bars = barrier_sequence(p, done);

  EmitFlags flags;
  std::string body;
  size_t nx = 1;
  const int nroles = static_cast<int>(p.threads.size()), nlocs = static_cast<int>(p.locations.size());
  for (int r = 0; r < nroles; ++r) nx = std::max(nx, p.threads[r].regs.size());
  for (int r = 0; r < nroles; ++r) body += fmt::format("  setp.eq.u32 %p0, %ri, {};\n  @%p0 bra R{};\n", r, r);
  body += "  bra IDLE;\n";
  for (int r = 0; r < nroles; ++r) {
    const auto& th = p.threads[r];
    body += fmt::format("R{}:  // {}\n", r, th.place.name);
    for (int l = 0; l < nlocs; ++l)
      body += fmt::format("  ld.global.u64 %la{0}, [%locbase+{1}];\n  add.u64 %la{0}, %la{0}, %mem;\n", l, 8 * l);
    for (size_t s = 0; s < th.regs.size(); ++s)
      body += fmt::format("  mov.b64 %x{}, {};\n", s, th.reg_init[s]);
    for (int pc = 0; pc < static_cast<int>(th.code.size()); ++pc) emit_instr(p, r, pc, body, flags);
    body += fmt::format("R{}_I{}:\n", r, th.code.size());
    for (const auto& o : b.obs)
      if (o.is_reg && o.role == r)
        body += fmt::format("  st.global.u64 [%outbase+{}], %x{};\n", 8 * o.out,
                            th.slot(o.name.substr(o.name.find(':') + 1)));
    body += fmt::format("  atom.global.or.b32 %w0, [%outbase+{}], {};\n", 8 * b.nout, 1u << r);
    body += barriers(bars, done[r]);
    body += fmt::format("  ret;\nR{}_CUT:\n  ret;\n", r);
  }
  std::string version = flags.mmio ? "8.2" : "7.8";
  if (flags.cluster_scope && arch != "sm_90") throw NotExpressible(".cluster scope needs sm_90");
  if (flags.async_proxy && arch != "sm_90") throw NotExpressible("fence.proxy.async needs sm_90");

  std::string& s = g.ptx;
  s += fmt::format("// Generated by ptxcheck-hw from litmus test '{}' ({}); do not edit.\n", t.name, litmus_path);
  s += fmt::format(".version {}\n.target {}\n.address_size 64\n\n", version, arch);
  s += R"(.visible .entry litmus_test(.param .u64 p_roles, .param .u64 p_blockmap, .param .u64 p_locs,
    .param .u64 p_mem, .param .u64 p_out, .param .u64 p_scratch, .param .u64 p_barrier, .param .u64 p_cfg)
)";
  // Several CTAs per cluster: a compile-time cluster shape, so a plain
  // cuLaunchKernel launches clusters (PTX ISA 11.4 .reqnctapercluster).
  if (b.cluster_size > 1) s += fmt::format(".reqnctapercluster {}, 1, 1\n", b.cluster_size);
  s += R"({
  .reg .pred %p<4>;
  .reg .b32 %w<8>;
  .reg .b64 %v<8>;
)";
  s += fmt::format("  .reg .b64 %la<{}>;\n  .reg .b64 %x<{}>;\n", std::max(1, nlocs), nx);
  s += R"(  .reg .b32 %cnt, %lim, %lcta, %role, %inst, %ri;
  .reg .b64 %roles, %bmap, %locs, %mem, %out, %scr, %bar, %cfg, %locbase, %outbase;
  ld.param.u64 %roles, [p_roles];
  ld.param.u64 %bmap, [p_blockmap];
  ld.param.u64 %locs, [p_locs];
  ld.param.u64 %mem, [p_mem];
  ld.param.u64 %out, [p_out];
  ld.param.u64 %scr, [p_scratch];
  ld.param.u64 %bar, [p_barrier];
  ld.param.u64 %cfg, [p_cfg];
  cvta.to.global.u64 %roles, %roles;
  cvta.to.global.u64 %bmap, %bmap;
  cvta.to.global.u64 %locs, %locs;
  cvta.to.global.u64 %mem, %mem;
  cvta.to.global.u64 %out, %out;
  cvta.to.global.u64 %scr, %scr;
  cvta.to.global.u64 %bar, %bar;
  cvta.to.global.u64 %cfg, %cfg;
  mov.u32 %w0, %ctaid.x;
  mul.wide.u32 %v0, %w0, 4;
  add.u64 %v0, %bmap, %v0;
  ld.global.u32 %lcta, [%v0];
  ld.global.u32 %w0, [%cfg];
  setp.ge.u32 %p0, %lcta, %w0;
  @%p0 bra STRESS;
  mov.u32 %w0, %ntid.x;
  mov.u32 %w1, %tid.x;
  mad.lo.u32 %w0, %lcta, %w0, %w1;
  mul.wide.u32 %v0, %w0, 4;
  add.u64 %v0, %roles, %v0;
  ld.global.s32 %role, [%v0];
  setp.lt.s32 %p0, %role, 0;
  @%p0 bra IDLE;
)";
  s += fmt::format("  ld.global.u32 %w0, [%cfg+{}];\n  setp.eq.u32 %p0, %w0, 0;\n  @%p0 bra PRE_DONE;\n", 4 * kPreStress);
  s += stress_loop("PRESTRESS", kPreStressIters, kPreStressPattern);
  s += "PRE_DONE:\n";
  // GPUHarbor's spin barrier: bounded, so a missing participant cannot hang the launch.
  s += fmt::format(R"(  ld.global.u32 %w0, [%cfg+{}];
  setp.eq.u32 %p0, %w0, 0;
  @%p0 bra SB_DONE;
  ld.global.u32 %w2, [%cfg+{}];
  atom.relaxed.gpu.global.add.u32 %w1, [%bar], 1;
  mov.u32 %w3, 0;
SB_LOOP:
  setp.ge.u32 %p0, %w1, %w2;
  @%p0 bra SB_DONE;
  setp.ge.u32 %p0, %w3, 1024;
  @%p0 bra SB_DONE;
  ld.relaxed.gpu.global.u32 %w1, [%bar];
  add.u32 %w3, %w3, 1;
  bra SB_LOOP;
SB_DONE:
  div.u32 %inst, %role, {};
  rem.u32 %ri, %role, {};
  mul.wide.u32 %v0, %inst, {};
  add.u64 %locbase, %locs, %v0;
  mul.wide.u32 %v0, %inst, {};
  add.u64 %outbase, %out, %v0;
  mov.u32 %cnt, 0;
  ld.global.u32 %lim, [%cfg+{}];
)",
                   4 * kBarrier, 4 * kBarrierTarget, nroles, nroles, 8 * std::max(1, nlocs), 8 * (b.nout + 1),
                   4 * kSpinLimit);
  s += body;
  s += "IDLE:\n" + barriers(bars, 0) + "  ret;\nSTRESS:\n";
  s += fmt::format("  ld.global.u32 %w0, [%cfg+{}];\n  setp.eq.u32 %p0, %w0, 0;\n  @%p0 bra STRESS_END;\n", 4 * kMemStress);
  s += stress_loop("MEMSTRESS", kMemStressIters, kMemStressPattern);
  s += "STRESS_END:\n  ret;\n}\n";
  return g;
}

}  // namespace ptxcheck::hw
