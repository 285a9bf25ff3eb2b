// A litmus test lowered for execution: locations resolved to the model's
// mm::Location table (aliases share a physical location, PTX ISA 8.2.2),
// registers to per-thread slots, labels to instruction indices.
// Contract: lower() rejects undefined labels, locations aliasing
// themselves and instructions the threads cannot run with InputError
// (file:line:col); it lowers each thread to the interpreter's IR
// (to_ir.hpp), which build_traces() runs.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "memmodel/events.hpp"
#include "semantics/arith/atom.hpp"
#include "semantics/litmus/to_ir.hpp"
#include "parser/litmus/litmus_ast.hpp"

namespace ptxcheck::litmus {

struct Slot {  // an operand: a register slot or an immediate
  int reg = -1;
  uint64_t imm = 0;
};

struct LInstr {
  const Instr* src = nullptr;
  int loc = -1;     // index into Program::locations
  int dst = -1;     // destination register slot
  int target = -1;  // branch target (instruction index)
  std::vector<Slot> args;
};

struct LThread {
  mm::ThreadPlace place;
  std::vector<LInstr> code;
  std::vector<std::string> regs;   // slot -> name
  std::vector<uint64_t> reg_init;  // slot -> initial value (0 unless declared)
  int slot(const std::string& name) const;  // -1 if unknown
  // Its warp (index into Program::warps) and lane: the threads placed with
  // the same `warp N` in one CTA and GPU form a warp, lanes in thread order;
  // a thread without a warp placement is lane 0 of a warp of its own.
  int warp = -1;
  uint32_t lane = 0;
};

// Mixed-size accesses (PTX ISA 8.2.1 Overlap): a location that some access
// reaches at another offset or with another size is split into granules,
// the byte ranges its accesses' boundaries delimit. Each granule is a
// location of its own (appended to Program::locations, named "x[0:2]", its
// own physical location, the initial value's bytes); an access is one
// event per granule it covers (interp::TraceEnv::pieces), values combined
// little-endian, and the location itself carries no event.
struct Split {
  std::vector<uint32_t> cuts;  // granule start offsets, ascending, the first 0
  std::vector<int> granules;   // per granule: its index in Program::locations
};

struct Program {
  const Test* test = nullptr;
  std::vector<mm::Location> locations;
  std::vector<int> split_of;  // per location: index into `splits`, or -1
  std::vector<Split> splits;
  std::vector<LThread> threads;
  int nphys = 0;
  std::vector<std::vector<int>> warps;  // per warp: its threads by lane
  std::shared_ptr<const TestIr> ir;  // the threads lowered to the interpreter's IR
  int loc_index(const std::string& name) const;  // -1 if unknown
  int split(int loc) const { return loc < static_cast<int>(split_of.size()) ? split_of[loc] : -1; }
  // The final value of each location given each physical location's final
  // write (-1: the initial value); a split location's value is its
  // granules' bytes.
  std::vector<uint64_t> final_values(const std::vector<mm::Event>& events, const std::vector<int>& final_write) const;
};

Program lower(const Test& t);

// Whether `name` (with or without '%', with or without a .x component)
// names a special register such as %laneid (PTX ISA 10).
bool special_reg(const std::string& name);

// The PTX atom operation of an Rmw/Red; nullopt for Dat3M's sub, mul, div.
std::optional<arith::AtomOp> atom_of(AluOp op);

// Values wrap to the access size (PTX integer arithmetic is modular).
inline uint64_t mask_to(uint64_t v, uint32_t size) {
  return size >= 8 ? v : v & ((uint64_t{1} << (8 * size)) - 1);
}

}  // namespace ptxcheck::litmus
