// Unit tests of the front-end API: statement sequences with origins, name
// resolution, operand forms, constant expressions, printer canonical form.
#include <catch2/catch.hpp>

#include "parser/expr.hpp"
#include "parser/json.hpp"
#include "parser/parse.hpp"
#include "parser/printer.hpp"

using namespace ptxcheck;

namespace {
const ast::Instruction& insn(const std::vector<ast::Statement>& b, size_t i) {
  return std::get<ast::Instruction>(b.at(i).v);
}
ast::Module module_of(const std::string& body) {
  return parse_module(".version 8.0\n.target sm_80\n.address_size 64\n" + body, "t.ptx");
}
}  // namespace

TEST_CASE("parse_statements shifts positions by the origin", "[api]") {
  auto b = parse_statements("ld.global.u32 %r1, [%rd1+4];\n  @!%p st.global.u32 [x], 7;", "t.litmus", {10, 5});
  REQUIRE(b.size() == 2);
  CHECK(b[0].pos.line == 10);
  CHECK(b[0].pos.col == 5);
  CHECK(b[1].pos.line == 11);
  CHECK(b[1].pos.col == 3);
  const auto& ld = insn(b, 0);
  CHECK(ld.op == table::Opcode::ld);
  REQUIRE(ld.mods.size() == 2);
  CHECK(ld.mods[0].id == table::Mod::global);
  CHECK(ld.mods[1].id == table::Mod::u32);
  const auto& addr = std::get<ast::Address>(ld.operands[1].v);
  CHECK(addr.reg->name == "%rd1");
  CHECK(addr.offset == 4);
  const auto& st = insn(b, 1);
  REQUIRE(st.guard);
  CHECK(st.guard->negated);
  CHECK(std::get<ast::Address>(st.operands[0].v).sym == "x");
  try {
    parse_statements("nop;", "t.litmus", {3, 7});
    FAIL("accepted an unknown instruction");
  } catch (const InputError& e) {
    CHECK(e.pos().line == 3);
    CHECK(e.pos().col == 7);
  }
}

TEST_CASE("labels and bare register names resolve", "[api]") {
  auto b = parse_statements(
      ".reg .pred p, q;\n.reg .b32 r<3>;\nL0: setp.eq.and.s32 p|q, r0, r2, !p;\n@p bra L0;\n", "t", {});
  const auto& setp = insn(b, 4);  // p and q are two declarations
  CHECK(std::holds_alternative<ast::RegPair>(setp.operands[0].v));
  CHECK(std::get<ast::Reg>(setp.operands[1].v).name == "r0");
  CHECK(std::get<ast::Reg>(setp.operands[3].v).negated);
  const auto& bra = insn(b, 5);
  CHECK(std::get<ast::LabelRef>(bra.operands[0].v).name == "L0");
  // r3 is outside r<3>: it stays a symbol.
  auto c = parse_statements(".reg .b32 r<3>;\nmov.b32 r2, r3;", "t", {});
  CHECK(std::holds_alternative<ast::Symbol>(insn(c, 1).operands[1].v));
}

TEST_CASE("operand forms and literals", "[api]") {
  auto b = parse_statements(
      "mov.b32 %r1, 0x1F;\nmov.b32 %r1, 017;\nmov.b32 %r1, 0b101;\nmov.f32 %f1, 0f3F800000;\n"
      "mov.f64 %fd1, 0d3FF0000000000000;\nmov.f64 %fd1, 1.5;\nadd.s32 %r1, %r2, -128;\n"
      "mov.b64 {%r1, _}, %rd1;\nmov.u32 %r1, %tid.x;\n",
      "t", {});
  CHECK(std::get<ast::IntImm>(insn(b, 0).operands[1].v).value == 31);
  CHECK(std::get<ast::IntImm>(insn(b, 1).operands[1].v).value == 15);
  CHECK(std::get<ast::IntImm>(insn(b, 2).operands[1].v).value == 5);
  CHECK(std::get<ast::FloatImm>(insn(b, 3).operands[1].v).bits == 0x3F800000u);
  CHECK(std::get<ast::FloatImm>(insn(b, 4).operands[1].v).form == ast::FloatForm::Hex64);
  CHECK(std::get<ast::FloatImm>(insn(b, 5).operands[1].v).form == ast::FloatForm::Decimal);
  const auto& neg = std::get<ast::IntImm>(insn(b, 6).operands[2].v);
  CHECK(static_cast<int64_t>(neg.value) == -128);
  CHECK(neg.negative);
  const auto& vec = std::get<ast::VectorOp>(insn(b, 7).operands[0].v);
  CHECK(std::holds_alternative<ast::Sink>(vec.elems[1].v));
  CHECK(std::get<ast::Reg>(insn(b, 8).operands[1].v).sel == "x");
  CHECK(print(insn(b, 6)) == "add.s32 %r1, %r2, -128;");
}

