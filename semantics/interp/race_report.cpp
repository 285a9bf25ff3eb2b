// Race reports that name both accesses (docs/races.md): thread, warp, lane,
// CTA, PTX line, `.loc` source line, the location's one state-space name,
// address, size, and each access's order and scope.
#include <cstdio>

#include "memmodel/names.hpp"
#include "semantics/interp/machine_state.hpp"

namespace ptxcheck::interp {

namespace {

std::string order_name(mm::Order o, mm::Scope s) {
  if (o == mm::Order::Weak) return mm::to_string(o);
  return std::string(mm::to_string(o)) + "." + mm::to_string(s);
}

std::string xyz(const std::array<uint32_t, 3>& a) {
  return "(" + std::to_string(a[0]) + "," + std::to_string(a[1]) + "," + std::to_string(a[2]) + ")";
}

std::array<uint32_t, 3> unlinear(uint32_t i, const std::array<uint32_t, 3>& dim) {
  return {i % dim[0], (i / dim[0]) % dim[1], i / (dim[0] * dim[1])};
}

std::string hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

// "write of 4 bytes at WHERE by thread (1,0,0) [of CTA (0,0,0)] (warp 0, lane 1, weak, a.cu:18)"
std::string describe(const RaceAccess& a, const std::string& where, bool with_cta) {
  std::string s = std::string(a.write ? "write" : "read") + " of " + std::to_string(a.size) + " byte" +
                  (a.size == 1 ? "" : "s") + " at " + where + " by thread " + xyz(a.thread);
  if (with_cta) s += " of CTA " + xyz(a.cta);
  s += " (warp " + std::to_string(a.warp) + ", lane " + std::to_string(a.lane) + ", " + a.order;
  if (!a.source.empty()) s += ", " + a.source;
  return s + ")";
}

}  // namespace

void Machine::race_report(Warp& w, Thread& t, const Inst& in, const Where& wh, unsigned size, bool write,
                          const AccessInfo& a, const RaceHit& h, const char* why) {
  const bool ws = h.warp_sync;
  const DiagKind kind = ws ? DiagKind::WarpSyncRace : DiagKind::DataRace;
  const bool error = !ws || opt.strict_races;
  const size_t before = res.diagnostics.size();
  auto info = std::make_shared<RaceInfo>();
  const bool shared = wh.space != Space::Global;
  // One name per location (issue 15): shared memory is shared::cta memory
  // of its CTA however it was reached, shared::cluster in cluster launches.
  const bool clustered = explicit_cl_ || cl_[0] * cl_[1] * cl_[2] > 1;
  info->space = !shared ? "global" : clustered ? "shared::cluster" : "shared::cta";
  info->shared = shared;
  if (shared && wh.cta >= 0 && static_cast<size_t>(wh.cta) < ctas.size()) info->owner = ctas[static_cast<size_t>(wh.cta)]->id;
  const uint64_t base = wh.region->base;  // shared: 0, or kReservedSmemBegin for the reserved part
  auto fill = [&](RaceAccess& r, const AccessInfo& x, uint64_t off, unsigned sz, bool wr) {
    const uint32_t lin = races.lin_of(x.gid);
    r.cta = unlinear(races.cta_of(x.gid), spec.grid);
    r.thread = unlinear(lin, spec.block);
    r.warp = lin / 32;
    r.lane = lin % 32;
    r.line = x.pc < prog.code.size() ? prog.code[x.pc].line : 0;
    r.col = x.pc < prog.code.size() ? prog.code[x.pc].col : 0;
    r.source = prog.source_of(x.pc);
    r.write = wr;
    r.size = sz;
    r.address = base + off;
    r.order = order_name(x.order, x.scope);
  };
  fill(info->first, h.prev, h.prev_off, h.prev.size, h.prev.write);
  fill(info->second, a, wh.off, size, write);
  const bool same_cta = races.cta_of(h.prev.gid) == races.cta_of(a.gid);
  const std::string where = info->space + " " + hex(info->second.address) + (shared ? " of CTA " + xyz(info->owner) : "");
  std::string msg = describe(info->second, where, false) + " races with a " +
                    describe(info->first, hex(info->first.address), !same_cta) + " at line " +
                    std::to_string(info->first.line) + ", column " + std::to_string(info->first.col) + ": " +
                    (why ? why
                     : ws ? "ordered only by a warp-collective .sync instruction, which orders no memory (docs/races.md)"
                     : h.prev.strong() && a.strong() && h.prev.async != a.async
                         ? "not morally strong (one is a reduction of the async proxy, the other a generic-proxy "
                           "atomic: not the same proxy, PTX ISA 8.7) nor ordered by causality order (PTX ISA 8.7.1)"
                         : "neither morally strong nor ordered by causality order (PTX ISA 8.7.1)");
  diag(kind, error, *w.cta, t, in, msg);
  if (res.diagnostics.size() > before) res.diagnostics.back().race = std::move(info);
}

}  // namespace ptxcheck::interp
