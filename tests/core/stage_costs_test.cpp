// Per-stage costs (Costs::stages, JSON "stageCosts"): hand-checked runs, the overlapped-pair
// rule, every schedule timing each op at its own stage's cost, equal stages reproducing the
// uniform run exactly, the checks' messages and paths, sweeps, closed forms, runtime timing and
// the communication model.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "invariants.h"
#include "pipesim/comm.h"
#include "pipesim/custom_schedule.h"
#include "pipesim/formulas.h"
#include "pipesim/json.h"
#include "pipesim/stage_costs.h"
#include "pipesim/sweep.h"

using namespace pipesim;
using pipesim::testing::simulate_checked;

namespace {

Costs with_stages(std::vector<StageCost> stages, Costs base = {}) {
  base.stages = std::move(stages);
  return base;
}

Error error_of(const SimConfig& c) {
  const Status st = validate(c);
  REQUIRE_FALSE(st.ok());
  return st.error();
}

SimConfig config(const char* schedule, int ranks, int microbatches, Costs costs, int chunks = 0) {
  SimConfig c{schedule, ranks, microbatches, std::move(costs)};
  c.chunks = chunks;
  return c;
}

}  // namespace

// 1F1B on 2 ranks, 2 micro-batches; stage 0 costs F = 1, B = 2 and stage 1 twice that.
// Rank 0: F0 [0, 1], F1 [1, 2]. Rank 1: F0 waits for rank 0's F0 [1, 3], B0 [3, 7], F1 [7, 9],
// B1 [9, 13]. Rank 0's B0 waits for rank 1's B0: [7, 9]; B1 for rank 1's B1: [13, 15]. So 15,
// where equal stages at F = 1, B = 2 take (P - 1)(F + B) + M(F + B) = 3 + 6 = 9.
TEST_CASE("a per-stage cost list changes 1F1B's makespan as worked by hand") {
  const Costs uneven = with_stages({{1, 2, 1, 3}, {2, 4, 2, 6}});
  const SimResult r = simulate_checked({"1f1b", 2, 2, uneven});
  CHECK(r.makespan == Approx(15));
  CHECK(r.per_rank[0].busy == Approx(6));
  CHECK(r.per_rank[1].busy == Approx(12));
  CHECK(r.timeline[0][2].start == Approx(7));  // B0 on stage 0
  CHECK(simulate_checked({"1f1b", 2, 2, {}}).makespan == Approx(9));
}

// The pair rule, by hand: stage 0 F = 1, B = 2, F&B = 2.5 saves 0.5; stage 1 F = 2, B = 4,
// F&B = 5 saves 1. A forward of stage 0 beside a backward of stage 1: 1 + 4 - min(0.5, 1) = 4.5;
// the other way round 2 + 2 - 0.5 = 3.5; on one stage its own F&B.
TEST_CASE("an overlapped pair of two stages lasts F_a + B_b - the smaller saving") {
  const StageCost a{1, 2, 1, 2.5}, b{2, 4, 2, 5};
  CHECK(stage_pair_cost(a, b) == Approx(4.5));
  CHECK(stage_pair_cost(b, a) == Approx(3.5));
  CHECK(stage_pair_cost(a, a) == Approx(2.5));
  CHECK(stage_pair_cost(b, b) == Approx(5));
  // DualPipe on 2 ranks: rank 0 holds stage 0 of direction 0 and stage 1 of direction 1, so its
  // pairs are forward stage 0 with backward stage 1, or forward stage 1 with backward stage 0.
  const SimResult r = simulate_checked({"dualpipe", 2, 4, with_stages({a, b})});
  int pairs = 0;
  for (const auto& ops : r.timeline)
    for (const TimedOp& t : ops) {
      if (t.op.kind != OpKind::ForwardBackward) continue;
      ++pairs;
      const double expected = t.op.chunk.stage == 0 ? 4.5 : 3.5;
      CHECK(t.op.backward_chunk.stage != t.op.chunk.stage);
      CHECK(t.end - t.start == Approx(expected));
    }
  CHECK(pairs > 0);
}

