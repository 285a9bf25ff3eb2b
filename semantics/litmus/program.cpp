// Lowering of a parsed litmus Test to a Program (see program.hpp).
#include "semantics/litmus/program.hpp"

#include <map>
#include <set>
#include <tuple>

#include "semantics/interp/trace_exec.hpp"

namespace ptxcheck::litmus {

int LThread::slot(const std::string& name) const {
  for (size_t i = 0; i < regs.size(); ++i)
    if (regs[i] == name) return static_cast<int>(i);
  return -1;
}

int Program::loc_index(const std::string& name) const {
  for (size_t i = 0; i < locations.size(); ++i)
    if (locations[i].name == name) return static_cast<int>(i);
  return -1;
}

std::optional<arith::AtomOp> atom_of(AluOp op) {
  switch (op) {
    case AluOp::Add: return arith::AtomOp::Add;
    case AluOp::Inc: return arith::AtomOp::Inc;
    case AluOp::Dec: return arith::AtomOp::Dec;
    case AluOp::Min: return arith::AtomOp::Min;
    case AluOp::Max: return arith::AtomOp::Max;
    case AluOp::And: return arith::AtomOp::And;
    case AluOp::Or: return arith::AtomOp::Or;
    case AluOp::Xor: return arith::AtomOp::Xor;
    case AluOp::Exch: return arith::AtomOp::Exch;
    case AluOp::Cas: return arith::AtomOp::Cas;
    default: return std::nullopt;
  }
}

std::vector<uint64_t> Program::final_values(const std::vector<mm::Event>& events,
                                            const std::vector<int>& final_write) const {
  std::vector<uint64_t> fin(locations.size());
  for (size_t l = 0; l < locations.size(); ++l) {
    const int ph = locations[l].physical;
    const int w = ph < static_cast<int>(final_write.size()) ? final_write[ph] : -1;
    fin[l] = w >= 0 ? events[w].value : locations[l].init;
  }
  for (size_t l = 0; l < split_of.size(); ++l) {
    if (split_of[l] < 0) continue;
    const Split& sp = splits[split_of[l]];
    uint64_t v = 0;
    for (size_t g = 0; g < sp.granules.size(); ++g) v |= fin[sp.granules[g]] << (8 * sp.cuts[g]);
    fin[l] = v;
  }
  return fin;
}

namespace {

// Mixed-size accesses (Split): the byte offsets at which the threads' loads,
// stores and atomics with a constant address ([x+N]) start and end inside
// each location; a location with a cut other than 0 is split there.
void split_locations(Program& p) {
  const TestIr& ir = *p.ir;
  const size_t nloc = ir.loc_addr.size();
  std::vector<std::set<uint32_t>> cuts(nloc);
  for (const ThreadIr& tir : ir.threads)
    for (const interp::Inst& in : tir.prog.code) {
      if (in.op != interp::IrOp::Ld && in.op != interp::IrOp::St && in.op != interp::IrOp::Atom &&
          in.op != interp::IrOp::Red)
        continue;
      if (in.addr.base != interp::Addr::Abs || in.size == 0) continue;
      const uint64_t a = static_cast<uint64_t>(in.addr.off);
      for (size_t l = 0; l < nloc; ++l) {
        if (a < ir.loc_addr[l] || a >= ir.loc_addr[l] + ir.loc_size[l]) continue;
        const uint64_t off = a - ir.loc_addr[l], end = off + in.size;
        if (off == 0 && end == ir.loc_size[l]) break;
        cuts[l].insert(static_cast<uint32_t>(off));
        if (end < ir.loc_size[l]) cuts[l].insert(static_cast<uint32_t>(end));
        break;
      }
    }
  p.split_of.assign(p.locations.size(), -1);
  for (size_t l = 0; l < nloc; ++l) {
    cuts[l].erase(0);
    if (cuts[l].empty()) continue;
    const mm::Location var = p.locations[l];
    for (size_t o = 0; o < p.locations.size(); ++o)
      if (o != l && p.locations[o].physical == var.physical) {
        SourcePos at;
        for (const LocDecl& d : p.test->locs)
          if (d.name == p.locations[o].name) at = d.pos;
        throw InputError(p.test->file, at,
                         "location '" + var.name + "' has an alias and mixed-size accesses, which are not modelled together");
      }
    Split sp;
    sp.cuts.push_back(0);
    sp.cuts.insert(sp.cuts.end(), cuts[l].begin(), cuts[l].end());
    for (size_t g = 0; g < sp.cuts.size(); ++g) {
      const uint32_t lo = sp.cuts[g], hi = g + 1 < sp.cuts.size() ? sp.cuts[g + 1] : var.size;
      mm::Location gl = var;
      gl.name = var.name + "[" + std::to_string(lo) + ":" + std::to_string(hi) + "]";
      gl.physical = p.nphys++;
      gl.vaddr = -1;
      gl.size = hi - lo;
      gl.init = mask_to(var.init >> (8 * lo), hi - lo);
      sp.granules.push_back(static_cast<int>(p.locations.size()));
      p.locations.push_back(gl);
      p.split_of.push_back(-1);
    }
    p.split_of[l] = static_cast<int>(p.splits.size());
    p.splits.push_back(std::move(sp));
  }
}

}  // namespace

// A special register (%laneid, %tid.x, ...; PTX ISA 10): read by the
// instruction, not a register of the thread.
bool special_reg(const std::string& name) {
  std::string n = !name.empty() && name[0] == '%' ? name : "%" + name;
  n = n.substr(0, n.find('.'));
  // clang-format off
  static const char* const kNames[] = {
#define SREG(id, name, component) name,
#include "semantics/interp/special_regs.def"
#undef SREG
  };
  // clang-format on
  for (const char* k : kNames)
    if (n == k) return true;
  return false;
}

namespace {

int slot_of(LThread& th, const std::string& name) {
  int s = th.slot(name);
  if (s >= 0) return s;
  th.regs.push_back(name);
  th.reg_init.push_back(0);
  return static_cast<int>(th.regs.size()) - 1;
}

// Location `name`, declared or not; undeclared ones start at 0 (herd/Dat3M).
int loc_of(Program& p, const std::string& name, uint32_t size) {
  int i = p.loc_index(name);
  if (i >= 0) return i;
  mm::Location l;
  l.name = name;
  l.physical = p.nphys++;
  l.size = size;
  p.locations.push_back(l);
  return static_cast<int>(p.locations.size()) - 1;
}

}  // namespace

Program lower(const Test& t) {
  Program p;
  p.test = &t;
  // Own locations first, then aliases (which may chain: s1 @ surface aliases y).
  for (const auto& d : t.locs) {
    if (!d.alias_of.empty()) continue;
    if (p.loc_index(d.name) >= 0) throw InputError(t.file, d.pos, "location '" + d.name + "' declared twice");
    mm::Location l;
    l.name = d.name;
    l.physical = p.nphys++;
    l.init = mask_to(d.init, d.size);
    l.size = d.size;
    l.proxy = d.proxy;
    // The state space, for state-space-restricted proxy fences (PTX ISA 9.7.13.4).
    l.space = d.space == "global" ? mm::StateSpace::Global
            : d.space == "shared" ? mm::StateSpace::Shared : mm::StateSpace::Other;
    p.locations.push_back(l);
  }
  std::vector<const LocDecl*> pending;
  for (const auto& d : t.locs)
    if (!d.alias_of.empty()) pending.push_back(&d);
  while (!pending.empty()) {
    std::vector<const LocDecl*> next;
    for (const LocDecl* d : pending) {
      int target = p.loc_index(d->alias_of);
      if (target < 0) {
        next.push_back(d);
        continue;
      }
      if (p.loc_index(d->name) >= 0) throw InputError(t.file, d->pos, "location '" + d->name + "' declared twice");
      mm::Location l = p.locations[target];
      l.name = d->name;
      l.proxy = d->proxy;
      // PTX ISA 8.6: a generic alias is a distinct virtual address of the same
      // physical location; a proxy alias (`s @ surface aliases x`) reaches x's
      // virtual address through another proxy, so it shares x's address id.
      if (d->proxy == mm::Proxy::Generic)
        l.vaddr = -1;
      else if (l.vaddr < 0)
        l.vaddr = target;
      p.locations.push_back(l);
    }
    if (next.size() == pending.size()) {
      // Aliases of an undeclared location: the first one names a fresh location.
      const LocDecl* d = next.front();
      bool cyclic = false;
      for (const LocDecl* e : next) cyclic |= e->name == d->alias_of;
      if (cyclic) throw InputError(t.file, d->pos, "alias cycle through '" + d->name + "'");
      loc_of(p, d->alias_of, d->size);
    }
    pending = std::move(next);
  }

  for (size_t ti = 0; ti < t.threads.size(); ++ti) {
    const Thread& th = t.threads[ti];
    LThread lt;
    lt.place = th.place;
    std::map<std::string, int> labels;
    for (size_t i = 0; i < th.code.size(); ++i) {
      const Instr& in = th.code[i];
      if (in.kind != InstrKind::Label) continue;
      if (labels.count(in.target)) throw InputError(t.file, in.pos, "label '" + in.target + "' defined twice");
      labels[in.target] = static_cast<int>(i);
    }
    for (const Instr& in : th.code) {
      LInstr li;
      li.src = &in;
      if (!in.loc.empty()) li.loc = loc_of(p, in.loc, in.size);
      for (const std::string& n : in.more_locs) loc_of(p, n, in.size);
      if ((in.kind == InstrKind::Rmw || in.kind == InstrKind::Red) && !in.type.empty()) {
        auto ty = arith::ty_from_name(in.type);
        std::string err = ty ? arith::atom_form_error(atom_of(in.op).value_or(arith::AtomOp::Add), *ty) : "unsupported atomic type ." + in.type;
        if (!err.empty()) throw InputError(t.file, in.pos, err);
      }
      if (!in.dst.empty() && !special_reg(in.dst)) li.dst = slot_of(lt, in.dst);
      for (const Operand& o : in.args) {
        Slot s;
        if (o.is_reg && !special_reg(o.reg)) s.reg = slot_of(lt, o.reg);
        else s.imm = o.imm;
        li.args.push_back(s);
      }
      if (in.kind == InstrKind::Branch || in.kind == InstrKind::Jump) {
        auto it = labels.find(in.target);
        if (it == labels.end()) throw InputError(t.file, in.pos, "undefined label '" + in.target + "'");
        li.target = it->second;
      }
      lt.code.push_back(std::move(li));
    }
    p.threads.push_back(std::move(lt));
  }
  // Warps (PTX ISA 9.7.9.6 shfl.sync etc. exchange values among the lanes
  // of one warp): the threads with the same (gpu, cta, warp N) in order.
  {
    std::map<std::tuple<int, int, int>, int> by_place;
    for (size_t ti = 0; ti < p.threads.size(); ++ti) {
      LThread& lt = p.threads[ti];
      const mm::ThreadPlace& pl = lt.place;
      int w = -1;
      if (pl.warp >= 0) {
        auto [it, fresh] = by_place.try_emplace({pl.gpu, pl.cta, pl.warp}, static_cast<int>(p.warps.size()));
        if (!fresh) w = it->second;
      }
      if (w < 0) {
        w = static_cast<int>(p.warps.size());
        p.warps.emplace_back();
      }
      if (p.warps[w].size() >= 32)
        throw InputError(t.file, t.threads[ti].pos, "more than 32 threads placed in one warp");
      lt.warp = w;
      lt.lane = static_cast<uint32_t>(p.warps[w].size());
      p.warps[w].push_back(static_cast<int>(ti));
    }
  }
  // Registers named only in the condition still have a (final = initial) value.
  std::vector<const Cond*> stack{&t.cond};
  while (!stack.empty()) {
    const Cond* c = stack.back();
    stack.pop_back();
    for (const Cond& k : c->kids) stack.push_back(&k);
    for (const CondValue* v : {&c->lhs, &c->rhs}) {
      if (c->kind != Cond::Cmp) break;
      if (v->kind == CondValue::Reg) {
        if (v->thread < 0 || v->thread >= static_cast<int>(p.threads.size()))
          throw InputError(t.file, {}, "condition names unknown thread " + std::to_string(v->thread));
        if (special_reg(v->name)) throw InputError(t.file, {}, "condition names special register " + v->name);
        slot_of(p.threads[v->thread], v->name);
      } else if (v->kind == CondValue::Loc) {
        loc_of(p, v->name, 4);
      }
    }
  }
  for (const RegInit& ri : t.reg_inits) {
    if (ri.thread < 0 || ri.thread >= static_cast<int>(p.threads.size()))
      throw InputError(t.file, {}, "register init for unknown thread " + std::to_string(ri.thread));
    LThread& lt = p.threads[ri.thread];
    if (special_reg(ri.reg)) throw InputError(t.file, {}, "register init of special register " + ri.reg);
    lt.reg_init[slot_of(lt, ri.reg)] = ri.value;
  }
  p.ir = std::make_shared<const TestIr>(to_ir(t, p));
  for (size_t ti = 0; ti < p.ir->threads.size(); ++ti) {
    const ThreadIr& tir = p.ir->threads[ti];
    try {
      interp::trace_check(tir.prog, tir.prog.kernel);
    } catch (const InputError& e) {
      throw InputError(t.file, e.pos(), std::string(e.what()) + " in a litmus thread");
    }
  }
  split_locations(p);
  return p;
}

}  // namespace ptxcheck::litmus
