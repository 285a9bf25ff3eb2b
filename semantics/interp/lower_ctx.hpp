// Internal to the lowering (lower.cpp, lower_insn.cpp): symbol tables and the
// per-function state shared by the two translation units.
#pragma once
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "parser/ast.hpp"
#include "semantics/interp/ir.hpp"

namespace ptxcheck::interp {

struct ModSym {
  enum Kind { Global, Const, Shared, Func } kind = Global;
  uint64_t addr = 0;   // Global: index into Program::globals (address patched later); Const/Shared: offset
  uint32_t index = 0;  // Global: globals index; Func: function index
};

struct LocalSym {
  enum Kind { Reg, Frame, KParam } kind = Reg;
  uint32_t slot = 0;    // Reg
  uint32_t off = 0;     // Frame / KParam offset
  uint32_t width = 64;  // Reg width in bits
  uint32_t size = 0;    // Frame: the variable's bytes
};

struct LowerCtx {
  const ast::Module& mod;
  Program& prog;
  std::string file;
  std::unordered_map<std::string, ModSym> msyms;
  // Function being lowered.
  Function* fn = nullptr;
  std::vector<std::unordered_map<std::string, LocalSym>> scopes;
  // Labels are scoped by { } blocks as ptxas scopes them: a label is visible
  // in its block and the blocks nested in it, an inner one hides an outer one
  // of the same name, and sibling blocks may reuse a name (inline-asm wait
  // loops such as `{ W: mbarrier.try_wait ...; @!p bra W; }` inlined several
  // times). label_scopes: the labels of each open block (name -> id);
  // label_pc: each label's code index once reached.
  std::vector<std::unordered_map<std::string, uint32_t>> label_scopes;
  std::vector<uint32_t> label_pc;
  std::vector<std::pair<uint32_t, uint32_t>> fixups;  // code index -> label id
  uint32_t cc_slot = 0;  // hidden carry flag (PTX ISA 9.7.2 Extended-Precision Integer Arithmetic)
  // `name: .branchtargets L1, L2;` of the function (PTX ISA 9.7.12.4 brx.idx), and
  // the brx.idx instructions naming one (code index -> table name).
  // Each entry: a target's name and its label id (kNoLabel where not visible).
  std::unordered_map<std::string, std::vector<std::pair<std::string, uint32_t>>> branch_lists;
  std::vector<std::pair<uint32_t, std::pair<std::string, SourcePos>>> table_fixups;
  uint32_t cur_loc = 0;  // the `.loc` in effect (Program::src_loc)
  // Unsized `.extern .shared` arrays (dynamic shared memory) start after all
  // static shared memory: their offset, once the first pass (lower()) knows
  // the static size; -1 in the first pass. dyn_align: their largest .align.
  int64_t dyn_shared_base = -1;
  uint32_t dyn_align = 0;
  // The names the kernel reaches (kernel_reach, lower.cpp): the functions it
  // can call and the names they and module initializers mention. A .shared
  // variable outside it gets no shared memory, as ptxas gives each kernel only
  // the shared variables it uses (cudaFuncGetAttributes' sharedSizeBytes, the
  // 48 KiB default limit). Null: every variable.
  const std::unordered_set<std::string>* reach = nullptr;
  bool reached(const std::string& name) const { return !reach || reach->count(name); }

  [[noreturn]] void fail(SourcePos p, const std::string& msg) const { throw InputError(file, p, msg); }
  static constexpr uint32_t kNoLabel = ~0u;
  // The label `name` visible here (innermost block first), or kNoLabel.
  uint32_t find_label(const std::string& name) const {
    for (auto it = label_scopes.rbegin(); it != label_scopes.rend(); ++it) {
      auto f = it->find(name);
      if (f != it->end()) return f->second;
    }
    return kNoLabel;
  }
  const LocalSym* find_local(const std::string& name) const {
    for (auto it = scopes.rbegin(); it != scopes.rend(); ++it) {
      auto f = it->find(name);
      if (f != it->end()) return &f->second;
    }
    return nullptr;
  }
  uint32_t new_slot(uint32_t width) {
    fn->reg_width.push_back(width);
    return fn->nregs++;
  }
  uint32_t frame_alloc(uint32_t size, uint32_t align) {
    if (align < 1) align = 1;
    fn->frame_bytes = (fn->frame_bytes + align - 1) / align * align;
    uint32_t off = fn->frame_bytes;
    fn->frame_bytes += size ? size : 1;
    return off;
  }
  uint32_t shared_alloc(uint32_t size, uint32_t align) {
    if (align < 1) align = 1;
    prog.static_shared_bytes = (prog.static_shared_bytes + align - 1) / align * align;
    uint32_t off = prog.static_shared_bytes;
    prog.static_shared_bytes += size;
    return off;
  }
};

// Byte size of a declared variable (type * vector * array dims).
uint32_t decl_size(const ast::VarDecl& d);
uint32_t decl_align(const ast::VarDecl& d);

// Lowers one instruction, appending to ctx.prog.code.
void lower_instruction(LowerCtx& ctx, const ast::Instruction& in, SourcePos stmt_pos);

}  // namespace ptxcheck::interp
