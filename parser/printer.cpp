// AST -> canonical PTX (see printer.hpp for the contract). Expressions are
// printed with the minimal parentheses that keep their tree, so re-parsing
// yields the same AST.
#include "parser/printer.hpp"

#include <cstdio>
#include <cstring>

namespace ptxcheck {
namespace {

using table::name;

std::string str(std::string_view s) { return std::string(s); }

std::string print_uint(uint64_t v, ast::IntBase base) {
  char buf[80];
  switch (base) {
    case ast::IntBase::Hex: std::snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v); break;
    case ast::IntBase::Oct: std::snprintf(buf, sizeof buf, "0%llo", (unsigned long long)v); break;
    case ast::IntBase::Bin: {
      std::string s;
      do {
        s.insert(s.begin(), char('0' + (v & 1)));
        v >>= 1;
      } while (v);
      return "0b" + s;
    }
    case ast::IntBase::Dec: std::snprintf(buf, sizeof buf, "%llu", (unsigned long long)v); break;
  }
  return buf;
}

std::string print_int(const ast::IntImm& i) {
  std::string s = i.negative ? "-" + print_uint(0 - i.value, i.base) : print_uint(i.value, i.base);
  if (i.is_unsigned) s += 'U';
  return s;
}

std::string print_float(const ast::FloatImm& f) {
  char buf[64];
  if (f.form == ast::FloatForm::Hex32) {
    std::snprintf(buf, sizeof buf, "0f%08X", static_cast<unsigned>(f.bits));
  } else if (f.form == ast::FloatForm::Hex64) {
    std::snprintf(buf, sizeof buf, "0d%016llX", (unsigned long long)f.bits);
  } else {
    double d;
    std::memcpy(&d, &f.bits, sizeof d);
    std::snprintf(buf, sizeof buf, "%.17g", d);
    if (!std::strpbrk(buf, ".eEni")) std::strcat(buf, ".0");
  }
  return buf;
}

// Binding strength of an expression node (PTX ISA 4.5.4 Table 5; C rules).
int prec(const ast::Operand& o) {
  const auto* e = std::get_if<ast::Expr>(&o.v);
  if (!e) return 100;
  using E = ast::ExprOp;
  switch (e->op) {
    case E::Cond: return 1;
    case E::LogOr: return 2;
    case E::LogAnd: return 3;
    case E::BitOr: return 4;
    case E::BitXor: return 5;
    case E::BitAnd: return 6;
    case E::Eq: case E::Ne: return 7;
    case E::Lt: case E::Gt: case E::Le: case E::Ge: return 8;
    case E::Shl: case E::Shr: return 9;
    case E::Add: case E::Sub: return 10;
    case E::Mul: case E::Div: case E::Rem: return 11;
    case E::Generic: return 100;
    default: return 12;  // unary and casts
  }
}

const char* op_text(ast::ExprOp op) {
  using E = ast::ExprOp;
  switch (op) {
    case E::Neg: return "-";
    case E::Plus: return "+";
    case E::Not: return "!";
    case E::BitNot: return "~";
    case E::Mul: return " * ";
    case E::Div: return " / ";
    case E::Rem: return " % ";
    case E::Add: return " + ";
    case E::Sub: return " - ";
    case E::Shl: return " << ";
    case E::Shr: return " >> ";
    case E::Lt: return " < ";
    case E::Gt: return " > ";
    case E::Le: return " <= ";
    case E::Ge: return " >= ";
    case E::Eq: return " == ";
    case E::Ne: return " != ";
    case E::BitAnd: return " & ";
    case E::BitXor: return " ^ ";
    case E::BitOr: return " | ";
    case E::LogAnd: return " && ";
    case E::LogOr: return " || ";
    case E::CastS64: return "(.s64)";
    case E::CastU64: return "(.u64)";
    case E::Cond: case E::Generic: return "";
  }
  return "";
}

std::string sub(const ast::Operand& o, bool paren) {
  std::string s = print(o);
  return paren ? "(" + s + ")" : s;
}

std::string print_expr(const ast::Expr& e) {
  using E = ast::ExprOp;
  ast::Operand self;
  self.v = e;
  const int p = prec(self);
  if (e.op == E::Generic) return "generic(" + print(e.args.at(0)) + ")";
  if (e.op == E::Cond)
    return sub(e.args.at(0), prec(e.args[0]) <= 1) + " ? " + sub(e.args.at(1), prec(e.args[1]) <= 1) +
           " : " + sub(e.args.at(2), prec(e.args[2]) < 1);
  if (e.args.size() == 1) {
    // A literal operand is parenthesized too, so -(-5) stays two nodes.
    const auto& a = e.args[0];
    bool paren = prec(a) < 12 || std::holds_alternative<ast::IntImm>(a.v) ||
                 std::holds_alternative<ast::FloatImm>(a.v);
    if (e.op == E::CastS64 || e.op == E::CastU64) paren = prec(a) < 12;
    return op_text(e.op) + sub(a, paren);
  }
  return sub(e.args.at(0), prec(e.args[0]) < p) + op_text(e.op) +
         sub(e.args.at(1), prec(e.args[1]) <= p);
}

std::string print_reg(const ast::Reg& r) {
  std::string s = (r.negated ? "!" : r.minus ? "-" : "") + r.name;
  if (!r.sel.empty()) s += "." + r.sel;
  return s;
}

std::string join(const std::vector<ast::Operand>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + print(v[i]);
  return s;
}

std::string print_address(const ast::Address& a) {
  std::string s = "[";
  if (a.reg || a.sym) {
    s += a.reg ? print_reg(*a.reg) : *a.sym;
    if (a.offset) s += "+" + std::to_string(a.offset);
  } else {
    s += std::to_string(a.offset);
  }
  for (const auto& x : a.extra) s += ", " + print(x);
  return s + "]";
}

std::string print_init(const ast::Init& in) {
  if (!in.is_list) return in.value ? print(*in.value) : "";
  std::string s = "{";
  for (size_t i = 0; i < in.elems.size(); ++i) s += (i ? ", " : "") + print_init(in.elems[i]);
  return s + "}";
}

std::string print_decl(const ast::VarDecl& v) {
  std::string s;
  if (v.linkage != ast::Linkage::None) s += str(name(v.linkage)) + " ";
  s += str(name(v.space));
  for (const auto& a : v.attributes) s += " .attribute(" + a + ")";
  if (v.align) s += " .align " + std::to_string(*v.align);
  if (v.vec) s += " .v" + std::to_string(v.vec);
  s += " " + str(name(v.type));
  if (v.ptr) {
    s += " .ptr";
    if (v.ptr_space) s += " " + str(name(*v.ptr_space));
    if (v.ptr_align) s += " .align " + std::to_string(*v.ptr_align);
  }
  s += " " + v.name;
  if (v.range) s += "<" + std::to_string(*v.range) + ">";
  for (const auto& d : v.dims) s += d ? "[" + std::to_string(*d) + "]" : std::string("[]");
  if (v.init) s += " = " + print_init(*v.init);
  return s;
}

std::string print_params(const std::vector<ast::VarDecl>& ps, const char* sep) {
  std::string s;
  for (size_t i = 0; i < ps.size(); ++i) s += (i ? sep : "") + print_decl(ps[i]);
  return s;
}

std::string print_directive(const ast::Directive& d, const std::string& ind) {
  return std::visit(
      [&](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, ast::FileDir>) {
          std::string s = ind + ".file " + std::to_string(x.index) + " \"" + x.path + "\"";
          if (x.timestamp) s += ", " + std::to_string(*x.timestamp);
          if (x.size) s += ", " + std::to_string(*x.size);
          return s + "\n";
        } else if constexpr (std::is_same_v<T, ast::LocDir>) {
          std::string s = ind + ".loc " + std::to_string(x.file) + " " + std::to_string(x.line) +
                          " " + std::to_string(x.col);
          if (!x.tail.empty()) s += (x.tail[0] == ',' ? "" : " ") + x.tail;
          return s + "\n";
        } else if constexpr (std::is_same_v<T, ast::PragmaDir>) {
          std::string s = ind + ".pragma ";
          for (size_t i = 0; i < x.strings.size(); ++i) s += (i ? ", \"" : "\"") + x.strings[i] + "\"";
          return s + ";\n";
        } else if constexpr (std::is_same_v<T, ast::SectionDir>) {
          std::string s = ind + ".section " + x.name + "\n" + ind + "{\n";
          for (const auto& e : x.entries)
            s += e.label ? *e.label + ":\n" : ind + "\t" + str(name(e.type)) + " " + join(e.values) + "\n";
          return s + ind + "}\n";
        } else if constexpr (std::is_same_v<T, ast::TargetListDir>) {
          std::string s = ind + (x.calls ? ".calltargets " : ".branchtargets ");
          for (size_t i = 0; i < x.names.size(); ++i) s += (i ? ", " : "") + x.names[i];
          return s + ";\n";
        } else if constexpr (std::is_same_v<T, ast::CallPrototypeDir>) {
          std::string s = ind + ".callprototype ";
          if (!x.rets.empty()) s += "(" + print_params(x.rets, ", ") + ") ";
          s += "_ (" + print_params(x.params, ", ") + ")";
          if (x.noreturn) s += " .noreturn";
          return s + ";\n";
        } else {
          return ind + ".alias " + x.alias + ", " + x.aliasee + ";\n";
        }
      },
      d.v);
}

