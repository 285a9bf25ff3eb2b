// Name lookups over the closed vocabularies in litmus_names.def (the memory
// model's names: mm::order_from_name etc. in memmodel/names.hpp).
// Each returns nullopt for a name outside the table.
#pragma once
#include <optional>
#include <string_view>

#include "memmodel/names.hpp"
#include "parser/litmus/litmus_ast.hpp"

namespace ptxcheck::litmus {
std::optional<mm::Proxy> load_proxy(std::string_view mnemonic);   // ld tld suld cold
std::optional<mm::Proxy> store_proxy(std::string_view mnemonic);  // st sust
std::optional<mm::Proxy> atom_proxy(std::string_view mnemonic);   // atom red suatom sured
std::optional<AluOp> atom_op_from_name(std::string_view s);
std::optional<AluOp> alu_from_name(std::string_view s);
std::optional<CmpOp> branch_from_name(std::string_view s);
const char* to_string(AluOp op);
const char* ptx_name(CmpOp c);  // the setp operator: "eq", "lt", ...
}  // namespace ptxcheck::litmus
