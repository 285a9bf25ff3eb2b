// Front end for Dat3M's PTX litmus dialect (grammar LitmusPTX.g4 in
// hernanponcedeleon/Dat3M; read for reference, not copied). Layout:
//   PTX NAME  "doc strings"...
//   { x=0; P0:r0=0; y @ texture aliases x; }
//    P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
//    st.weak x, 1   | ld.acquire.gpu r0, x ;
//   exists (P1:r0 == 1 /\ ...)
// Instruction meanings follow Dat3M's visitor: `ld r, c` sets a register;
// weak accesses take no scope; tld/suld/cold/sust/suatom/sured access
// through the texture/surface/constant proxy (PTX ISA 8.6).
#include <cctype>

#include "parser/litmus/cursor.hpp"
#include "parser/litmus/instr_names.hpp"
#include "parser/litmus/mem_defaults.hpp"

namespace ptxcheck::litmus {

namespace {

bool is_dat3m_reg(std::string_view s) {
  if (s.size() < 2 || s[0] != 'r') return false;
  for (size_t i = 1; i < s.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

const RegSyntax kRegs{is_dat3m_reg, "r<N>"};

Operand value_operand(Cursor& c) { return litmus::value_operand(c, kRegs); }
std::string reg_operand(Cursor& c) { return litmus::reg_operand(c, kRegs); }

struct Mnemonic {
  std::vector<std::string> parts;
  size_t at = 0;
};

Mnemonic split_mnemonic(const std::string& m, size_t at) { return {split_dots(m), at}; }

// Reads `.mo[.scope]` qualifiers starting at parts[i] and applies PTX's
// defaults for an instruction of class `k`; returns the next index.
size_t order_scope(Cursor& c, const Mnemonic& m, size_t i, Instr& in, MemClass k) {
  MemQuals q;
  if (i < m.parts.size() && read_order_qualifier(m.parts[i], q)) ++i;
  if (i < m.parts.size()) {
    if (auto s = mm::scope_from_name(m.parts[i])) {
      if (q.order == mm::Order::Weak) c.fail_at(m.at, "a weak access takes no scope");
      q.scope = *s;
      ++i;
    }
  }
  MemSem sem = normalise(k, q);
  in.order = sem.order;
  in.scope = sem.scope;
  return i;
}

// A mnemonic, with PTX's `::` sub-qualifiers (fence.proxy.async.shared::cta,
// mbarrier::complete_tx::bytes) kept in their part.
std::string mnemonic(Cursor& c) {
  std::string m = c.ident("instruction");
  while (c.text().substr(c.off(), 2) == "::") {
    c.set_off(c.off() + 2);
    m += "::" + c.ident("qualifier");
  }
  return m;
}

bool has_part(const std::vector<std::string>& parts, std::string_view q) {
  for (const auto& p : parts)
    if (p == q) return true;
  return false;
}

// ptxcheck's extension for the async proxy (not in Dat3M's grammar): the
// bulk copies, their groups and the mbarrier wait, written as PTX with bare
// location names (docs/litmus-format.md). Returns false if `m` is none.
bool parse_async(Cursor& c, const std::string& m, const Mnemonic& mn, size_t at, Instr& in) {
  auto loc = [&] {
    std::string n = c.ident("location");
    in.more_locs.push_back(n);
    return "[" + n + "]";
  };
  auto num = [&] { return std::to_string(c.number()); };
  if (m == "cp.async.bulk.commit_group") {
    in.ptx_text = m + ";";
  } else if (mn.parts.size() >= 4 && m.rfind("cp.async.bulk.wait_group", 0) == 0) {
    if (mn.parts.size() > 5 || (mn.parts.size() == 5 && mn.parts[4] != "read"))
      c.fail_at(at, "expected cp.async.bulk.wait_group{.read} N");
    in.ptx_text = m + " " + num() + ";";
  } else if (m.rfind("cp.async.bulk.", 0) == 0) {
    // cp.async.bulk.dst.src.completion dst, src, size{, mbar}
    const bool mbar = has_part(mn.parts, "mbarrier::complete_tx::bytes");
    if (!mbar && !has_part(mn.parts, "bulk_group")) c.fail_at(at, "cp.async.bulk needs .bulk_group or .mbarrier::complete_tx::bytes");
    std::string t = m + " " + loc();
    c.expect(",");
    t += ", " + loc();
    c.expect(",");
    t += ", " + num();
    if (mbar) {
      c.expect(",");
      t += ", " + loc();
    }
    in.ptx_text = t + ";";
  } else if (mn.parts[0] == "mbarrier" && mn.parts.size() >= 2 &&
             (mn.parts[1] == "try_wait" || mn.parts[1] == "test_wait")) {
    // mbarrier.try_wait{.parity}{.sem}{.scope}.shared::cta.b64 r, bar, phase
    in.dst = reg_operand(c);
    c.expect(",");
    std::string t = m + " %" + in.dst + ", " + loc();
    c.expect(",");
    t += ", " + num();
    in.ptx_text = t + ";";
  } else {
    return false;
  }
  in.kind = InstrKind::Ptx;
  return true;
}

void parse_cell(Cursor& c, Instr& in) {
  size_t at = c.off();
  in.pos = c.pos();
  // A label `LC00:`.
  std::string m = mnemonic(c);
  if (c.accept(":")) {
    in.kind = InstrKind::Label;
    in.target = m;
    return;
  }
  Mnemonic mn = split_mnemonic(m, at);
  const std::string& head = mn.parts[0];
  auto rest_check = [&](size_t i) {
    if (i != mn.parts.size()) c.fail_at(at, "unexpected qualifier '." + mn.parts[i] + "' in '" + m + "'");
  };
  if (auto proxy = load_proxy(head)) {
    in.proxy = *proxy;
    size_t i = order_scope(c, mn, 1, in, MemClass::Access);
    rest_check(i);
    in.dst = reg_operand(c);
    c.expect(",");
    if (c.at_number()) {  // `ld r0, 1`: a register assignment (Dat3M localConstant)
      in.kind = InstrKind::Alu;
      in.op = AluOp::Mov;
      in.args.push_back(value_operand(c));
    } else {
      in.kind = InstrKind::Load;
      if (in.order == mm::Order::Release || in.order == mm::Order::AcqRel || in.order == mm::Order::SC)
        c.fail_at(at, "a load cannot have release semantics");
      in.loc = c.ident("location");
    }
  } else if (auto sp = store_proxy(head)) {
    in.kind = InstrKind::Store;
    in.proxy = *sp;
    size_t i = order_scope(c, mn, 1, in, MemClass::Access);
    rest_check(i);
    if (in.order == mm::Order::Acquire || in.order == mm::Order::AcqRel || in.order == mm::Order::SC)
      c.fail_at(at, "a store cannot have acquire semantics");
    in.loc = c.ident("location");
    c.expect(",");
    in.args.push_back(value_operand(c));
  } else if (auto ap = atom_proxy(head)) {
    in.kind = head == "red" || head == "sured" ? InstrKind::Red : InstrKind::Rmw;
    in.proxy = *ap;
    size_t i = order_scope(c, mn, 1, in, MemClass::Atomic);
    if (i >= mn.parts.size()) c.fail_at(at, "missing atomic operation in '" + m + "'");
    auto op = atom_op_from_name(mn.parts[i]);
    if (!op) c.fail_at(at, "unknown atomic operation '" + mn.parts[i] + "'");
    in.op = *op;
    rest_check(i + 1);
    if (in.kind == InstrKind::Rmw) {
      in.dst = reg_operand(c);
      c.expect(",");
    }
    in.loc = c.ident("location");
    int nargs = in.op == AluOp::Cas ? 2 : (in.op == AluOp::Inc || in.op == AluOp::Dec) ? 0 : 1;
    for (int k = 0; k < nargs; ++k) {
      c.expect(",");
      in.args.push_back(value_operand(c));
    }
    if (in.kind == InstrKind::Red && in.op == AluOp::Cas) c.fail_at(at, "red has no cas");
  } else if (head == "fence" || head == "membar") {
    if (mn.parts.size() >= 2 && mn.parts[1] == "proxy") {
      in.kind = InstrKind::ProxyFence;
      if (mn.parts.size() < 3) c.fail_at(at, "fence.proxy needs a kind");
      auto k = mm::proxy_fence_from_name(mn.parts[2]);
      if (!k) c.fail_at(at, "unknown proxy fence kind '" + mn.parts[2] + "'");
      in.pfence = *k;
      // fence.proxy.async{.global,.shared::cta,.shared::cluster} (PTX ISA 9.7.13.4)
      if (*k == mm::ProxyFenceKind::Async && mn.parts.size() == 4) {
        const std::string& sp = mn.parts[3];
        if (sp == "global") in.fspace = mm::StateSpace::Global;
        else if (sp == "shared::cta" || sp == "shared::cluster") in.fspace = mm::StateSpace::Shared;
        else c.fail_at(at, "expected .global, .shared::cta or .shared::cluster after fence.proxy.async");
      } else if (mn.parts.size() > 3) {
        c.fail_at(at, "unexpected qualifier '." + mn.parts[3] + "' in '" + m + "'");
      }
    } else {
      in.kind = InstrKind::Fence;
      size_t i = order_scope(c, mn, 1, in, MemClass::Fence);
      rest_check(i);
    }
  } else if (head == "bar" || head == "barrier") {
    // bar.cta.sync a{, b{, c}}: Dat3M's named barriers. The first two
    // operands together name the barrier instance (barrier-logical-id
    // tests); a third one is the expected thread count (quorum tests).
    in.kind = InstrKind::Barrier;
    size_t i = 1;
    if (i < mn.parts.size() && mn.parts[i] == "cta") ++i;
    if (i < mn.parts.size() && mn.parts[i] == "sync") in.bar = mm::BarrierOp::Sync;
    else if (i < mn.parts.size() && mn.parts[i] == "arrive") in.bar = mm::BarrierOp::Arrive;
    else c.fail_at(at, "expected bar.cta.sync or bar.cta.arrive");
    rest_check(i + 1);
    in.args.push_back(value_operand(c));
    if (c.accept(",")) in.args.push_back(value_operand(c));
    if (c.accept(",")) {
      size_t ca = c.off();
      Operand cnt = value_operand(c);
      if (cnt.is_reg) c.fail_at(ca, "barrier thread count must be a constant");
      in.bar_count = static_cast<int>(cnt.imm);
    }
  } else if (auto op = alu_from_name(head)) {
    in.kind = InstrKind::Alu;
    in.op = *op;
    rest_check(1);
    in.dst = reg_operand(c);
    c.expect(",");
    in.args.push_back(value_operand(c));
    c.expect(",");
    in.args.push_back(value_operand(c));
  } else if (auto cmp = branch_from_name(head)) {
    in.kind = InstrKind::Branch;
    in.cmp = *cmp;
    rest_check(1);
    in.args.push_back(value_operand(c));
    c.expect(",");
    in.args.push_back(value_operand(c));
    c.expect(",");
    in.target = c.ident("label");
  } else if (head == "goto") {
    in.kind = InstrKind::Jump;
    rest_check(1);
    in.target = c.ident("label");
  } else if (parse_async(c, m, mn, at, in)) {
  } else {
    c.fail_at(at, "unknown instruction '" + m + "'");
  }
  if (!c.eof()) c.fail("unexpected text after the instruction");
}

// init_at: the offset of each register initialisation, checked once the
// threads are known.
void parse_init(Cursor& c, Test& t, std::vector<size_t>& init_at) {
  c.expect("{");
  while (!c.accept("}")) {
    if (c.accept(";")) continue;
    size_t at = c.off();
    SourcePos pos = c.pos();
    std::string id = c.ident("declaration");
    if (c.accept(":")) {  // P0:r0 = 1
      int th = thread_index(id);
      if (th < 0) c.fail_at(at, "expected a thread name like P0");
      RegInit ri;
      ri.thread = th;
      ri.reg = c.ident("register");
      c.expect("=");
      if (c.peek() == '&') c.fail("pointer initial values are not supported");
      ri.value = c.number();
      t.reg_inits.push_back(ri);
      init_at.push_back(at);
    } else if (c.accept("@")) {  // y @ texture aliases x
      LocDecl d;
      d.name = id;
      d.pos = pos;
      size_t pa = c.off();
      std::string kind = c.ident("proxy kind");
      if (kind == "shared" || kind == "global") {  // s @ shared: its state space (ptxcheck's extension)
        LocDecl* prev = nullptr;
        for (LocDecl& l : t.locs)
          if (l.name == id && l.alias_of.empty()) prev = &l;
        if (!prev) {
          t.locs.push_back(d);
          prev = &t.locs.back();
        }
        prev->space = kind;
        if (c.peek() != '}') c.expect(";");
        continue;
      }
      auto p = mm::proxy_from_name(kind);
      if (!p || *p == mm::Proxy::Async) c.fail_at(pa, "expected generic, texture, surface or constant");
      d.proxy = *p;
      if (!c.accept_word("aliases")) c.fail("expected 'aliases'");
      d.alias_of = c.ident("location");
      t.locs.push_back(d);
    } else {
      LocDecl d;
      d.name = id;
      d.pos = pos;
      c.expect("=");
      if (c.peek() == '&') c.fail("pointer initial values are not supported");
      d.init = c.number();
      LocDecl* prev = nullptr;  // declared by `id @ shared` before
      for (LocDecl& l : t.locs)
        if (l.name == id && l.alias_of.empty() && l.init == 0 && l.space != "global") prev = &l;
      if (prev) prev->init = d.init;
      else t.locs.push_back(d);
    }
    if (c.peek() != '}') c.expect(";");
  }
  c.accept(";");
}

// Splits [from, to) at '|' and parses each cell with a cursor bounded to it.
std::vector<std::pair<size_t, size_t>> cells(std::string_view text, size_t from, size_t to) {
  std::vector<std::pair<size_t, size_t>> out;
  size_t s = from;
  for (size_t i = from; i <= to; ++i) {
    if (i == to || text[i] == '|') {
      out.emplace_back(s, i);
      s = i + 1;
    }
  }
  return out;
}

bool at_condition(Cursor& c) {
  size_t save = c.off();
  bool r = c.accept("~") || c.accept_word("exists") || c.accept_word("forall") ||
           c.accept_word("locations") || c.accept_word("filter");
  c.set_off(save);
  return r;
}

}  // namespace

Test parse_dat3m(std::string_view text, const std::string& file) {
  Test t;
  t.file = file;
  Cursor c(text, file);
  if (!c.accept_word("PTX") && !c.accept_word("ptx")) c.fail("expected 'PTX' at the start of a litmus test");
  // The name runs to the end of the line; doc strings follow until '{'.
  size_t eol = text.find('\n', c.off());
  std::string_view name = text.substr(c.off(), eol == std::string_view::npos ? eol : eol - c.off());
  while (!name.empty() && std::isspace(static_cast<unsigned char>(name.front()))) name.remove_prefix(1);
  while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back()))) name.remove_suffix(1);
  if (name.empty()) c.fail("expected a test name after 'PTX'");
  t.name = std::string(name);
  size_t i = eol == std::string_view::npos ? text.size() : eol;
  while (i < text.size() && text[i] != '{') {
    if (text[i] == '"') {
      size_t q = text.find('"', i + 1);
      if (q == std::string_view::npos) c.fail_at(i, "unterminated string");
      i = q;
    }
    ++i;
  }
  if (i >= text.size()) c.fail_at(text.size(), "expected '{' (the initial state)");
  c.set_off(i);
  std::vector<size_t> init_at;
  parse_init(c, t, init_at);

