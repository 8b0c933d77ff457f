// The compute-communication model (pipesim/comm.h). Expected values are worked by hand from the
// layout rule stated in comm.h (Fig. 4 order, each part starts when its stream is free and its
// inputs are done) and from DualPipe's step table (lessons/dualpipe.en.md, from the reference
// dualpipe.py); every simulation also passes the shared invariant checker.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "invariants.h"
#include "pipesim/comm.h"
#include "pipesim/json.h"

using namespace pipesim;
using pipesim::testing::check_part_spans;
using pipesim::testing::part_label;
using pipesim::testing::simulate_checked;
using pipesim::testing::with_comm_ratio;

namespace {

Costs profile_like() {
  Costs c{2, 4, 2, 6, 0};
  CommCosts m;
  m.explicit_components = true;
  m.components = ChunkComponents{1, 1.5, 1,   1.5,  // forward: attn, dispatch, mlp, combine
                                 1, 1,   1.5, 1,
                                 1, 1.5};  // backward: attn, attnW, dispatch, mlp, mlpW, combine
  c.comm = m;
  return c;
}

const Op kPairOp{OpKind::ForwardBackward, false, {}, {}};

}  // namespace

TEST_CASE("with zero communication every schedule reproduces the plain cost model exactly") {
  const std::vector<Costs> costs = {Costs{}, Costs{1, 2, 1, 2.4, 0},
                                    Costs{1.3, 2.1, 0.4, 2.9, 0.25}, Costs{0.5, 3, 2.5, 3.1, 1}};
  for (const auto& info : list_schedules())
    for (const Costs& base : costs)
      for (int layers : {1, 3}) {
        const int ranks = 4, microbatches = info.shape.microbatches_multiple_of_ranks ? 8 : 10;
        const SimResult plain = simulate_checked({info.name, ranks, microbatches, base});
        const SimResult zero =
            simulate_checked({info.name, ranks, microbatches, with_comm_ratio(0, layers, base)});
        INFO(info.name << " layers " << layers);
        CHECK(zero.makespan == plain.makespan);
        CHECK(zero.bubble_total == plain.bubble_total);
        for (std::size_t r = 0; r < plain.timeline.size(); ++r)
          for (std::size_t i = 0; i < plain.timeline[r].size(); ++i) {
            CHECK(zero.timeline[r][i].start == plain.timeline[r][i].start);
            CHECK(zero.timeline[r][i].end == plain.timeline[r][i].end);
          }
        REQUIRE(zero.comm.has_value());
        CHECK(zero.comm->exposed == 0);
        CHECK(zero.comm->compute_utilization == Approx(plain.utilization).epsilon(1e-12));
        CHECK_FALSE(plain.comm.has_value());
      }
}

TEST_CASE("a lone forward waits for its own dispatch and combine") {
  // Ratio 1, attention share 1/2, F = 1: ATTN(F) 0.5, DISPATCH(F) 0.5, MLP(F) 0.5, COMBINE(F) 0.5,
  // one after another: 2 units, of which 1 is exposed communication.
  const OpTiming t = op_timing(Op{OpKind::Forward, false, {}, {}}, with_comm_ratio(1));
  check_part_spans(
      t,
      {{"ATTN(F)", 0, 0.5}, {"DISPATCH(F)", 0.5, 1}, {"MLP(F)", 1, 1.5}, {"COMBINE(F)", 1.5, 2}});
  CHECK(t.duration == 2);
  CHECK(t.exposed == 1);
  // A backward moves the same tokens as the forward: its all-to-alls take ratio x F = 1 in all.
  // A zero-bubble B (B-W = 1) carries both of them; its W none.
  CHECK(op_timing(Op{OpKind::Backward, true, {}, {}}, with_comm_ratio(1)).duration == 2);
  CHECK(op_timing(Op{OpKind::Weight, false, {}, {}}, with_comm_ratio(1)).duration == 1);
  CHECK(op_timing(Op{OpKind::Backward, false, {}, {}}, with_comm_ratio(1)).duration == 3);
}