void print_body(const std::vector<ast::Statement>& body, const std::string& ind, std::string& out);

void print_stmt(const ast::Statement& s, const std::string& ind, std::string& out) {
  if (const auto* i = std::get_if<ast::Instruction>(&s.v)) {
    out += ind + print(*i) + "\n";
  } else if (const auto* l = std::get_if<ast::Label>(&s.v)) {
    out += l->name + ":\n";
  } else if (const auto* v = std::get_if<ast::VarDecl>(&s.v)) {
    out += ind + print_decl(*v) + ";\n";
  } else if (const auto* b = std::get_if<ast::Block>(&s.v)) {
    out += ind + "{\n";
    print_body(b->body, ind + "\t", out);
    out += ind + "}\n";
  } else {
    out += print_directive(std::get<ast::Directive>(s.v), ind);
  }
}

void print_body(const std::vector<ast::Statement>& body, const std::string& ind, std::string& out) {
  for (const auto& s : body) print_stmt(s, ind, out);
}

void print_function(const ast::Function& f, std::string& out) {
  if (f.linkage != ast::Linkage::None) out += str(name(f.linkage)) + " ";
  out += f.is_entry ? ".entry " : ".func ";
  if (!f.is_entry && !f.rets.empty()) out += "(" + print_params(f.rets, ", ") + ") ";
  out += f.name;
  if (!f.params.empty()) out += "(\n\t" + print_params(f.params, ",\n\t") + "\n)";
  else out += "()";
  out += "\n";
  for (const auto& p : f.perf) {
    out += str(name(p.kind));
    for (size_t i = 0; i < p.values.size(); ++i) out += (i ? ", " : " ") + std::to_string(p.values[i]);
    out += "\n";
  }
  for (const auto& p : f.pragmas) {
    ast::Directive d;
    d.v = p;
    out += print_directive(d, "");
  }
  if (!f.has_body) {
    out += ";\n";
    return;
  }
  out += "{\n";
  print_body(f.body, "\t", out);
  out += "}\n";
}

}  // namespace

