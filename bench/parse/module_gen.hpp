// A large PTX module for the parse benchmarks: every function and variable
// of the corpus modules copied N times with renamed symbols (debug line info
// and sections are dropped: they would refer to labels not copied).
#pragma once
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "parser/parse.hpp"
#include "parser/printer.hpp"

namespace benchgen {

namespace fs = std::filesystem;
namespace ast = ptxcheck::ast;
using ptxcheck::print;

inline std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

using Renames = std::map<std::string, std::string>;

inline void rename(ast::Operand& o, const Renames& r);
inline void rename(std::vector<ast::Operand>& v, const Renames& r) {
  for (auto& o : v) rename(o, r);
}
inline void rename(std::string& s, const Renames& r) {
  if (auto it = r.find(s); it != r.end()) s = it->second;
}
inline void rename(ast::Operand& o, const Renames& r) {
  if (auto* s = std::get_if<ast::Symbol>(&o.v)) rename(s->name, r);
  if (auto* e = std::get_if<ast::Expr>(&o.v)) rename(e->args, r);
  if (auto* a = std::get_if<ast::ArgList>(&o.v)) rename(a->elems, r);
  if (auto* v = std::get_if<ast::VectorOp>(&o.v)) rename(v->elems, r);
  if (auto* a = std::get_if<ast::Address>(&o.v)) {
    if (a->sym) rename(*a->sym, r);
    rename(a->extra, r);
  }
}
inline void rename(ast::Init& in, const Renames& r) {
  if (in.value) rename(*in.value, r);
  for (auto& e : in.elems) rename(e, r);
}
inline void rename(std::vector<ast::Statement>& body, const Renames& r) {
  for (auto& s : body) {
    if (auto* i = std::get_if<ast::Instruction>(&s.v)) rename(i->operands, r);
    if (auto* b = std::get_if<ast::Block>(&s.v)) rename(b->body, r);
    if (auto* v = std::get_if<ast::VarDecl>(&s.v); v && v->init) rename(*v->init, r);
  }
}

// Debug line info refers to .section labels that are not copied.
inline void strip_debug(std::vector<ast::Statement>& body) {
  std::erase_if(body, [](const ast::Statement& s) {
    const auto* d = std::get_if<ast::Directive>(&s.v);
    return d && std::holds_alternative<ast::LocDir>(d->v);
  });
  for (auto& s : body)
    if (auto* b = std::get_if<ast::Block>(&s.v)) strip_debug(b->body);
}

// The combined module: externs once, every definition once per copy.
inline std::string build_module(const std::vector<ast::Module>& mods, size_t min_bytes, size_t& copies) {
  ast::Module out;
  out.version = {0, 0};
  out.targets = {"sm_80"};
  out.address_size = 64;
  for (const auto& m : mods)
    if (m.version.major * 100 + m.version.minor > out.version.major * 100 + out.version.minor)
      out.version = m.version;
  std::set<std::string> externs;
  for (const auto& m : mods)
    for (const auto& it : m.items)
      if (const auto* f = std::get_if<ast::Function>(&it.v); f && !f->has_body && !externs.count(f->name)) {
        externs.insert(f->name);
        out.items.push_back(it);
      }
  // Print once after the first copy to learn its size, then add the copies
  // needed (printing after every copy would be quadratic).
  size_t want = 1;
  for (copies = 0; copies < want; ++copies) {
    for (size_t k = 0; k < mods.size(); ++k) {
      Renames r;
      const std::string suffix = "_c" + std::to_string(copies) + "m" + std::to_string(k);
      for (const auto& it : mods[k].items) {
        if (const auto* f = std::get_if<ast::Function>(&it.v); f && f->has_body) r[f->name] = f->name + suffix;
        if (const auto* v = std::get_if<ast::VarDecl>(&it.v)) r[v->name] = v->name + suffix;
      }
      for (auto it : mods[k].items) {
        if (auto* f = std::get_if<ast::Function>(&it.v)) {
          if (!f->has_body) continue;
          rename(f->name, r);
          rename(f->body, r);
          strip_debug(f->body);
        } else if (auto* v = std::get_if<ast::VarDecl>(&it.v)) {
          rename(v->name, r);
          if (v->init) rename(*v->init, r);
        } else {
          continue;  // .file/.section: debug info is not duplicated
        }
        out.items.push_back(std::move(it));
      }
    }
    if (copies == 0) {
      const size_t one = std::max<size_t>(print(out).size(), 1);
      want = (min_bytes + one - 1) / one + 1;
    }
  }
  return print(out);
}

// The sm_80 corpus modules of SRC_ROOT, sorted by file name.
inline std::vector<ast::Module> corpus_modules(const fs::path& root) {
  std::vector<ast::Module> mods;
  for (const auto& e : fs::directory_iterator(root / "corpus/ptx/sm_80"))
    if (e.path().extension() == ".ptx") mods.push_back(ptxcheck::parse_module(read(e.path()), e.path().string()));
  std::sort(mods.begin(), mods.end(), [](const auto& a, const auto& b) { return a.file < b.file; });
  return mods;
}

}  // namespace benchgen
