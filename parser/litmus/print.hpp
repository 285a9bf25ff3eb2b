// Printing a litmus Test in either dialect, and the equivalence that a
// print/parse round trip preserves.
// Contract: for every Test t that print_X accepts, parse_X(print_X(t)) is
// equivalent to t (test_difference returns ""): same name, locations
// (name, initial value, alias target, proxy, size, state space), register
// initialisations, thread placement (cta, cluster, gpu, warp), instructions
// with their order/scope/proxy/operands, quantifier and condition. Source
// positions, source text and doc strings are not part of a Test's meaning.
// Where t uses something the dialect cannot express, print_X throws
// InputError (file = t.file, no position) naming the construct.
#pragma once
#include <string>

#include "parser/litmus/litmus_ast.hpp"

namespace ptxcheck::litmus {

// ptxcheck's native format (docs/litmus-format.md): PTX thread bodies.
// Registers print with a leading '%'. Not expressible: Dat3M's compare-and-
// branch other than `@%p bra` (p != 0 / p == 0), two-operand barrier ids,
// an access proxy other than its location's (use an alias `via` a proxy),
// sizes other than 1/2/4/8 bytes, atom.sub/mul/div.
std::string print_native(const Test& t);

// One instruction of t as a native-format PTX statement (for Instr::text of
// generated or changed instructions); throws InputError as print_native.
std::string print_native_instr(const Test& t, const Instr& in);

// Dat3M's PTX dialect (LitmusPTX.g4). Registers must be named r<N> (with or
// without '%'). Not expressible: warps, sizes other than 4 bytes, state
// spaces other than .global, proxies on non-alias locations, setp, mov of
// a register, barrier counts without a two-operand id, an explicit cluster 0
// that differs from Dat3M's default (one cluster per CTA).
std::string print_dat3m(const Test& t);

// "" when a and b are equivalent in the sense above; otherwise a short
// description of the first difference found. Registers compare without a
// leading '%'; a weak access's scope is ignored (it has none, PTX ISA 8.5);
// an access's proxy compares as the proxy the model uses (the instruction's
// if it names one, else its location's).
std::string test_difference(const Test& a, const Test& b);

// The name of a register without a leading '%' (the dialect-neutral form).
std::string canonical_reg(const std::string& name);

}  // namespace ptxcheck::litmus
