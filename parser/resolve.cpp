// Name resolution inside a function body (PTX ISA 5.4, 6.3): a bare name
// that is a label of the body becomes a LabelRef; a name declared by a .reg
// of the body (including %r<N>-style ranges) becomes a Reg, so that
// `!p` and `p|q` written without '%' mean what ptxas takes them to mean.
#include "parser/resolve.hpp"

#include <string>
#include <unordered_map>
#include <unordered_set>

namespace ptxcheck {
namespace {

struct Names {
  std::unordered_set<std::string> labels, regs;
  std::unordered_map<std::string, uint32_t> ranges;  // prefix -> count

  bool is_reg(const std::string& n) const {
    if (regs.count(n)) return true;
    size_t d = n.size();
    while (d > 0 && n[d - 1] >= '0' && n[d - 1] <= '9') --d;
    if (d == n.size() || d == 0) return false;
    if (n.size() - d > 1 && n[d] == '0') return false;  // %r01 is not %r<N>'s
    auto it = ranges.find(n.substr(0, d));
    return it != ranges.end() && std::stoull(n.substr(d, 9)) < it->second;
  }
};

void collect(const std::vector<ast::Statement>& body, Names& n) {
  for (const auto& s : body) {
    if (const auto* l = std::get_if<ast::Label>(&s.v)) n.labels.insert(l->name);
    if (const auto* b = std::get_if<ast::Block>(&s.v)) collect(b->body, n);
    if (const auto* v = std::get_if<ast::VarDecl>(&s.v); v && v->space == table::Mod::reg) {
      if (v->range) n.ranges[v->name] = *v->range;
      else n.regs.insert(v->name);
    }
  }
}

void fix(ast::Operand& o, const Names& n) {
  if (auto* s = std::get_if<ast::Symbol>(&o.v)) {
    if (n.labels.count(s->name)) o.v = ast::LabelRef{std::move(s->name)};
    else if (n.is_reg(s->name)) o.v = ast::Reg{std::move(s->name), "", false};
    return;
  }
  if (auto* e = std::get_if<ast::Expr>(&o.v)) {
    for (auto& a : e->args) fix(a, n);
    if (e->op == ast::ExprOp::Not && std::holds_alternative<ast::Reg>(e->args[0].v)) {
      ast::Reg r = std::get<ast::Reg>(e->args[0].v);
      r.negated = !r.negated;
      o.v = std::move(r);
    } else if (e->op == ast::ExprOp::Neg && std::holds_alternative<ast::Reg>(e->args[0].v) &&
               !std::get<ast::Reg>(e->args[0].v).minus) {
      // -a over a register declared without '%': vmad's negated source, as -%a.
      ast::Reg r = std::get<ast::Reg>(e->args[0].v);
      r.minus = true;
      o.v = std::move(r);
    } else if (e->op == ast::ExprOp::BitOr && std::holds_alternative<ast::Reg>(e->args[0].v) &&
               std::holds_alternative<ast::Reg>(e->args[1].v)) {
      o.v = ast::RegPair{std::get<ast::Reg>(e->args[0].v), std::get<ast::Reg>(e->args[1].v)};
    }
    return;
  }
  if (auto* v = std::get_if<ast::VectorOp>(&o.v))
    for (auto& a : v->elems) fix(a, n);
  if (auto* a = std::get_if<ast::ArgList>(&o.v))
    for (auto& x : a->elems) fix(x, n);
  if (auto* a = std::get_if<ast::Address>(&o.v)) {
    if (a->sym && n.is_reg(*a->sym)) {
      a->reg = ast::Reg{std::move(*a->sym), "", false};
      a->sym.reset();
    }
    for (auto& x : a->extra) fix(x, n);
  }
}

void rewrite(std::vector<ast::Statement>& body, const Names& n) {
  for (auto& s : body) {
    if (auto* i = std::get_if<ast::Instruction>(&s.v))
      for (auto& o : i->operands) fix(o, n);
    if (auto* b = std::get_if<ast::Block>(&s.v)) rewrite(b->body, n);
  }
}

}  // namespace

void resolve_body(std::vector<ast::Statement>& body, const std::vector<ast::VarDecl>& params) {
  Names n;
  for (const auto& p : params)
    if (p.space == table::Mod::reg) n.regs.insert(p.name);
  collect(body, n);
  rewrite(body, n);
}

void resolve_module(ast::Module& m) {
  for (auto& item : m.items)
    if (auto* f = std::get_if<ast::Function>(&item.v)) {
      std::vector<ast::VarDecl> params = f->params;
      params.insert(params.end(), f->rets.begin(), f->rets.end());
      resolve_body(f->body, params);
    }
}

}  // namespace ptxcheck
