// Megatron-Core's combined 1F1B (a2aOverlap, delayWgrad): the op order by hand from
// NVIDIA/Megatron-LM megatron/core/pipeline_parallel/schedules.py and combined_1f1b.py, the part
// orders of model_chunk_schedule_plan.py by hand, the hidden share of whole runs counted by hand,
// and the rules Megatron asserts.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "invariants.h"
#include "pipesim/comm.h"
#include "pipesim/engine.h"
#include "pipesim/json.h"

using namespace pipesim;
using pipesim::testing::check_part_spans;
using pipesim::testing::part_label;
using pipesim::testing::rank_op_labels;
using pipesim::testing::simulate_checked;
using pipesim::testing::with_comm_ratio;

namespace {

using L = std::vector<std::string>;

SimConfig combined(const char* schedule, int ranks, int microbatches, int chunks = 0,
                   Costs costs = {}, bool delay_wgrad = false) {
  SimConfig c{schedule, ranks, microbatches, costs};
  c.chunks = chunks;
  c.a2a_overlap = true;
  c.delay_wgrad = delay_wgrad;
  return c;
}

// The interleaved comparison of the lesson: 8 ranks, each rank's layers in two half-size chunks.
const Costs kHalfSizeChunks{0.5, 1, 0.5, 1.5, 0};

const Op kPair{OpKind::ForwardBackward, false, {}, {}};
const Op kLoneBackward{OpKind::Backward, false, {}, {}};

}  // namespace

// combined_1f1b_schedule_for_no_pipelining (combined_1f1b.py): "Phases 0: 1st microbatch
// forward; Phases 1: 1st microbatch backward + 2nd microbatch forward; ...; Phases 4: 4th
// microbatch backward".
TEST_CASE("combined 1F1B on one rank: F0, then F(i+1) with B(i), then the last B") {
  CHECK(rank_op_labels(combined("1f1b", 1, 4), 0) ==
        L{"F0.0@0", "FB(F0.1@0,B0.0@0)", "FB(F0.2@0,B0.1@0)", "FB(F0.3@0,B0.2@0)", "B0.3@0"});
  CHECK(rank_op_labels(combined("interleaved-1f1b", 1, 2, 1), 0) ==
        L{"F0.0@0", "FB(F0.1@0,B0.0@0)", "B0.1@0"});
}

// Megatron's interleaved rules by hand for R = 2, V = 2, M = 4 (the plain order is in
// interleaved_zb_test.cpp): get_pp_rank_microbatches gives rank r 2(R-1-r) + (V-1)R forwards of
// warm-up plus one with overlap_moe_expert_parallel_comm: 5 on rank 0, 3 on rank 1. Each steady
// step pairs forward k with backward k - warm-up (forward_backward_helper_wrapper), then the
// cool-down runs the remaining backwards alone. Virtual micro-batch k is micro-batch
// k / 4 * 2 + k % 2, on chunk k % 4 / 2 forwards and 1 - k % 4 / 2 backwards; chunk c of rank r
// is stage 2c + r.
TEST_CASE("combined interleaved 1F1B 2x4 with 2 chunks: one more warm-up forward, then pairs") {
  const SimConfig c = combined("interleaved-1f1b", 2, 4, 2);
  CHECK(rank_op_labels(c, 0) == L{"F0.0@0", "F0.1@0", "F0.0@2", "F0.1@2", "F0.2@0",
                                  "FB(F0.3@0,B0.0@2)", "FB(F0.2@2,B0.1@2)", "FB(F0.3@2,B0.0@0)",
                                  "B0.1@0", "B0.2@2", "B0.3@2", "B0.2@0", "B0.3@0"});
  CHECK(rank_op_labels(c, 1) == L{"F0.0@1", "F0.1@1", "F0.0@3",
                                  "FB(F0.1@3,B0.0@3)", "FB(F0.2@1,B0.1@3)", "FB(F0.3@1,B0.0@1)",
                                  "FB(F0.2@3,B0.1@1)", "FB(F0.3@3,B0.2@3)",
                                  "B0.3@3", "B0.2@1", "B0.3@1"});
}

