// recover: utilisations and GPU-hours per million tokens, against numbers worked by hand.
#include <catch2/catch.hpp>

#include <vector>

#include "pipesim/exercises.h"

using namespace pipesim;

namespace {
Error error_of(const RecoverRequest& r) {
  const Status st = validate_recover(r);
  REQUIRE_FALSE(st.ok());
  return st.error();
}
Error recover_json_error(const char* text) {
  auto json = parse_json(text);
  REQUIRE(json.ok());
  auto r = recover_request_from_json(json.value());
  REQUIRE_FALSE(r.ok());
  return r.error();
}
}  // namespace

// P = 8, M = 16, F=1 B=2 W=1 F&B=3 (issue 5's exercise 1), by hand:
//  1F1B: makespan (M+P-1)(F+B) = 23 x 3 = 69; each rank works M(F+B) = 48, so it idles 21 and the
//        bubble fraction is 21/69 = 7/23 (issue 5's figure holds under our schema); u = 16/23.
//  DualPipe: every rank runs each of the 16 micro-batches through one of its stages, 48 units of
//        work (an F&B pair costs 3 = F + B, a split B costs (B-W) + W = B); DeepSeek's table gives
//        the idle (PP/2-1)(F&B+B-3W) = 3 x 2 = 6 per rank, so the makespan is 54 and u = 8/9.
//  gain 8/9 - 16/23 = 40/207; ratio u_to/u_from = (8/9)/(16/23) = 23/18 = 69/54;
//  cost under 1F1B 0.18 x 23/18 = 0.23; recovered 0.18 x 5/18 = 0.05 GPU-hours per million tokens.
TEST_CASE("recover 1F1B -> DualPipe at P=8 M=16 saves 0.05 GPU-hours per million tokens") {
  auto r = recover(RecoverRequest{});
  REQUIRE(r.ok());
  const RecoverResult& v = r.value();
  CHECK(v.makespan_from == Approx(69));
  CHECK(v.makespan_to == Approx(54));
  CHECK(v.utilization_from == Approx(16.0 / 23));
  CHECK(1 - v.utilization_from == Approx(21.0 / 69));
  CHECK(v.utilization_to == Approx(8.0 / 9));
  CHECK(v.utilization_gain == Approx(40.0 / 207));
  CHECK(v.gpu_hours_per_million_tokens_from == Approx(0.23));
  CHECK(v.recovered_gpu_hours_per_million_tokens == Approx(0.05));
}

TEST_CASE("recover scales with the baseline and is zero between equal schedules") {
  RecoverRequest q;
  q.gpu_hours_per_million_tokens = 1.0;
  CHECK(recover(q).value().recovered_gpu_hours_per_million_tokens == Approx(5.0 / 18));
  q.to = "1f1b";
  CHECK(recover(q).value().recovered_gpu_hours_per_million_tokens == Approx(0).margin(1e-12));
}

// GPipe and 1F1B have the same makespan (M+P-1)(F+B), so nothing is recovered between them.
TEST_CASE("recover between GPipe and 1F1B recovers nothing") {
  RecoverRequest q;
  q.from = "gpipe";
  q.to = "1f1b";
  q.ranks = 4;
  q.microbatches = 8;
  CHECK(recover(q).value().utilization_gain == Approx(0).margin(1e-12));
}

TEST_CASE("recover names the offending field") {
  RecoverRequest q;
  q.from = "pipedream";
  Error e = error_of(q);
  CHECK(e.code == ErrorCode::UnknownSchedule);
  CHECK(e.message ==
        "from must be one of gpipe, 1f1b, zb-h1, dualpipe, dualpipev, chimera, interleaved-1f1b, "
        "zb-h2, zb-v (got \"pipedream\")");
  CHECK(e.path == "/from");
  q = RecoverRequest{};
  q.microbatches = 10;
  e = error_of(q);
  CHECK(e.code == ErrorCode::InvalidConfig);
  CHECK(e.message == "microbatches must be >= 2 * ranks = 16 for dualpipe (got 10)");
  CHECK(e.path == "/microbatches");
  q = RecoverRequest{};
  q.gpu_hours_per_million_tokens = -1;
  e = error_of(q);
  CHECK(e.message == "gpuHoursPerMillionTokens must be a finite number > 0 (got -1)");
  CHECK(e.path == "/gpuHoursPerMillionTokens");
  CHECK(recover(q).error().code == ErrorCode::InvalidConfig);
}