TEST_CASE("stage lists that are all alike time every schedule exactly as the costs alone") {
  const Costs base{1.25, 2.5, 0.75, 3.1, 0.25};
  for (const ScheduleInfo& info : list_schedules())
    for (int ranks : {2, 4}) {
      const int m = 4 * ranks;
      SimConfig plain = config(info.name.c_str(), ranks, m, base, info.chunks.taken() ? 3 : 0);
      const int stages = ranks * effective_chunks(info, plain) / info.layout.directions;
      SimConfig staged = plain;
      staged.costs.stages.assign(static_cast<std::size_t>(stages),
                                 StageCost{base.forward, base.backward, base.weight, base.overlapped});
      INFO(info.name << " R=" << ranks);
      const SimResult a = simulate_checked(plain), b = simulate_checked(staged);
      CHECK(b.makespan == a.makespan);
      CHECK(b.bubble_max == a.bubble_max);
      for (std::size_t r = 0; r < a.timeline.size(); ++r)
        for (std::size_t i = 0; i < a.timeline[r].size(); ++i) {
          CHECK(b.timeline[r][i].start == a.timeline[r][i].start);
          CHECK(b.timeline[r][i].end == a.timeline[r][i].end);
        }
      // The closed form sees the same costs, in the same region.
      const ReferenceBubble ra = reference_bubble(info.name, ranks, stages, m, plain.costs);
      const ReferenceBubble rb = reference_bubble(info.name, ranks, stages, m, staged.costs);
      CHECK(rb.applies == ra.applies);
      CHECK(rb.bubble_max == ra.bubble_max);
      CHECK(rb.reason.empty());
    }
}

// Every schedule runs each op at its own chunk's stage cost: the invariant checker derives each
// length from the op's stage alone, for DualPipe's and Chimera's direction 1, the V of DualPipeV
// and ZB-V, interleaved 1F1B's virtual stages and every other layout.
TEST_CASE("every schedule times each op at its own stage's cost") {
  for (const ScheduleInfo& info : list_schedules())
    for (int ranks : {2, 4}) {
      SimConfig c = config(info.name.c_str(), ranks, 4 * ranks, {}, info.chunks.taken() ? 2 : 0);
      const int stages = ranks * effective_chunks(info, c) / info.layout.directions;
      for (int s = 0; s < stages; ++s)  // a different cost on every stage, F&B >= max(F, B)
        c.costs.stages.push_back(
            StageCost{1 + 0.25 * s, 2 + 0.5 * (s % 3), 0.5 + 0.125 * (s % 2), 3 + 0.5 * s});
      INFO(info.name << " R=" << ranks);
      const SimResult r = simulate_checked(c);
      const SimResult uniform = simulate_checked(config(info.name.c_str(), ranks, 4 * ranks, {},
                                                        info.chunks.taken() ? 2 : 0));
      CHECK(r.makespan != uniform.makespan);
      // Unequal stages are outside every closed form's region.
      CHECK_FALSE(reference_bubble(info.name, ranks, stages, 4 * ranks, c.costs).applies);
    }
}

TEST_CASE("hand-written schedules and runtime timing take stage costs too") {
  // Two stages on two ranks: F0.0@0 (1), then rank 1's F0.0@1 (2) and B0.0@1 (4), then B0.0@0 (2).
  const Json request = Json::parse(
      R"({"schedule":"custom","stages":2,"microbatches":1,"rankOps":[["F0.0@0","B0.0@0"],["F0.0@1","B0.0@1"]],
          "stageCosts":[{"forward":1,"backward":2},{"forward":2,"backward":4}]})");
  const SimResult r = simulate_request(request).value();
  CHECK(r.makespan == Approx(1 + 2 + 4 + 2));
  CHECK(result_to_json(r, false).at("stageCosts").size() == 2);
  // DualPipe's step() timing gives each op its stage's length too.
  SimConfig c = config("dualpipe", 2, 4, with_stages({{1, 2, 1, 2.5}, {2, 4, 2, 5}}));
  c.timing = Timing::Runtime;
  const SimResult rt = simulate(c).value();
  for (const auto& ops : rt.timeline)
    for (const TimedOp& t : ops) CHECK(t.end - t.start == Approx(op_timing(t.op, c.costs).duration));
}

