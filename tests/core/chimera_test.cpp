// Chimera (Li & Hoefler, SC'21): the basic unit's op order (Figure 3, worked out by the rule of the
// authors' scheduler), the unit-slot bubble count of its Table 2, its activation range, direct
// concatenation, and the two properties DeepSeek-V3's report (§3.2.1) sets against Chimera.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "invariants.h"
#include "pipesim/engine.h"

using namespace pipesim;
using pipesim::testing::rank_op_labels;
using pipesim::testing::simulate_checked;

namespace {

using L = std::vector<std::string>;

Costs equal_costs() { return Costs{1, 1, 0.5, 2, 0}; }  // F = B: the paper's unit slots

}  // namespace

// Figure 3's basic unit (D = 4, N = 4), worked by hand from the rule of the authors' scheduler
// (Shigangli/Chimera, chimera_pipeline_rank.py): the down pipeline (our direction 0) carries the
// paper's micro-batches 0 and 1, the up pipeline (direction 1) carries 2 and 3, shown here as 1.0
// and 1.1. In slot units a micro-batch enters every other slot, moves one stage per slot and
// turns round on the last stage (F at 2k + s, B at 2k + 2D-1-s on stage s), so worker P0
// runs F0 _ F1 F2 B2 F3 B3 B0 _ B1 and P1 runs _ F0 F2 F1 F3 B2 B0 B3 B1 _; P2 and P3 mirror P1
// and P0 with the directions swapped.
TEST_CASE("Chimera 4x4 runs the paper's Figure 3 order on every worker") {
  const SimConfig c{"chimera", 4, 4, {}};
  CHECK(rank_op_labels(c, 0) ==
        L{"F0.0@0", "F0.1@0", "F1.0@3", "B1.0@3", "F1.1@3", "B1.1@3", "B0.0@0", "B0.1@0"});
  CHECK(rank_op_labels(c, 1) ==
        L{"F0.0@1", "F1.0@2", "F0.1@1", "F1.1@2", "B1.0@2", "B0.0@1", "B1.1@2", "B0.1@1"});
  CHECK(rank_op_labels(c, 2) ==
        L{"F1.0@1", "F0.0@2", "F1.1@1", "F0.1@2", "B0.0@2", "B1.0@1", "B0.1@2", "B1.1@1"});
  CHECK(rank_op_labels(c, 3) ==
        L{"F1.0@0", "F1.1@0", "F0.0@3", "B0.0@3", "F0.1@3", "B0.1@3", "B1.0@0", "B1.1@0"});
}

// Direct concatenation (§3.4, Fig. 5a): unit 2 starts 2D = 8 slots after unit 1, so its first
// forward F0.2 takes P0's idle slot 8 between B0.0 (slot 7) and B0.1 (slot 9).
TEST_CASE("Chimera 4x8 concatenates two units, the second filling the first's tail") {
  CHECK(rank_op_labels({"chimera", 4, 8, {}}, 0) ==
        L{"F0.0@0", "F0.1@0", "F1.0@3", "B1.0@3", "F1.1@3", "B1.1@3", "B0.0@0", "F0.2@0", "B0.1@0",
          "F0.3@0", "F1.2@3", "B1.2@3", "F1.3@3", "B1.3@3", "B0.2@0", "B0.3@0"});
}

TEST_CASE("Chimera passes the invariant checker over many shapes and costs") {
  const std::vector<Costs> costs = {Costs{}, equal_costs(), Costs{1.3, 2.1, 0.4, 2.9, 0.25},
                                    Costs{0.5, 3, 2.5, 3.1, 1}};
  for (const Costs& c : costs)
    for (int d : {2, 4, 6, 8, 16})
      for (int units : {1, 2, 3, 5}) simulate_checked({"chimera", d, units * d, c});
}

TEST_CASE("Chimera holds two stages and two parameter copies per rank") {
  const SimResult r = simulate_checked({"chimera", 8, 16, {}});
  CHECK(r.stages == 8);
  CHECK(r.stages_per_rank == 2);
  CHECK(r.param_copies == 2);
}

// Table 2 of the paper, in its unit-slot model (F = B = one slot): D-2 bubbles per worker and a
// bubble ratio of (D-2)/(2N+D-2). The slot model puts every op in its own slot, so per worker:
// span 3D-2 slots for one unit plus 2D per further unit, i.e. 2N+D-2; busy 2N; idle D-2.
TEST_CASE("Chimera with F = B idles D-2 slots per worker for any number of units") {
  for (int d : {4, 8, 16})
    for (int units : {1, 2, 4}) {
      const int n = units * d;
      const SimResult r = simulate_checked({"chimera", d, n, equal_costs()});
      CHECK(r.makespan == Approx(2 * n + d - 2));
      for (const RankStats& s : r.per_rank) CHECK(s.idle == Approx(d - 2));
      CHECK(r.bubble_fraction == Approx(double(d - 2) / (2 * n + d - 2)));
    }
}