TEST_CASE("one FB pair at compute:comm 1:1 hides all 2 units of its all-to-all") {
  // F=1 B=2 W=1 F&B=3, ratio 1, attention share 1/2. Components: ATTN(F) MLP(F) 0.5 each;
  // MLP(B) MLP(W) ATTN(B) ATTN(W) 0.5 each; every all-to-all ratio x F / 2 = 0.5. By hand, in
  // Fig. 4 order:
  //   ATTN(F) [0,0.5] and COMBINE(B) [0,0.5] start together; MLP(B) needs COMBINE(B): [0.5,1];
  //   DISPATCH(F) needs ATTN(F): [0.5,1]; MLP(W) [1,1.5]; DISPATCH(B) needs MLP(B): [1,1.5];
  //   MLP(F) needs DISPATCH(F): [1.5,2]; COMBINE(F) needs MLP(F): [2,2.5]; ATTN(B) needs
  //   DISPATCH(B): [2,2.5]; ATTN(W) [2.5,3].
  // 3 long, all compute: nothing exposed, as DeepSeek-V3 §3.2.1 reports for its 1:1 ratio.
  auto pair = analyse_pair(with_comm_ratio(1));
  REQUIRE(pair.ok());
  const PairOverlap& p = pair.value();
  check_part_spans(p.timing, {{"ATTN(F)", 0, 0.5},
                         {"COMBINE(B)", 0, 0.5},
                         {"MLP(B)", 0.5, 1},
                         {"DISPATCH(F)", 0.5, 1},
                         {"MLP(W)", 1, 1.5},
                         {"DISPATCH(B)", 1, 1.5},
                         {"MLP(F)", 1.5, 2},
                         {"COMBINE(F)", 2, 2.5},
                         {"ATTN(B)", 2, 2.5},
                         {"ATTN(W)", 2.5, 3}});
  CHECK(p.timing.duration == 3);
  CHECK(p.timing.compute == 3);
  CHECK(p.timing.comm == 2);
  CHECK(p.timing.exposed == 0);
  CHECK(p.hidden == 2);
  CHECK(p.sequential == 5);  // lone F 1+1 plus lone B 2+1
  REQUIRE(p.hiding.size() == 4);
  // COMBINE(B) under ATTN(F); DISPATCH(F) under MLP(B); DISPATCH(B) under MLP(W);
  // COMBINE(F) under ATTN(B).
  auto by = [&](std::size_t i) {
    std::vector<std::string> names;
    for (const auto& b : p.hiding[i].hidden_by)
      names.push_back(part_label(p.timing.parts[b.compute_part]));
    return names;
  };
  CHECK(by(0) == std::vector<std::string>{"ATTN(F)"});
  CHECK(by(1) == std::vector<std::string>{"MLP(B)"});
  CHECK(by(2) == std::vector<std::string>{"MLP(W)"});
  CHECK(by(3) == std::vector<std::string>{"ATTN(B)"});
  for (std::size_t i = 0; i < 4; ++i) CHECK(p.hiding[i].exposed == 0);
}

TEST_CASE(
    "exercise 3: the forward dispatch hides under MLP(B)+MLP(W), its combine under "
    "ATTN(B)+ATTN(W)") {
  // profile_like(): ATTN(F) 1, DISPATCH(F) 1.5, MLP(F) 1, COMBINE(F) 1.5; ATTN(B) ATTN(W) MLP(B)
  // MLP(W) 1 each, DISPATCH(B) COMBINE(B) 1.5 each. By hand:
  //   ATTN(F) [0,1], COMBINE(B) [0,1.5], MLP(B) [1.5,2.5], DISPATCH(F) [1.5,3] (comm stream free
  //   at 1.5), MLP(W) [2.5,3.5], DISPATCH(B) [3,4.5], MLP(F) [3.5,4.5], COMBINE(F) [4.5,6],
  //   ATTN(B) [4.5,5.5], ATTN(W) [5.5,6.5]. Length 6.5 against 5 + 7 = 12 run apart.
  auto pair = analyse_pair(profile_like());
  REQUIRE(pair.ok());
  const PairOverlap& p = pair.value();
  CHECK(p.timing.duration == 6.5);
  CHECK(p.timing.exposed == 0.5);
  CHECK(p.sequential == 12);
  const Json j = pair_overlap_to_json(p, profile_like());
  const Json& dispatch_f = j.at("hiding").at(1);
  CHECK(dispatch_f.at("label") == "DISPATCH(F)");
  CHECK(dispatch_f.at("hiddenBy").at(0).at("label") == "MLP(B)");
  CHECK(dispatch_f.at("hiddenBy").at(0).at("overlap") == 1.0);
  CHECK(dispatch_f.at("hiddenBy").at(1).at("label") == "MLP(W)");
  CHECK(dispatch_f.at("hiddenBy").at(1).at("overlap") == 0.5);
  CHECK(dispatch_f.at("exposed") == 0.0);
  const Json& combine_f = j.at("hiding").at(3);
  CHECK(combine_f.at("label") == "COMBINE(F)");
  CHECK(combine_f.at("hiddenBy").at(0).at("label") == "ATTN(B)");
  CHECK(combine_f.at("hiddenBy").at(0).at("overlap") == 1.0);
  CHECK(combine_f.at("hiddenBy").at(1).at("label") == "ATTN(W)");
  CHECK(combine_f.at("hiddenBy").at(1).at("overlap") == 0.5);
  CHECK(j.at("hidden") == 5.5);
}

