// Litmus threads on the interpreter's IR: each thread of a Test becomes a
// PTX function lowered by semantics/interp (the same lowering and the same
// semantics/arith functions that `ptxcheck run` uses), with every litmus
// location a .global variable of its own address.
// Contract:
//  * A native-format instruction is lowered from the PTX statement the
//    front end parsed (Instr::ptx), so every instruction the interpreter
//    runs may appear in a thread; Dat3M instructions, and instructions
//    made by semantics/litmus/transform, are written as PTX first. The
//    order and scope of a memory instruction are the Instr's (the one
//    place that a transform changes them).
//  * Registers are declared with the width of the widest type that writes
//    them (a predicate when only setp or a guard uses them; 64 bits when
//    nothing typed writes them).
//  * The functions of the test's prelude (Test::funcs) are lowered into
//    every thread's program, before the thread, so that threads may call
//    them (the symbolic executor runs calls with frames).
//  * Every IR instruction's line:col is its position in the test file: a
//    thread instruction's is its Instr's (instr_of_pc maps back), a prelude
//    function's its own (func_stmt_of_pc gives its Test::func_stmts entry).
//    An InputError of the lowering names the same positions.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "parser/litmus/litmus_ast.hpp"
#include "semantics/interp/ir.hpp"

namespace ptxcheck::litmus {

struct Program;

struct ThreadIr {
  interp::Program prog;              // the thread is prog.kernel
  std::vector<int> instr_of_pc;      // code index -> index into Thread::code (-1: none)
  std::vector<int> func_stmt_of_pc;  // code index -> index into Test::func_stmts (-1: none)
  std::vector<uint32_t> slot_of;     // LThread register slot -> IR register slot
};

struct TestIr {
  std::vector<ThreadIr> threads;
  std::vector<uint64_t> loc_addr;  // per Program::locations entry: its global address
  std::vector<uint32_t> loc_size;
};

TestIr to_ir(const Test& t, const Program& p);

}  // namespace ptxcheck::litmus