std::string print(const ast::Operand& o) {
  return std::visit(
      [](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, ast::Reg>) return print_reg(x);
        else if constexpr (std::is_same_v<T, ast::Sink>) return "_";
        else if constexpr (std::is_same_v<T, ast::RegPair>) return print_reg(x.first) + "|" + print_reg(x.second);
        else if constexpr (std::is_same_v<T, ast::VectorOp>) return "{" + join(x.elems) + "}";
        else if constexpr (std::is_same_v<T, ast::IntImm>) return print_int(x);
        else if constexpr (std::is_same_v<T, ast::FloatImm>) return print_float(x);
        else if constexpr (std::is_same_v<T, ast::Symbol>) return x.name;
        else if constexpr (std::is_same_v<T, ast::LabelRef>) return x.name;
        else if constexpr (std::is_same_v<T, ast::Expr>) return print_expr(x);
        else if constexpr (std::is_same_v<T, ast::Address>) return print_address(x);
        else return "(" + join(x.elems) + ")";
      },
      o.v);
}

std::string print(const ast::Instruction& i) {
  std::string s;
  if (i.guard) s += std::string(i.guard->negated ? "@!" : "@") + i.guard->reg + " ";
  s += str(name(i.op));
  for (const auto& m : i.mods) s += str(name(m.id));
  if (!i.operands.empty()) s += " " + join(i.operands);
  return s + ";";
}

std::string print(const ast::Statement& s) {
  std::string out;
  print_stmt(s, "\t", out);
  return out;
}

std::string print_statements(const std::vector<ast::Statement>& body) {
  std::string out;
  print_body(body, "\t", out);
  return out;
}

std::string print(const ast::Module& m) {
  std::string out = ".version " + std::to_string(m.version.major) + "." + std::to_string(m.version.minor) +
                    "\n.target ";
  for (size_t i = 0; i < m.targets.size(); ++i) out += (i ? ", " : "") + m.targets[i];
  out += "\n";
  if (m.address_size) out += ".address_size " + std::to_string(*m.address_size) + "\n";
  for (const auto& item : m.items) {
    out += "\n";
    if (const auto* v = std::get_if<ast::VarDecl>(&item.v)) out += print_decl(*v) + ";\n";
    else if (const auto* f = std::get_if<ast::Function>(&item.v)) print_function(*f, out);
    else out += print_directive(std::get<ast::Directive>(item.v), "");
  }
  return out;
}

}  // namespace ptxcheck
