// AST -> JSON (see json.hpp).
#include "parser/json.hpp"

#include <charconv>
#include <ostream>

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

// ---- streaming writer (write_json): the same bytes as to_json(m).dump(1) ----
//
// nlohmann's pretty printer with indent 1: a non-empty object is "{\n", then
// per member the indent, "\"key\": " and the value, separated by ",\n", then
// "\n", the outer indent and "}"; empty containers print as "{}" / "[]".
// Object members come in key order (nlohmann::json's std::map), so every
// writer below emits its keys sorted by hand; the test [json-stream] checks
// the result against to_json(...).dump(1) on the whole PTX corpus.

namespace ptxcheck {
namespace {

class JsonOut {
 public:
  explicit JsonOut(std::ostream& os) : os_(os) { buf_.reserve(kFlush + 4096); }
  ~JsonOut() { flush(); }
  JsonOut(const JsonOut&) = delete;
  JsonOut& operator=(const JsonOut&) = delete;

  void flush() {
    os_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    buf_.clear();
  }
  void open(char c) {
    buf_ += c;
    first_.push_back(true);
  }
  void close(char c) {
    const bool empty = first_.back();
    first_.pop_back();
    if (!empty) {
      buf_ += '\n';
      indent();
    }
    buf_ += c;
    if (buf_.size() >= kFlush) flush();
  }
  // Starts the next member of the innermost object.
  JsonOut& key(std::string_view k) {
    next();
    buf_ += '"';
    buf_ += k;  // keys are fixed ASCII words
    buf_ += "\": ";
    return *this;
  }
  // Starts the next element of the innermost array.
  JsonOut& elem() {
    next();
    return *this;
  }
  void str(std::string_view s) {
    for (unsigned char c : s)
      if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') {
        buf_ += nlohmann::json(s).dump();  // nlohmann's own escaping (and its UTF-8 errors)
        return;
      }
    buf_ += '"';
    buf_ += s;
    buf_ += '"';
  }
  void num(uint64_t v) {
    char tmp[24];
    auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    buf_.append(tmp, r.ptr);
  }
  void num(int64_t v) {
    char tmp[24];
    auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    buf_.append(tmp, r.ptr);
  }
  void boolean(bool b) { buf_ += b ? "true" : "false"; }
  void null() { buf_ += "null"; }
  void raw(std::string_view s) { buf_ += s; }
  size_t depth() const { return first_.size(); }

 private:
  static constexpr size_t kFlush = 1 << 16;
  void next() {
    if (first_.back()) {
      first_.back() = false;
      buf_ += '\n';
    } else {
      buf_ += ",\n";
    }
    indent();
  }
  void indent() { buf_.append(first_.size(), ' '); }

