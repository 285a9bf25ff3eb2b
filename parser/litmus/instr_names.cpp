// Table lookups generated from litmus_names.def.
#include "parser/litmus/instr_names.hpp"

namespace ptxcheck::litmus {

std::optional<mm::Proxy> load_proxy(std::string_view s) {
#define LOADP(n, o) if (s == n) return mm::Proxy::o;
#include "parser/litmus/litmus_names.def"
  return std::nullopt;
}
std::optional<mm::Proxy> store_proxy(std::string_view s) {
#define STOREP(n, o) if (s == n) return mm::Proxy::o;
#include "parser/litmus/litmus_names.def"
  return std::nullopt;
}
std::optional<mm::Proxy> atom_proxy(std::string_view s) {
#define ATOMP(n, o) if (s == n) return mm::Proxy::o;
#include "parser/litmus/litmus_names.def"
  return std::nullopt;
}
std::optional<AluOp> atom_op_from_name(std::string_view s) {
#define ATOMOP(n, o) if (s == n) return AluOp::o;
#include "parser/litmus/litmus_names.def"
  return std::nullopt;
}
std::optional<AluOp> alu_from_name(std::string_view s) {
#define ALU(n, o) if (s == n) return AluOp::o;
#include "parser/litmus/litmus_names.def"
  return std::nullopt;
}
std::optional<CmpOp> branch_from_name(std::string_view s) {
#define BRANCH(n, o) if (s == n) return CmpOp::o;
#include "parser/litmus/litmus_names.def"
  return std::nullopt;
}
const char* to_string(AluOp op) {
#define ATOMOP(n, o) if (op == AluOp::o) return n;
#include "parser/litmus/litmus_names.def"
  return "mov";
}
const char* ptx_name(CmpOp c) {
  switch (c) {
    // clang-format off
#define CMP(id, ptx, op) case CmpOp::id: return ptx;
#include "parser/litmus/litmus_names.def"
    // clang-format on
  }
  return "?";
}
const char* to_string(CmpOp c) {
  switch (c) {
    // clang-format off
#define CMP(id, ptx, op) case CmpOp::id: return op;
#include "parser/litmus/litmus_names.def"
    // clang-format on
  }
  return "?";
}

}  // namespace ptxcheck::litmus
