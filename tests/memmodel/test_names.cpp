// memmodel/vocab.def and memmodel/models.def: every spelling parses back to
// its value, names outside the tables are refused, and the model names set
// the Model fields the table says.
#include <catch2/catch.hpp>

#include "memmodel/models.hpp"
#include "memmodel/names.hpp"

using namespace ptxcheck::mm;

namespace {
template <class E, class Parse>
void round_trip(Parse parse, int count) {
  for (int i = 0; i < count; ++i) {
    const E v = static_cast<E>(i);
    INFO(to_string(v));
    REQUIRE(parse(to_string(v)) == v);
  }
  CHECK(std::string(to_string(static_cast<E>(count))) == "?");
  CHECK_FALSE(parse("no-such-name"));
}
}  // namespace

TEST_CASE("Memory-model spellings round-trip through vocab.def", "[names]") {
  round_trip<Scope>(scope_from_name, 4);
  round_trip<Order>(order_from_name, 7);
  round_trip<Proxy>(proxy_from_name, 5);
  // The proxy fence kinds but None, which is not a proxy fence and has no name.
  for (int i = 1; i < 7; ++i) {
    const auto k = static_cast<ProxyFenceKind>(i);
    REQUIRE(proxy_fence_from_name(to_string(k)) == k);
  }
  CHECK_FALSE(proxy_fence_from_name(""));
  CHECK(std::string(to_string(ProxyFenceKind::Other)) == "generic");
  CHECK(std::string(to_string(Order::AcqRel)) == "acq_rel");
  CHECK(std::string(to_string(EventKind::ProxyFence)) == "PF");
  CHECK_FALSE(scope_from_name("gl"));  // a membar spelling the front ends map themselves
  CHECK(async_op_proxy(AsyncOpKind::CpAsync) == Proxy::Generic);
  CHECK_FALSE(async_op_issue_ordered(AsyncOpKind::Wgmma));
}

TEST_CASE("Model names: one parser over models.def", "[names]") {
  CHECK(model_names() == "ptx75, ptx6, sc, ptx75-no-fence-sc-acqrel");
  CHECK(model_names(true) == "ptx75 (default), ptx6, sc, ptx75-no-fence-sc-acqrel");
  REQUIRE(model_from_name("ptx6"));
  CHECK(model_from_name("ptx6")->kind == ModelKind::PTX6);
  CHECK(model_from_name("sc")->kind == ModelKind::SC);
  CHECK(model_from_name("ptx")->kind == ModelKind::PTX75);
  const auto no_acqrel = model_from_name("ptx75-no-fence-sc-acqrel");
  REQUIRE(no_acqrel);
  CHECK(no_acqrel->kind == ModelKind::PTX75);
  CHECK_FALSE(no_acqrel->fence_sc_is_acq_rel);
  CHECK(model_from_name("ptx75")->fence_sc_is_acq_rel);
  CHECK_FALSE(model_from_name("PTX75"));
  CHECK_FALSE(model_from_name(""));
  // The default name denotes Model{} (the CLI defaults and campaign records use it).
  CHECK(default_model_name() == "ptx75");
  const auto def = model_from_name(default_model_name());
  REQUIRE(def);
  CHECK(def->kind == Model{}.kind);
  CHECK(def->fence_sc_is_acq_rel == Model{}.fence_sc_is_acq_rel);
}