TEST_CASE("constant expressions evaluate per PTX ISA 4.5.5", "[api]") {
  auto m = module_of(".global .u64 a = (1 << 4) + 3 * 2;\n.global .s64 b = -7 / 2;\n"
                     ".global .u64 c = (.u64)-1 >> 60;\n.global .u32 d = 2 > 1 ? 10 : 20;\n");
  auto val = [&](size_t i) {
    const auto& v = std::get<ast::VarDecl>(m.items.at(i).v);
    return eval_const(*v.init->value).value().bits;
  };
  CHECK(val(0) == 22);
  CHECK(static_cast<int64_t>(val(1)) == -3);
  CHECK(val(2) == 15);
  CHECK(val(3) == 10);
  // The printed form keeps the tree.
  CHECK(module_of(print(m).substr(print(m).find(".global"))) == m);
}

TEST_CASE("module structure: functions, params, perf directives, initializers", "[api]") {
  auto m = module_of(
      ".global .align 8 .u64 gp = generic(g);\n.global .u32 g;\n"
      ".extern .func (.param .b32 r) f(.param .b64 p);\n"
      ".visible .entry k(.param .u64 .ptr .global .align 16 p, .param .u32 n)\n"
      ".maxntid 128, 1, 1\n.minnctapersm 2\n{\n\t.reg .b32 %r<4>;\n\t{ ret; }\n}\n");
  REQUIRE(m.items.size() == 4);
  const auto& gp = std::get<ast::VarDecl>(m.items[0].v);
  CHECK(gp.align == 8u);
  CHECK(std::get<ast::Expr>(gp.init->value->v).op == ast::ExprOp::Generic);
  const auto& f = std::get<ast::Function>(m.items[2].v);
  CHECK(f.linkage == table::Linkage::extern_);
  CHECK_FALSE(f.has_body);
  CHECK(f.rets.size() == 1);
  const auto& k = std::get<ast::Function>(m.items[3].v);
  CHECK(k.is_entry);
  CHECK(k.params[0].ptr);
  CHECK(k.params[0].ptr_space == table::Mod::global);
  CHECK(k.params[0].ptr_align == 16u);
  REQUIRE(k.perf.size() == 2);
  CHECK(k.perf[0].values == std::vector<uint64_t>{128, 1, 1});
  CHECK(std::holds_alternative<ast::Block>(k.body.at(1).v));
  auto j = to_json(m);
  CHECK(j["items"][3]["name"] == "k");
  CHECK(j["items"][3]["body"][0]["range"] == 4);
}

TEST_CASE("the vocabulary tables are consistent", "[table]") {
  for (size_t i = 0; i < table::kModCount; ++i) {
    auto m = static_cast<table::Mod>(i);
    INFO(table::name(m));
    CHECK(table::lookup_mod(table::name(m)) == m);
  }
  for (size_t i = 0; i < static_cast<size_t>(table::Opcode::kCount); ++i) {
    auto op = static_cast<table::Opcode>(i);
    INFO(table::name(op));
    CHECK(table::lookup_opcode(table::name(op)) == op);
    const auto& info = table::info(op);
    CHECK(info.min_operands <= info.max_operands);
  }
  CHECK(table::type_bits(table::Mod::f16x2) == 32);
  CHECK(table::type_kind(table::Mod::s32) == table::TypeKind::S);
  CHECK(table::info(table::Opcode::add).allowed->test(static_cast<size_t>(table::Mod::sat)));
  CHECK_FALSE(table::info(table::Opcode::add).allowed->test(static_cast<size_t>(table::Mod::global)));
}