TEST_CASE("combined 1F1B passes the invariant checker over many shapes, costs and part orders") {
  const std::vector<Costs> costs = {Costs{}, Costs{1.3, 2.1, 0.4, 2.9, 0.25},
                                    with_comm_ratio(1), with_comm_ratio(1.7, 3, Costs{1, 2, 1, 2.4, 0.5})};
  for (const Costs& c : costs)
    for (bool delay : {false, true}) {
      for (int m : {1, 2, 5}) simulate_checked(combined("1f1b", 1, m, 0, c, delay));
      for (int r = 1; r <= 6; ++r)
        for (int k : {1, 2, 3})
          for (int v : {2, 3}) simulate_checked(combined("interleaved-1f1b", r, k * r, v, c, delay));
    }
}

TEST_CASE("Megatron's pair order at 1:1: DISPATCH(B) waits for MLP(W) and hides under MLP(F)") {
  // F=1 B=2 W=1 F&B=3, ratio 1, attention share 1/2: compute parts 0.5 each, all-to-alls 0.5.
  // model_chunk_schedule_plan.py TransformerLayerSchedulePlan.run issues combine_bwd,
  // pre_dispatch_fwd, mlp_bwd (with its weight gradient: no --delay-wgrad-compute), dispatch_fwd,
  // dispatch_bwd, mlp_fwd, combine_fwd, pre_dispatch_bwd. By hand: ATTN(F) [0,0.5] and
  // COMBINE(B) [0,0.5]; MLP(B) [0.5,1]; DISPATCH(F) [0.5,1]; MLP(W) [1,1.5]; DISPATCH(B) needs
  // the whole MLP node: [1.5,2]; MLP(F) [1.5,2]; COMBINE(F) [2,2.5]; ATTN(B) [2,2.5]; ATTN(W)
  // [2.5,3]. Still 3 long with nothing exposed: at 1:1 both orders hide all of a pair's traffic.
  auto pair = analyse_pair(with_comm_ratio(1), PartOrder::Megatron);
  REQUIRE(pair.ok());
  const PairOverlap& p = pair.value();
  check_part_spans(p.timing, {{"ATTN(F)", 0, 0.5},
                         {"COMBINE(B)", 0, 0.5},
                         {"MLP(B)", 0.5, 1},
                         {"DISPATCH(F)", 0.5, 1},
                         {"MLP(W)", 1, 1.5},
                         {"DISPATCH(B)", 1.5, 2},
                         {"MLP(F)", 1.5, 2},
                         {"COMBINE(F)", 2, 2.5},
                         {"ATTN(B)", 2, 2.5},
                         {"ATTN(W)", 2.5, 3}});
  CHECK(p.timing.exposed == 0);
  CHECK(p.hidden == 2);
  REQUIRE(p.hiding.size() == 4);
  const PartHiding& dispatch_b = p.hiding[2];
  REQUIRE(dispatch_b.hidden_by.size() == 1);
  CHECK(part_label(p.timing.parts[dispatch_b.hidden_by[0].compute_part]) == "MLP(F)");
  // With the weight gradient delayed the pair is DeepSeek's, part for part.
  const OpTiming deepseek = op_timing(kPair, with_comm_ratio(1), PartOrder::DeepSeek);
  const OpTiming delayed = op_timing(kPair, with_comm_ratio(1), PartOrder::MegatronDelayWgrad);
  REQUIRE(delayed.parts.size() == deepseek.parts.size());
  for (std::size_t i = 0; i < deepseek.parts.size(); ++i) {
    CHECK(delayed.parts[i].start == deepseek.parts[i].start);
    CHECK(delayed.parts[i].end == deepseek.parts[i].end);
  }
}