TEST_CASE("stage costs are checked with exact messages and paths") {
  Error e = error_of({"1f1b", 4, 8, with_stages({{}, {}, {}})});
  CHECK(e.rule == "stage_costs.count");
  CHECK(e.message == "stageCosts must have one entry per pipeline stage: 4 here (got 3)");
  CHECK(e.path == "/stageCosts");
  // DualPipeV has 2 x ranks stages, interleaved 1F1B ranks x chunks.
  CHECK(error_of({"dualpipev", 2, 4, with_stages({{}, {}})}).message ==
        "stageCosts must have one entry per pipeline stage: 4 here (got 2)");
  e = error_of({"1f1b", 2, 2, with_stages({{}, {1, -2, 0, 3}})});
  CHECK(e.message == "stageCosts.1.backward must be a finite number > 0 (got -2)");
  CHECK(e.path == "/stageCosts/1/backward");
  e = error_of({"1f1b", 2, 2, with_stages({{1, 2, 3, 3}, {}})});
  CHECK(e.message == "stageCosts.0.weight must be <= stageCosts.0.backward = 2 (got 3)");
  // Stage 0 saves 10 of its F + B = 11 (F&B = 1), stage 1 saves 10 too: a forward of stage 0
  // beside a backward of stage 1 would last 1 + 1 - 10 = -8.
  e = error_of({"1f1b", 2, 2, with_stages({{1, 10, 1, 1}, {10, 1, 1, 1}})});
  CHECK(e.rule == "stage_costs.pair");
  CHECK(e.message ==
        "stageCosts: a forward of stage 0 overlapped with a backward of stage 1 would last -8 (F + B "
        "less the smaller stage's F + B - F&B); it must be > 0");
  CHECK(e.path == "/stageCosts/0");
  Costs explicit_comm = with_stages({{}, {}});
  explicit_comm.comm = CommCosts{};
  explicit_comm.comm->explicit_components = true;
  explicit_comm.comm->components = ChunkComponents{0.5, 0, 0.5, 0, 0.5, 0.5, 0, 0.5, 0.5, 0};
  e = error_of({"1f1b", 2, 2, explicit_comm});
  CHECK(e.rule == "stage_costs.comm");
  CHECK(e.path == "/costs/comm");
}

TEST_CASE("stageCosts in JSON: fields left out take the costs, entries are objects") {
  auto c = config_from_json(Json::parse(
      R"({"schedule":"1f1b","ranks":2,"microbatches":2,"costs":{"forward":2,"weight":0.5},
          "stageCosts":[{"backward":3},{"forward":1,"overlapped":4}]})"));
  REQUIRE(c.ok());
  const auto& s = c.value().costs.stages;
  CHECK(s[0].forward == 2);
  CHECK(s[0].backward == 3);
  CHECK(s[0].weight == 0.5);
  CHECK(s[1].forward == 1);
  CHECK(s[1].backward == 2);
  CHECK(s[1].overlapped == 4);
  auto bad = config_from_json(Json::parse(R"({"schedule":"1f1b","ranks":2,"microbatches":2,"stageCosts":[{},3]})"));
  CHECK(bad.error().message == "stageCosts.1 must be an object (got 3)");
  CHECK(bad.error().path == "/stageCosts/1");
  bad = config_from_json(Json::parse(R"({"schedule":"1f1b","ranks":2,"microbatches":2,"stageCosts":[{"fwd":1},{}]})"));
  CHECK(bad.error().message == "unknown field \"fwd\" in stageCosts.0");
  bad = config_from_json(Json::parse(R"({"schedule":"1f1b","ranks":2,"microbatches":2,"stageCosts":[]})"));
  CHECK(bad.error().message ==
        "stageCosts must have between 1 and 2048 entries, one per pipeline stage (got 0)");
  bad = config_from_json(Json::parse(R"({"schedule":"1f1b","ranks":2,"microbatches":2,"stageCosts":{}})"));
  CHECK(bad.error().message == "stageCosts must be an array");
}