TEST_CASE("more layers per chunk shrink a pair's exposed start") {
  // profile_like() in two layers: every component halves. Layer 0: ATTN(F) [0,0.5], COMBINE(B)
  // [0,0.75], MLP(B) [0.75,1.25] (waited 0.25), DISPATCH(F) [0.75,1.5], MLP(W) [1.25,1.75],
  // DISPATCH(B) [1.5,2.25], MLP(F) [1.75,2.25], COMBINE(F) [2.25,3], ATTN(B) [2.25,2.75],
  // ATTN(W) [2.75,3.25]. Layer 1's COMBINE(B) needs ATTN(B) of layer 0 and runs [3,3.75] under
  // ATTN(W) and the next ATTN(F) [3.25,3.75] (which needed COMBINE(F)), the profile's
  // "combine(B) under attn(W), attn(F)"; nothing in layer 1 waits, and its COMBINE(F) [5.25,6]
  // ends before ATTN(W) [5.75,6.25]. Only the first COMBINE(B)'s uncovered 0.25 stays exposed:
  // length 6.25 against 6.5 in one layer. With four layers (the profile's chunk) the same at half
  // scale: 0.125.
  Costs c = profile_like();
  c.comm->layers = 2;
  CHECK(op_timing(kPairOp, c).duration == 6.25);
  c.comm->layers = 4;
  CHECK(op_timing(kPairOp, c).exposed == 0.125);
}

TEST_CASE("a cheaper pair (F&B < F+B) scales its compute to F&B exactly") {
  Costs c = with_comm_ratio(0, 3, Costs{1, 2, 1, 2.4, 0});
  const OpTiming t = op_timing(kPairOp, c);
  CHECK(t.duration == 2.4);
  CHECK(t.compute == 2.4);
  // With communication the pair can only get longer, never shorter than F&B.
  c.comm->ratio = 1;
  CHECK(op_timing(kPairOp, c).duration >= 2.4);
}

TEST_CASE("every op kind's parts fit its length and never overlap on a stream") {
  for (const Costs& c : {with_comm_ratio(1), with_comm_ratio(0.7, 3, Costs{1.3, 2.1, 0.4, 2.9, 0}),
                         profile_like(), with_comm_ratio(2.5, 5, Costs{1, 2, 1, 2.4, 0})})
    for (const Op& op :
         {Op{OpKind::Forward, false, {}, {}}, Op{OpKind::Backward, false, {}, {}},
          Op{OpKind::Backward, true, {}, {}}, Op{OpKind::Weight, false, {}, {}}, kPairOp}) {
      const OpTiming t = op_timing(op, c);
      double end[2] = {0, 0}, sum[2] = {0, 0}, last = 0;
      for (const OpPart& p : t.parts) {
        const auto s = static_cast<std::size_t>(p.stream);
        CHECK(p.start >= end[s] - 1e-12);
        CHECK(p.end >= p.start);
        end[s] = p.end;
        sum[s] += p.end - p.start;
        last = std::max(last, p.end);
      }
      CHECK(last == Approx(t.duration).epsilon(1e-12));
      CHECK(sum[0] == Approx(t.compute).epsilon(1e-12));
      CHECK(sum[1] == Approx(t.comm).epsilon(1e-12));
      CHECK(t.exposed == Approx(t.duration - t.compute).margin(1e-12));
    }
}

