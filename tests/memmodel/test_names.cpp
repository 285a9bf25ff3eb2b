// memmodel/vocab.def: every spelling parses back to its value, and names
// outside the table are refused.
#include <catch2/catch.hpp>

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
