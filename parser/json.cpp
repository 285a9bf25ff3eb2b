// AST -> JSON (see json.hpp).
#include "parser/json.hpp"

#include "parser/printer.hpp"

namespace ptxcheck {
namespace {

using nlohmann::json;
using table::name;

json node(const char* kind, const ast::Pos& p) {
  json j;
  j["kind"] = kind;
  j["line"] = p.line;
  j["col"] = p.col;
  return j;
}

json reg_json(const ast::Reg& r) {
  json j{{"kind", "reg"}, {"name", r.name}};
  if (!r.sel.empty()) j["sel"] = r.sel;
  if (r.negated) j["negated"] = true;
  if (r.minus) j["minus"] = true;
  return j;
}

json operands(const std::vector<ast::Operand>& v) {
  json a = json::array();
  for (const auto& o : v) a.push_back(to_json(o));
  return a;
}

json decl_json(const ast::VarDecl& v) {
  json j = node("var", v.pos);
  if (v.linkage != ast::Linkage::None) j["linkage"] = name(v.linkage);
  j["space"] = name(v.space);
  j["type"] = name(v.type);
  j["name"] = v.name;
  if (v.align) j["align"] = *v.align;
  if (v.vec) j["vec"] = v.vec;
  if (v.range) j["range"] = *v.range;
  if (!v.dims.empty()) {
    json d = json::array();
    for (const auto& x : v.dims) d.push_back(x ? json(*x) : json(nullptr));
    j["dims"] = d;
  }
  if (v.ptr) {
    j["ptr"] = true;
    if (v.ptr_space) j["ptr_space"] = name(*v.ptr_space);
    if (v.ptr_align) j["ptr_align"] = *v.ptr_align;
  }
  if (!v.attributes.empty()) j["attributes"] = v.attributes;
  if (v.init) {
    std::function<json(const ast::Init&)> init = [&](const ast::Init& in) -> json {
      if (!in.is_list) return in.value ? to_json(*in.value) : json(nullptr);
      json a = json::array();
      for (const auto& e : in.elems) a.push_back(init(e));
      return a;
    };
    j["init"] = init(*v.init);
  }
  return j;
}

json directive_json(const ast::Directive& d) {
  json j = node("directive", d.pos);
  // The canonical text is the most useful single field for tools; the
  // structured part names the directive.
  ast::Statement s;
  s.v = d;
  std::string text = print(s);
  while (!text.empty() && (text[0] == '\t')) text.erase(0, 1);
  if (!text.empty() && text.back() == '\n') text.pop_back();
  static const char* const kNames[] = {"file", "loc", "pragma", "section", "targets", "callprototype", "alias"};
  j["directive"] = kNames[d.v.index()];
  j["text"] = text;
  return j;
}

}  // namespace

json to_json(const ast::Operand& o) {
  json j = std::visit(
      [](const auto& x) -> json {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, ast::Reg>) return reg_json(x);
        else if constexpr (std::is_same_v<T, ast::Sink>) return json{{"kind", "sink"}};
        else if constexpr (std::is_same_v<T, ast::RegPair>)
          return json{{"kind", "pair"}, {"first", reg_json(x.first)}, {"second", reg_json(x.second)}};
        else if constexpr (std::is_same_v<T, ast::VectorOp>)
          return json{{"kind", "vector"}, {"elems", operands(x.elems)}};
        else if constexpr (std::is_same_v<T, ast::IntImm>)
          return json{{"kind", "int"}, {"value", x.value}, {"negative", x.negative},
                      {"unsigned", x.is_unsigned}};
        else if constexpr (std::is_same_v<T, ast::FloatImm>)
          return json{{"kind", "float"}, {"bits", x.bits},
                      {"form", x.form == ast::FloatForm::Hex32 ? "f32" : x.form == ast::FloatForm::Hex64 ? "f64" : "decimal"}};
        else if constexpr (std::is_same_v<T, ast::Symbol>) return json{{"kind", "symbol"}, {"name", x.name}};
        else if constexpr (std::is_same_v<T, ast::LabelRef>) return json{{"kind", "label"}, {"name", x.name}};
        else if constexpr (std::is_same_v<T, ast::Expr>)
          return json{{"kind", "expr"}, {"op", static_cast<int>(x.op)}, {"args", operands(x.args)}};
        else if constexpr (std::is_same_v<T, ast::Address>) {
          json a{{"kind", "address"}, {"offset", x.offset}};
          if (x.reg) a["reg"] = reg_json(*x.reg);
          if (x.sym) a["symbol"] = *x.sym;
          if (!x.extra.empty()) a["extra"] = operands(x.extra);
          return a;
        } else return json{{"kind", "args"}, {"elems", operands(x.elems)}};
      },
      o.v);
  j["line"] = o.pos.line;
  j["col"] = o.pos.col;
  return j;
}

json to_json(const ast::Statement& s) {
  if (const auto* i = std::get_if<ast::Instruction>(&s.v)) {
    json j = node("instruction", i->pos);
    if (i->guard) j["guard"] = {{"reg", i->guard->reg}, {"negated", i->guard->negated}};
    j["opcode"] = name(i->op);
    json mods = json::array();
    for (const auto& m : i->mods) mods.push_back(name(m.id));
    j["mods"] = mods;
    j["operands"] = operands(i->operands);
    return j;
  }
  if (const auto* l = std::get_if<ast::Label>(&s.v)) {
    json j = node("label", l->pos);
    j["name"] = l->name;
    return j;
  }
  if (const auto* v = std::get_if<ast::VarDecl>(&s.v)) return decl_json(*v);
  if (const auto* b = std::get_if<ast::Block>(&s.v)) {
    json j = node("block", b->pos);
    j["body"] = json::array();
    for (const auto& x : b->body) j["body"].push_back(to_json(x));
    return j;
  }
  return directive_json(std::get<ast::Directive>(s.v));
}

json to_json(const ast::Module& m) {
  json j = node("module", m.pos);
  j["file"] = m.file;
  j["version"] = std::to_string(m.version.major) + "." + std::to_string(m.version.minor);
  j["targets"] = m.targets;
  if (m.address_size) j["address_size"] = *m.address_size;
  json items = json::array();
  for (const auto& it : m.items) {
    if (const auto* v = std::get_if<ast::VarDecl>(&it.v)) {
      items.push_back(decl_json(*v));
    } else if (const auto* d = std::get_if<ast::Directive>(&it.v)) {
      items.push_back(directive_json(*d));
    } else {
      const auto& f = std::get<ast::Function>(it.v);
      json fj = node(f.is_entry ? "entry" : "func", f.pos);
      fj["name"] = f.name;
      if (f.linkage != ast::Linkage::None) fj["linkage"] = name(f.linkage);
      fj["rets"] = json::array();
      for (const auto& p : f.rets) fj["rets"].push_back(decl_json(p));
      fj["params"] = json::array();
      for (const auto& p : f.params) fj["params"].push_back(decl_json(p));
      json perf = json::array();
      for (const auto& p : f.perf) perf.push_back({{"directive", name(p.kind)}, {"values", p.values}});
      fj["perf"] = perf;
      if (f.has_body) {
        fj["body"] = json::array();
        for (const auto& s : f.body) fj["body"].push_back(to_json(s));
      }
      items.push_back(fj);
    }
  }
  j["items"] = items;
  return j;
}

}  // namespace ptxcheck
