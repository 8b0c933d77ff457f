// Interleaved 1F1B, ZB-H2 and ZB-V: op orders transcribed by hand from the public code they follow
// (Megatron-LM's interleaving rules, PyTorch's ScheduleZBVZeroBubble), and the papers' closed forms
// (Narayanan et al. 2021: the interleaved bubble is 1/V of 1F1B's; Qi et al. 2024: ZB-H2 and ZB-V
// have no bubble when T_F = T_B = T_W, ZB-H2 holding 2p-1 micro-batches).
#include <algorithm>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "invariants.h"
#include "pipesim/engine.h"
#include "pipesim/sweep.h"

using namespace pipesim;
using pipesim::testing::rank_op_labels;
using pipesim::testing::simulate_checked;

namespace {

using L = std::vector<std::string>;

SimConfig interleaved(int ranks, int microbatches, int chunks, Costs costs = {}) {
  SimConfig c{"interleaved-1f1b", ranks, microbatches, costs};
  c.chunks = chunks;
  return c;
}

// Idle time between a rank's first op and its last: the zero-bubble paper's measure, whose
// iterations overlap at their edges (the "parallelogram"), unlike the step makespan.
double idle_inside_span(const SimResult& r, int rank) {
  const auto& ops = r.timeline[static_cast<std::size_t>(rank)];
  double busy = 0;
  for (const TimedOp& t : ops) busy += t.end - t.start;
  return ops.back().end - ops.front().start - busy;
}

// T_F = T_B = T_W = 1 in our terms: F = 1, full backward B = T_B + T_W = 2, W = 1.
const Costs kEqualThirds{1, 2, 1, 3, 0};

}  // namespace

// Megatron's rules by hand for R = 2, V = 2, M = 2: rank 0 warms up with 2(R-1-0) + (V-1)R = 4 =
// V x M forwards (all of them); rank 1 with 2. Virtual micro-batch k runs micro-batch k % 2 on
// chunk k / 2 forwards and on chunk 1 - k / 2 backwards; rank r's chunk c is stage c x R + r.
TEST_CASE("interleaved 1F1B 2x2 with 2 chunks follows Megatron's warm-up and chunk order") {
  CHECK(rank_op_labels(interleaved(2, 2, 2), 0) ==
        L{"F0.0@0", "F0.1@0", "F0.0@2", "F0.1@2", "B0.0@2", "B0.1@2", "B0.0@0", "B0.1@0"});
  CHECK(rank_op_labels(interleaved(2, 2, 2), 1) ==
        L{"F0.0@1", "F0.1@1", "F0.0@3", "B0.0@3", "F0.1@3", "B0.1@3", "B0.0@1", "B0.1@1"});
  // M = 4: the second group of R micro-batches (2, 3) enters chunk 0 after the first left it.
  CHECK(rank_op_labels(interleaved(2, 4, 2), 0) ==
        L{"F0.0@0", "F0.1@0", "F0.0@2", "F0.1@2",                      // warm-up: 4
          "F0.2@0", "B0.0@2", "F0.3@0", "B0.1@2",                      // 1F1B
          "F0.2@2", "B0.0@0", "F0.3@2", "B0.1@0",
          "B0.2@2", "B0.3@2", "B0.2@0", "B0.3@0"});                    // drain
}

TEST_CASE("interleaved 1F1B with one chunk is 1F1B op for op") {
  for (int p : {1, 2, 3, 5})
    for (int m : {p, 2 * p, 4 * p})
      for (int r = 0; r < p; ++r) {
        INFO(p << "x" << m << " rank " << r);
        CHECK(rank_op_labels(interleaved(p, m, 1), r) == rank_op_labels({"1f1b", p, m, {}}, r));
      }
}

TEST_CASE("interleaved 1F1B idles (p-1)(F+B) per rank: 1/V of 1F1B's at V times the chunk costs") {
  const std::vector<Costs> costs = {Costs{}, Costs{1, 1, 0, 2, 0}, Costs{0.7, 1.9, 0, 2, 0},
                                    Costs{1.5, 2.5, 0, 3, 0}};
  for (const Costs& c : costs)
    for (int p : {2, 3, 4, 8})
      for (int v : {2, 3, 4})
        for (int m : {p, 2 * p, 4 * p}) {
          INFO(p << "x" << m << " V=" << v << " F=" << c.forward << " B=" << c.backward);
          const double expected = (p - 1) * (c.forward + c.backward);  // Narayanan et al. §2.2.2
          const SimResult r = simulate_checked(interleaved(p, m, v, c));
          CHECK(r.bubble_max == Approx(expected));
          Costs whole = c;  // one stage per rank holding all V chunks' layers
          whole.forward *= v;
          whole.backward *= v;
          CHECK(r.bubble_max * v == Approx(simulate_checked({"1f1b", p, m, whole}).bubble_max));
        }
}