TEST_CASE("where the orders part: a fused MLP weight gradient holds up DISPATCH(B)") {
  // Components in the profile's proportions (overlap_test.cpp): ATTN(F) 1, DISPATCH(F) 1.5, MLP(F)
  // 1, COMBINE(F) 1.5; ATTN(B) ATTN(W) MLP(B) MLP(W) 1 each; DISPATCH(B) COMBINE(B) 1.5 each.
  // Megatron's order by hand: ATTN(F) [0,1]; COMBINE(B) [0,1.5]; MLP(B) [1.5,2.5]; DISPATCH(F)
  // [1.5,3]; MLP(W) [2.5,3.5]; DISPATCH(B) needs MLP(W): [3.5,5]; MLP(F) [3.5,4.5]; COMBINE(F)
  // needs the comm stream: [5,6.5]; ATTN(B) [5,6]; ATTN(W) [6,7]. 7 long, 1 exposed, where
  // DeepSeek's order (DISPATCH(B) from 3, under MLP(W)) takes 6.5.
  Costs c{2, 4, 2, 6, 0};
  CommCosts m;
  m.explicit_components = true;
  m.components = ChunkComponents{1, 1.5, 1, 1.5, 1, 1, 1.5, 1, 1, 1.5};
  c.comm = m;
  const OpTiming t = op_timing(kPair, c, PartOrder::Megatron);
  CHECK(t.duration == 7);
  CHECK(t.exposed == 1);
  CHECK(op_timing(kPair, c, PartOrder::DeepSeek).duration == 6.5);
  CHECK(op_timing(kPair, c, PartOrder::MegatronDelayWgrad).duration == 6.5);
}

TEST_CASE("a delayed weight gradient lets a lone backward hide DISPATCH(B) under MLP(W)") {
  // TransformerLayerSchedulePlan.run(None, b_layer): combine_bwd, mlp_bwd, mlp_bwd_dw (on the
  // compute stream without the micro-batch's event), dispatch_bwd (waits for the event mlp_bwd
  // recorded), pre_dispatch_bwd, its dw. Ratio 1, one layer: COMBINE(B) [0,0.5], MLP(B)
  // [0.5,1], MLP(W) [1,1.5], DISPATCH(B) [1,1.5], ATTN(B) [1.5,2], ATTN(W) [2,2.5]: 2.5 long,
  // 0.5 exposed, against 3 and 1 when every part waits for the one before.
  const OpTiming t = op_timing(kLoneBackward, with_comm_ratio(1), PartOrder::MegatronDelayWgrad);
  check_part_spans(t, {{"COMBINE(B)", 0, 0.5},
                  {"MLP(B)", 0.5, 1},
                  {"MLP(W)", 1, 1.5},
                  {"DISPATCH(B)", 1, 1.5},
                  {"ATTN(B)", 1.5, 2},
                  {"ATTN(W)", 2, 2.5}});
  CHECK(t.exposed == 0.5);
  CHECK(op_timing(kLoneBackward, with_comm_ratio(1), PartOrder::Megatron).duration == 3);
  CHECK(op_timing(kLoneBackward, with_comm_ratio(1), PartOrder::DeepSeek).duration == 3);
  // Two layers, every component halved: layer 1's COMBINE(B) needs layer 0's ATTN(B) (ends 1)
  // and runs [1, 1.25] under ATTN(W) [1, 1.25]; MLP(B) [1.25,1.5], MLP(W) and DISPATCH(B)
  // [1.5,1.75], ATTN(B) [1.75,2], ATTN(W) [2,2.25]. Only layer 0's COMBINE(B) stays exposed.
  const OpTiming two = op_timing(kLoneBackward, with_comm_ratio(1, 2), PartOrder::MegatronDelayWgrad);
  CHECK(two.duration == 2.25);
  CHECK(two.exposed == 0.25);
  // A zero-bubble B has no weight parts to hide under: it never changes.
  const Op zb{OpKind::Backward, true, {}, {}};
  CHECK(op_timing(zb, with_comm_ratio(1), PartOrder::MegatronDelayWgrad).duration == 2);
}

