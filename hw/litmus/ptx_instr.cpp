// One litmus instruction to PTX (ptx_instr.hpp). Orders, scopes and atom
// operations follow PTX ISA 9.7.9.8 (ld), 9.7.9.9 (st), 9.7.13.5 (atom),
// 9.7.13.6 (red), 9.7.13.4 (fence/membar), 9.7.13.1 (barrier).
#include "hw/litmus/ptx_instr.hpp"

#include <fmt/format.h>

#include "hw/litmus/ptx_gen.hpp"
#include "memmodel/names.hpp"
#include "parser/litmus/instr_names.hpp"

namespace ptxcheck::hw {

using litmus::AluOp;
using litmus::CmpOp;
using litmus::InstrKind;
using litmus::LInstr;
using litmus::Slot;

namespace {

std::string lit(uint64_t v) { return v < 0x80000000ULL ? std::to_string(v) : fmt::format("0x{:016X}", v); }

uint64_t mask(uint64_t v, uint32_t size) { return litmus::mask_to(v, size); }

// .cta | .cluster | .gpu | .sys (memmodel/vocab.def); .cluster needs sm_90.
std::string scope_name(mm::Scope s, EmitFlags& f) {
  if (s == mm::Scope::Cluster) f.cluster_scope = true;
  return std::string(".") + mm::to_string(s);
}

[[noreturn]] void fail(const litmus::Instr& in, const std::string& why) {
  throw NotExpressible("'" + in.text + "': " + why);
}

// A 64-bit operand: the register or the immediate.
std::string op64(const Slot& s) { return s.reg >= 0 ? fmt::format("%x{}", s.reg) : lit(s.imm); }

// A 32-bit operand; registers are truncated into %w<tmp> first.
std::string op32(const Slot& s, int tmp, std::string& out) {
  if (s.reg < 0) return lit(mask(s.imm, 4));
  out += fmt::format("  cvt.u32.u64 %w{}, %x{};\n", tmp, s.reg);
  return fmt::format("%w{}", tmp);
}

std::string opsz(const Slot& s, uint32_t size, int tmp, std::string& out) {
  return size == 8 ? op64(s) : op32(s, tmp, out);
}

// ld/st qualifiers: .weak | .relaxed.scope | .acquire/.release.scope | .mmio.relaxed.sys
// (orders spelled as memmodel/vocab.def does).
std::string access_sem(const litmus::Instr& in, bool load, EmitFlags& f) {
  const std::string sem = std::string(".") + mm::to_string(in.order);
  switch (in.order) {
    case mm::Order::Weak: return sem;
    case mm::Order::Relaxed: return sem + scope_name(in.scope, f);
    case mm::Order::Acquire:
      if (load) return sem + scope_name(in.scope, f);
      break;
    case mm::Order::Release:
      if (!load) return sem + scope_name(in.scope, f);
      break;
    case mm::Order::MMIO: f.mmio = true; return sem + "." + mm::to_string(mm::Order::Relaxed) + ".sys";
    default: break;
  }
  fail(in, std::string("no such ") + (load ? "load" : "store") + " order in PTX");
}

std::string rmw_sem(const litmus::Instr& in, EmitFlags& f) {
  const mm::Order o = in.order == mm::Order::Weak ? mm::Order::Relaxed : in.order;  // atom is at least relaxed
  if (o != mm::Order::Relaxed && o != mm::Order::Acquire && o != mm::Order::Release && o != mm::Order::AcqRel)
    fail(in, "no such atom order in PTX");
  return std::string(".") + mm::to_string(o) + scope_name(in.scope, f);
}

void emit_rmw(const litmus::Program& p, const LInstr& li, std::string& out, EmitFlags& f) {
  const auto& in = *li.src;
  uint32_t size = p.locations[li.loc].size;
  if (size != 4 && size != 8) fail(in, "atom/red on " + std::to_string(size) + "-byte locations");
  bool wide = size == 8;
  const char* u = wide ? "u64" : "u32";
  const char* b = wide ? "b64" : "b32";
  std::string opname, a, c;
  auto neg = [&](const Slot& s) {  // two's complement of an operand, for sub/dec
    if (s.reg < 0) return lit(mask(-s.imm, size));
    if (wide) {
      out += fmt::format("  neg.s64 %v2, %x{};\n", s.reg);
      return std::string("%v2");
    }
    out += fmt::format("  cvt.u32.u64 %w2, %x{};\n  neg.s32 %w2, %w2;\n", s.reg);
    return std::string("%w2");
  };
  bool bounded = !li.args.empty();
  switch (in.op) {
    case AluOp::Add: opname = fmt::format("add.{}", u); a = opsz(li.args.at(0), size, 1, out); break;
    case AluOp::Sub: opname = fmt::format("add.{}", u); a = neg(li.args.at(0)); break;
    case AluOp::And: opname = fmt::format("and.{}", b); a = opsz(li.args.at(0), size, 1, out); break;
    case AluOp::Or: opname = fmt::format("or.{}", b); a = opsz(li.args.at(0), size, 1, out); break;
    case AluOp::Xor: opname = fmt::format("xor.{}", b); a = opsz(li.args.at(0), size, 1, out); break;
    case AluOp::Exch: opname = fmt::format("exch.{}", b); a = opsz(li.args.at(0), size, 1, out); break;
    case AluOp::Cas:
      opname = fmt::format("cas.{}", b);
      a = opsz(li.args.at(0), size, 1, out);
      c = opsz(li.args.at(1), size, 3, out);
      break;
    case AluOp::Inc:
    case AluOp::Dec:
      if (!bounded) {
        opname = fmt::format("add.{}", u);
        a = in.op == AluOp::Inc ? "1" : lit(mask(~uint64_t{0}, size));
      } else {
        if (wide) fail(in, "atom.inc/dec exist only for .u32");
        opname = in.op == AluOp::Inc ? "inc.u32" : "dec.u32";
        a = op32(li.args[0], 1, out);
      }
      break;
    case AluOp::Min:
    case AluOp::Max:
      // The comparison follows the instruction's type (PTX ISA 9.7.13.5, atom:
      // .u32/.u64 unsigned, .s32/.s64 signed), as in ptxcheck's litmus
      // semantics (arith::atom_apply via semantics/litmus/to_ir.cpp); an
      // untyped access (Dat3M's dialect) compares signed there too.
      opname = fmt::format("{}.{}{}", in.op == AluOp::Min ? "min" : "max",
                           !in.type.empty() && in.type[0] == 'u' ? 'u' : 's', wide ? 64 : 32);
      a = opsz(li.args.at(0), size, 1, out);
      break;
    default: fail(in, "no such atom operation");
  }
  bool red_ok = in.kind == InstrKind::Red && in.op != AluOp::Exch && in.op != AluOp::Cas &&
                (in.order == mm::Order::Weak || in.order == mm::Order::Relaxed || in.order == mm::Order::Release);
  std::string addr = fmt::format("[%la{}]", li.loc);
  std::string sem = rmw_sem(in, f);
  if (red_ok) {
    out += fmt::format("  red{}.global.{} {}, {};\n", sem, opname, addr, a);
    return;
  }
  std::string dst = wide ? "%v4" : "%w4";
  out += fmt::format("  atom{}.global.{} {}, {}, {}{};\n", sem, opname, dst, addr, a, c.empty() ? "" : ", " + c);
  if (in.kind == InstrKind::Rmw && li.dst >= 0)
    out += wide ? fmt::format("  mov.b64 %x{}, %v4;\n", li.dst) : fmt::format("  cvt.u64.u32 %x{}, %w4;\n", li.dst);
}

// A backward jump counts against the spin limit; past it the role gives up.
void emit_jump(int role, int pc, int target, const char* pred, std::string& out) {
  std::string tgt = fmt::format("R{}_I{}", role, target);
  if (target > pc) {
    out += fmt::format("  {}bra {};\n", pred, tgt);
    return;
  }
  std::string skip = fmt::format("R{}_N{}", role, pc);
  if (*pred) out += fmt::format("  @!%p0 bra {};\n", skip);
  out += fmt::format("  add.u32 %cnt, %cnt, 1;\n  setp.gt.u32 %p1, %cnt, %lim;\n  @%p1 bra R{}_CUT;\n", role);
  out += fmt::format("  bra {};\n{}:\n", tgt, skip);
}

void emit_one(const litmus::Program& p, int role, int pc, std::string& out, EmitFlags& f) {
  const LInstr& li = p.threads[role].code[pc];
  const auto& in = *li.src;
  std::string note = in.text;  // a comment: one line
  for (char& c : note)
    if (c == '\n' || c == '\r') c = ' ';
  out += fmt::format("R{}_I{}:  // {}\n", role, pc, note);
  if (in.proxy != mm::Proxy::Generic) fail(in, "non-generic proxy");
  switch (in.kind) {
    case InstrKind::Label: return;
    case InstrKind::Ptx: fail(in, "a PTX instruction outside the litmus subset");
    case InstrKind::Load: {
      uint32_t size = p.locations[li.loc].size;
      std::string sem = access_sem(in, true, f);
      if (size == 8) {
        out += fmt::format("  ld{}.global.u64 %x{}, [%la{}];\n", sem, li.dst, li.loc);
      } else {
        out += fmt::format("  ld{}.global.u{} %w0, [%la{}];\n", sem, 8 * size, li.loc);
        out += fmt::format("  cvt.u64.u32 %x{}, %w0;\n", li.dst);
      }
      return;
    }
    case InstrKind::Store: {
      uint32_t size = p.locations[li.loc].size;
      std::string sem = access_sem(in, false, f);
      std::string v = size == 8 ? op64(li.args.at(0)) : li.args.at(0).reg < 0 ? lit(mask(li.args[0].imm, size))
                                                                            : op32(li.args[0], 0, out);
      out += fmt::format("  st{}.global.u{} [%la{}], {};\n", sem, 8 * size, li.loc, v);
      return;
    }
    case InstrKind::Rmw:
    case InstrKind::Red: emit_rmw(p, li, out, f); return;
    case InstrKind::Fence: {
      // fence.sem spells the order as memmodel/vocab.def does.
      if (in.order != mm::Order::SC && in.order != mm::Order::AcqRel && in.order != mm::Order::Acquire &&
          in.order != mm::Order::Release)
        fail(in, "no such fence order");
      out += fmt::format("  fence.{}{};\n", mm::to_string(in.order), scope_name(in.scope, f));
      return;
    }
    case InstrKind::ProxyFence:
      if (in.pfence == mm::ProxyFenceKind::Alias) out += "  fence.proxy.alias;\n";
      else if (in.pfence == mm::ProxyFenceKind::Async) out += "  fence.proxy.async;\n", f.async_proxy = true;
      else fail(in, "proxy fence kind without a PTX counterpart here");
      return;
    case InstrKind::Barrier:
      // Checked by the generator: unconditional, whole-CTA sync, immediate id.
      // barrier.sync is the non-.aligned form: roles of one warp run different code.
      out += fmt::format("  barrier.sync {};\n", li.args.empty() ? 0 : li.args[0].imm);
      return;
    case InstrKind::Alu: {
      uint32_t size = in.size;
      std::string a = op64(li.args.at(0));
      std::string b = li.args.size() > 1 ? op64(li.args[1]) : "0";
      out += fmt::format("  mov.b64 %v0, {};\n  mov.b64 %v1, {};\n", a, b);
      std::string d = fmt::format("%x{}", li.dst);
      // div/min/max/setp compare or divide as the instruction's type says
      // (native threads: their PTX type; Dat3M's untyped dialect: signed, as
      // semantics/litmus/to_ir.cpp runs it); signed ones at fewer than 64 bits
      // see their operands sign-extended from the access size.
      const char sg = !in.type.empty() && in.type[0] == 'u' ? 'u' : 's';
      bool is_signed = sg == 's' && (in.op == AluOp::Div || in.op == AluOp::Min || in.op == AluOp::Max ||
                                     in.op == AluOp::Setp);
      if (is_signed && size < 8)
        for (const char* v : {"%v0", "%v1"})
          out += fmt::format("  shl.b64 {0}, {0}, {1};\n  shr.s64 {0}, {0}, {1};\n", v, 64 - 8 * size);
      switch (in.op) {
        case AluOp::Mov: out += fmt::format("  mov.b64 {}, %v0;\n", d); break;
        case AluOp::Add: out += fmt::format("  add.u64 {}, %v0, %v1;\n", d); break;
        case AluOp::Sub: out += fmt::format("  sub.u64 {}, %v0, %v1;\n", d); break;
        case AluOp::Mul: out += fmt::format("  mul.lo.u64 {}, %v0, %v1;\n", d); break;
        case AluOp::Div: out += fmt::format("  div.{}64 {}, %v0, %v1;\n", sg, d); break;
        case AluOp::And: out += fmt::format("  and.b64 {}, %v0, %v1;\n", d); break;
        case AluOp::Or: out += fmt::format("  or.b64 {}, %v0, %v1;\n", d); break;
        case AluOp::Xor: out += fmt::format("  xor.b64 {}, %v0, %v1;\n", d); break;
        case AluOp::Min: out += fmt::format("  min.{}64 {}, %v0, %v1;\n", sg, d); break;
        case AluOp::Max: out += fmt::format("  max.{}64 {}, %v0, %v1;\n", sg, d); break;
        case AluOp::Setp:
          out += fmt::format("  setp.{}.{}64 %p2, %v0, %v1;\n  selp.u64 {}, 1, 0, %p2;\n", litmus::ptx_name(in.cmp), sg, d);
          break;
        default: fail(in, "no such ALU operation");
      }
      if (size < 8) out += fmt::format("  and.b64 {}, {}, {};\n", d, d, lit(mask(~uint64_t{0}, size)));
      return;
    }
    case InstrKind::Branch:
      out += fmt::format("  mov.b64 %v0, {};\n  mov.b64 %v1, {};\n", op64(li.args.at(0)), op64(li.args.at(1)));
      out += fmt::format("  setp.{}.s64 %p0, %v0, %v1;\n", litmus::ptx_name(in.cmp));
      emit_jump(role, pc, li.target, "@%p0 ", out);
      return;
    case InstrKind::Jump: emit_jump(role, pc, li.target, "", out); return;
  }
}

}  // namespace

void emit_instr(const litmus::Program& p, int role, int pc, std::string& out, EmitFlags& f) {
  try {
    emit_one(p, role, pc, out, f);
  } catch (const NotExpressible& e) {
    throw NotExpressible(p.threads[role].place.name + " " + e.what());
  }
}

}  // namespace ptxcheck::hw