TEST_CASE("1F1B at compute:comm 1:1 exposes every all-to-all") {
  // Every op exposes its all-to-alls: F' = 1 + 1 = 2, B' = 2 + 1 = 3, so 1F1B's makespan is
  // (M + P - 1)(F' + B') = 71 * 5 = 355 for P = 8, M = 64, while each rank computes
  // M (F + B) = 192: 192 / 355 = 54.1% (without communication 192 / 213 = 90.1%).
  const SimResult r = simulate_checked({"1f1b", 8, 64, with_comm_ratio(1)});
  CHECK(r.makespan == 355);
  CHECK(r.comm->compute_utilization == Approx(192.0 / 355.0));
  CHECK(r.comm->total == 8 * 64 * 2);
  CHECK(r.comm->exposed == 8 * 64 * 2);
  CHECK(r.comm->hidden == 0);
  CHECK(r.per_rank[0].exposed_comm == 128);
  // DeepSeek's 1F1B entry holds with the exposed lengths: (PP-1)(F'+B') = 35.
  CHECK(r.bubble_max == 35);
  CHECK(effective_costs(with_comm_ratio(1)).forward == 2);
}

TEST_CASE("DualPipe at compute:comm 1:1 hides 85% of the all-to-all where 1F1B hides none") {
  // Counts from DualPipe's step table (P = 8, n = P/2 = 4, M = 64, h = min(r, P-1-r)): a rank runs
  // M - 2P + n + h + 1 overlapped pairs (steps 4 and 5), one fewer on the two middle ranks.
  // Sum: 2 * sum_{h=0..3} (53 + h) - 2 = 2 * 218 - 2 = 434 pairs. Every other F and B is lone.
  // A lone F exposes 1, a lone B (full or zero-bubble) 1, a pair nothing (see the pair test), so
  // a pair hides its 2: hidden = 434 * 2 = 868 of 8 * 64 * 2 = 1024 (84.8%).
  const SimResult r = simulate_checked({"dualpipe", 8, 64, with_comm_ratio(1)});
  CHECK(r.comm->total == 1024);
  CHECK(r.comm->hidden == 868);
  CHECK(r.comm->hidden_fraction == Approx(868.0 / 1024.0));
  // Rank 0 (h = 0): 53 pairs, 11 lone F and 11 lone B: exposed 11 * 1 + 11 * 1 = 22.
  CHECK(r.per_rank[0].exposed_comm == 22);
  // Rank 0 is busy 192 + 22, so the makespan is at least 214 and compute utilisation at most
  // 192 / 214 = 89.7%; 1F1B reaches 54.1% (test above).
  CHECK(r.comm->compute_utilization <= 192.0 / 214.0);
  CHECK(r.comm->compute_utilization > 0.6);
  // With four layers per chunk a pair still hides everything: 434 * 2 = 868.
  CHECK(simulate_checked({"dualpipe", 8, 64, with_comm_ratio(1, 4)}).comm->hidden == 868);
}

TEST_CASE("zero-bubble B and W under communication, on a hand-written two-rank schedule") {
  // Ratio 1: F' = 2, Bz' = (2-1) + 1 = 2, W' = 1, B' = 2 + 1 = 3. Rank0 F [0,2], rank1 F [2,4],
  // rank1 Bz [4,6], W [6,7]; rank0 B waits only for Bz: [6,9].
  Schedule s;
  s.name = "custom";
  s.ranks = 2;
  s.stages = 2;
  s.microbatches_per_direction = 1;
  s.rank_ops = {
      {Op{OpKind::Forward, false, {0, 0, 0}, {}}, Op{OpKind::Backward, false, {0, 0, 0}, {}}},
      {Op{OpKind::Forward, false, {0, 0, 1}, {}}, Op{OpKind::Backward, true, {0, 0, 1}, {}},
       Op{OpKind::Weight, false, {0, 0, 1}, {}}}};
  auto r = simulate_schedule(s, with_comm_ratio(1));
  REQUIRE(r.ok());
  CHECK(r.value().timeline[1][1].end == 6);
  CHECK(r.value().timeline[1][2].end == 7);
  CHECK(r.value().timeline[0][1].start == 6);
  CHECK(r.value().makespan == 9);
  CHECK(pipesim::testing::check_invariants(s, r.value()).empty());
  const auto parts = op_parts(r.value().timeline[0][1], with_comm_ratio(1));
  CHECK(parts.front().start == 6);  // COMBINE(B) opens the backward at the op's start
  CHECK(parts.back().end == 9);
}

