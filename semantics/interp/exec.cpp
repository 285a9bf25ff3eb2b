// The step function: one IR instruction for the lanes of a warp that share
// the minimum PC (machine.hpp explains the policy). A single switch over
// IrOp, per the wabt design; arithmetic is a call through arith::OpDesc.
#include <bit>
#include <cstring>

#include "semantics/interp/exec_util.hpp"
#include "semantics/interp/ir_flags.hpp"
#include "semantics/interp/spin.hpp"

namespace ptxcheck::interp {

namespace {

// Special registers whose value (Machine::sreg) is the same for every lane
// of a warp in one step: the CTA's, grid's and cluster's coordinates and
// sizes and the warp's own number (not %tid, %laneid, %lanemask_*, and not
// the clocks, whose reads sreg() notes lane by lane).
bool warp_uniform(SReg s) {
  switch (s) {
    case SReg::ntid_x:
    case SReg::ntid_y:
    case SReg::ntid_z:
    case SReg::ctaid_x:
    case SReg::ctaid_y:
    case SReg::ctaid_z:
    case SReg::nctaid_x:
    case SReg::nctaid_y:
    case SReg::nctaid_z:
    case SReg::warpid:
    case SReg::nwarpid:
    case SReg::clusterid_x:
    case SReg::clusterid_y:
    case SReg::clusterid_z:
    case SReg::nclusterid_x:
    case SReg::nclusterid_y:
    case SReg::nclusterid_z:
    case SReg::cluster_ctaid_x:
    case SReg::cluster_ctaid_y:
    case SReg::cluster_ctaid_z:
    case SReg::cluster_nctaid_x:
    case SReg::cluster_nctaid_y:
    case SReg::cluster_nctaid_z:
    case SReg::cluster_ctarank:
    case SReg::cluster_nctarank:
    case SReg::dynamic_smem_size:
    case SReg::total_smem_size: return true;
    default: return false;
  }
}

}  // namespace

uint64_t Machine::get(const Opnd& o, Thread& t, uint32_t lane, const Warp& w) const {
  switch (o.kind) {
    case Opnd::Reg: {
      uint64_t v = t.regs[t.reg_base + o.slot];
      return o.negate ? !v : v;
    }
    case Opnd::Imm: return o.imm;
    case Opnd::Special: return sreg(o.sreg, t, lane, w);
    case Opnd::FrameAddr: return t.fp + o.imm;
    case Opnd::None: return 0;
  }
  return 0;
}

bool Machine::step(Warp& w) {
  Cta& c = *w.cta;
  Thread* T = &c.threads[w.first];
  if (!w.conv && !(w.rest_ok && w.pc < w.rest_pc)) {
    // Pick the minimum PC among runnable lanes (independent thread
    // scheduling), and note the least PC of the others (rest_pc). Skipped
    // when the steps since the last pick moved only the group's lanes,
    // together, to a PC still below rest_pc (rest_ok, set below where an
    // instruction ends so, cleared by the run loop at each quantum): the
    // scan would find the same group at w.pc.
    uint32_t best = ~0u, rest = ~0u, grp = 0, ready = 0;
    for (uint32_t l = 0; l < w.nlanes; ++l) {
      if (T[l].st != TState::Ready) continue;
      ready |= 1u << l;
      if (T[l].pc < best) {
        rest = best;
        best = T[l].pc;
        grp = 1u << l;
      } else if (T[l].pc == best) {
        grp |= 1u << l;
      } else if (T[l].pc < rest) {
        rest = T[l].pc;
      }
    }
    if (!grp) return false;
    if (w.rp_dirty) {
      for (uint32_t l = 0; l < w.nlanes; ++l) w.rp[l] = T[l].regs.data() + T[l].reg_base;
      w.rp_dirty = false;
    }
    w.pc = best;
    w.group = grp;
    w.conv = grp == ready;
    w.rest_pc = rest;
  }
  w.rest_ok = false;
  const Inst& in = prog.code[w.pc];
  if (spin_watch_ && !own_state_only(in.op)) [[unlikely]]
    spin_own_only_ = spin_own_only_ && (spin_own_op(in, T, w.group) || idempotent_atom(in, T, w.group));
  // (A thread's exit changes nothing another thread or the host sees.)
  if (!effect_ && !own_state_only(in.op) && in.op != IrOp::Ret && in.op != IrOp::Exit && !spin_own_op(in, T, w.group))
      [[unlikely]]
    effect_ = true;
  uint32_t g = w.group;
  steps += lane_count(g);
  if (steps > step_limit_) {
    res.step_limit = true;
    diag(DiagKind::StepLimit, true, c, T[std::countr_zero(g)], in,
         "step budget of " + std::to_string(opt.max_steps) + " thread instructions exceeded" +
             (opt.budget_since_exit ? " without a thread exiting (the kernel may hang; else give a larger --max-steps)"
                                    : ""));
    stop_ = true;
    return false;
  }
  uint32_t m = g;
  if (in.guarded) {
    uint32_t pm = 0;
    for (uint32_t b = g; b; b &= b - 1) {
      uint32_t l = std::countr_zero(b);
      bool p = w.rp[l][in.guard] != 0;
      if (p != in.guard_neg) pm |= 1u << l;
    }
    m = pm;
  }
  if (taint_on_) [[unlikely]]
    taint_step(*this, w, in, g, m);  // a check cycle of spin detection (spin.hpp)
  if (step_hook_) [[unlikely]] {
    step_hook_->step(T, c, in, g, m);
    // The hook may park lanes before the instruction (Thread::st = Parked,
    // as back_jump's Park; outcomes' Hook::loop_step): it runs later for
    // the others, and the hook's step is called again.
    uint32_t parked = 0;
    FOR_LANES(g) if (T[l].st == TState::Parked) parked |= 1u << l;
    if (parked) {
      FOR_LANES(g) T[l].pc = w.pc;
      w.conv = false;
      return true;
    }
  }
  // Operand read through the cached frame pointer (the hot path).
  auto val = [&](const Opnd& o, uint32_t l) -> uint64_t {
    if (o.kind == Opnd::Reg) {
      uint64_t v = w.rp[l][o.slot];
      return o.negate ? !v : v;
    }
    if (o.kind == Opnd::Imm) return o.imm;
    return get(o, T[l], l, w);
  };
  if (in.wg_reg) wg_touch(w, in, m);  // a register some wgmma.mma_async uses (wgmma_exec.cpp)
  auto leave = [&]() {                // write the group PC back: control leaves the fast path
    FOR_LANES(g) T[l].pc = w.pc;
    w.conv = false;
  };
  switch (in.op) {
    case IrOp::Nop:
    case IrOp::Fence:
      if (in.op == IrOp::Nop && (in.mode == 1 || in.mode == 2)) {
        // cp.async.bulk.commit_group (1), cp.async.bulk.wait_group{.read} N
        // (2): the bulk async-group (PTX ISA 9.7.9.25.1.1; exec_async.cpp).
        FOR_LANES(m) {
          Thread& t = T[l];
          if (in.mode == 1) {
            ++t.bulk_commits;
          } else if (!t.cp_ops.empty()) {
            const uint64_t n = get(in.src[0], t, l, w);
            const uint32_t groups = t.bulk_commits - static_cast<uint32_t>(std::min<uint64_t>(n, t.bulk_commits));
            if (!cp_complete(w, t, groups, true, in.flags & 1 ? CpWhich::BulkRead : CpWhich::Bulk)) return true;
          }
        }
        break;
      }
      if (in.op == IrOp::Nop && in.mode >= 3 && in.mode <= 6) {
        // cp.async.commit_group (3), wait_group N (4), wait_all (5),
        // cp.async.mbarrier.arrive (6): lower_sync.cpp; exec_async.cpp.
        FOR_LANES(m) {
          Thread& t = T[l];
          if (in.mode == 3 || in.mode == 5) ++t.cp_commits;  // wait_all commits first (9.7.9.25.3.3)
          if (in.mode != 3 && !t.cp_ops.empty()) {
            uint32_t groups = ~0u;  // wait_all, mbarrier: every prior cp.async
            if (in.mode == 4) {
              const uint64_t n = get(in.src[0], t, l, w);
              groups = t.cp_commits - static_cast<uint32_t>(std::min<uint64_t>(n, t.cp_commits));
            }
            if (!cp_complete(w, t, groups, true)) return true;
          }
        }
        break;
      }
      if (in.op == IrOp::Fence && fence_async_shared(in))  // PTX ISA 9.7.13.4 membar/fence
        FOR_LANES(m) {
          if (proxy_fences_.size() <= T[l].gid) proxy_fences_.resize(T[l].gid + 1, 0);
          ++proxy_fences_[T[l].gid];
        }
      // PTX ISA 8.8: fences start release patterns and complete acquire
      // patterns (fence.proxy orders no generic accesses).
      if (in.op == IrOp::Fence && (in.fence == FenceKind::Directional || in.fence == FenceKind::Full) && races.enabled)
        FOR_LANES(m) races.fence(T[l].sync, who(T[l], c), in.order, in.scope);
      if (in.op == IrOp::Fence && in.fence != FenceKind::Proxy && hook_)
        FOR_LANES(m) if (!hook_->fence(T[l], c, in)) return hook_stop();
      break;
    case IrOp::Arith: {
      if (arith_fast(w, in, m)) break;  // the inline integer forms (exec_fast.cpp)
      const arith::OpDesc& f = in.fn;
      const uint64_t wmask = in.dwidth >= 64 ? ~0ull : (1ull << in.dwidth) - 1;
      const bool d0 = in.dst[0].kind == Opnd::Reg;
      const uint32_t ds = in.dst[0].slot;
      const bool d1 = in.ndst > 1 && in.dst[1].kind == Opnd::Reg;
      // Operands decoded once per warp step: immediates are loaded before the
      // lane loop, plain registers are read per lane; anything else (negated
      // predicates, special registers, frame addresses) takes the general path.
      uint64_t s[4] = {0, 0, 0, 0};
      uint32_t rk[4], rs[4], nr = 0;
      bool general = false;
      for (unsigned k = 0; k < in.nsrc; ++k) {
        const Opnd& o = in.src[k];
        if (o.kind == Opnd::Imm)
          s[k] = o.imm;
        else if (o.kind == Opnd::Reg && !o.negate)
          rk[nr] = k, rs[nr++] = o.slot;
        else
          general = true;
      }
      if (general) {
        FOR_LANES(m) {
          for (unsigned k = 0; k < in.nsrc; ++k) s[k] = val(in.src[k], l);
          uint64_t aux = 0;
          uint64_t v = f.fn(s, &aux, f.cfg);
          if (d0) w.rp[l][ds] = v & wmask;
          if (d1) w.rp[l][in.dst[1].slot] = aux;
        }
        break;
      }
      FOR_LANES(m) {
        uint64_t* r = w.rp[l];
        switch (nr) {  // the register sources, unrolled for the usual counts
          case 0: break;
          case 1: s[rk[0]] = r[rs[0]]; break;
          case 2: s[rk[0]] = r[rs[0]], s[rk[1]] = r[rs[1]]; break;
          default:
            for (uint32_t j = 0; j < nr; ++j) s[rk[j]] = r[rs[j]];
        }
        uint64_t aux = 0;
        uint64_t v = f.fn(s, &aux, f.cfg);
        if (d0) r[ds] = v & wmask;
        if (d1) r[in.dst[1].slot] = aux;
      }
      break;
    }
    case IrOp::Mov: {
      if (in.dst[0].kind != Opnd::Reg) break;
      const uint64_t wmask = in.dwidth >= 64 ? ~0ull : (1ull << in.dwidth) - 1;
      const uint32_t ds = in.dst[0].slot;
      const Opnd& o = in.src[0];
      if (o.kind == Opnd::Imm) {
        FOR_LANES(m) w.rp[l][ds] = o.imm & wmask;
      } else if (o.kind == Opnd::Reg && !o.negate) {
        FOR_LANES(m) w.rp[l][ds] = w.rp[l][o.slot] & wmask;
      } else if (o.kind == Opnd::Special && (o.sreg == SReg::tid_x || o.sreg == SReg::tid_y || o.sreg == SReg::tid_z)) {
        // %tid (sreg() without the switch per lane)
        const unsigned d = o.sreg == SReg::tid_x ? 0 : o.sreg == SReg::tid_y ? 1 : 2;
        FOR_LANES(m) w.rp[l][ds] = T[l].tid[d] & wmask;
      } else if (o.kind == Opnd::Special && m != 0 && warp_uniform(o.sreg)) {
        // The same value in every lane: sreg() once.
        const uint32_t l0 = static_cast<uint32_t>(std::countr_zero(m));
        const uint64_t v = sreg(o.sreg, T[l0], l0, w) & wmask;
        FOR_LANES(m) w.rp[l][ds] = v;
      } else {
        FOR_LANES(m) w.rp[l][ds] = val(o, l) & wmask;
      }
      break;
    }
    case IrOp::Pack: {
      unsigned eb = in.size * 8u;
      FOR_LANES(m) {
        uint64_t v = 0;
        for (unsigned k = 0; k < in.nsrc; ++k) {
          uint64_t e = get(in.src[k], T[l], l, w);
          if (eb < 64) e &= (1ull << eb) - 1;
          v |= e << (eb * k);
        }
        put(T[l], in.dst[0], v, in.dwidth);
      }
      break;
    }
    case IrOp::Unpack: {
      unsigned eb = in.size * 8u;
      FOR_LANES(m) {
        uint64_t v = get(in.src[0], T[l], l, w);
        for (unsigned k = 0; k < in.ndst; ++k) put(T[l], in.dst[k], eb >= 64 ? v : (v >> (eb * k)), eb);
      }
      break;
    }
    case IrOp::Ld:
    case IrOp::St:  // exec_mem.cpp
      if (exec_ldst(w, in, m)) return true;
      break;
    case IrOp::Atom:
    case IrOp::Red:
      if (exec_atomic(w, in, m)) return true;  // exec_mem.cpp
      if (in.flags & kAtomV8) {                // step over the operand continuation (ir_flags.hpp)
        if (prog.code[w.pc + 1].wg_reg) wg_touch(w, prog.code[w.pc + 1], m);
        ++w.pc;
      }
      break;
    case IrOp::CpAsync:
    case IrOp::BulkCopy:
    case IrOp::StBulk:
    case IrOp::Mbarrier:  // exec_async.cpp
      if (exec_async(w, in, m)) return true;
      break;
    case IrOp::Bra: {
      if (hook_ && in.target <= w.pc) {
        bool parked = false;
        FOR_LANES(m) {
          ExecHook::Jump j = hook_->back_jump(T[l], c, w.pc, in.target);
          if (j == ExecHook::Jump::Stop) return hook_stop();
          if (j == ExecHook::Jump::Park) {
            T[l].st = TState::Parked;
            parked = true;
          }
        }
        if (parked) {
          leave();
          FOR_LANES(m) T[l].pc = in.target;
          FOR_LANES(g & ~m) T[l].pc = w.pc + 1;
          return true;
        }
      }
      uint32_t nt = g & ~m;
      if (!nt) {
        w.pc = in.target;  // uniform: the group stays as it is
        if (!w.conv) {
          FOR_LANES(g) T[l].pc = w.pc;
          w.rest_ok = !hook_;
        }
        return true;
      }
      w.conv = false;  // (leave(): m and nt are the group)
      FOR_LANES(m) T[l].pc = in.target;
      FOR_LANES(nt) T[l].pc = w.pc + 1;
      return true;
    }
    case IrOp::BrxIdx: {  // PTX ISA 9.7.12.4 brx.idx: pc = tlist[index]; undefined if index >= length
      if (!m) break;
      const std::vector<uint32_t>& tab = prog.branch_tables[in.target];
      uint32_t tgt[32], first = ~0u;
      bool same = true;
      FOR_LANES(m) {
        uint64_t idx = val(in.src[0], l) & 0xffffffffu;
        if (idx >= tab.size()) {
          diag(DiagKind::BadBranch, true, c, T[l], in,
               "brx.idx index " + std::to_string(idx) + " is not below the length " + std::to_string(tab.size()) +
                   " of its .branchtargets list (undefined behaviour)");
          stop_ = true;
          return true;
        }
        tgt[l] = tab[idx];
        if (first == ~0u) first = tgt[l];
        same = same && tgt[l] == first;
      }
      uint32_t nt = g & ~m;
      if (same && !nt) {
        w.pc = first;  // uniform: the group stays as it is
        if (!w.conv) FOR_LANES(g) T[l].pc = w.pc;
        return true;
      }
      w.conv = false;  // (leave(): m and nt are the group)
      FOR_LANES(m) T[l].pc = tgt[l];
      FOR_LANES(nt) T[l].pc = w.pc + 1;
      return true;
    }
    case IrOp::Call:
      w.conv = false;  // (leave(), the group's PCs written next)
      FOR_LANES(g) T[l].pc = w.pc + 1;
      FOR_LANES(m) {
        do_call(w, T[l], l, in);
        if (stop_) return true;
      }
      return true;
    case IrOp::Ret:
    case IrOp::Exit:
      w.conv = false;  // (leave(), the group's PCs written next)
      FOR_LANES(g) T[l].pc = w.pc + 1;
      if (m && !cluster_arrived) {
        // Batched exit (same effect as thread_exit lane by lane): with no
        // barrier partly arrived, no exit can complete one, so only the
        // warp's collective waiters need a retry, once for the whole group.
        bool batch = true;
        for (const auto& b : c.bars) batch = batch && !b.arrived;
        if (in.op == IrOp::Ret) FOR_LANES(m) batch = batch && T[l].frames.empty();
        if (batch) {
          progress();
          FOR_LANES(m) if (!T[l].cp_ops.empty() && !cp_complete(w, T[l], ~0u, false, CpWhich::All)) return true;
          FOR_LANES(m) {
            T[l].st = TState::Exited;
            if (T[l].gid < races.exit_gen.size()) races.exit_gen[T[l].gid] = c.full_gen;
          }
          c.exited += static_cast<uint32_t>(std::popcount(m));
          if (hook_) FOR_LANES(m) hook_->exited(T[l], c);
          for (uint32_t k = 0; k < w.nlanes; ++k)
            if (T[k].st == TState::WarpWait) {
              unconverge(w);
              T[k].st = TState::Ready;
            }
          return true;
        }
      }
      FOR_LANES(m) {
        if (in.op == IrOp::Ret)
          do_ret(w, T[l], in);
        else
          thread_exit(c, T[l]);
      }
      return true;
    case IrOp::Trap:
      if (m) {
        diag(DiagKind::Trap, true, c, T[std::countr_zero(m)], in, "trap executed");
        stop_ = true;
        return true;
      }
      break;
    case IrOp::Mma:  // mma_exec.cpp
      if (exec_mma(w, in, m)) return true;
      break;
    case IrOp::Tex:  // texture_exec.cpp
      exec_tex(w, in, m);
      if (stop_) return true;
      break;
    case IrOp::Tensor:  // exec_tensor.cpp
      if (exec_tensor(w, in, m)) return true;
      break;
    case IrOp::Unsupported:
      if (m) {
        diag(DiagKind::Unsupported, true, c, T[std::countr_zero(m)], in,
             "instruction not supported by the interpreter: " + prog.messages[in.target]);
        stop_ = true;
        return true;
      }
      break;
    case IrOp::BarSync:
    case IrOp::BarArrive:
    case IrOp::BarRed: {
      w.conv = false;  // (leave(), the group's PCs written next)
      FOR_LANES(g) T[l].pc = w.pc + 1;
      if (!m) return true;
      Thread& t0 = T[std::countr_zero(m)];
      uint32_t id = static_cast<uint32_t>(get(in.src[0], t0, 0, w));
      if (id >= 16) {
        diag(DiagKind::BarrierId, true, c, t0, in, "barrier id " + std::to_string(id) + " is not in 0..15");
        stop_ = true;
        return true;
      }
      BarrierState& b = c.bars[id];
      if (in.src[1].kind != Opnd::None) {
        uint32_t cnt = static_cast<uint32_t>(get(in.src[1], t0, 0, w));
        if (b.arrived && b.expected != cnt)
          diag(DiagKind::BarrierDivergence, true, c, t0, in,
               "threads arrive at barrier " + std::to_string(id) + " with different thread counts");
        b.expected = cnt;
      }
      if (in.op == IrOp::BarArrive) b.arrive_only = true;
      FOR_LANES(m) {
        Thread& t = T[l];
        // With a hook, a thread's bulk copies on mbarriers complete before
        // it waits at a CTA barrier, at the latest (a wait on their
        // mbarrier or its exit may come first, exec_async.cpp): one a
        // thread parked at the barrier would leave undone could be the
        // copy another thread's wait on its mbarrier needs.
        if (hook_ && !t.cp_ops.empty())
          for (size_t k = t.cp_ops.size(); k-- > 0;)
            if (k < t.cp_ops.size() && t.cp_ops[k].on_mbar) {
              const Where mb = t.cp_ops[k].mbw;
              if (!cp_complete(w, t, ~0u, false, CpWhich::Mbar, &mb)) return true;
            }
        if (hook_ &&
            !hook_->barrier_arrive(t, c, in, id, in.src[1].kind != Opnd::None ? static_cast<int>(b.expected) : -1,
                                   in.op != IrOp::BarArrive))
          return hook_stop();
        ++b.arrived;
        if (races.enabled) b.rels.push_back(Races::release(t.sync, who(t, c), mm::Scope::CTA));
        if (in.op == IrOp::BarRed) {
          bool p = get(in.src[2], t, l, w) != 0;
          b.red_popc += p;
          b.red_and = b.red_and && p;
          b.red_or = b.red_or || p;
          t.bar_red_pending = true;
          t.bar_red_dst = in.dst[0].slot;
        }
        if (in.op != IrOp::BarArrive) {
          t.st = TState::Barrier;
          b.waiting.push_back(w.first + l);
        }
      }
      check_barrier(c, id);
      return true;
    }
    case IrOp::ClusterArrive:
      if (coop_) {  // every CTA of a cooperative launch is its own cluster (machine.cpp run)
        diag(DiagKind::Unsupported, true, c, T[std::countr_zero(m)], in,
             "barrier.cluster in a cooperative launch is not supported (the interpreter runs a cooperative "
             "launch's CTAs as one-CTA clusters and keeps one cluster barrier)");
        stop_ = true;
        return true;
      }
      FOR_LANES(m) {
        if (hook_ && !hook_->cluster_arrive(T[l], c, in)) return hook_stop();
        T[l].cl_phase = cluster_phase;
        ++cluster_arrived;
        if (races.enabled) {
          // .relaxed (PTX ISA 9.7.13.3) releases nothing by itself, but a
          // release fence of cluster scope or wider before it makes a
          // fence-based release pattern with it (8.8, pattern 3).
          const Rel& f = T[l].sync.fence[static_cast<size_t>(mm::Scope::Cluster)];
          if (in.order != mm::Order::Relaxed)
            cluster_rels.push_back(Races::release(T[l].sync, who(T[l], c), mm::Scope::Cluster));
          else if (f.valid)
            cluster_rels.push_back(f);
        }
      }
      w.conv = false;  // (leave(), the group's PCs written next)
      FOR_LANES(g) T[l].pc = w.pc + 1;
      check_cluster_barrier();
      return true;
    case IrOp::ClusterWait:
      if (hook_) FOR_LANES(m) if (!hook_->cluster_wait(T[l], c, in)) return hook_stop();
      w.conv = false;  // (leave(), the group's PCs written next)
      FOR_LANES(g) T[l].pc = w.pc + 1;
      FOR_LANES(m) {
        if (T[l].cl_phase == cluster_phase)
          T[l].st = TState::ClusterWait;
        else if (races.enabled && in.order != mm::Order::Relaxed)
          Races::join(T[l].sync, cluster_done[T[l].cl_phase & 1]);
      }
      return true;
    case IrOp::WarpSync:
    case IrOp::Shfl:
    case IrOp::Vote:
    case IrOp::Match:
    case IrOp::Redux:
    case IrOp::Activemask:
    case IrOp::Elect: exec_warp_op(w, in, m); return true;
    case IrOp::Cvta:
      if (in.src[0].kind == Opnd::Reg && !in.src[0].negate && in.dst[0].kind == Opnd::Reg) {
        // A register source through the cached frame pointer (as val), the
        // destination masked as put() does; global addresses are the same
        // generic and global (memory.cpp to_generic/from_generic).
        const uint32_t ss = in.src[0].slot, ds = in.dst[0].slot;
        const uint64_t wm = in.dwidth >= 64 ? ~0ull : (1ull << in.dwidth) - 1;
        if (in.addr.space == Space::Global)
          FOR_LANES(m) w.rp[l][ds] = w.rp[l][ss] & wm;
        else
          FOR_LANES(m) {
            const uint64_t v = w.rp[l][ss];
            w.rp[l][ds] =
                (in.flags ? Memory::from_generic(in.addr.space, v) : Memory::to_generic(in.addr.space, v)) & wm;
          }
        break;
      }
      FOR_LANES(m) {
        uint64_t v = get(in.src[0], T[l], l, w);
        uint64_t r = in.flags ? Memory::from_generic(in.addr.space, v) : Memory::to_generic(in.addr.space, v);
        put(T[l], in.dst[0], r, in.dwidth);
      }
      break;
    case IrOp::Isspacep:
      FOR_LANES(m) {
        ThreadMem tm = tmem(T[l], c);
        put(T[l], in.dst[0], mem.is_in_space(in.addr.space, get(in.src[0], T[l], l, w), tm), 1);
      }
      break;
    case IrOp::Mapa:
      FOR_LANES(m) {
        uint64_t a = get(in.src[0], T[l], l, w);
        uint64_t rank = get(in.src[1], T[l], l, w);
        bool generic = in.addr.space == Space::Generic;
        uint64_t off = (generic ? a - kSharedWin : a) & ((1u << kRankShift) - 1);
        uint64_t r = ((rank + 1) << kRankShift) | off;
        put(T[l], in.dst[0], generic ? kSharedWin + r : r, in.dwidth);
      }
      break;
    case IrOp::Getctarank:
      FOR_LANES(m) {
        uint64_t a = get(in.src[0], T[l], l, w);
        if (in.addr.space == Space::Generic) a -= kSharedWin;
        uint64_t hi = (a & 0xffffffffu) >> kRankShift;
        put(T[l], in.dst[0], hi ? hi - 1 : c.rank, in.dwidth);
      }
      break;
    case IrOp::Alloca:
      FOR_LANES(m) {
        Thread& t = T[l];
        uint64_t sz = get(in.src[0], t, l, w), al = std::max<uint64_t>(1, get(in.src[1], t, l, w));
        uint64_t p = (t.sp + al - 1) / al * al;
        if (p + sz > (1u << 20)) {
          diag(DiagKind::StackOverflow, true, c, t, in, "alloca exceeds the 1 MiB per-thread stack");
          stop_ = true;
          return true;
        }
        t.sp = static_cast<uint32_t>(p + sz);
        ensure_local(t, t.sp);
        put(t, in.dst[0], p, in.dwidth);
      }
      break;
    case IrOp::StackSave: FOR_LANES(m) put(T[l], in.dst[0], T[l].sp, in.dwidth); break;
    case IrOp::StackRestore: FOR_LANES(m) T[l].sp = static_cast<uint32_t>(get(in.src[0], T[l], l, w)); break;
  }
  ++w.pc;
  if (!w.conv) {
    FOR_LANES(g) T[l].pc = w.pc;
    // Instructions that change no thread's state or PC but their own lanes'
    // PC (with no hook, which may park threads): the next step may keep
    // the group (above).
    switch (in.op) {
      case IrOp::Arith:
      case IrOp::Mov:
      case IrOp::Pack:
      case IrOp::Unpack:
      case IrOp::Ld:
      case IrOp::St:
      case IrOp::Cvta:
      case IrOp::Nop: w.rest_ok = !hook_; break;
      default: break;
    }
  }
  return true;
}

}  // namespace ptxcheck::interp