TEST_CASE("a sweep runs stage costs where the stages match and says why elsewhere") {
  SweepRequest req;
  req.schedules = {"1f1b", "dualpipev"};
  req.ranks = {2};
  req.microbatches = {{4, false}};
  req.costs = with_stages({{1, 2, 1, 3}, {2, 4, 2, 6}});
  const auto rows = run_sweep(req).value();
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].ok);
  CHECK(rows[0].makespan == simulate_checked({"1f1b", 2, 4, req.costs}).makespan);
  CHECK_FALSE(rows[1].ok);  // DualPipeV on 2 ranks has 4 stages
  CHECK(rows[1].error.rule == "stage_costs.count");
}

TEST_CASE("unequal stages leave every closed form with a reason") {
  const Costs uneven = with_stages({{1, 2, 1, 3}, {2, 4, 2, 6}});
  const ReferenceBubble ref = reference_bubble("1f1b", 2, 2, 4, uneven);
  CHECK_FALSE(ref.applies);
  CHECK(ref.reason ==
        "the stages' costs differ (stageCosts) and the formula assumes equal stages; it is evaluated "
        "at their mean");
  CHECK(ref.bubble_max == Approx((2 - 1) * (1.5 + 3)));  // at the mean F = 1.5, B = 3
  CHECK(ref.condition == "p2pLatency = 0, every stage costs the same");
  const Json j = result_to_json(simulate_checked({"1f1b", 2, 4, uneven}), false);
  CHECK(j.at("reference").at("reason") == ref.reason);
  CHECK_FALSE(result_to_json(simulate_checked({"1f1b", 2, 4, {}}), false).at("reference").contains("reason"));
}

TEST_CASE("the communication model lays each chunk out from its own stage") {
  Costs c = with_stages({{1, 2, 1, 3}, {2, 4, 2, 6}});
  c.comm = CommCosts{};  // ratio 1: each chunk's all-to-all lasts its own stage's F
  const SimResult r = simulate_checked({"dualpipe", 2, 4, c});
  REQUIRE(r.comm);
  for (const auto& ops : r.timeline)
    for (const TimedOp& t : ops) CHECK(t.end - t.start == Approx(op_timing(t.op, c).duration));
  // A lone forward of stage 1 exposes its all-to-all: F = 2 plus 2 of dispatch and combine.
  CHECK(op_timing(Op{OpKind::Forward, false, {0, 0, 1}, {}}, c).duration == Approx(4));
  CHECK(op_timing(Op{OpKind::Forward, false, {0, 0, 0}, {}}, c).duration == Approx(2));
  // The result lists each stage's op parts, and each pair of stages the run overlaps, whichever
  // form its timeline takes (the JS API's is columns).
  for (TimelineForm form : {TimelineForm::Ops, TimelineForm::Columns}) {
    const SimResult run = simulate({"dualpipe", 2, 4, c}, SimOptions{form, false}).value();
    const Json staged = result_to_json(run, false).at("comm").at("stageOps");
    CHECK(staged.at("1:F").at("duration") == 4.0);
    CHECK(staged.at("0:Bz").at("duration") == Approx(op_timing(Op{OpKind::Backward, true, {0, 0, 0}, {}}, c).duration));
    // DualPipe on 2 ranks with 4 micro-batches overlaps only forwards of stage 1 with backwards
    // of stage 0 (one pair on each rank): only that pair of stages is listed.
    CHECK(staged.contains("1:0:FB"));
    CHECK_FALSE(staged.contains("0:1:FB"));
  }
  // With no communication the model gives the plain per-stage lengths.
  c.comm->ratio = 0;
  const SimResult quiet = simulate_checked({"dualpipe", 2, 4, c});
  Costs plain = c;
  plain.comm.reset();
  CHECK(quiet.makespan == simulate_checked({"dualpipe", 2, 4, plain}).makespan);
}
