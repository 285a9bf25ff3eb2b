// Front end for ptxcheck's native litmus format (docs/litmus-format.md):
//   PTX MP  "doc"
//   { .global .u32 data = 0; .global .u32 d2 aliases data; .global .u32 t aliases data via texture; }
//   T0 @ cta 0, gpu 0 {  st.global.u32 [data], 1;  fence.sc.sys; ... }
//   exists (T1:%r0 == 1 /\ T1:%r1 == 0)
// Thread bodies are PTX statements, validated by parse_statements() (the PTX
// front end); the memory-model subset of PTX ISA 9.7
// (ld/st/atom/red/fence/membar/bar/barrier) plus mov, integer arithmetic,
// setp and (predicated) bra for control flow. A PTX prelude of `.func`
// definitions may come between the locations and the threads.
#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <memory>

#include "parser/litmus/cursor.hpp"
#include "parser/litmus/instr_names.hpp"
#include "parser/litmus/mem_defaults.hpp"
#include "parser/parse.hpp"

namespace ptxcheck::litmus {

namespace {

// The first character of `stops` at brace depth 0 from `from`: a vector
// operand `{%r0, %r1}` inside a thread body neither ends the body nor the
// instruction.
size_t find_top(std::string_view t, size_t from, std::string_view stops) {
  int depth = 0;
  for (size_t i = from; i < t.size(); ++i) {
    const char ch = t[i];
    if (depth == 0 && stops.find(ch) != std::string_view::npos) return i;
    if (ch == '{') ++depth;
    else if (ch == '}') --depth;
  }
  return std::string_view::npos;
}

const char* const kSpaces[] = {"global", "shared", "local", "const", "param", "generic"};

std::optional<uint32_t> type_size(std::string_view t) {
  if (t.size() < 2) return std::nullopt;
  char k = t[0];
  if (k != 'u' && k != 's' && k != 'b' && k != 'f') return std::nullopt;
  std::string_view bits = t.substr(1);
  if (bits == "8") return 1;
  if (bits == "16") return 2;
  if (bits == "32") return 4;
  if (bits == "64") return 8;
  return std::nullopt;
}

bool is_space(std::string_view s) {
  for (const char* sp : kSpaces)
    if (s == sp) return true;
  return false;
}

bool is_native_reg(std::string_view s) { return !s.empty() && s[0] == '%'; }
const RegSyntax kRegs{is_native_reg, "%name"};

Operand operand(Cursor& c) { return value_operand(c, kRegs); }
std::string reg(Cursor& c) { return reg_operand(c, kRegs); }

std::string address(Cursor& c) {
  c.expect("[");
  std::string loc = c.ident("location");
  c.expect("]");
  return loc;
}

// Parses one statement (without the trailing ';') into `in`.
void parse_statement(Cursor& c, Instr& in) {
  size_t at = c.off();
  bool guarded = false, negated = false;
  std::string guard;
  if (c.accept("@")) {
    guarded = true;
    negated = c.accept("!");
    guard = reg(c);
  }
  std::string m = c.ident("instruction");
  while (c.text().substr(c.off(), 2) == "::") {  // PTX's sub-qualifiers: .shared::cta
    c.set_off(c.off() + 2);
    m += "::" + c.ident("qualifier");
  }
  if (!guarded && c.accept(":")) {
    in.kind = InstrKind::Label;
    in.target = m;
    return;
  }
  auto parts = split_dots(m);
  const std::string head = parts[0];
  // Collect qualifiers by class; any other qualifier is an error.
  MemQuals mq;
  std::optional<AluOp> aop;
  std::optional<CmpOp> cmp;
  std::optional<mm::ProxyFenceKind> pf;
  for (size_t i = 1; i < parts.size(); ++i) {
    const std::string& q = parts[i];
    if (head == "fence" && pf == mm::ProxyFenceKind::Async && i + 1 == parts.size() &&
        (q == "global" || q == "shared::cta" || q == "shared::cluster")) {
      // fence.proxy.async.{global,shared::cta,shared::cluster} (PTX ISA 9.7.13.4)
      in.fspace = q == "global" ? mm::StateSpace::Global : mm::StateSpace::Shared;
    } else if (read_order_qualifier(q, mq)) {
    } else if (read_scope_qualifier(q, mq)) {
    } else if (is_space(q)) {
    } else if (auto sz = type_size(q)) {
      in.size = *sz;
      in.type = q;
    } else if (q == "pred") {
    } else if (head == "fence" && q == "proxy" && i + 1 < parts.size()) {
      pf = mm::proxy_fence_from_name(parts[++i]);
      if (!pf) c.fail_at(at, "unknown proxy fence kind '" + parts[i] + "'");
    } else if ((head == "atom" || head == "red") && atom_op_from_name(q)) {
      aop = atom_op_from_name(q);
    } else if (head == "setp" && branch_from_name("b" + q.substr(0, 2))) {
      // setp.eq/ne/lt/le/gt/ge
      cmp = branch_from_name("b" + q);
      if (!cmp) c.fail_at(at, "unknown comparison '" + q + "'");
    } else if ((head == "bar" || head == "barrier") && (q == "sync" || q == "arrive" || q == "aligned")) {
      if (q == "sync") in.bar = mm::BarrierOp::Sync;
      if (q == "arrive") in.bar = mm::BarrierOp::Arrive;
    } else if (head == "mul" && q == "lo") {  // PTX's mul needs .lo/.hi/.wide; Alu Mul is .lo
    } else if (head == "ld" && q == "nc") {
    } else {
      c.fail_at(at, "unsupported qualifier '." + q + "' in '" + m + "'");
    }
  }
  MemClass mc = head == "atom" || head == "red"      ? MemClass::Atomic
               : head == "fence" || head == "membar" ? MemClass::Fence
                                                     : MemClass::Access;
  MemSem sem = normalise(mc, mq);
  in.order = sem.order;
  in.scope = sem.scope;
  if (guarded && head != "bra") c.fail_at(at, "only bra may be predicated here");

  // PTX ISA 9.7.9, ld and st: ld's .sem is .relaxed or .acquire, st's
  // .relaxed or .release (as Dat3M's dialect checks).
  bool acq = in.order == mm::Order::Acquire || in.order == mm::Order::AcqRel || in.order == mm::Order::SC;
  bool rel = in.order == mm::Order::Release || in.order == mm::Order::AcqRel || in.order == mm::Order::SC;
  if (head == "ld" && rel) c.fail_at(at, "a load cannot have release semantics");
  if (head == "st" && acq) c.fail_at(at, "a store cannot have acquire semantics");
  if (head == "ld") {
    in.kind = InstrKind::Load;
    in.dst = reg(c);
    c.expect(",");
    in.loc = address(c);
  } else if (head == "st") {
    in.kind = InstrKind::Store;
    in.loc = address(c);
    c.expect(",");
    in.args.push_back(operand(c));
  } else if (head == "atom" || head == "red") {
    if (!aop) c.fail_at(at, "missing atomic operation in '" + m + "'");
    in.op = *aop;
    in.kind = head == "atom" ? InstrKind::Rmw : InstrKind::Red;
    if (head == "atom") {
      in.dst = reg(c);
      c.expect(",");
    }
    in.loc = address(c);
    int nargs = in.op == AluOp::Cas ? 2 : 1;
    if (in.op == AluOp::Inc || in.op == AluOp::Dec) nargs = c.peek() == ',' ? 1 : 0;
    for (int k = 0; k < nargs; ++k) {
      c.expect(",");
      in.args.push_back(operand(c));
    }
  } else if (head == "fence" || head == "membar") {
    if (pf) {
      in.kind = InstrKind::ProxyFence;
      in.pfence = *pf;
    } else {
      in.kind = InstrKind::Fence;
      if (head == "membar" && !mq.scope) c.fail_at(at, "membar needs .cta, .gl or .sys");
    }
  } else if (head == "bar" || head == "barrier") {
    in.kind = InstrKind::Barrier;
    if (in.bar == mm::BarrierOp::None) in.bar = mm::BarrierOp::Sync;
    in.args.push_back(operand(c));
    if (c.accept(",")) {
      size_t ca = c.off();
      Operand n = operand(c);
      if (n.is_reg) c.fail_at(ca, "barrier thread count must be a constant here");
      in.bar_count = static_cast<int>(n.imm);
    }
    if (in.bar == mm::BarrierOp::Arrive && in.bar_count < 0) c.fail_at(at, "bar.arrive needs a thread count");
  } else if (head == "bra") {
    in.kind = guarded ? InstrKind::Branch : InstrKind::Jump;
    if (guarded) {
      in.cmp = negated ? CmpOp::Eq : CmpOp::Ne;
      Operand g;
      g.is_reg = true;
      g.reg = guard;
      in.args = {g, Operand{}};
    }
    in.target = c.ident("label");
  } else if (head == "setp") {
    if (!cmp) c.fail_at(at, "setp needs a comparison");
    in.kind = InstrKind::Alu;
    in.op = AluOp::Setp;
    in.cmp = *cmp;
    in.dst = reg(c);
    c.expect(",");
    in.args.push_back(operand(c));
    c.expect(",");
    in.args.push_back(operand(c));
  } else if (auto op = alu_from_name(head)) {
    in.kind = InstrKind::Alu;
    in.op = *op;
    in.dst = reg(c);
    c.expect(",");
    in.args.push_back(operand(c));
    if (in.op != AluOp::Mov) {
      c.expect(",");
      in.args.push_back(operand(c));
    }
  } else {
    c.fail_at(at, "unsupported instruction '" + m + "' in a litmus thread");
  }
  if (!c.eof()) c.fail("expected ';' after the instruction");
}

// init_at: the offset of each register initialisation, checked once the
// threads are known.
void parse_decls(Cursor& c, Test& t, std::vector<size_t>& init_at) {
  c.expect("{");
  while (!c.accept("}")) {
    if (c.accept(";")) continue;
    LocDecl d;
    d.pos = c.pos();
    // Register initialisation: T0:%r1 = 5;
    size_t save = c.off();
    if (c.at_ident()) {
      std::string id = c.ident();
      if (c.accept(":")) {
        int th = thread_index(id);
        if (th < 0) c.fail_at(save, "expected a thread name like T0");
        RegInit ri;
        ri.thread = th;
        ri.reg = reg(c);
        c.expect("=");
        ri.value = c.number();
        t.reg_inits.push_back(ri);
        init_at.push_back(save);
        c.expect(";");
        continue;
      }
      c.set_off(save);
    }
    // .space .type name [= value] [aliases other] [via proxy] ;
    bool have_space = false, have_type = false;
    while (c.accept(".")) {
      size_t qa = c.off();
      std::string q = c.ident("state space or type");
      if (is_space(q) || q == "tex" || q == "surf") {
        d.space = q;
        have_space = true;
      } else if (auto sz = type_size(q)) {
        d.size = *sz;
        have_type = true;
      } else {
        c.fail_at(qa, "expected a state space (.global, .shared) or a type (.u32)");
      }
    }
    if (!have_space || !have_type) c.fail_at(save, "a location needs a state space and a type, e.g. `.global .u32 x = 0;`");
    d.name = c.ident("location name");
    if (c.accept("=")) d.init = c.number();
    if (c.accept_word("aliases")) d.alias_of = c.ident("location");
    if (c.accept_word("via")) {
      size_t pa = c.off();
      auto p = mm::proxy_from_name(c.ident("proxy"));
      if (!p || *p == mm::Proxy::Async) c.fail_at(pa, "expected generic, texture, surface or constant");
      d.proxy = *p;
    }
    c.expect(";");
    t.locs.push_back(d);
  }
}

uint64_t decl_bytes(const ast::VarDecl& d) {
  uint64_t b = table::is_type(d.type) ? table::type_bits(d.type) / 8 : 8;
  b *= d.vec ? d.vec : 1;
  for (const auto& n : d.dims) b *= n.value_or(1);
  return b;
}

bool ident_char(char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '$' || ch == '%'; }

// Where the PTX prelude that starts at `from` ends: at the first thread
// name (`T0`, `P1`) that starts a statement at brace depth 0 and is
// followed by `@` or `{`. Skips PTX comments and strings.
size_t prelude_end(std::string_view t, size_t from) {
  int depth = 0;
  char last = ';';  // the last significant character at depth 0
  for (size_t i = from; i < t.size();) {
    const char ch = t[i];
    if (t.compare(i, 2, "//") == 0) {
      size_t e = t.find('\n', i);
      i = e == std::string_view::npos ? t.size() : e;
    } else if (t.compare(i, 2, "/*") == 0) {
      size_t e = t.find("*/", i + 2);
      i = e == std::string_view::npos ? t.size() : e + 2;
    } else if (ch == '"') {
      size_t e = t.find('"', i + 1);
      i = e == std::string_view::npos ? t.size() : e + 1;
      last = '"';
    } else if (std::isspace(static_cast<unsigned char>(ch))) {
      ++i;
    } else if (ident_char(ch)) {
      size_t e = i;
      while (e < t.size() && (ident_char(t[e]) || t[e] == '.')) ++e;
      if (depth == 0 && (last == ';' || last == '}') && thread_index(t.substr(i, e - i)) >= 0) {
        size_t k = e;
        while (k < t.size() && std::isspace(static_cast<unsigned char>(t[k]))) ++k;
        if (k < t.size() && (t[k] == '@' || t[k] == '{')) return i;
      }
      last = 'a';
      i = e;
    } else {
      if (ch == '{') ++depth;
      if (ch == '}') --depth;
      last = ch;
      ++i;
    }
  }
  return t.size();
}

// A statement's source text from its position to its ';' (or the end of
// its line for a label), with runs of blanks and newlines as one space.
std::string stmt_text(std::string_view t, size_t at) {
  std::string out;
  for (size_t i = at; i < t.size() && t[i] != ';'; ++i) {
    if (t.compare(i, 2, "//") == 0) {
      while (i + 1 < t.size() && t[i + 1] != '\n') ++i;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(t[i]))) {
      if (!out.empty() && out.back() != ' ') out += ' ';
      continue;
    }
    out += t[i];
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

void collect_stmts(const std::vector<ast::Statement>& body, const std::vector<size_t>& line_start, std::string_view text,
                   std::vector<FuncStmt>& out) {
  for (const ast::Statement& st : body) {
    if (auto* b = std::get_if<ast::Block>(&st.v)) {
      collect_stmts(b->body, line_start, text, out);
    } else if (auto* in = std::get_if<ast::Instruction>(&st.v)) {
      if (in->pos.line < 1 || in->pos.line > line_start.size()) continue;
      size_t off = line_start[in->pos.line - 1] + (in->pos.col ? in->pos.col - 1 : 0);
      out.push_back(FuncStmt{SourcePos{in->pos.line, in->pos.col}, stmt_text(text, off)});
    }
  }
}

// The PTX prelude (docs/litmus-format.md): `.func` definitions and
// declarations, as nvcc prints them, between the locations and the
// threads. They are parsed by the PTX front end as the items of a module
// whose header precedes them (so that every position is the file's own).
void parse_prelude(Cursor& c, Test& t) {
  if (c.peek() != '.') return;
  const std::string_view text = c.text();
  const size_t start = c.off(), end = prelude_end(text, start);
  const SourcePos at = c.pos_of(start);
  const std::string header = ".version 9.0 .target sm_90a .address_size 64";
  std::string mod;
  if (at.line >= 2) {
    mod = header + std::string(at.line - 1, '\n') + std::string(at.col - 1, ' ');
  } else if (at.col > header.size() + 1) {
    mod = header + std::string(at.col - 1 - header.size(), ' ');
  } else {
    c.fail_at(start, "start the PTX prelude (.func definitions) on a line of its own");
  }
  mod += text.substr(start, end - start);
  ast::Module m = parse_module(mod, c.file());
  std::vector<size_t> line_start{0};
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') line_start.push_back(i + 1);
  for (ast::TopLevel& item : m.items) {
    if (std::holds_alternative<ast::Directive>(item.v)) continue;  // .file, .pragma, ...
    auto* f = std::get_if<ast::Function>(&item.v);
    if (!f || f->is_entry)
      throw InputError(c.file(), item.pos,
                       "only .func definitions and declarations may come before the threads (locations go in the "
                       "{ } block, and a thread is not a .entry)");
    collect_stmts(f->body, line_start, text, t.func_stmts);
    t.funcs.push_back(std::move(*f));
  }
  t.prelude = std::string(text.substr(start, end - start));
  while (!t.prelude.empty() && std::isspace(static_cast<unsigned char>(t.prelude.back()))) t.prelude.pop_back();
  c.set_off(end);
}

void parse_thread(Cursor& c, Test& t) {
  Thread th;
  th.pos = c.pos();
  size_t at = c.off();
  std::string id = c.ident("thread name");
  int idx = thread_index(id);
  if (idx != static_cast<int>(t.threads.size()))
    c.fail_at(at, "expected thread T" + std::to_string(t.threads.size()));
  th.place.name = "P" + std::to_string(idx);
  th.place.cluster = -1;
  if (c.accept("@")) {
    do {
      size_t la = c.off();
      std::string lvl = c.ident("cta, cluster, gpu or warp");
      int n = place_id(c, la, lvl, c.number());
      if (lvl == "cta") th.place.cta = n;
      else if (lvl == "cluster") th.place.cluster = n;
      else if (lvl == "gpu") th.place.gpu = n;
      else if (lvl == "warp") th.place.warp = n;
      else c.fail_at(la, "expected cta, cluster, gpu or warp");
    } while (c.accept(","));
  }
  // Without a cluster, each CTA is a cluster of its own.
  if (th.place.cluster < 0) th.place.cluster = th.place.cta + 1000 * th.place.gpu;
  c.expect("{");
  // The body must be valid PTX: the PTX front end (grammar and instruction
  // table) checks it first, with positions in this file; the litmus subset
  // is then decoded below.
  size_t body_end = find_top(c.text(), c.off(), "}");
  if (body_end == std::string_view::npos) c.fail("expected '}' closing the thread body");
  // Each instruction keeps its parsed statement: semantics/litmus lowers it
  // with the interpreter, so every instruction `ptxcheck run` supports may
  // appear in a thread; the memory-model subset is also decoded into Instr.
  std::map<std::pair<uint32_t, uint32_t>, std::shared_ptr<const ast::Instruction>> stmts;
  std::map<std::pair<uint32_t, uint32_t>, bool> skipped;  // declarations and directives: true for .loc
  std::function<void(std::vector<ast::Statement>&)> scan = [&](std::vector<ast::Statement>& body) {
    for (auto& st : body) {
      if (auto* i = std::get_if<ast::Instruction>(&st.v)) {
        stmts[{i->pos.line, i->pos.col}] = std::make_shared<const ast::Instruction>(std::move(*i));
      } else if (auto* b = std::get_if<ast::Block>(&st.v)) {
        scan(b->body);
      } else if (auto* d = std::get_if<ast::VarDecl>(&st.v)) {
        skipped[{st.pos.line, st.pos.col}] = false;
        // Registers are implicit in a thread (declared by their use); .param
        // and .local variables (a call sequence's) are the thread's.
        if (d->space == table::Mod::reg) continue;
        if (d->space != table::Mod::param && d->space != table::Mod::local)
          throw InputError(c.file(), d->pos, "only .reg, .param and .local variables may be declared in a thread");
        auto same = std::find_if(th.decls.begin(), th.decls.end(), [&](const ast::VarDecl& x) { return x.name == d->name; });
        if (same == th.decls.end()) th.decls.push_back(*d);
        else if (decl_bytes(*d) > decl_bytes(*same)) *same = *d;
      } else if (auto* dir = std::get_if<ast::Directive>(&st.v)) {
        skipped[{st.pos.line, st.pos.col}] = std::holds_alternative<ast::LocDir>(dir->v);
      }
    }
  };
  auto body = parse_statements(c.text().substr(c.off(), body_end - c.off()), c.file(), c.pos());
  scan(body);
  int depth = 0;  // nested { } blocks
  for (;;) {
    if (c.peek() == '}') {
      c.set_off(c.off() + 1);
      if (depth-- == 0) break;
      continue;
    }
    if (c.peek() == '{') {
      c.set_off(c.off() + 1);
      ++depth;
      continue;
    }
    size_t s = c.off();
    if (auto sk = skipped.find({c.pos().line, c.pos().col}); sk != skipped.end()) {
      // A declaration (to its ';') or a directive (.loc to the end of its line).
      size_t e = sk->second ? c.text().find('\n', s) : find_top(c.text(), s, ";");
      c.set_off(e == std::string_view::npos ? c.text().size() : e + 1);
      continue;
    }
    size_t e = find_top(c.text(), s, ";}");
    // A label `L:` needs no ';' (a `::` sub-qualifier, as in
    // `.shared::cta`, is no label).
    size_t colon = c.text().find(':', s);
    while (colon != std::string_view::npos && colon + 1 < c.text().size() && c.text()[colon + 1] == ':')
      colon = c.text().find(':', colon + 2);
    if (colon != std::string_view::npos && colon < e) {
      Cursor lc(c.text().substr(0, colon + 1), c.file(), s);
      size_t ls = lc.off();
      std::string name = lc.ident("label");
      if (lc.accept(":") && lc.eof()) {
        Instr in;
        in.kind = InstrKind::Label;
        in.target = name;
        in.pos = c.pos_of(ls);
        in.text = name + ":";
        th.code.push_back(std::move(in));
        c.set_off(colon + 1);
        continue;
      }
    }
    if (e == std::string_view::npos || c.text()[e] != ';') c.fail("expected ';' after the instruction");
    Cursor ic(c.text().substr(0, e), c.file(), s);
    Instr in;
    in.pos = ic.pos();
    size_t st = (ic.skip_ws(), ic.off());
    in.pos = ic.pos();
    auto ptx = stmts.find({in.pos.line, in.pos.col});
    if (ptx == stmts.end()) c.fail_at(st, "expected a PTX instruction");
    const SourcePos at_start = in.pos;
    try {
      parse_statement(ic, in);
    } catch (const InputError&) {
      // Outside the decoded subset: the thread runs the statement as is.
      in = Instr{};
      in.kind = InstrKind::Ptx;
      in.pos = at_start;
    }
    in.ptx = ptx->second;
    std::string_view src = c.text().substr(st, e - st);
    while (!src.empty() && std::isspace(static_cast<unsigned char>(src.back()))) src.remove_suffix(1);
    in.text = std::string(src);
    th.code.push_back(std::move(in));
    c.set_off(e + 1);
  }
  t.threads.push_back(std::move(th));
}

}  // namespace

Test parse_native(std::string_view text, const std::string& file) {
  Test t;
  t.file = file;
  Cursor c(text, file);
  if (!c.accept_word("PTX") && !c.accept_word("ptx")) c.fail("expected 'PTX' at the start of a litmus test");
  // The name runs to the end of the line (names like `lb+deps` are common).
  c.skip_ws();
  size_t eol = text.find('\n', c.off());
  std::string_view name = text.substr(c.off(), eol == std::string_view::npos ? eol : eol - c.off());
  while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back()))) name.remove_suffix(1);
  if (name.empty() || name.find_first_of(" \t\"{") != std::string_view::npos) c.fail("expected a test name after 'PTX'");
  t.name = std::string(name);
  c.set_off(c.off() + name.size());
  while (c.peek() == '"') {
    size_t q = text.find('"', c.off() + 1);
    if (q == std::string_view::npos) c.fail("unterminated string");
    c.set_off(q + 1);
  }
  std::vector<size_t> init_at;
  parse_decls(c, t, init_at);
  parse_prelude(c, t);
  while (c.at_ident()) {
    size_t save = c.off();
    std::string id = c.ident();
    c.set_off(save);
    if (thread_index(id) < 0) break;
    parse_thread(c, t);
  }
  if (t.threads.empty()) c.fail("expected a thread block like `T0 @ cta 0 { ... }`");
  check_reg_inits(c, t, init_at);
  if (c.eof()) c.fail("expected the final condition (exists, ~exists or forall)");
  parse_condition(c, t);
  return t;
}

}  // namespace ptxcheck::litmus
