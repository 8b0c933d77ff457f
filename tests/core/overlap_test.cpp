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
using pipesim::testing::simulate_checked;

namespace {

Costs with_ratio(double ratio, int layers = 1, Costs c = Costs{}) {
  CommCosts m;
  m.ratio = ratio;
  m.layers = layers;
  c.comm = m;
  return c;
}

// Explicit components in the proportions of the DeepSeek profile (profile-data train.json: each
// all-to-all runs longer than the compute part it sits under): F = 2, B = 4, W = 2, F&B = F + B.
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

std::string label(const OpPart& p) {
  std::string s = part_name(p.part);
  for (char& ch : s) ch = static_cast<char>(ch - 'a' + 'A');
  return s + "(" + pass_name(p.pass) + ")";
}

struct Span {
  std::string label;
  double start, end;
};

std::vector<Span> spans(const OpTiming& t) {
  std::vector<Span> out;
  for (const OpPart& p : t.parts) out.push_back({label(p), p.start, p.end});
  return out;
}

void check_spans(const OpTiming& t, const std::vector<Span>& expected) {
  const std::vector<Span> got = spans(t);
  REQUIRE(got.size() == expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("part " << i << " " << expected[i].label);
    CHECK(got[i].label == expected[i].label);
    CHECK(got[i].start == expected[i].start);
    CHECK(got[i].end == expected[i].end);
  }
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
            simulate_checked({info.name, ranks, microbatches, with_ratio(0, layers, base)});
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
  const OpTiming t = op_timing(Op{OpKind::Forward, false, {}, {}}, with_ratio(1));
  check_spans(
      t,
      {{"ATTN(F)", 0, 0.5}, {"DISPATCH(F)", 0.5, 1}, {"MLP(F)", 1, 1.5}, {"COMBINE(F)", 1.5, 2}});
  CHECK(t.duration == 2);
  CHECK(t.exposed == 1);
  // A zero-bubble B (B-W = 1) still carries both backward all-to-alls (ratio x B = 2); its W none.
  CHECK(op_timing(Op{OpKind::Backward, true, {}, {}}, with_ratio(1)).duration == 3);
  CHECK(op_timing(Op{OpKind::Weight, false, {}, {}}, with_ratio(1)).duration == 1);
  CHECK(op_timing(Op{OpKind::Backward, false, {}, {}}, with_ratio(1)).duration == 4);
}

TEST_CASE("one FB pair at compute:comm 1:1 hides 2.5 of its 3 units of all-to-all") {
  // F=1 B=2 W=1 F&B=3, ratio 1, attention share 1/2. Components: ATTN(F) MLP(F) 0.5 each;
  // DISPATCH(F) COMBINE(F) 0.5 each; MLP(B) MLP(W) ATTN(B) ATTN(W) 0.5 each; DISPATCH(B) and
  // COMBINE(B) 1 each. By hand, in Fig. 4 order:
  //   ATTN(F) [0,0.5] and COMBINE(B) [0,1] start together; MLP(B) needs COMBINE(B): [1,1.5];
  //   DISPATCH(F) needs ATTN(F), waits for the comm stream: [1,1.5]; MLP(W) [1.5,2];
  //   DISPATCH(B) needs MLP(B): [1.5,2.5]; MLP(F) needs DISPATCH(F): [2,2.5];
  //   COMBINE(F) needs MLP(F): [2.5,3]; ATTN(B) needs DISPATCH(B): [2.5,3]; ATTN(W) [3,3.5].
  // 3.5 long, 3 of compute: 0.5 exposed (COMBINE(B)'s second half, before the first MLP(B)).
  auto pair = analyse_pair(with_ratio(1));
  REQUIRE(pair.ok());
  const PairOverlap& p = pair.value();
  check_spans(p.timing, {{"ATTN(F)", 0, 0.5},
                         {"COMBINE(B)", 0, 1},
                         {"MLP(B)", 1, 1.5},
                         {"DISPATCH(F)", 1, 1.5},
                         {"MLP(W)", 1.5, 2},
                         {"DISPATCH(B)", 1.5, 2.5},
                         {"MLP(F)", 2, 2.5},
                         {"COMBINE(F)", 2.5, 3},
                         {"ATTN(B)", 2.5, 3},
                         {"ATTN(W)", 3, 3.5}});
  CHECK(p.timing.duration == 3.5);
  CHECK(p.timing.compute == 3);
  CHECK(p.timing.comm == 3);
  CHECK(p.timing.exposed == 0.5);
  CHECK(p.hidden == 2.5);
  CHECK(p.sequential == 6);  // lone F 1+1 plus lone B 2+2
  REQUIRE(p.hiding.size() == 4);
  // COMBINE(B) under ATTN(F) for 0.5, exposed 0.5; DISPATCH(F) under MLP(B);
  // DISPATCH(B) under MLP(W) then MLP(F); COMBINE(F) under ATTN(B).
  auto by = [&](std::size_t i) {
    std::vector<std::string> names;
    for (const auto& b : p.hiding[i].hidden_by)
      names.push_back(label(p.timing.parts[b.compute_part]));
    return names;
  };
  CHECK(by(0) == std::vector<std::string>{"ATTN(F)"});
  CHECK(p.hiding[0].exposed == 0.5);
  CHECK(by(1) == std::vector<std::string>{"MLP(B)"});
  CHECK(by(2) == std::vector<std::string>{"MLP(W)", "MLP(F)"});
  CHECK(by(3) == std::vector<std::string>{"ATTN(B)"});
  for (std::size_t i = 1; i < 4; ++i) CHECK(p.hiding[i].exposed == 0);
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
  // Two layers, ratio 1: every component halves. Layer 0 as in the 1:1 case at half scale ends
  // COMBINE(F) and ATTN(B) at 1.5; layer 1's COMBINE(B) needs ATTN(B) of layer 0 and runs
  // [1.5,2] under ATTN(W) [1.5,1.75] and the next ATTN(F) [1.75,2] (which needed COMBINE(F)),
  // exactly the profile's "combine(B) under attn(W), attn(F)". Only the first COMBINE(B)'s
  // uncovered 0.25 stays exposed: length 3.25. With four layers (the profile's chunk): 0.125.
  CHECK(op_timing(kPairOp, with_ratio(1, 2)).duration == 3.25);
  CHECK(op_timing(kPairOp, with_ratio(1, 4)).exposed == 0.125);
}

TEST_CASE("a cheaper pair (F&B < F+B) scales its compute to F&B exactly") {
  Costs c = with_ratio(0, 3, Costs{1, 2, 1, 2.4, 0});
  const OpTiming t = op_timing(kPairOp, c);
  CHECK(t.duration == 2.4);
  CHECK(t.compute == 2.4);
  // With communication the pair can only get longer, never shorter than F&B.
  c.comm->ratio = 1;
  CHECK(op_timing(kPairOp, c).duration >= 2.4);
}

TEST_CASE("every op kind's parts fit its length and never overlap on a stream") {
  for (const Costs& c : {with_ratio(1), with_ratio(0.7, 3, Costs{1.3, 2.1, 0.4, 2.9, 0}),
                         profile_like(), with_ratio(2.5, 5, Costs{1, 2, 1, 2.4, 0})})
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

TEST_CASE("1F1B at compute:comm 1:1 computes less than half the time") {
  // Every op exposes its all-to-alls: F' = 1 + 1 = 2, B' = 2 + 2 = 4, so 1F1B's makespan is
  // (M + P - 1)(F' + B') = 71 * 6 = 426 for P = 8, M = 64, while each rank computes
  // M (F + B) = 192: 192 / 426 = 45.1% (without communication 192 / 213 = 90.1%).
  const SimResult r = simulate_checked({"1f1b", 8, 64, with_ratio(1)});
  CHECK(r.makespan == 426);
  CHECK(r.comm->compute_utilization == Approx(192.0 / 426.0));
  CHECK(r.comm->total == 8 * 64 * 3);
  CHECK(r.comm->exposed == 8 * 64 * 3);
  CHECK(r.comm->hidden == 0);
  CHECK(r.per_rank[0].exposed_comm == 192);
  // DeepSeek's 1F1B entry holds with the exposed lengths: (PP-1)(F'+B') = 42.
  CHECK(r.bubble_max == 42);
  CHECK(effective_costs(with_ratio(1)).forward == 2);
}

TEST_CASE("DualPipe at compute:comm 1:1 hides 71% of the all-to-all where 1F1B hides none") {
  // Counts from DualPipe's step table (P = 8, n = P/2 = 4, M = 64, h = min(r, P-1-r)): a rank runs
  // M - 2P + n + h + 1 overlapped pairs (steps 4 and 5), one fewer on the two middle ranks.
  // Sum: 2 * sum_{h=0..3} (53 + h) - 2 = 2 * 218 - 2 = 434 pairs. Every other F and B is lone.
  // A lone F exposes 1, a lone B (full or zero-bubble) 2, a pair 0.5 (see the pair test), so a
  // pair hides 3 - 0.5 = 2.5: hidden = 434 * 2.5 = 1085 of 8 * 64 * 3 = 1536 (70.6%).
  const SimResult r = simulate_checked({"dualpipe", 8, 64, with_ratio(1)});
  CHECK(r.comm->total == 1536);
  CHECK(r.comm->hidden == 1085);
  CHECK(r.comm->hidden_fraction == Approx(1085.0 / 1536.0));
  // Rank 0 (h = 0): 53 pairs, 11 lone F and 11 lone B: exposed 11 * 1 + 11 * 2 + 53 * 0.5 = 59.5.
  CHECK(r.per_rank[0].exposed_comm == 59.5);
  // Rank 0 is busy 192 + 59.5, so the makespan is at least 251.5 and compute utilisation at most
  // 192 / 251.5 = 76.3%; 1F1B reaches 45.1% (test above).
  CHECK(r.comm->compute_utilization <= 192.0 / 251.5);
  CHECK(r.comm->compute_utilization > 0.6);
  // With the profile's four layers per chunk a pair exposes 0.125: 434 * 2.875 = 1247.75 hidden.
  CHECK(simulate_checked({"dualpipe", 8, 64, with_ratio(1, 4)}).comm->hidden == 1247.75);
}

TEST_CASE("zero-bubble B and W under communication, on a hand-written two-rank schedule") {
  // Ratio 1: F' = 2, Bz' = (2-1) + 2 = 3, W' = 1, B' = 4. Rank0 F [0,2], rank1 F [2,4],
  // rank1 Bz [4,7], W [7,8]; rank0 B waits only for Bz: [7,11].
  Schedule s;
  s.name = "custom";
  s.ranks = 2;
  s.stages = 2;
  s.microbatches_per_direction = 1;
  s.rank_ops = {
      {Op{OpKind::Forward, false, {0, 0, 0}, {}}, Op{OpKind::Backward, false, {0, 0, 0}, {}}},
      {Op{OpKind::Forward, false, {0, 0, 1}, {}}, Op{OpKind::Backward, true, {0, 0, 1}, {}},
       Op{OpKind::Weight, false, {0, 0, 1}, {}}}};
  auto r = simulate_schedule(s, with_ratio(1));
  REQUIRE(r.ok());
  CHECK(r.value().timeline[1][1].end == 7);
  CHECK(r.value().timeline[1][2].end == 8);
  CHECK(r.value().timeline[0][1].start == 7);
  CHECK(r.value().makespan == 11);
  CHECK(pipesim::testing::check_invariants(s, r.value()).empty());
  const auto parts = op_parts(r.value().timeline[0][1], with_ratio(1));
  CHECK(parts.front().start == 7);  // COMBINE(B) opens the backward at the op's start
  CHECK(parts.back().end == 11);
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
