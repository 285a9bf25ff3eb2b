// Declaration lines -> VarDecl (PTX ISA 9.2 5.1 state spaces, 5.4 variables,
// 5.4.4 .align, 5.4.2 parameterized names, 5.4.6 .attribute, 11.1.2 kernel
// parameter .ptr attributes). The grammar accepts the dotted items in any
// order; this file decides what each one means and rejects the rest.
#include <string>

#include "parser/x3/actions.hpp"

namespace ptxcheck::x3g {
namespace {

[[noreturn]] void fail_at(const ParseState& st, const ast::Pos& p, const std::string& msg) {
  throw InputError(st.file, p, msg);
}

bool space_ok(table::Mod m, DeclSite site) {
  using table::Mod;
  switch (site) {
    case DeclSite::Param: return m == Mod::param || m == Mod::reg;
    case DeclSite::Body:
      return m == Mod::reg || m == Mod::local || m == Mod::shared || m == Mod::param ||
             m == Mod::const_ || m == Mod::global || m == Mod::tex;
    case DeclSite::Module:
      return m == Mod::global || m == Mod::const_ || m == Mod::shared || m == Mod::local ||
             m == Mod::tex || m == Mod::param;
  }
  return false;
}

}  // namespace

std::vector<ast::VarDecl> build_decls(const ParseState& st, const raw::Decl& d, DeclSite site) {
  ast::VarDecl proto;
  proto.pos = d.pos;
  bool have_space = false, have_type = false, in_ptr = false;
  for (size_t i = 0; i < d.items.size(); ++i) {
    const raw::DeclItem& it = d.items[i];
    if (it.attribute) {
      if (it.word != ".managed" && it.word != ".unified")
        fail_at(st, it.pos, "unknown attribute '" + it.word + "'");
      proto.attributes.push_back(it.word);
      continue;
    }
    if (it.num && it.word != ".align")
      fail_at(st, it.pos, "unexpected number after '" + it.word + "'");
    if (!have_space) {
      if (auto l = table::lookup_linkage(it.word)) {
        if (site != DeclSite::Module || proto.linkage != table::Linkage::None)
          fail_at(st, it.pos, "unexpected linkage directive '" + it.word + "'");
        proto.linkage = *l;
        continue;
      }
      auto m = table::lookup_mod(it.word);
      if (!m || !table::is_space(*m))
        fail_at(st, it.pos, (i == 0 ? "unknown directive '" : "expected a state space, got '") +
                                it.word + "'");
      if (!space_ok(*m, site))
        fail_at(st, it.pos, "state space '" + it.word + "' is not allowed here");
      proto.space = *m;
      have_space = true;
      continue;
    }
    if (it.word == ".align") {
      if (!it.num || *it.num == 0 || (*it.num & (*it.num - 1)) || *it.num > (1u << 30))
        fail_at(st, it.pos, ".align needs a power-of-two byte count");
      (in_ptr ? proto.ptr_align : proto.align) = static_cast<uint32_t>(*it.num);
      continue;
    }
    if (it.word == ".ptr") {
      if (site != DeclSite::Param || proto.ptr)
        fail_at(st, it.pos, "'.ptr' is only allowed once on a kernel parameter");
      proto.ptr = in_ptr = true;
      continue;
    }
    auto m = table::lookup_mod(it.word);
    if (!m) fail_at(st, it.pos, "unexpected '" + it.word + "' in declaration");
    if (in_ptr && table::is_space(*m)) {
      proto.ptr_space = *m;
      continue;
    }
    if (table::is_type(*m)) {
      if (have_type) fail_at(st, it.pos, "more than one type in declaration");
      proto.type = *m;
      have_type = true;
      continue;
    }
    if (*m == table::Mod::v2 || *m == table::Mod::v4 || *m == table::Mod::v8) {
      if (proto.vec) fail_at(st, it.pos, "more than one vector size in declaration");
      proto.vec = table::vec_count(*m);
      continue;
    }
    fail_at(st, it.pos, "unexpected '" + it.word + "' in declaration");
  }
  if (!have_space) fail_at(st, d.pos, "expected a state space");
  if (!have_type) fail_at(st, d.decls.empty() ? d.pos : d.decls[0].pos, "missing type in declaration");
  std::vector<ast::VarDecl> out;
  out.reserve(d.decls.size());
  for (const raw::Declarator& dc : d.decls) {
    ast::VarDecl v = proto;
    v.name = dc.name;
    if (dc.range) {
      if (proto.space != table::Mod::reg) fail_at(st, dc.pos, "'<N>' is only allowed on .reg names");
      if (*dc.range == 0 || *dc.range > (1u << 24))
        fail_at(st, dc.pos, "register count out of range");
      v.range = dc.range;
    }
    if (dc.name == "_" && site != DeclSite::Param) fail_at(st, dc.pos, "expected a name");
    v.dims = dc.dims;
    for (size_t k = 1; k < v.dims.size(); ++k)
      if (!v.dims[k]) fail_at(st, dc.pos, "only the first array dimension may be unsized");
    if (dc.init) {
      if (proto.space != table::Mod::global && proto.space != table::Mod::const_)
        fail_at(st, dc.init->pos, "initializers are only allowed in .global and .const");
      v.init = dc.init;
    }
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace ptxcheck::x3g