// Worked by hand from the Figure 3 order with F = 1, B = 2 (P3 mirrors P0, P2 mirrors P1):
//   P1: F0.0 [1,2] F1.0 [2,3] F0.1 [3,4] F1.1 [4,5] B1.0 [6,8] B0.0 [8,10] B1.1 [10,12] B0.1
//   [12,14] P0: F0.0 [0,1] F0.1 [1,2] F1.0 [3,4] B1.0 [4,6] F1.1 [6,7] B1.1 [7,9] B0.0 [10,12] B0.1
//   [14,16]
// Makespan 16, busy 4F + 4B = 12, idle 4 on every rank. The second unit (M = 8) continues on P0
// with F0.2 [12,13] B0.1 [14,16] F0.3 [16,17] F1.2 [17,18] B1.2 [18,20] F1.3 [20,21] B1.3 [21,23]
// B0.2 [24,26] B0.3 [28,30] (P1: F0.2 [14,15] F1.2 [15,16] F0.3 [17,18] F1.3 [18,19]
// B1.2 [20,22] B0.2 [22,24] B1.3 [24,26] B0.3 [26,28]): makespan 30, busy 24, idle 6.
TEST_CASE("Chimera 4x4 and 4x8 with F=1 B=2 match the hand-worked timelines") {
  const SimResult one = simulate_checked({"chimera", 4, 4, {}});
  CHECK(one.makespan == Approx(16));
  for (const RankStats& s : one.per_rank) CHECK(s.idle == Approx(4));
  const auto& p0 = one.timeline[0];
  CHECK(p0[6].start == Approx(10));  // B0.0@0 waits for P1's B0.0, done at 10
  CHECK(p0[7].start == Approx(14));
  const SimResult two = simulate_checked({"chimera", 4, 8, {}});
  CHECK(two.makespan == Approx(30));
  for (const RankStats& s : two.per_rank) CHECK(s.idle == Approx(6));
}

// When B > F, concatenated units do not mesh: the second unit's forwards wait for the first's
// longer backwards. The paper's answer is forward doubling or backward halving (§3.4); with direct
// concatenation the idle time per rank grows with every unit. Simulated, it grows by exactly
// (D-2)(B-F) per unit here; the test asserts the hand-derived D = 4 values above and that the
// growth never stops.
TEST_CASE("Chimera's idle time grows with the number of units when B > F") {
  for (int d : {4, 8, 16}) {
    double previous = simulate_checked({"chimera", d, d, {}}).bubble_max;
    for (int units = 2; units <= 5; ++units) {
      const double now = simulate_checked({"chimera", d, units * d, {}}).bubble_max;
      CHECK(now > previous);
      previous = now;
    }
  }
}

// Table 2 of the paper: Chimera's activation memory lies between (D/2+1) and D micro-batches.
// By hand from the slot model: on rank r < D/2 the down stage r holds all D/2 of its forwards
// before its first backward, and the up stage D-1-r has min(D/2, r+1) in flight at once, so the
// peak is D/2 + 1 + r; ranks r >= D/2 mirror. Concatenated units never overlap more than that.
TEST_CASE("Chimera's peak activations are D/2+1+r on rank r and do not grow with M") {
  for (int d : {4, 8, 16})
    for (int units : {1, 2, 4}) {
      const SimResult r = simulate_checked({"chimera", d, units * d, {}});
      for (int rank = 0; rank < d; ++rank) {
        const int mirror = rank < d / 2 ? rank : d - 1 - rank;
        CHECK(r.per_rank[static_cast<std::size_t>(rank)].peak_activations == d / 2 + 1 + mirror);
      }
      CHECK(r.max_peak_activations == d);
    }
}

// DeepSeek-V3 report §3.2.1: "Compared with Chimera, DualPipe only requires that the pipeline
// stages and micro-batches be divisible by 2, without requiring micro-batches to be divisible by
// pipeline stages." (The reference implementation adds M >= 2 x stages.)
TEST_CASE("Chimera needs M divisible by the stages where DualPipe needs only even M >= 2R") {
  const Status chimera = validate({"chimera", 8, 20, {}});
  REQUIRE_FALSE(chimera.ok());
  CHECK(chimera.error().code == ErrorCode::InvalidConfig);
  CHECK(chimera.error().message ==
        "microbatches must be a multiple of ranks = 8 for chimera (got 20)");
  CHECK(chimera.error().path == "/microbatches");
  CHECK(validate({"dualpipe", 8, 20, {}}).ok());
  const Status odd = validate({"chimera", 5, 10, {}});
  REQUIRE_FALSE(odd.ok());
  CHECK(odd.error().message == "ranks must be an even integer >= 2 for chimera (got 5)");
  CHECK(odd.error().path == "/ranks");
}

// The report's second property, checked on both schedules at D = 4 with F=1 B=2 W=1 F&B=3: going
// from M = 8 to M = 16, DualPipe's idle per rank stays (PP/2-1)(F&B+B-3W) = 2 and its peak stays
// PP+1 = 5; Chimera's idle grows from 6 (hand-worked above) and its peak stays D = 4.
TEST_CASE("From M=8 to M=16 DualPipe's bubble and peak stay put while Chimera's bubble grows") {
  const SimResult dp8 = simulate_checked({"dualpipe", 4, 8, {}});
  const SimResult dp16 = simulate_checked({"dualpipe", 4, 16, {}});
  CHECK(dp8.bubble_max == Approx(2));
  CHECK(dp16.bubble_max == Approx(2));
  CHECK(dp8.max_peak_activations == 5);
  CHECK(dp16.max_peak_activations == 5);
  const SimResult ch8 = simulate_checked({"chimera", 4, 8, {}});
  const SimResult ch16 = simulate_checked({"chimera", 4, 16, {}});
  CHECK(ch8.bubble_max == Approx(6));
  CHECK(ch16.bubble_max > ch8.bubble_max);
  CHECK(ch8.max_peak_activations == 4);
  CHECK(ch16.max_peak_activations == 4);
}
