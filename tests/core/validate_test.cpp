// validate(): every rule's exact message, code and path.
#include <catch2/catch.hpp>

#include "pipesim/config.h"
#include "pipesim/engine.h"

using namespace pipesim;

namespace {
Error error_of(const SimConfig& c) {
  const Status st = validate(c);
  REQUIRE_FALSE(st.ok());
  return st.error();
}
}  // namespace

TEST_CASE("unknown schedules name the choices") {
  const Error e = error_of({"zigzag", 4, 8, {}});
  CHECK(e.code == ErrorCode::UnknownSchedule);
  CHECK(e.message ==
        "schedule must be one of gpipe, 1f1b, zb-h1, dualpipe, dualpipev, chimera, interleaved-1f1b, "
        "zb-h2, zb-v (got \"zigzag\")");
  CHECK(e.path == "/schedule");
}

TEST_CASE("DualPipe needs even ranks, even micro-batches and M >= 2R") {
  CHECK(error_of({"dualpipe", 3, 12, {}}).message == "ranks must be an even integer >= 2 for dualpipe (got 3)");
  CHECK(error_of({"dualpipe", 4, 9, {}}).message == "microbatches must be even for dualpipe (got 9)");
  const Error e = error_of({"dualpipe", 8, 10, {}});
  CHECK(e.message == "microbatches must be >= 2 * ranks = 16 for dualpipe (got 10)");
  CHECK(e.path == "/microbatches");
  CHECK(validate({"dualpipe", 8, 16, {}}).ok());
}

TEST_CASE("DualPipeV needs M >= 2R but allows odd counts") {
  CHECK(error_of({"dualpipev", 4, 7, {}}).message == "microbatches must be >= 2 * ranks = 8 for dualpipev (got 7)");
  CHECK(validate({"dualpipev", 3, 7, {}}).ok());
}

TEST_CASE("ranks and micro-batches have global bounds") {
  CHECK(error_of({"1f1b", 0, 8, {}}).message == "ranks must be an integer in [1, 1024] (got 0)");
  CHECK(error_of({"1f1b", 4, -2, {}}).message == "microbatches must be an integer in [1, 1048576] (got -2)");
}

TEST_CASE("costs must be finite, positive where they must, and W <= B") {
  Costs c;
  c.backward = -1;
  Error e = error_of({"1f1b", 4, 8, c});
  CHECK(e.message == "costs.backward must be a finite number > 0 (got -1)");
  CHECK(e.path == "/costs/backward");
  c = Costs{};
  c.forward = std::numeric_limits<double>::infinity();
  CHECK(error_of({"1f1b", 4, 8, c}).message == "costs.forward must be a finite number > 0 (got Infinity)");
  c = Costs{};
  c.p2p_latency = std::nan("");
  CHECK(error_of({"1f1b", 4, 8, c}).message == "costs.p2pLatency must be a finite number >= 0 (got NaN)");
  c = Costs{};
  c.weight = 3;
  CHECK(error_of({"1f1b", 4, 8, c}).message == "costs.weight must be <= costs.backward = 2 (got 3)");
  c = Costs{};
  c.weight = 0;
  CHECK(validate({"zb-h1", 4, 8, c}).ok());
}

TEST_CASE("a problem above the op cap fails fast with too_large") {
  const Error e = error_of({"dualpipe", 1024, 1 << 20, {}});
  CHECK(e.code == ErrorCode::TooLarge);
  CHECK(e.message == "ranks x microbatches is too large: about 3221225472 ops for dualpipe, above the limit of 2000000");
  CHECK(simulate({"dualpipe", 1024, 1 << 20, {}}).error().code == ErrorCode::TooLarge);
}
