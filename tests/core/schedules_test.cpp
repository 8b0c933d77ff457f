// Schedule generators: exact op orders transcribed by hand from the references, and structural
// properties from the papers (activation peaks, M-independence, DualPipeV = half of DualPipe).
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "invariants.h"
#include "pipesim/engine.h"

using namespace pipesim;
using pipesim::testing::rank_op_labels;
using pipesim::testing::simulate_checked;

namespace {

using L = std::vector<std::string>;

}  // namespace

// Hand transcription of deepseek-ai/DualPipe dualpipe.py step() for 4 ranks and 8 micro-batches
// (4 per direction). Label: F<dir>.<mb>@<stage>; Bz = zero-bubble B; FB(F..,B..) = overlapped pair.
TEST_CASE("DualPipe 4x8 follows the reference's eight steps on every rank") {
  const SimConfig c{"dualpipe", 4, 8, {}};
  CHECK(rank_op_labels(c, 0) == L{"F0.0@0", "F0.1@0",                         // 1: nF0
                          "F0.2@0", "F1.0@3",                         // 2: nF0F1
                          "Bz1.0@3", "W1.0@3", "F1.1@3",              // 3: nB1W1F1
                          "FB(F0.3@0,B1.1@3)", "FB(F1.2@3,B0.0@0)",   // 4: nF0B1F1B0
                          "B1.2@3", "FB(F1.3@3,B0.1@0)",              // 5: nB1F1B0
                          "B1.3@3", "Bz0.2@0",                        // 6: even half-rank: zb after B1
                          "W0.2@0", "Bz0.3@0",                        // 7: nWB0
                          "W0.3@0"});                                 // 8: nW
  // Rank 1 is a middle rank: its first step-4 F0 and B1 run separately, not overlapped.
  CHECK(rank_op_labels(c, 1) == L{"F0.0@1", "F1.0@2", "F0.1@1", "F1.1@2",
                          "F0.2@1", "B1.0@2", "FB(F1.2@2,B0.0@1)",
                          "FB(F0.3@1,B1.1@2)", "FB(F1.3@2,B0.1@1)",
                          "B1.2@2", "B0.2@1", "Bz1.3@2", "Bz0.3@1",  // odd half-rank: zb before B1
                          "W1.3@2", "W0.3@1"});
  // Ranks in the second half see direction 1 first: their phase 0 is direction 1.
  CHECK(rank_op_labels(c, 2) == L{"F1.0@1", "F0.0@2", "F1.1@1", "F0.1@2",
                          "F1.2@1", "B0.0@2", "FB(F0.2@2,B1.0@1)",
                          "FB(F1.3@1,B0.1@2)", "FB(F0.3@2,B1.1@1)",
                          "B0.2@2", "B1.2@1", "Bz0.3@2", "Bz1.3@1",
                          "W0.3@2", "W1.3@1"});
  CHECK(rank_op_labels(c, 3) == L{"F1.0@0", "F1.1@0", "F1.2@0", "F0.0@3",
                          "Bz0.0@3", "W0.0@3", "F0.1@3",
                          "FB(F1.3@0,B0.1@3)", "FB(F0.2@3,B1.0@0)",
                          "B0.2@3", "FB(F0.3@3,B1.1@0)",
                          "B0.3@3", "Bz1.2@0", "W1.2@0", "Bz1.3@0", "W1.3@0"});
}

// Hand transcription of dualpipev.py step() for 2 ranks (4 stages) and 4 micro-batches.
TEST_CASE("DualPipeV 2x4 follows the reference's V-shape order") {
  const SimConfig c{"dualpipev", 2, 4, {}};
  CHECK(rank_op_labels(c, 0) == L{"F0.0@0", "F0.1@0", "F0.2@0", "F0.0@3",
                          "Bz0.0@3", "W0.0@3", "F0.1@3",
                          "FB(F0.3@0,B0.1@3)", "FB(F0.2@3,B0.0@0)",
                          "B0.2@3", "FB(F0.3@3,B0.1@0)",
                          "B0.3@3", "Bz0.2@0", "W0.2@0", "Bz0.3@0", "W0.3@0"});
  CHECK(rank_op_labels(c, 1) == L{"F0.0@1", "F0.0@2", "F0.1@1", "F0.1@2",
                          "F0.2@1", "B0.0@2", "FB(F0.2@2,B0.0@1)",
                          "FB(F0.3@1,B0.1@2)", "FB(F0.3@2,B0.1@1)",
                          "B0.2@2", "B0.2@1", "Bz0.3@2", "Bz0.3@1", "W0.3@2", "W0.3@1"});
}

TEST_CASE("1F1B warms up with P-1-r forwards, alternates, then drains") {
  const SimConfig c{"1f1b", 3, 4, {}};
  CHECK(rank_op_labels(c, 0) == L{"F0.0@0", "F0.1@0", "F0.2@0", "B0.0@0", "F0.3@0", "B0.1@0", "B0.2@0", "B0.3@0"});
  CHECK(rank_op_labels(c, 2) == L{"F0.0@2", "B0.0@2", "F0.1@2", "B0.1@2", "F0.2@2", "B0.2@2", "F0.3@2", "B0.3@2"});
}

TEST_CASE("GPipe runs every forward before any backward") {
  CHECK(rank_op_labels({"gpipe", 2, 3, {}}, 1) == L{"F0.0@1", "F0.1@1", "F0.2@1", "B0.0@1", "B0.1@1", "B0.2@1"});
}

