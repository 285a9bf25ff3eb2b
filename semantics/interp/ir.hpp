// The flat IR the interpreter executes (wabt-style "decode once"): every
// function of a module is lowered once to a contiguous run of `Inst` in one
// code array, with labels resolved to code indices, registers resolved to
// frame slots, symbols resolved to addresses, and arithmetic resolved to a
// function pointer of semantics/arith (arith::resolve). Nothing in the
// executor looks at PTX text or the AST again.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "memmodel/events.hpp"
#include "semantics/arith/atom.hpp"
#include "semantics/arith/resolve.hpp"
#include "semantics/interp/memory.hpp"

namespace ptxcheck::interp {

struct MmaSite;     // semantics/interp/mma.hpp
struct TexSite;     // semantics/interp/texture.hpp
struct TensorSite;  // semantics/interp/tma.hpp

enum class IrOp : uint8_t {
#define IR_OP(id) id,
#include "semantics/interp/ir_ops.def"
#undef IR_OP
};

// Special registers (PTX ISA 10 Special Registers): one enumerator per row
// of special_regs.def, then `zero`, the register of an operand that is none.
enum class SReg : uint8_t {
#define SREG(id, name, component) id,
#include "semantics/interp/special_regs.def"
#undef SREG
  zero,
};

// An operand: a register slot of the current frame, an immediate, a special
// register, or an address relative to the current local frame (the address
// of a .local/.param variable of the function, PTX ISA 5.1.6.4).
struct Opnd {
  enum Kind : uint8_t { None, Reg, Imm, Special, FrameAddr };
  Kind kind = None;
  SReg sreg = SReg::zero;
  bool negate = false;  // !%p predicate source
  uint32_t slot = 0;
  uint64_t imm = 0;     // Imm value; FrameAddr offset
};

// A pre-decoded memory address: base + offset in a state space.
struct Addr {
  Space space = Space::Generic;
  enum Base : uint8_t { Abs, Reg, Frame } base = Abs;
  uint32_t slot = 0;
  int64_t off = 0;
  // The base is a 32-bit register: base + offset is computed in 32 bits and
  // zero-extended (PTX ISA 9.2 6.4.1 Addresses as Operands; nvcc's shared
  // memory loops rely on the wrap, e.g. [%r33+128] with %r33 = -128).
  bool addr32 = false;
  uint64_t wrap(uint64_t a) const { return addr32 ? (a & 0xffff'ffffull) : a; }
};

using arith::AtomOp;
enum class NumKind : uint8_t { U, S, F, B };

// IrOp::Fence: which fence (PTX ISA 9.7.13.4 membar/fence).
enum class FenceKind : uint8_t {
  Directional,  // fence.acquire, fence.release
  Full,         // fence.sc, fence.acq_rel, membar
  Proxy,        // fence.proxy.{alias,tensormap::generic,...}: orders no generic accesses
  ProxyAsync,   // fence.proxy.async{,.global,.shared::cta,.shared::cluster}: addr.space is
                // its state space (Generic = all)
};

// IrOp::Mbarrier: which operation (PTX ISA 9.7.13.15 mbarrier).
enum class MbarOp : uint8_t {
  Init,          // mbarrier.init
  Arrive,        // mbarrier.arrive{.expect_tx}
  ArriveDrop,    // mbarrier.arrive_drop{.expect_tx}
  Wait,          // mbarrier.test_wait/try_wait on a state token
  WaitParity,    // mbarrier.test_wait/try_wait.parity
  Inval,         // mbarrier.inval
  PendingCount,  // mbarrier.pending_count of a state token
  ExpectTx,      // mbarrier.expect_tx
  CompleteTx,    // mbarrier.complete_tx, and the complete-tx of st.async/red.async
};

struct Inst {
  IrOp op = IrOp::Nop;
  uint8_t ndst = 0, nsrc = 0;
  uint8_t size = 0;     // memory element bytes / operand width in bytes
  uint8_t mode = 0;     // op-specific selector of the ops without a typed one below (shfl, vote, bulk, ...)
  uint8_t flags = 0;    // op-specific flags of those ops (see lower_sync.cpp, lower_insn.cpp)
  NumKind nk = NumKind::B;
  bool guarded = false, guard_neg = false;
  bool async_tx = false;  // st.async/red.async: made visible by an mbarrier phase of the target CTA
  arith::Ty ety = arith::Ty::b32;  // atom/red: the instruction type (arith::atom_apply)
  bool wg_reg = false;    // touches a register that a wgmma.mma_async of the function uses (lower.cpp)
  uint32_t guard = 0;   // predicate slot
  uint32_t target = 0;  // branch target / callee function index / aux index
  uint32_t dwidth = 64; // destination register width in bits
  Opnd dst[4];
  Opnd src[4];
  Addr addr;
  Addr addr2;           // second address (cp.async source)
  arith::OpDesc fn;     // IrOp::Arith
  uint32_t line = 0;    // PTX source line and column of the instruction (1-based; 0 unknown)
  uint32_t col = 0;
  // ld/st/atom/red/fence: the memory-model semantics (PTX ISA 8.4 Operation
  // types, 8.5 Scope) with PTX's defaults applied (parser/litmus/mem_defaults);
  // mbarrier and barrier.cluster operations: theirs (lower_insn.hpp sync_mm).
  mm::Order order = mm::Order::Weak;
  mm::Scope scope = mm::Scope::Sys;
  // Typed selectors (they fill the padding after order/scope).
  FenceKind fence = FenceKind::Full;  // IrOp::Fence
  MbarOp mbar = MbarOp::Init;         // IrOp::Mbarrier
  bool expect_tx = false;             // IrOp::Mbarrier arrive{_drop}.expect_tx: the count is tx bytes
  AtomOp atom = AtomOp::Add;          // IrOp::Atom, Red, Redux, BulkCopy mode 2: the operation
};

// fence.proxy.async covering shared memory (.async, .async.shared::{cta,cluster}).
inline bool fence_async_shared(const Inst& in) {
  return in.fence == FenceKind::ProxyAsync && in.addr.space != Space::Global;
}

// A formal parameter or return value of a function: a .reg slot or bytes of
// the frame's local memory (.param, PTX ISA 5.1.6.4).
struct Formal {
  bool is_reg = false;
  uint32_t slot = 0;     // when is_reg
  uint32_t frame_off = 0;
  uint32_t size = 0;
  uint32_t width = 64;   // register width in bits
};

// One argument of a call site (caller side): a register/immediate value or a
// caller-frame .param variable.
struct CallArg {
  bool in_frame = false;
  Opnd value;            // when !in_frame
  uint32_t frame_off = 0;
  uint32_t size = 0;
};

struct CallSite {
  uint32_t callee = 0;   // function index, or ~0u for an indirect call
  Opnd fnptr;            // indirect: register holding a function address
  std::vector<CallArg> args, rets;
  bool builtin_vprintf = false;
};

struct Function {
  std::string name;
  bool is_entry = false;
  bool defined = false;
  uint32_t entry_pc = 0;
  uint32_t nregs = 0;         // register slots of one frame
  uint32_t frame_bytes = 0;   // static local memory of one frame
  std::vector<Formal> params, rets;
  std::vector<uint32_t> reg_width;  // per slot: declared width in bits
};

// A `.loc` source position (PTX ISA 11.5.2): file index and line, and the
// outermost position it is inlined at (or the same).
struct SourceLoc {
  uint32_t file = 0, line = 0;
  uint32_t outer_file = 0, outer_line = 0;
};

struct KernelParam {
  std::string name;
  uint32_t offset = 0, size = 0, align = 1;
};

struct Program {
  std::string file;
  std::vector<Inst> code;
  std::vector<Function> funcs;
  std::vector<CallSite> calls;             // Inst::target of IrOp::Call
  std::vector<std::string> messages;       // Inst::target of IrOp::Unsupported
  std::vector<std::vector<uint32_t>> branch_tables;  // Inst::target of IrOp::BrxIdx: code indices
  std::vector<std::shared_ptr<const MmaSite>> mma;  // Inst::target of IrOp::Mma
  std::vector<std::shared_ptr<const TexSite>> tex;  // Inst::target of IrOp::Tex
  std::vector<std::shared_ptr<const TensorSite>> tensor;  // Inst::target of IrOp::Tensor
  std::vector<KernelParam> kparams;        // of the kernel being run
  uint32_t kparam_bytes = 0;
  // Module-scope data: global variables and const bank contents.
  struct GlobalVar {
    std::string name;
    std::vector<uint8_t> bytes;
    uint64_t addr = 0;  // assigned when memory is built
  };
  std::vector<GlobalVar> globals;
  uint64_t global_base = kGlobalBase;  // where globals[0] is placed (lower(): global_base)
  std::vector<uint8_t> const_bytes;
  // `.loc` in effect at each code index (index into locs + 1; 0: none) and
  // the module's `.file` table (PTX ISA 11.5.1-2).
  std::vector<uint32_t> src_loc;
  std::vector<SourceLoc> locs;
  std::vector<std::pair<uint32_t, std::string>> src_files;
  // "file:line" of the `.loc` in effect at `pc` ("" without one), with
  // " (inlined at file:line)" when it is inlined.
  std::string source_of(uint32_t pc) const;
  uint32_t static_shared_bytes = 0;
  uint32_t kernel = 0;  // function index of the kernel
  // Launch constraints from the kernel's directives (PTX ISA 11.4).
  std::array<uint32_t, 3> reqntid{0, 0, 0}, maxntid{0, 0, 0}, reqnctapercluster{0, 0, 0};
  bool explicitcluster = false;
};

// Function addresses for indirect calls: kFuncAddrBase + index * 16.
inline constexpr uint64_t kFuncAddrBase = 0x7400'0000'0000ull;

}  // namespace ptxcheck::interp