// With V >= 2 rank 0 warms up with 2(p-1) + (V-1)p forwards and runs one more before its first
// backward; when that reaches all V x M chunks (M = p) every forward comes first. V = 1 is 1F1B: p.
TEST_CASE("interleaved 1F1B peaks at (V+1)p-1 chunks on rank 0, all V x M when M = p") {
  for (int p : {2, 3, 4, 8})
    for (int v : {1, 2, 4}) {
      INFO(p << " ranks, V=" << v);
      CHECK(simulate_checked(interleaved(p, 4 * p, v)).per_rank[0].peak_activations ==
            (v == 1 ? p : (v + 1) * p - 1));
      CHECK(simulate_checked(interleaved(p, p, v)).per_rank[0].peak_activations ==
            (v == 1 ? p : v * p));
    }
}

// Hand transcription of ScheduleZBVZeroBubble._calculate_single_rank_operations for R = 2, M = 3
// (its max(M, 2R-1) = 3, so no padding). Rank r holds stage r (chunk 0) and 3 - r (chunk 1).
TEST_CASE("ZB-V 2x3 follows PyTorch's ZBV order") {
  CHECK(rank_op_labels({"zb-v", 2, 3, {}}, 0) ==
        L{"F0.0@0", "F0.1@0", "F0.2@0",                                // 2(R-r)-1 chunk-0 F's
          "F0.0@3", "Bz0.0@3", "W0.0@3", "F0.1@3", "Bz0.1@3", "W0.1@3",  // R-r rounds F1 B1 W1
          "Bz0.0@0", "W0.0@0", "F0.2@3", "Bz0.2@3", "W0.2@3",          // steady, F0 all run
          "Bz0.1@0", "W0.1@0", "Bz0.2@0", "W0.2@0"});                  // R-r rounds B0 W0
  CHECK(rank_op_labels({"zb-v", 2, 3, {}}, 1) ==
        L{"F0.0@1", "F0.0@2", "F0.1@1",                                // 1 F0; r rounds F1 F0
          "F0.1@2", "Bz0.0@2", "W0.0@2",                               // R-r rounds F1 B1 W1
          "F0.2@1", "Bz0.0@1", "W0.0@1", "F0.2@2", "Bz0.1@2", "W0.1@2",  // steady
          "Bz0.1@1", "Bz0.2@2",                                        // r rounds B0 B1
          "Bz0.2@1", "W0.1@1",                                         // R-r rounds B0 W0
          "W0.2@2", "W0.2@1"});                                        // deferred W's, chunk 1 first
}

TEST_CASE("ZB-H2 and ZB-V keep every rank busy from its first op to its last when T_F = T_B = T_W") {
  for (int p : {1, 2, 3, 4, 6, 8})
    for (int m : {2 * p, 3 * p + 1, 6 * p}) {
      INFO(p << "x" << m);
      for (const char* name : {"zb-h2", "zb-v"}) {
        INFO(name);
        const SimResult r = simulate_checked({name, p, m, kEqualThirds});
        for (int rank = 0; rank < p; ++rank) CHECK(idle_inside_span(r, rank) == Approx(0).margin(1e-9));
      }
      // ZB-H2's last rank waits for p-1 forwards, then works 3M slots: the parallelogram's edge.
      CHECK(simulate_checked({"zb-h2", p, m, kEqualThirds}).makespan == Approx(3 * m + p - 1));
    }
}