TEST_CASE("recover reads and writes camelCase JSON") {
  auto json = parse_json(R"({"ranks":8,"microbatches":16,"from":"1f1b","to":"dualpipe",
                             "costs":{"forward":1,"backward":2},"gpuHoursPerMillionTokens":0.18})");
  REQUIRE(json.ok());
  auto request = recover_request_from_json(json.value());
  REQUIRE(request.ok());
  const Json out = recover_result_to_json(recover(request.value()).value());
  CHECK(out.at("utilizationGain").get<double>() == Approx(40.0 / 207));
  CHECK(out.at("recoveredGpuHoursPerMillionTokens").get<double>() == Approx(0.05));
  CHECK(out.at("makespanFrom").get<double>() == 69);

  Error e =
      recover_json_error(R"({"ranks":8,"microbatches":16,"from":"1f1b","to":"dualpipe","baseline":1})");
  CHECK(e.message == "unknown field \"baseline\"");
  CHECK(e.path == "/baseline");
  e = recover_json_error(R"({"ranks":8,"microbatches":16,"from":"1f1b"})");
  CHECK(e.message == "missing field to");
  CHECK(e.path == "/to");
  e = recover_json_error(R"({"ranks":8.5,"microbatches":16,"from":"1f1b","to":"dualpipe"})");
  CHECK(e.message == "ranks must be an integer (got 8.5)");
  CHECK(e.path == "/ranks");
  e = recover_json_error(R"({"ranks":8,"microbatches":16,"from":1,"to":"dualpipe"})");
  CHECK(e.message == "from must be a string (got 1)");
  e = recover_json_error(
      R"({"ranks":8,"microbatches":16,"from":"1f1b","to":"dualpipe","costs":{"backward":-2}})");
  CHECK(e.message == "costs.backward must be a finite number > 0 (got -2)");
  CHECK(e.path == "/costs/backward");
}

// Issue 26: the saving's driver is M. At F=1 B=2 W=1 F&B=3 on P ranks, 1F1B takes 3M + 3(P-1)
// and DualPipe 3M + 2(P/2 - 1) (the table's idle), so with baseline C the saving is
// C x (3M + 3(P-1)) / (3M + P - 2) - C = C x (2P - 1) / (3M + P - 2):
//  P = 8:  C x 15 / (3M + 6): M = 16 -> 0.18 x 15/54 = 0.05, M = 24 -> 0.18 x 15/78,
//          M = 128 -> 0.18 x 15/390.
//  P = 16: C x 31 / (3M + 14): M = 32 -> 0.18 x 31/110 = 0.050727 per million tokens, over
//          DeepSeek-V3's 14.8e12 tokens 0.050727 x 14.8e6 = 750,764 GPU-hours; M = 256 ->
//          0.18 x 31/782 x 14.8e6 = 105,606 (the issue's 751 K and 106 K).
TEST_CASE("recover reports the saving at M, 1.5M, 2M, ... 8M where M is the smallest both accept") {
  const RecoverResult v = recover(RecoverRequest{}).value();
  std::vector<int> ms;
  for (const RecoverPoint& p : v.by_microbatches) ms.push_back(p.microbatches);
  CHECK(ms == std::vector<int>{16, 24, 32, 48, 64, 96, 128});
  for (const RecoverPoint& p : v.by_microbatches)
    CHECK(p.recovered_gpu_hours_per_million_tokens == Approx(0.18 * 15 / (3.0 * p.microbatches + 6)));
  CHECK(v.by_microbatches.front().recovered_gpu_hours_per_million_tokens ==
        Approx(v.recovered_gpu_hours_per_million_tokens));
  CHECK_FALSE(v.recovered_gpu_hours_for_run.has_value());
}

TEST_CASE("recover extrapolates to a whole run only with its M stated, and M decides the figure") {
  RecoverRequest q;
  q.ranks = 16;
  q.microbatches = 32;
  q.training_tokens = 14.8e12;
  const RecoverResult v = recover(q).value();
  REQUIRE(v.recovered_gpu_hours_for_run.has_value());
  CHECK(*v.recovered_gpu_hours_for_run == Approx(0.18 * 31 / 110 * 14.8e6));
  CHECK(*v.recovered_gpu_hours_for_run == Approx(750764).epsilon(1e-6));
  REQUIRE(v.by_microbatches.back().microbatches == 256);
  CHECK(*v.by_microbatches.back().recovered_gpu_hours_for_run == Approx(0.18 * 31 / 782 * 14.8e6));
}

TEST_CASE("recover's series keeps the request's own M, and only M both schedules accept") {
  RecoverRequest q;
  q.microbatches = 200;  // above 8 x 16: listed at its place
  const auto microbatches_of = [](const RecoverRequest& request) {
    const RecoverResult v = recover(request).value();
    std::vector<int> out;
    for (const RecoverPoint& p : v.by_microbatches) out.push_back(p.microbatches);
    return out;
  };
  std::vector<int> ms = microbatches_of(q);
  CHECK(ms == std::vector<int>{16, 24, 32, 48, 64, 96, 128, 200});

  // Chimera needs M a multiple of ranks (6) and DualPipe even M >= 12: 12 x {1, 1.5, ...} = 12,
  // 18, 24, 36, 48, 72, 96, all multiples of 6.
  q = RecoverRequest{};
  q.ranks = 6;
  q.microbatches = 30;
  q.from = "chimera";
  CHECK(microbatches_of(q) == std::vector<int>{12, 18, 24, 30, 36, 48, 72, 96});
}

TEST_CASE("recover rejects a training run of no tokens") {
  RecoverRequest q;
  q.training_tokens = 0;
  const Error e = error_of(q);
  CHECK(e.code == ErrorCode::InvalidConfig);
  CHECK(e.path == "/trainingTokens");
  CHECK(e.message == "trainingTokens must be a finite number > 0 (got 0)");
}