TEST_CASE("1F1B on one rank with a2aOverlap hides 30 of its 32 units of all-to-all at 1:1") {
  // M = 16, ratio 1: every chunk carries 1 unit each way, 32 in all. F0 and B15 run alone and
  // expose theirs; the 15 pairs hide 2 each (the pair tests above): 30 / 32 = 93.75%. Length:
  // F0 1 + 1, 15 pairs of 3, B15 2 + 1: 50. Without a2aOverlap nothing hides: 16 x (2 + 3) = 80.
  const SimResult r = simulate_checked(combined("1f1b", 1, 16, 0, with_comm_ratio(1)));
  CHECK(r.comm->total == 32);
  CHECK(r.comm->hidden == 30);
  CHECK(r.comm->hidden_fraction == 30.0 / 32.0);
  CHECK(r.makespan == 50);
  SimConfig plain{"1f1b", 1, 16, with_comm_ratio(1)};
  CHECK(simulate_checked(plain).comm->hidden == 0);
  CHECK(simulate_checked(plain).makespan == 80);
  // With the weight gradient delayed B15 also hides its DISPATCH(B): 30.5, and 0.5 shorter.
  const SimResult delayed = simulate_checked(combined("1f1b", 1, 16, 0, with_comm_ratio(1), true));
  CHECK(delayed.comm->hidden == 30.5);
  CHECK(delayed.makespan == 49.5);
}

TEST_CASE("interleaved 1F1B with a2aOverlap at P = 8, M = 16, 2 chunks hides half its all-to-all at 1:1") {
  // Chunks of F = 0.5, B = 1: each carries ratio x F = 0.5 each way, so 8 ranks x 32 virtual
  // micro-batches x 1 = 256 units. Rank r warms up with 2(7 - r) + 8 + 1 = 23 - 2r forwards and
  // cools down with as many lone backwards; the other 9 + 2r steps are pairs, each hiding its
  // 1 unit (the 1:1 pair at half scale). Hidden: sum over r of (9 + 2r) = 72 + 56 = 128 = 50%.
  const SimResult r =
      simulate_checked(combined("interleaved-1f1b", 8, 16, 2, with_comm_ratio(1, 1, kHalfSizeChunks)));
  CHECK(r.comm->total == 256);
  CHECK(r.comm->hidden == 128);
  CHECK(r.comm->hidden_fraction == 0.5);
  SimConfig plain{"interleaved-1f1b", 8, 16, with_comm_ratio(1, 1, kHalfSizeChunks)};
  plain.chunks = 2;
  const SimResult before = simulate_checked(plain);
  CHECK(before.comm->hidden == 0);
  CHECK(r.makespan < before.makespan);
  // Delayed weight gradients: each of the sum over r of (23 - 2r) = 128 lone backwards also
  // hides its DISPATCH(B), 0.25: 128 + 32 = 160 (62.5%).
  const SimResult delayed = simulate_checked(
      combined("interleaved-1f1b", 8, 16, 2, with_comm_ratio(1, 1, kHalfSizeChunks), true));
  CHECK(delayed.comm->hidden == 160);
  CHECK(delayed.comm->hidden_fraction == 0.625);
  CHECK(delayed.makespan < r.makespan);
}

TEST_CASE("with zero communication a2aOverlap times its pairs as F&B") {
  // One rank, M = 3, F&B = 2.4 < F + B: F0 1, two pairs of 2.4, B2 2: 7.8, the same with a comm
  // model of ratio 0 in either part order.
  Costs c{1, 2, 1, 2.4, 0};
  CHECK(simulate_checked(combined("1f1b", 1, 3, 0, c)).makespan == 7.8);
  for (bool delay : {false, true})
    CHECK(simulate_checked(combined("1f1b", 1, 3, 0, with_comm_ratio(0, 3, c), delay)).makespan == 7.8);
}

