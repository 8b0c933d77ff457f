// Sweeps: cells equal single simulations, impossible shapes become rows with errors, size caps.
#include <catch2/catch.hpp>

#include "pipesim/engine.h"
#include "pipesim/sweep.h"

using namespace pipesim;

TEST_CASE("a sweep cell equals the simulation of the same config") {
  SweepRequest req{{"1f1b", "dualpipe"}, {4, 8}, {{2, true}, {20, false}}, Costs{}};
  auto rows = run_sweep(req);
  REQUIRE(rows.ok());
  REQUIRE(rows.value().size() == 8);
  const SweepRow& row = rows.value()[7];  // dualpipe, 8 ranks, 20 micro-batches
  CHECK(row.schedule == "dualpipe");
  CHECK(row.ranks == 8);
  CHECK(row.microbatches == 20);
  CHECK(row.bubble_max == Approx(6));
  CHECK(row.max_peak_activation_memory == 9);  // DualPipe: PP + 1 stages of 1/ranks each
  // 1F1B, 4 ranks, "2R" = 8 micro-batches: (P-1)/(M+P-1) = 3/11.
  CHECK(rows.value()[0].microbatches == 8);
  CHECK(rows.value()[0].bubble_fraction == Approx(3.0 / 11.0));
}

TEST_CASE("sweep rows weigh DualPipeV's half-size stages in per-GPU units") {
  auto rows = run_sweep(SweepRequest{{"dualpipev"}, {8}, {{2, true}}, Costs{}});
  REQUIRE(rows.ok());
  // 16 stages on 8 ranks: PP + 1 = 17 in flight, each half of 1/8 of the model: 8.5.
  CHECK(rows.value()[0].max_peak_activations == 17);
  CHECK(rows.value()[0].max_peak_activation_memory == 8.5);
  CHECK(sweep_to_json(rows.value())["rows"][0]["maxPeakActivationMemory"] == 8.5);
}

TEST_CASE("shapes a schedule cannot run become rows with the reason") {
  auto rows = run_sweep(SweepRequest{{"dualpipe"}, {6}, {{8, false}}, Costs{}});
  REQUIRE(rows.ok());
  CHECK_FALSE(rows.value()[0].ok);
  CHECK(rows.value()[0].error.message == "microbatches must be >= 2 * ranks = 12 for dualpipe (got 8)");
  const Json j = sweep_to_json(rows.value());
  CHECK(j["rows"][0]["error"]["code"] == "invalid_config");
}

TEST_CASE("sweeps are bounded") {
  auto r = run_sweep(SweepRequest{{"dualpipe"}, {1024}, {{1024, true}}, Costs{}});
  REQUIRE(r.ok());  // the single cell fails alone with too_large, the sweep itself is small
  CHECK(r.value()[0].error.code == ErrorCode::TooLarge);
  // 40 cells of 100 ranks x ~10000 micro-batches x 2 ops = ~80M ops > kMaxSweepOps (60M).
  SweepRequest big{{"1f1b"}, {100}, {}, Costs{}};
  for (int m = 9961; m <= 10000; ++m) big.microbatches.push_back({m, false});
  const Status st = validate_sweep(big);
  REQUIRE_FALSE(st.ok());
  CHECK(st.error().code == ErrorCode::TooLarge);
}

TEST_CASE("sweep JSON accepts numbers and multiples of ranks") {
  auto req = sweep_from_json(Json::parse(R"({"schedules":["gpipe"],"ranks":[2,4],"microbatches":[8,"4R"]})"));
  REQUIRE(req.ok());
  CHECK(req.value().microbatches[1].per_rank);
  auto bad = sweep_from_json(Json::parse(R"({"schedules":["gpipe"],"ranks":[2],"microbatches":["4X"]})"));
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message == "microbatches entries must be positive integers or multiples of ranks like \"4R\" (got \"4X\")");
  CHECK(bad.error().path == "/microbatches/0");
}
