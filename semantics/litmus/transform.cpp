// Program changes for mutation testing and monotonicity (transform.hpp).
#include "semantics/litmus/transform.hpp"

#include <stdexcept>

#include "memmodel/names.hpp"
#include "parser/litmus/print.hpp"

namespace ptxcheck::litmus {

namespace {

bool is_access(const Instr& in) {
  return in.kind == InstrKind::Load || in.kind == InstrKind::Store || in.kind == InstrKind::Rmw ||
         in.kind == InstrKind::Red;
}

// Accesses with a scope (PTX ISA 8.5: weak and mmio accesses have none to change).
bool scoped(const Instr& in) {
  if (in.kind == InstrKind::Fence) return true;
  return is_access(in) && in.order != mm::Order::Weak && in.order != mm::Order::MMIO;
}

// The new order under AcquireToRelaxed / ReleaseToRelaxed, or Weak when
// the change does not apply (Weak is never a result of either).
mm::Order drop_acquire(const Instr& in) {
  if (in.kind == InstrKind::Load && in.order == mm::Order::Acquire) return mm::Order::Relaxed;
  if (in.kind == InstrKind::Rmw && in.order == mm::Order::Acquire) return mm::Order::Relaxed;
  if (in.kind == InstrKind::Rmw && in.order == mm::Order::AcqRel) return mm::Order::Release;
  return mm::Order::Weak;
}
mm::Order drop_release(const Instr& in) {
  if ((in.kind == InstrKind::Store || in.kind == InstrKind::Red || in.kind == InstrKind::Rmw) &&
      in.order == mm::Order::Release)
    return mm::Order::Relaxed;
  if (in.kind == InstrKind::Rmw && in.order == mm::Order::AcqRel) return mm::Order::Acquire;
  return mm::Order::Weak;
}

bool strong_plain(const Instr& in) {
  return (in.kind == InstrKind::Load || in.kind == InstrKind::Store) &&
         (in.order == mm::Order::Relaxed || in.order == mm::Order::Acquire || in.order == mm::Order::Release);
}

bool applies(const Instr& in, const Mutation& m) {
  switch (m.kind) {
    case Change::DropFence: return in.kind == InstrKind::Fence;
    case Change::AcquireToRelaxed: return drop_acquire(in) != mm::Order::Weak;
    case Change::ReleaseToRelaxed: return drop_release(in) != mm::Order::Weak;
    case Change::NarrowScope: return scoped(in) && m.scope < in.scope;
    case Change::WidenScope: return scoped(in) && m.scope > in.scope;
    case Change::StrongToWeak: return strong_plain(in);
    case Change::InsertFenceSc: return true;
  }
  return false;
}

}  // namespace

const std::vector<Change>& all_changes() {
  static const std::vector<Change> all{
#define PTXCHECK_CHANGE_LIST(name, tag, weak) Change::name,
      PTXCHECK_CHANGES(PTXCHECK_CHANGE_LIST)
#undef PTXCHECK_CHANGE_LIST
  };
  return all;
}

const char* change_name(Change k) {
  switch (k) {
#define PTXCHECK_CHANGE_NAME(name, tag, weak) case Change::name: return tag;
    PTXCHECK_CHANGES(PTXCHECK_CHANGE_NAME)
#undef PTXCHECK_CHANGE_NAME
  }
  return "?";
}

bool weakens(Change k) {
  switch (k) {
#define PTXCHECK_CHANGE_WEAK(name, tag, weak) case Change::name: return weak;
    PTXCHECK_CHANGES(PTXCHECK_CHANGE_WEAK)
#undef PTXCHECK_CHANGE_WEAK
  }
  return false;
}

std::string Mutation::describe() const {
  std::string s = std::string(change_name(kind)) + " T" + std::to_string(thread) + ":" + std::to_string(instr);
  if (kind == Change::NarrowScope || kind == Change::WidenScope || kind == Change::InsertFenceSc)
    s += std::string(" ") + mm::to_string(scope);
  return s;
}

std::vector<Mutation> mutations(const Test& t, Change kind) {
  std::vector<Mutation> out;
  const mm::Scope scopes[] = {mm::Scope::CTA, mm::Scope::Cluster, mm::Scope::GPU, mm::Scope::Sys};
  bool by_scope = kind == Change::NarrowScope || kind == Change::WidenScope || kind == Change::InsertFenceSc;
  for (size_t th = 0; th < t.threads.size(); ++th) {
    const auto& code = t.threads[th].code;
    size_t n = kind == Change::InsertFenceSc ? code.size() + 1 : code.size();
    for (size_t i = 0; i < n; ++i) {
      for (mm::Scope s : scopes) {
        Mutation m{kind, static_cast<int>(th), static_cast<int>(i), s};
        if (kind == Change::InsertFenceSc || applies(code[i], m)) out.push_back(m);
        if (!by_scope) break;
      }
    }
  }
  return out;
}

Test apply(const Test& t, const Mutation& m) {
  if (m.thread < 0 || m.thread >= static_cast<int>(t.threads.size()))
    throw std::invalid_argument("mutation " + m.describe() + ": no such thread");
  Test r = t;
  auto& code = r.threads[m.thread].code;
  int limit = static_cast<int>(code.size()) + (m.kind == Change::InsertFenceSc ? 1 : 0);
  if (m.instr < 0 || m.instr >= limit) throw std::invalid_argument("mutation " + m.describe() + ": no such instruction");
  if (m.kind != Change::InsertFenceSc && !applies(code[m.instr], m))
    throw std::invalid_argument("mutation " + m.describe() + " does not apply to '" + code[m.instr].text + "'");
  switch (m.kind) {
    case Change::DropFence: code.erase(code.begin() + m.instr); break;
    case Change::AcquireToRelaxed: code[m.instr].order = drop_acquire(code[m.instr]); break;
    case Change::ReleaseToRelaxed: code[m.instr].order = drop_release(code[m.instr]); break;
    case Change::NarrowScope:
    case Change::WidenScope: code[m.instr].scope = m.scope; break;
    case Change::StrongToWeak:
      code[m.instr].order = mm::Order::Weak;
      code[m.instr].scope = mm::Scope::Sys;  // a weak access has no scope (litmus_ast convention)
      break;
    case Change::InsertFenceSc: {
      Instr f;
      f.kind = InstrKind::Fence;
      f.order = mm::Order::SC;
      f.scope = m.scope;
      code.insert(code.begin() + m.instr, std::move(f));
      break;
    }
  }
  if (m.kind != Change::DropFence) {  // keep --explain labels truthful
    try {
      code[m.instr].text = print_native_instr(r, code[m.instr]);
    } catch (const InputError&) {
      code[m.instr].text += " (" + m.describe() + ")";
    }
  }
  r.name = t.name + "+" + change_name(m.kind) + ".T" + std::to_string(m.thread) + "." + std::to_string(m.instr);
  if (m.kind == Change::NarrowScope || m.kind == Change::WidenScope || m.kind == Change::InsertFenceSc)
    r.name += std::string(".") + mm::to_string(m.scope);
  return r;
}

}  // namespace ptxcheck::litmus
