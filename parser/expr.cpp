// Constant-expression evaluation (PTX ISA 4.5.4-4.5.6). Integer only: the
// spec's floating constant expressions are not used by any operand we fold.
#include "parser/expr.hpp"

namespace ptxcheck {
namespace {

using ast::ExprOp;

std::optional<ConstValue> eval_expr(const ast::Expr& e) {
  std::optional<ConstValue> a[3];
  for (size_t i = 0; i < e.args.size() && i < 3; ++i) {
    a[i] = eval_const(e.args[i]);
    if (!a[i]) return std::nullopt;
  }
  if (e.args.empty()) return std::nullopt;
  const uint64_t x = a[0]->bits;
  const uint64_t y = e.args.size() > 1 ? a[1]->bits : 0;
  // 4.5.5: an operation is unsigned when either operand is unsigned.
  const bool u = a[0]->is_unsigned || (e.args.size() > 1 && a[1]->is_unsigned);
  const auto sx = static_cast<int64_t>(x), sy = static_cast<int64_t>(y);
  auto mk = [&](uint64_t v, bool uns) { return ConstValue{v, uns}; };
  switch (e.op) {
    case ExprOp::Neg: return mk(0 - x, a[0]->is_unsigned);
    case ExprOp::Plus: return a[0];
    case ExprOp::Not: return mk(x == 0, false);
    case ExprOp::BitNot: return mk(~x, a[0]->is_unsigned);
    case ExprOp::CastS64: return mk(x, false);
    case ExprOp::CastU64: return mk(x, true);
    case ExprOp::Mul: return mk(x * y, u);
    case ExprOp::Div:
      if (y == 0 || (!u && sx == INT64_MIN && sy == -1)) return std::nullopt;
      return mk(u ? x / y : static_cast<uint64_t>(sx / sy), u);
    case ExprOp::Rem:
      if (y == 0 || (!u && sx == INT64_MIN && sy == -1)) return std::nullopt;
      return mk(u ? x % y : static_cast<uint64_t>(sx % sy), u);
    case ExprOp::Add: return mk(x + y, u);
    case ExprOp::Sub: return mk(x - y, u);
    case ExprOp::Shl: return mk(y >= 64 ? 0 : x << y, a[0]->is_unsigned);
    case ExprOp::Shr:
      if (a[0]->is_unsigned) return mk(y >= 64 ? 0 : x >> y, true);
      return mk(static_cast<uint64_t>(sx >> (y >= 64 ? 63 : y)), false);
    case ExprOp::Lt: return mk(u ? x < y : sx < sy, false);
    case ExprOp::Gt: return mk(u ? x > y : sx > sy, false);
    case ExprOp::Le: return mk(u ? x <= y : sx <= sy, false);
    case ExprOp::Ge: return mk(u ? x >= y : sx >= sy, false);
    case ExprOp::Eq: return mk(x == y, false);
    case ExprOp::Ne: return mk(x != y, false);
    case ExprOp::BitAnd: return mk(x & y, u);
    case ExprOp::BitXor: return mk(x ^ y, u);
    case ExprOp::BitOr: return mk(x | y, u);
    case ExprOp::LogAnd: return mk(x && y, false);
    case ExprOp::LogOr: return mk(x || y, false);
    case ExprOp::Cond: return x ? a[1] : a[2];
    case ExprOp::Generic: return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

std::optional<ConstValue> eval_const(const ast::Operand& o) {
  if (const auto* i = std::get_if<ast::IntImm>(&o.v)) return ConstValue{i->value, i->is_unsigned};
  if (const auto* e = std::get_if<ast::Expr>(&o.v)) return eval_expr(*e);
  if (const auto* s = std::get_if<ast::Symbol>(&o.v); s && is_warp_sz(s->name)) return ConstValue{kWarpSz, false};
  return std::nullopt;
}

}  // namespace ptxcheck