TEST_CASE("comm config errors name the field") {
  auto error_of = [](const std::string& comm) {
    auto r = config_from_json_text(
        R"({"schedule":"1f1b","ranks":4,"microbatches":8,"costs":{"comm":)" + comm + "}}");
    REQUIRE_FALSE(r.ok());
    return r.error();
  };
  Error e = error_of(R"({"ratio":1,"forward":{}})");
  CHECK(
      e.message ==
      "costs.comm takes either ratio (and attnShare) or forward and backward components, not both");
  CHECK(e.path == "/costs/comm");
  CHECK(error_of(R"({"layers":2})").message ==
        "costs.comm needs ratio or forward and backward components");
  e = error_of(R"({"ratio":-1})");
  CHECK(e.message == "costs.comm.ratio must be a finite number in [0, 500000] (got -1)");
  CHECK(e.path == "/costs/comm/ratio");
  CHECK(error_of(R"({"ratio":1,"attnShare":1.5})").message ==
        "costs.comm.attnShare must be a finite number in [0, 1] (got 1.5)");
  e = error_of(R"({"ratio":1,"layers":0})");
  CHECK(e.message == "costs.comm.layers must be an integer in [1, 64] (got 0)");
  CHECK(e.path == "/costs/comm/layers");
  CHECK(error_of(R"({"ratio":1,"lyers":2})").message == "unknown field \"lyers\" in costs.comm");
  e = error_of(R"({"forward":{"attn":0.5,"dispatch":1,"mlp":0.5,"combine":1}})");
  CHECK(e.message == "missing field costs.comm.backward");
  e = error_of(R"({"forward":{"attn":0.5,"dispatch":1,"mlp":0.5},"backward":{}})");
  CHECK(e.message == "missing field costs.comm.forward.combine");
  CHECK(e.path == "/costs/comm/forward/combine");
  e = error_of(
      R"({"forward":{"attn":0.5,"dispatch":1,"mlp":0.7,"combine":1},)"
      R"("backward":{"attn":0.5,"attnWeight":0.5,"mlp":0.5,"mlpWeight":0.5,"dispatch":1,"combine":1}})");
  CHECK(e.message == "costs.comm.forward.attn + mlp must add up to costs.forward = 1 (got 1.2)");
  CHECK(e.path == "/costs/comm/forward");
  e = error_of(
      R"({"forward":{"attn":0.5,"dispatch":1,"mlp":0.5,"combine":1},)"
      R"("backward":{"attn":0.5,"attnWeight":0.25,"mlp":0.75,"mlpWeight":0.5,"dispatch":1,"combine":1}})");
  CHECK(e.message ==
        "costs.comm.backward.attnWeight + mlpWeight must add up to costs.weight = 1 (got 0.75)");
}

TEST_CASE("comm config round-trips and appears in results only when used") {
  const std::string text =
      R"({"schedule":"dualpipe","ranks":4,"microbatches":8,"costs":{"forward":2,"backward":4,"weight":2,"overlapped":6,"p2pLatency":0,)"
      R"("comm":{"forward":{"attn":1,"dispatch":1.5,"mlp":1,"combine":1.5},)"
      R"("backward":{"attn":1,"attnWeight":1,"mlp":1,"mlpWeight":1,"dispatch":1.5,"combine":1.5},"layers":1}}})";
  auto config = config_from_json_text(text);
  REQUIRE(config.ok());
  CHECK(costs_to_json(config.value().costs) == Json::parse(text).at("costs"));
  const Json with = result_to_json(simulate_checked(config.value()), false);
  CHECK(with.at("comm").at("ops").at("FB").at("duration") == 6.5);
  CHECK(with.at("perRank").at(0).contains("exposedComm"));
  const Json without = result_to_json(simulate_checked({"dualpipe", 4, 8, Costs{}}), false);
  CHECK_FALSE(without.contains("comm"));
  CHECK_FALSE(without.at("perRank").at(0).contains("exposedComm"));
  CHECK_FALSE(without.at("costs").contains("comm"));
}