  std::ostream& os_;
  std::string buf_;
  std::vector<bool> first_;
};

void w_reg_fields(JsonOut& o, const ast::Reg& r, const ast::Pos* pos) {
  // sorted: col, kind, line, minus, name, negated, sel
  if (pos) o.key("col").num(uint64_t{pos->col});
  o.key("kind").str("reg");
  if (pos) o.key("line").num(uint64_t{pos->line});
  if (r.minus) o.key("minus").boolean(true);
  o.key("name").str(r.name);
  if (r.negated) o.key("negated").boolean(true);
  if (!r.sel.empty()) o.key("sel").str(r.sel);
}
void w_reg(JsonOut& o, const ast::Reg& r) {
  o.open('{');
  w_reg_fields(o, r, nullptr);
  o.close('}');
}

void w_operand(JsonOut& o, const ast::Operand& x);
void w_operands(JsonOut& o, const std::vector<ast::Operand>& v) {
  o.open('[');
  for (const auto& e : v) {
    o.elem();
    w_operand(o, e);
  }
  o.close(']');
}

void w_operand(JsonOut& o, const ast::Operand& op) {
  const uint64_t line = op.pos.line, col = op.pos.col;
  o.open('{');
  std::visit(
      [&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        auto head = [&](const char* kind) {  // col, kind, line
          o.key("col").num(col);
          o.key("kind").str(kind);
          o.key("line").num(line);
        };
        if constexpr (std::is_same_v<T, ast::Reg>) {
          w_reg_fields(o, x, &op.pos);
        } else if constexpr (std::is_same_v<T, ast::Sink>) {
          head("sink");
        } else if constexpr (std::is_same_v<T, ast::RegPair>) {
          o.key("col").num(col);
          o.key("first");
          w_reg(o, x.first);
          o.key("kind").str("pair");
          o.key("line").num(line);
          o.key("second");
          w_reg(o, x.second);
        } else if constexpr (std::is_same_v<T, ast::VectorOp>) {
          o.key("col").num(col);
          o.key("elems");
          w_operands(o, x.elems);
          o.key("kind").str("vector");
          o.key("line").num(line);
        } else if constexpr (std::is_same_v<T, ast::IntImm>) {
          head("int");
          o.key("negative").boolean(x.negative);
          o.key("unsigned").boolean(x.is_unsigned);
          o.key("value").num(x.value);
        } else if constexpr (std::is_same_v<T, ast::FloatImm>) {
          o.key("bits").num(x.bits);
          o.key("col").num(col);
          o.key("form").str(x.form == ast::FloatForm::Hex32   ? "f32"
                            : x.form == ast::FloatForm::Hex64 ? "f64"
                                                              : "decimal");
          o.key("kind").str("float");
          o.key("line").num(line);
        } else if constexpr (std::is_same_v<T, ast::Symbol>) {
          head("symbol");
          o.key("name").str(x.name);
        } else if constexpr (std::is_same_v<T, ast::LabelRef>) {
          head("label");
          o.key("name").str(x.name);
        } else if constexpr (std::is_same_v<T, ast::Expr>) {
          o.key("args");
          w_operands(o, x.args);
          head("expr");
          o.key("op").num(int64_t{static_cast<int>(x.op)});
        } else if constexpr (std::is_same_v<T, ast::Address>) {
          o.key("col").num(col);
          if (!x.extra.empty()) {
            o.key("extra");
            w_operands(o, x.extra);
          }
          o.key("kind").str("address");
          o.key("line").num(line);
          o.key("offset").num(int64_t{x.offset});
          if (x.reg) {
            o.key("reg");
            w_reg(o, *x.reg);
          }
          if (x.sym) o.key("symbol").str(*x.sym);
        } else {
          o.key("col").num(col);
          o.key("elems");
          w_operands(o, x.elems);
          o.key("kind").str("args");
          o.key("line").num(line);
        }
      },
      op.v);
  o.close('}');
}

void w_init(JsonOut& o, const ast::Init& in) {
  if (!in.is_list) {
    if (in.value)
      w_operand(o, *in.value);
    else
      o.null();
    return;
  }
  o.open('[');
  for (const auto& e : in.elems) {
    o.elem();
    w_init(o, e);
  }
  o.close(']');
}

void w_decl(JsonOut& o, const ast::VarDecl& v) {
  // sorted: align, attributes, col, dims, init, kind, line, linkage, name,
  // ptr, ptr_align, ptr_space, range, space, type, vec
  o.open('{');
  if (v.align) o.key("align").num(uint64_t{*v.align});
  if (!v.attributes.empty()) {
    o.key("attributes").open('[');
    for (const auto& a : v.attributes) o.elem().str(a);
    o.close(']');
  }
  o.key("col").num(uint64_t{v.pos.col});
  if (!v.dims.empty()) {
    o.key("dims").open('[');
    for (const auto& d : v.dims) {
      o.elem();
      if (d)
        o.num(*d);
      else
        o.null();
    }
    o.close(']');
  }
  if (v.init) {
    o.key("init");
    w_init(o, *v.init);
  }
  o.key("kind").str("var");
  o.key("line").num(uint64_t{v.pos.line});
  if (v.linkage != ast::Linkage::None) o.key("linkage").str(name(v.linkage));
  o.key("name").str(v.name);
  if (v.ptr) {
    o.key("ptr").boolean(true);
    if (v.ptr_align) o.key("ptr_align").num(uint64_t{*v.ptr_align});
    if (v.ptr_space) o.key("ptr_space").str(name(*v.ptr_space));
  }
  if (v.range) o.key("range").num(uint64_t{*v.range});
  o.key("space").str(name(v.space));
  o.key("type").str(name(v.type));
  if (v.vec) o.key("vec").num(uint64_t{v.vec});
  o.close('}');
}

void w_directive(JsonOut& o, const ast::Directive& d) {
  // sorted: col, directive, kind, line, text
  ast::Statement s;
  s.v = d;
  std::string text = print(s);
  size_t skip = 0;
  while (skip < text.size() && text[skip] == '\t') ++skip;
  std::string_view t(text);
  t.remove_prefix(skip);
  if (!t.empty() && t.back() == '\n') t.remove_suffix(1);
  static const char* const kNames[] = {"file", "loc", "pragma", "section", "targets", "callprototype", "alias"};
  o.open('{');
  o.key("col").num(uint64_t{d.pos.col});
  o.key("directive").str(kNames[d.v.index()]);
  o.key("kind").str("directive");
  o.key("line").num(uint64_t{d.pos.line});
  o.key("text").str(t);
  o.close('}');
}

void w_statement(JsonOut& o, const ast::Statement& s) {
  if (const auto* i = std::get_if<ast::Instruction>(&s.v)) {
    // sorted: col, guard, kind, line, mods, opcode, operands
    o.open('{');
    o.key("col").num(uint64_t{i->pos.col});
    if (i->guard) {
      o.key("guard").open('{');
      o.key("negated").boolean(i->guard->negated);
      o.key("reg").str(i->guard->reg);
      o.close('}');
    }
    o.key("kind").str("instruction");
    o.key("line").num(uint64_t{i->pos.line});
    o.key("mods").open('[');
    for (const auto& m : i->mods) o.elem().str(name(m.id));
    o.close(']');
    o.key("opcode").str(name(i->op));
    o.key("operands");
    w_operands(o, i->operands);
    o.close('}');
  } else if (const auto* l = std::get_if<ast::Label>(&s.v)) {
    o.open('{');
    o.key("col").num(uint64_t{l->pos.col});
    o.key("kind").str("label");
    o.key("line").num(uint64_t{l->pos.line});
    o.key("name").str(l->name);
    o.close('}');
  } else if (const auto* v = std::get_if<ast::VarDecl>(&s.v)) {
    w_decl(o, *v);
  } else if (const auto* b = std::get_if<ast::Block>(&s.v)) {
    // sorted: body, col, kind, line
    o.open('{');
    o.key("body").open('[');
    for (const auto& x : b->body) {
      o.elem();
      w_statement(o, x);
    }
    o.close(']');
    o.key("col").num(uint64_t{b->pos.col});
    o.key("kind").str("block");
    o.key("line").num(uint64_t{b->pos.line});
    o.close('}');
  } else {
    w_directive(o, std::get<ast::Directive>(s.v));
  }
}

void w_function(JsonOut& o, const ast::Function& f) {
  // sorted: body, col, kind, line, linkage, name, params, perf, rets
  o.open('{');
  if (f.has_body) {
    o.key("body").open('[');
    for (const auto& s : f.body) {
      o.elem();
      w_statement(o, s);
    }
    o.close(']');
  }
  o.key("col").num(uint64_t{f.pos.col});
  o.key("kind").str(f.is_entry ? "entry" : "func");
  o.key("line").num(uint64_t{f.pos.line});
  if (f.linkage != ast::Linkage::None) o.key("linkage").str(name(f.linkage));
  o.key("name").str(f.name);
  o.key("params").open('[');
  for (const auto& p : f.params) {
    o.elem();
    w_decl(o, p);
  }
  o.close(']');
  o.key("perf").open('[');
  for (const auto& p : f.perf) {
    o.elem().open('{');
    o.key("directive").str(name(p.kind));
    o.key("values").open('[');
    for (auto v : p.values) o.elem().num(v);
    o.close(']');
    o.close('}');
  }
  o.close(']');
  o.key("rets").open('[');
  for (const auto& p : f.rets) {
    o.elem();
    w_decl(o, p);
  }
  o.close(']');
  o.close('}');
}

void w_module(JsonOut& o, const ast::Module& m) {
  // sorted: address_size, col, file, items, kind, line, targets, version
  o.open('{');
  if (m.address_size) o.key("address_size").num(uint64_t{*m.address_size});
  o.key("col").num(uint64_t{m.pos.col});
  o.key("file").str(m.file);
  o.key("items").open('[');
  for (const auto& it : m.items) {
    o.elem();
    if (const auto* v = std::get_if<ast::VarDecl>(&it.v))
      w_decl(o, *v);
    else if (const auto* d = std::get_if<ast::Directive>(&it.v))
      w_directive(o, *d);
    else
      w_function(o, std::get<ast::Function>(it.v));
  }
  o.close(']');
  o.key("kind").str("module");
  o.key("line").num(uint64_t{m.pos.line});
  o.key("targets").open('[');
  for (const auto& t : m.targets) o.elem().str(t);
  o.close(']');
  o.key("version").str(std::to_string(m.version.major) + "." + std::to_string(m.version.minor));
  o.close('}');
}

// JSON text must be UTF-8 (RFC 8259 8.1); PTX string literals (.file paths,
// .pragma strings) and file names may hold other bytes. Checked before any
// output so that a bad module yields an error, never half a document.
bool valid_utf8(std::string_view s) {
  const size_t n = s.size();
  size_t i = 0;
  while (i < n) {
    const unsigned c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t len = 0;  // continuation bytes
    if (c >= 0xc2 && c <= 0xdf) len = 1;
    else if (c >= 0xe0 && c <= 0xef) len = 2;
    else if (c >= 0xf0 && c <= 0xf4) len = 3;
    else return false;
    if (i + len >= n) return false;
    const unsigned c1 = static_cast<unsigned char>(s[i + 1]);
    if ((c == 0xe0 && c1 < 0xa0) || (c == 0xed && c1 > 0x9f) || (c == 0xf0 && c1 < 0x90) || (c == 0xf4 && c1 > 0x8f))
      return false;  // overlong, surrogate, beyond U+10FFFF
    for (size_t k = 1; k <= len; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) return false;
    i += len + 1;
  }
  return true;
}

void check_directive_utf8(const ast::Module& m, const ast::Directive& d, ast::Pos pos) {
  auto bad = [&](std::string_view s) {
    if (!valid_utf8(s)) throw InputError(m.file, pos, "string is not valid UTF-8; JSON output needs UTF-8");
  };
  if (const auto* f = std::get_if<ast::FileDir>(&d.v)) bad(f->path);
  if (const auto* p = std::get_if<ast::PragmaDir>(&d.v))
    for (const auto& s : p->strings) bad(s);
}

void check_body_utf8(const ast::Module& m, const std::vector<ast::Statement>& body) {
  for (const auto& s : body) {
    if (const auto* d = std::get_if<ast::Directive>(&s.v)) check_directive_utf8(m, *d, d->pos);
    if (const auto* b = std::get_if<ast::Block>(&s.v)) check_body_utf8(m, b->body);
  }
}

}  // namespace

void check_json_strings(const ast::Module& m) {
  if (!valid_utf8(m.file)) throw InputError(m.file, {}, "file name is not valid UTF-8; JSON output needs UTF-8");
  for (const auto& it : m.items) {
    if (const auto* d = std::get_if<ast::Directive>(&it.v)) check_directive_utf8(m, *d, d->pos);
    if (const auto* f = std::get_if<ast::Function>(&it.v)) check_body_utf8(m, f->body);
  }
}

void write_json(std::ostream& os, const ast::Module& m) {
  check_json_strings(m);
  JsonOut o(os);
  w_module(o, m);
}

void write_json(std::ostream& os, const std::vector<ast::Module>& ms) {
  for (const auto& m : ms) check_json_strings(m);
  JsonOut o(os);
  o.open('[');
  for (const auto& m : ms) {
    o.elem();
    w_module(o, m);
  }
  o.close(']');
}

}  // namespace ptxcheck
