// Special registers (PTX ISA 10): the value of %tid, %ctaid, %laneid,
// %clock and the others for one lane of a warp (Machine::sreg).
#include "semantics/interp/exec_util.hpp"
#include "semantics/interp/spin.hpp"

namespace ptxcheck::interp {

uint64_t Machine::sreg(SReg s, const Thread& t, uint32_t lane, const Warp& w) const {
  const Cta& c = *w.cta;
  switch (s) {
    case SReg::tid_x: return t.tid[0];
    case SReg::tid_y: return t.tid[1];
    case SReg::tid_z: return t.tid[2];
    case SReg::ntid_x: return spec.block[0];
    case SReg::ntid_y: return spec.block[1];
    case SReg::ntid_z: return spec.block[2];
    case SReg::ctaid_x: return c.id[0];
    case SReg::ctaid_y: return c.id[1];
    case SReg::ctaid_z: return c.id[2];
    case SReg::nctaid_x: return spec.grid[0];
    case SReg::nctaid_y: return spec.grid[1];
    case SReg::nctaid_z: return spec.grid[2];
    case SReg::laneid: return lane;
    case SReg::warpid: return w.index;
    case SReg::nwarpid: return c.warps.size();
    case SReg::lanemask_eq: return 1u << lane;
    case SReg::lanemask_le: return lane == 31 ? 0xffffffffu : (2u << lane) - 1;
    case SReg::lanemask_lt: return (1u << lane) - 1;
    case SReg::lanemask_ge: return ~((1u << lane) - 1);
    case SReg::lanemask_gt: return lane == 31 ? 0 : ~((2u << lane) - 1);
    // Clocks advance with executed thread instructions, plus the skip of
    // spin detection (spin.hpp; docs/interpreter.md "Clocks"):
    // deterministic. They count the CTAs run before, so CTAs that read them
    // run one at a time.
    case SReg::clock:
    case SReg::clock_hi:
    case SReg::clock64:
    case SReg::globaltimer:
    case SReg::globaltimer_lo:
    case SReg::globaltimer_hi: {
      if (par_) par_order_dependent("a CTA read a clock (%clock, %clock64, %globaltimer)");
      if (spin_) ++spin_->clock_reads;
      const uint64_t now = steps + (spin_ ? spin_->clock_skip : 0);
      return s == SReg::clock || s == SReg::globaltimer_lo      ? now & 0xffffffffu
             : s == SReg::clock_hi || s == SReg::globaltimer_hi ? now >> 32
                                                                : now;
    }
    case SReg::clusterid_x: return c.cluster_id[0];
    case SReg::clusterid_y: return c.cluster_id[1];
    case SReg::clusterid_z: return c.cluster_id[2];
    case SReg::nclusterid_x: return spec.grid[0] / cl_[0];
    case SReg::nclusterid_y: return spec.grid[1] / cl_[1];
    case SReg::nclusterid_z: return spec.grid[2] / cl_[2];
    case SReg::cluster_ctaid_x: return c.cluster_ctaid[0];
    case SReg::cluster_ctaid_y: return c.cluster_ctaid[1];
    case SReg::cluster_ctaid_z: return c.cluster_ctaid[2];
    case SReg::cluster_nctaid_x: return cl_[0];
    case SReg::cluster_nctaid_y: return cl_[1];
    case SReg::cluster_nctaid_z: return cl_[2];
    case SReg::cluster_ctarank: return c.rank;
    case SReg::cluster_nctarank: return cluster_size();
    case SReg::is_explicit_cluster: return explicit_cl_;
    case SReg::dynamic_smem_size: return spec.dynamic_shared_bytes;
    case SReg::total_smem_size: return prog.static_shared_bytes + spec.dynamic_shared_bytes;
    // PTX ISA 10.27 %envreg<32>: the grid workspace of a cooperative launch
    // (special_regs.def), high half in %envreg1, low half in %envreg2.
    case SReg::envreg1: return grid_ws_ >> 32;
    case SReg::envreg2: return grid_ws_ & 0xffffffffu;
    // clang-format off
    case SReg::envreg0: case SReg::envreg3: case SReg::envreg4: case SReg::envreg5: case SReg::envreg6:
    case SReg::envreg7: case SReg::envreg8: case SReg::envreg9: case SReg::envreg10: case SReg::envreg11:
    case SReg::envreg12: case SReg::envreg13: case SReg::envreg14: case SReg::envreg15: case SReg::envreg16:
    case SReg::envreg17: case SReg::envreg18: case SReg::envreg19: case SReg::envreg20: case SReg::envreg21:
    case SReg::envreg22: case SReg::envreg23: case SReg::envreg24: case SReg::envreg25: case SReg::envreg26:
    case SReg::envreg27: case SReg::envreg28: case SReg::envreg29: case SReg::envreg30: case SReg::envreg31:
      return 0;
    // clang-format on
    case SReg::nsmid: return 1;
    case SReg::smid:  // one SM, grid 0
    case SReg::gridid:
    case SReg::zero: return 0;
  }
  return 0;
}

}  // namespace ptxcheck::interp
