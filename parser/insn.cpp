// Instruction validation against THE instruction table (table/opcodes.def):
// opcode by longest dotted prefix, qualifiers by membership, operand count
// and the few operand-kind rules every family shares (PTX ISA 9.2 ch. 9).
#include <cstring>
#include <string>
#include <unordered_set>

#include "parser/x3/actions.hpp"

namespace ptxcheck::x3g {
namespace {

using table::Opcode;

// p|q over registers declared without '%' parses as a constant expression
// until resolve.cpp knows the names.
bool is_bare_pair(const ast::Operand& o) {
  const auto* e = std::get_if<ast::Expr>(&o.v);
  return e && e->op == ast::ExprOp::BitOr && std::holds_alternative<ast::Symbol>(e->args[0].v) &&
         std::holds_alternative<ast::Symbol>(e->args[1].v);
}

bool is_reg_like(const ast::Operand& o) {
  return std::holds_alternative<ast::Reg>(o.v) || std::holds_alternative<ast::RegPair>(o.v) ||
         std::holds_alternative<ast::VectorOp>(o.v) || std::holds_alternative<ast::Sink>(o.v) ||
         std::holds_alternative<ast::Symbol>(o.v) ||  // a register declared without '%'
         is_bare_pair(o);
}

// Families whose first operand is not a destination register (stores,
// branches, barriers, prefetches, asynchronous copies, table writes).
bool first_operand_is_dest(Opcode op) {
  switch (op) {
    case Opcode::st: case Opcode::st_async: case Opcode::st_bulk: case Opcode::multimem_st:
    case Opcode::multimem_red: case Opcode::red: case Opcode::red_async: case Opcode::sust:
    case Opcode::sured: case Opcode::bra: case Opcode::brx_idx: case Opcode::call:
    case Opcode::prefetch: case Opcode::prefetchu: case Opcode::applypriority:
    case Opcode::discard: case Opcode::cp_async: case Opcode::cp_async_wait_group:
    case Opcode::cp_async_mbarrier_arrive: case Opcode::cp_async_bulk:
    case Opcode::cp_reduce_async_bulk: case Opcode::cp_async_bulk_prefetch:
    case Opcode::cp_async_bulk_tensor: case Opcode::cp_reduce_async_bulk_tensor:
    case Opcode::cp_async_bulk_prefetch_tensor: case Opcode::cp_async_bulk_wait_group:
    case Opcode::tensormap_replace: case Opcode::bar: case Opcode::barrier:
    case Opcode::bar_warp_sync: case Opcode::mbarrier_init: case Opcode::mbarrier_inval:
    case Opcode::mbarrier_expect_tx: case Opcode::mbarrier_complete_tx:
    case Opcode::tensormap_cp_fenceproxy: case Opcode::clusterlaunchcontrol_try_cancel:
    case Opcode::wmma_store_d: case Opcode::stmatrix: case Opcode::wgmma_wait_group:
    case Opcode::tcgen05_dealloc: case Opcode::tcgen05_st: case Opcode::tcgen05_cp:
    case Opcode::tcgen05_shift: case Opcode::tcgen05_mma: case Opcode::tcgen05_commit:
    case Opcode::tcgen05_alloc: case Opcode::stackrestore: case Opcode::nanosleep:
    case Opcode::pmevent: case Opcode::setmaxnreg: case Opcode::mbarrier_arrive:
    case Opcode::mbarrier_arrive_drop: case Opcode::elect:
    case Opcode::fence:  // fence.proxy.tensormap::generic.acquire [addr], 128
      return false;
    default:
      return true;
  }
}

// Families that may take a memory operand [..] (PTX ISA 6.4.1 addresses).
bool takes_address(Opcode op) {
  switch (op) {
    case Opcode::add: case Opcode::sub: case Opcode::mul: case Opcode::mad: case Opcode::fma:
    case Opcode::div: case Opcode::rem: case Opcode::abs: case Opcode::neg: case Opcode::min:
    case Opcode::max: case Opcode::and_: case Opcode::or_: case Opcode::xor_: case Opcode::not_:
    case Opcode::shl: case Opcode::shr: case Opcode::setp: case Opcode::set: case Opcode::selp:
    case Opcode::cvt: case Opcode::bra: case Opcode::ret: case Opcode::exit:
      return false;
    default:
      return true;
  }
}

}  // namespace

void decode_opword(const ParseState& st, const char* b, const char* e, ast::Instruction& insn) {
  // Segment boundaries: b..dots[0], dots[0]+1..dots[1], ...
  const char* dots[64];
  size_t nd = 0;
  for (const char* p = b; p != e; ++p)
    if (*p == '.') {
      if (nd == 64) st.fail(p, "too many qualifiers");
      dots[nd++] = p;
    }
  // Longest dotted prefix that is an opcode (at most 5 segments, as in
  // cp.reduce.async.bulk.tensor and cp.async.bulk.prefetch.tensor). Only heads
  // that start a dotted opcode (cp, mbarrier, wmma, ...) need the long tries.
  static const std::unordered_set<std::string_view> dotted_heads = [] {
    std::unordered_set<std::string_view> h;
    for (size_t i = 0; i < static_cast<size_t>(Opcode::kCount); ++i) {
      std::string_view n = table::name(static_cast<Opcode>(i));
      if (auto d = n.find('.'); d != std::string_view::npos) h.insert(n.substr(0, d));
    }
    return h;
  }();
  size_t used = std::min<size_t>(nd, 4);
  if (nd && !dotted_heads.count(std::string_view(b, dots[0] - b))) used = 0;
  std::optional<Opcode> op;
  for (;; --used) {
    const char* end = used < nd ? dots[used] : e;
    op = table::lookup_opcode(std::string_view(b, end - b));
    if (op || used == 0) break;
  }
  if (!op) {
    const char* end = nd ? dots[0] : e;
    st.fail(b, "unknown instruction '" + std::string(b, end) + "'");
  }
  insn.op = *op;
  const auto& info = table::info(*op);
  insn.mods.clear();
  for (size_t i = used; i < nd; ++i) {
    const char* s = dots[i];
    const char* end = i + 1 < nd ? dots[i + 1] : e;
    std::string_view word(s, end - s);
    auto m = table::lookup_mod(word);
    if (!m)
      st.fail(s, "unknown modifier '" + std::string(word) + "' for '" +
                     std::string(table::name(*op)) + "'");
    if (!info.allowed->test(static_cast<size_t>(*m)))
      st.fail(s, "modifier '" + std::string(word) + "' is not allowed for '" +
                     std::string(table::name(*op)) + "'");
    insn.mods.push_back({*m, st.pos(s)});
  }
}

void finish_insn(const ParseState& st, const char* semi, ast::Instruction& insn) {
  const auto& info = table::info(insn.op);
  const size_t n = insn.operands.size();
  const std::string name(table::name(insn.op));
  auto expected = [&] {
    return info.min_operands == info.max_operands
               ? std::to_string(info.min_operands)
               : std::to_string(info.min_operands) + "-" + std::to_string(info.max_operands);
  };
  if (n > info.max_operands)
    throw InputError(st.file, insn.operands[info.max_operands].pos,
                     "too many operands for '" + name + "' (expected " + expected() + ")");
  if (n < info.min_operands)
    st.fail(semi, "too few operands for '" + name + "' (expected " + expected() + ", got " +
                      std::to_string(n) + ")");
  if (n && first_operand_is_dest(insn.op) && !is_reg_like(insn.operands[0]))
    throw InputError(st.file, insn.operands[0].pos,
                     "destination of '" + name + "' must be a register");
  if (!takes_address(insn.op))
    for (const auto& o : insn.operands)
      if (std::holds_alternative<ast::Address>(o.v))
        throw InputError(st.file, o.pos, "'" + name + "' does not take a memory operand");
}

ast::Operand negate(ast::Operand x) {
  if (auto* i = std::get_if<ast::IntImm>(&x.v); i && !i->negative) {
    i->value = 0 - i->value;
    i->negative = true;
    return x;
  }
  if (auto* f = std::get_if<ast::FloatImm>(&x.v)) {
    f->bits ^= f->form == ast::FloatForm::Hex32 ? (uint64_t{1} << 31) : (uint64_t{1} << 63);
    return x;
  }
  ast::Operand out;
  out.pos = x.pos;
  out.v = ast::Expr{ast::ExprOp::Neg, {std::move(x)}};
  return out;
}

}  // namespace ptxcheck::x3g