// The paper's handcrafted-schedule table (Qi et al. 2024, §2): ZB-H2 idles (p-1)(T_F+T_B-2T_W),
// T_B the input-gradient B = B-W in our terms, so (p-1)(F+B-3W), measured inside each rank's span
// as the paper's parallelogram does. Exact when W <= F and W <= B-W (the warm-up's extra F's then
// cover the wait for the first B, and the tail's W's the wait for each B) and M >= 2p-1 (enough
// micro-batches for rank 0's 2p-1 warm-up forwards).
TEST_CASE("ZB-H2 idles (p-1)(F+B-3W) inside its span when W <= F, W <= B-W and M >= 2p-1") {
  int checked = 0;
  for (double f : {0.3, 1.0, 1.7})
    for (double w : {0.1, 0.4, 0.9})
      for (double b_input : {0.4, 1.2, 2.5}) {
        if (w > f || w > b_input) continue;
        const Costs c{f, b_input + w, w, 3, 0};
        for (int p : {2, 3, 4, 6})
          for (int m : {2 * p - 1, 2 * p, 5 * p + 1}) {
            INFO(p << "x" << m << " F=" << f << " B-W=" << b_input << " W=" << w);
            const SimResult r = simulate_checked({"zb-h2", p, m, c});
            double worst = 0;
            for (int rank = 0; rank < p; ++rank) worst = std::max(worst, idle_inside_span(r, rank));
            CHECK(worst == Approx((p - 1) * (f + c.backward - 3 * w)).margin(1e-9));
            ++checked;
          }
      }
  CHECK(checked > 100);
}

TEST_CASE("ZB-H2 holds 2p-1 micro-batches on rank 0, ZB-H1 and 1F1B p") {
  for (int p : {2, 3, 4, 8}) {
    const SimResult h2 = simulate_checked({"zb-h2", p, 4 * p, kEqualThirds});
    CHECK(h2.per_rank[0].peak_activations == 2 * p - 1);
    CHECK(h2.max_peak_activations == 2 * p - 1);
  }
}

// ZB-V's first rank runs 2p-1 chunk-0 forwards, then its first chunk-1 forward, before its first
// B: 2p chunks of half a stage each, the activation memory of 1F1B's p whole stages (paper §6).
TEST_CASE("ZB-V holds 2p chunks on rank 0, 1F1B's memory") {
  for (int p : {2, 3, 4, 8}) CHECK(simulate_checked({"zb-v", p, 4 * p, {}}).max_peak_activations == 2 * p);
}

TEST_CASE("the new schedules pass the invariant checker over many shapes and costs") {
  const std::vector<Costs> costs = {Costs{}, kEqualThirds, Costs{1.3, 2.1, 0.4, 2.9, 0.25},
                                    Costs{0.5, 3, 2.5, 3.1, 1}};
  for (const Costs& c : costs)
    for (int r = 1; r <= 7; ++r)
      for (int m : {1, 2, r, 2 * r - 1, 2 * r + 1, 3 * r})
        for (int v : {0, 1, 3}) {
          for (const char* name : {"zb-h2", "zb-v"})
            if (v == 0) simulate_checked({name, r, m, c});
          if (m % r == 0) simulate_checked(interleaved(r, m, v, c));
        }
}

TEST_CASE("chunks is validated against the catalogue's option") {
  auto error_of = [](const SimConfig& c) { return validate(c).error(); };
  SimConfig c = interleaved(4, 8, 17);
  CHECK(error_of(c).rule == "range.integer");
  CHECK(error_of(c).message == "chunks must be an integer in [1, 16] (got 17)");
  CHECK(error_of(c).path == "/chunks");
  c = interleaved(1024, 1024, 3);
  CHECK(error_of(c).rule == "chunks.stages");
  CHECK(error_of(c).message == "ranks x chunks must be <= 2048 stages for interleaved-1f1b (got 3072)");
  SimConfig fixed{"zb-v", 4, 8, {}};
  fixed.chunks = 2;
  CHECK(error_of(fixed).rule == "chunks.unsupported");
  CHECK(error_of(fixed).message ==
        "chunks applies only to interleaved-1f1b; zb-v has a fixed layout (got 2)");
  // Megatron's M constraint: a multiple of the pipeline size.
  CHECK(error_of(interleaved(4, 6, 2)).rule == "microbatches.multiple_of_ranks");
  CHECK(validate(interleaved(4, 8, 0)).ok());  // 0: the catalogue's default
}

TEST_CASE("a sweep's chunks reach the schedules that take them and no other") {
  SweepRequest req;
  req.schedules = {"interleaved-1f1b", "1f1b"};
  req.ranks = {4};
  req.microbatches = {{2, true}};
  req.chunks = 4;
  const auto rows = run_sweep(req);
  REQUIRE(rows.ok());
  REQUIRE(rows.value().size() == 2);
  CHECK(rows.value()[0].stages == 16);                                // 4 chunks x 4 ranks
  CHECK(rows.value()[0].bubble_max == Approx(3 * (1 + 2)));           // (p-1)(F+B), chunk costs
  CHECK(rows.value()[1].stages == 4);
  req.chunks = 17;
  CHECK(run_sweep(req).error().message == "chunks must be an integer in [1, 16] (got 17)");
}