  // Thread header row: P0@cta 0,gpu 0 | ... ;
  c.skip_ws();
  size_t row_end = text.find(';', c.off());
  if (row_end == std::string_view::npos) c.fail("expected the thread header row ending in ';'");
  for (auto [s, e] : cells(text, c.off(), row_end)) {
    Cursor h(text.substr(0, e), file, s);
    Thread th;
    th.pos = h.pos();
    size_t at = h.off();
    std::string id = h.ident("thread name");
    int idx = thread_index(id);
    if (idx != static_cast<int>(t.threads.size())) h.fail_at(at, "expected thread P" + std::to_string(t.threads.size()));
    th.place.name = "P" + std::to_string(idx);
    if (h.accept("@")) {
      while (true) {
        size_t la = h.off();
        std::string lvl = h.ident("cta, cluster or gpu");
        int n = place_id(h, la, lvl, h.number());
        if (lvl == "cta") th.place.cta = n;
        else if (lvl == "cluster") th.place.cluster = n;
        else if (lvl == "gpu") th.place.gpu = n;
        else h.fail_at(la, "expected cta, cluster or gpu");
        if (!h.accept(",")) break;
      }
    }
    if (!h.eof()) h.fail("unexpected text in the thread header");
    t.threads.push_back(std::move(th));
  }
  // Dat3M has no clusters: each CTA is its own cluster unless told.
  for (auto& th : t.threads) if (th.place.cluster == 0) th.place.cluster = th.place.cta + 1000 * th.place.gpu;
  check_reg_inits(c, t, init_at);
  c.set_off(row_end + 1);