TEST_CASE("a2aOverlap and delayWgrad follow Megatron-Core's asserts") {
  auto error_of = [](const SimConfig& c) { return validate(c).error(); };
  SimConfig c = combined("dualpipe", 4, 8);
  Error e = error_of(c);
  CHECK(e.rule == "a2a_overlap.schedule");
  CHECK(e.path == "/a2aOverlap");
  CHECK(e.message ==
        "a2aOverlap is Megatron-Core's combined 1F1B (--overlap-moe-expert-parallel-comm), so "
        "schedule must be one of 1f1b, interleaved-1f1b (got \"dualpipe\")");
  // transformer_config.py: with PP > 1, virtual pipeline stages are required.
  e = error_of(combined("1f1b", 8, 16));
  CHECK(e.rule == "a2a_overlap.chunks");
  CHECK(e.path == "/a2aOverlap");
  CHECK(e.message ==
        "a2aOverlap on more than one rank needs chunks >= 2, as Megatron-Core requires virtual "
        "pipeline stages when PP > 1 (1f1b has 1 per rank on 8 ranks)");
  e = error_of(combined("interleaved-1f1b", 4, 8, 1));
  CHECK(e.rule == "a2a_overlap.chunks");
  CHECK(e.path == "/chunks");
  CHECK(validate(combined("interleaved-1f1b", 4, 8)).ok());  // the default 2 chunks
  c = SimConfig{"1f1b", 1, 4, {}};
  c.delay_wgrad = true;
  e = error_of(c);
  CHECK(e.rule == "delay_wgrad.a2a_overlap");
  CHECK(e.path == "/delayWgrad");
  CHECK(e.message ==
        "delayWgrad needs a2aOverlap: Megatron-Core's --delay-wgrad-compute requires "
        "--overlap-moe-expert-parallel-comm");
  auto parsed = config_from_json_text(
      R"({"schedule":"1f1b","ranks":1,"microbatches":4,"a2aOverlap":"yes"})");
  REQUIRE_FALSE(parsed.ok());
  CHECK(parsed.error().message == "a2aOverlap must be true or false (got \"yes\")");
}

TEST_CASE("a result says it ran combined 1F1B, in which part order, and that no closed form applies") {
  auto parsed = config_from_json_text(
      R"({"schedule":"interleaved-1f1b","ranks":4,"microbatches":8,"a2aOverlap":true,)"
      R"("delayWgrad":true,"costs":{"comm":{"ratio":1}}})");
  REQUIRE(parsed.ok());
  const Json j = result_to_json(simulate_checked(parsed.value()), false);
  CHECK(j.at("a2aOverlap") == true);
  CHECK(j.at("delayWgrad") == true);
  CHECK(j.at("comm").at("partOrder") == "megatron-delay-wgrad");
  CHECK(j.at("reference").at("applies") == false);
  // Each op kind says what hides each of its all-to-alls (the pair test above, by hand): with the
  // weight gradient delayed DISPATCH(B) runs under MLP(W), in the pair and in a lone backward.
  const Json& ops = j.at("comm").at("ops");
  CHECK(ops.at("FB").at("hiding").at(2).at("label") == "DISPATCH(B)");
  CHECK(ops.at("FB").at("hiding").at(2).at("hiddenBy").at(0).at("label") == "MLP(W)");
  CHECK(ops.at("B").at("hiding").at(1).at("label") == "DISPATCH(B)");
  CHECK(ops.at("B").at("hiding").at(1).at("hiddenBy").at(0).at("label") == "MLP(W)");
  CHECK(ops.at("B").at("hiding").at(0).at("exposed") == 0.5);  // COMBINE(B) has nothing under it
  // Without them the fields are absent and DualPipe keeps DeepSeek's order.
  const Json plain = result_to_json(simulate_checked({"dualpipe", 4, 8, with_comm_ratio(1)}), false);
  CHECK_FALSE(plain.contains("a2aOverlap"));
  CHECK(plain.at("comm").at("partOrder") == "deepseek");
  CHECK(plain.at("reference").at("applies") == true);
}