TEST_CASE("every schedule passes the invariant checker over many shapes and costs") {
  const std::vector<Costs> costs = {Costs{}, Costs{1, 2, 1, 2.4, 0}, Costs{1.3, 2.1, 0.4, 2.9, 0.25},
                                    Costs{0.5, 3, 2.5, 3.1, 1}};
  for (const Costs& c : costs)
    for (int r = 1; r <= 8; ++r)
      for (int m : {1, 2, 2 * r, 2 * r + 1, 4 * r + 2})
        for (const char* name : {"gpipe", "1f1b", "zb-h1", "dualpipe", "dualpipev"}) {
          const SimConfig config{name, r, m, c};
          if (!validate(config).ok()) continue;
          simulate_checked(config);
        }
}

TEST_CASE("1F1B holds at most P micro-batches in flight; GPipe holds all M") {
  for (int p : {2, 4, 8}) {
    CHECK(simulate_checked({"1f1b", p, 4 * p, {}}).max_peak_activations == p);
    CHECK(simulate_checked({"zb-h1", p, 4 * p, {}}).max_peak_activations == p);
    CHECK(simulate_checked({"gpipe", p, 3 * p, {}}).max_peak_activations == 3 * p);
  }
}

// DeepSeek's table: activation per device PP+1 for DualPipe (PP = stages = ranks) and DualPipeV.
TEST_CASE("DualPipe and DualPipeV peak at PP+1 in-flight activations") {
  for (int r : {2, 4, 8, 16}) {
    CHECK(simulate_checked({"dualpipe", r, 2 * r, {}}).max_peak_activations == r + 1);
    CHECK(simulate_checked({"dualpipe", r, 6 * r, {}}).max_peak_activations == r + 1);
    CHECK(simulate_checked({"dualpipev", r / 2, 4 * r, {}}).max_peak_activations == r + 1);
  }
}

// Per-GPU units: one unit is one micro-batch's activations through 1/ranks of the model. A 1F1B,
// DualPipe or Chimera stage is exactly that much (stages = ranks), so the count is the memory; a
// DualPipeV stage is half of it (2R stages on R ranks), so its PP+1 = 2R+1 stages weigh R + 1/2:
// half a unit more than 1F1B's R, one half less than DualPipe's R+1, not twice either.
TEST_CASE("Per-GPU activation memory weighs a stage by ranks / stages") {
  for (int r : {2, 4, 8}) {
    CHECK(simulate_checked({"1f1b", r, 4 * r, {}}).max_peak_activation_memory == r);
    CHECK(simulate_checked({"dualpipe", r, 4 * r, {}}).max_peak_activation_memory == r + 1);
    CHECK(simulate_checked({"chimera", r, 4 * r, {}}).max_peak_activation_memory == r);
    CHECK(simulate_checked({"dualpipev", r, 4 * r, {}}).max_peak_activation_memory == r + 0.5);
  }
  // DualPipeV 4x10 (tests/golden): ranks hold 8, 8, 8 and 9 stage-activations at their peaks.
  const SimResult v = simulate_checked({"dualpipev", 4, 10, {}});
  const std::vector<double> expected = {4, 4, 4, 4.5};
  for (std::size_t rank = 0; rank < expected.size(); ++rank)
    CHECK(v.per_rank[rank].peak_activation_memory == expected[rank]);
}

TEST_CASE("DualPipe's bubble does not grow with the micro-batch count") {
  for (int r : {4, 8, 16}) {
    const double first = simulate_checked({"dualpipe", r, 2 * r, {}}).bubble_max;
    for (int m = 2 * r + 2; m <= 8 * r; m += 2)
      CHECK(simulate_checked({"dualpipe", r, m, {}}).bubble_max == Approx(first));
  }
}

// Cut-in-half: rank r of DualPipeV plays DualPipe rank r's role, with DualPipe's second direction
// folded onto the same micro-batches, so DualPipeV(R, M) times like DualPipe(2R, 2M).
TEST_CASE("DualPipeV on R ranks times like DualPipe on 2R ranks") {
  const std::vector<Costs> costs = {Costs{}, Costs{1, 2, 1, 2.4, 0}, Costs{1.5, 2.5, 1, 3.5, 0}};
  for (const Costs& c : costs)
    for (int r : {1, 2, 3, 4, 8})
      for (int m : {2 * r, 2 * r + 1, 5 * r}) {
        const SimResult v = simulate_checked({"dualpipev", r, m, c});
        const SimResult d = simulate_checked({"dualpipe", 2 * r, 2 * m, c});
        CHECK(v.makespan == Approx(d.makespan));
        CHECK(v.bubble_max == Approx(d.bubble_max));
        for (int rank = 0; rank < r; ++rank)
          CHECK(v.per_rank[static_cast<std::size_t>(rank)].idle ==
                Approx(d.per_rank[static_cast<std::size_t>(rank)].idle));
      }
}

TEST_CASE("DualPipe keeps two parameter copies, DualPipeV and the rest one") {
  CHECK(simulate_checked({"dualpipe", 4, 8, {}}).param_copies == 2);
  CHECK(simulate_checked({"dualpipev", 4, 8, {}}).param_copies == 1);
  CHECK(simulate_checked({"dualpipev", 4, 8, {}}).stages == 8);
  CHECK(simulate_checked({"1f1b", 4, 8, {}}).param_copies == 1);
}