  // Instruction rows until the condition.
  while (!c.eof() && !at_condition(c)) {
    size_t s = c.off();
    size_t e = text.find(';', s);
    if (e == std::string_view::npos) c.fail("expected ';' at the end of the instruction row");
    auto cs = cells(text, s, e);
    if (cs.size() > t.threads.size())
      c.fail_at(cs[t.threads.size()].first, "row has more columns than threads");
    for (size_t k = 0; k < cs.size(); ++k) {
      Cursor ic(text.substr(0, cs[k].second), file, cs[k].first);
      if (ic.eof()) continue;
      Instr in;
      size_t st = ic.off();
      parse_cell(ic, in);
      std::string_view src = text.substr(st, cs[k].second - st);
      while (!src.empty() && std::isspace(static_cast<unsigned char>(src.back()))) src.remove_suffix(1);
      in.text = std::string(src);
      t.threads[k].code.push_back(std::move(in));
    }
    c.set_off(e + 1);
  }
  if (c.accept_word("locations")) {  // herd's `locations [x; 1:r0;]`: accepted, ignored
    c.expect("[");
    size_t e = text.find(']', c.off());
    if (e == std::string_view::npos) c.fail("expected ']'");
    c.set_off(e + 1);
  }
  if (c.eof()) c.fail("expected the final condition (exists, ~exists or forall)");
  parse_condition(c, t);
  return t;
}

}  // namespace ptxcheck::litmus
