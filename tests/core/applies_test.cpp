// reference.applies against the simulator: wherever applies says DeepSeek's formula is exact, the
// simulated max idle must equal it (issue 12: ZB-H1 claimed exactness with fewer micro-batches
// than stages, DualPipe on 2 ranks denied it where the formula's 0 is exact). Random costs from a
// fixed-seed generator of our own, so native and wasm draw the same numbers.
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <string>

#include <catch2/catch.hpp>

#include "invariants.h"
#include "pipesim/formulas.h"

using namespace pipesim;
using pipesim::testing::simulate_checked;

namespace {

// Costs on a 1/8 grid in [1/8, 3]: exact in the engine's ticks, and W <= B.
class CostDraw {
 public:
  explicit CostDraw(std::uint64_t seed) : s_(seed) {}
  Costs next() {
    Costs c;
    c.forward = eighths(1, 24);
    c.weight = eighths(0, 16);
    c.backward = c.weight + eighths(1, 24);
    c.overlapped = eighths(1, 40);
    return c;
  }

 private:
  double eighths(int lo, int hi) {  // xorshift64*
    s_ ^= s_ >> 12;
    s_ ^= s_ << 25;
    s_ ^= s_ >> 27;
    const std::uint64_t x = (s_ * 2685821657736338717ULL) >> 33;
    return static_cast<double>(lo + static_cast<int>(x % static_cast<std::uint64_t>(hi - lo + 1))) / 8;
  }
  std::uint64_t s_;
};

// The claim under test: applies => simulated bubble.max equals the formula. Returns whether the
// formula applied, so a sweep can count that its region is not empty.
bool check_applies_is_exact(const SimConfig& config) {
  const SimResult r = simulate_checked(config);
  const Costs& c = config.costs;
  const ReferenceBubble ref =
      reference_bubble(config.schedule, config.ranks, r.stages, config.microbatches, c);
  if (!ref.applies) return false;
  INFO(config.schedule << " " << config.ranks << "x" << config.microbatches << " chunks="
                       << config.chunks << " F=" << c.forward << " B=" << c.backward
                       << " W=" << c.weight << " F&B=" << c.overlapped);
  CHECK(r.bubble_max == Approx(ref.bubble_max).margin(1e-9));
  return true;
}
bool check_applies_is_exact(const std::string& schedule, int ranks, int microbatches,
                            const Costs& c) {
  return check_applies_is_exact(SimConfig{schedule, ranks, microbatches, c});
}

// The simulated bubble.max differs from the formula: for configs just outside a region.
bool formula_is_off(const SimConfig& config) {
  const SimResult r = simulate_checked(config);
  const ReferenceBubble ref = reference_bubble(config.schedule, config.ranks, r.stages,
                                               config.microbatches, config.costs);
  CHECK_FALSE(ref.applies);
  return std::fabs(r.bubble_max - ref.bubble_max) > 1e-9;
}

}  // namespace

TEST_CASE("Below M = ranks, applies holds only where the simulated bubble equals the formula") {
  CostDraw draw(12);
  for (int t = 0; t < 30; ++t) {
    const Costs c = draw.next();
    for (int p : {2, 3, 4, 6, 8})
      for (int m = 1; m < p; ++m)
        for (const char* s : {"gpipe", "1f1b", "zb-h1"}) check_applies_is_exact(s, p, m, c);
  }
}

TEST_CASE("ZB-H1 with fewer micro-batches than stages is outside the formula's region") {
  // The region by its definition (the sweep above checks it against the simulator): at M < PP
  // the 6x4 case idles longer than the formula's (6-1)(1+2-2) = 5.
  CHECK_FALSE(reference_bubble("zb-h1", 6, 6, 4, Costs{}).applies);
  CHECK(reference_bubble("zb-h1", 6, 6, 6, Costs{}).applies);
}

TEST_CASE("DualPipe on 2 ranks and DualPipeV on 1 rank: the formula's 0 is exact for any costs") {
  CostDraw draw(2);
  for (int t = 0; t < 40; ++t) {
    const Costs c = draw.next();
    REQUIRE(reference_bubble("dualpipe", 2, 2, 4, c).applies);
    for (int m : {4, 6, 10}) {
      check_applies_is_exact("dualpipe", 2, m, c);
      check_applies_is_exact("dualpipev", 1, m - 1, c);
    }
  }
}

TEST_CASE("DualPipeV on R ranks times like DualPipe on 2R with 2M only at p2p latency 0") {
  // README's claim, with the condition it needs: the V's turn stays on rank R-1 (no hop), where
  // DualPipe's two middle ranks exchange every micro-batch over the network.
  for (int r : {2, 3, 4}) {
    const int m = 2 * r + 2;
    Costs c{1, 2, 1, 3, 0};
    CHECK(simulate_checked({"dualpipev", r, m, c}).makespan ==
          simulate_checked({"dualpipe", 2 * r, 2 * m, c}).makespan);
    c.p2p_latency = 0.5;
    CHECK(simulate_checked({"dualpipev", r, m, c}).makespan <
          simulate_checked({"dualpipe", 2 * r, 2 * m, c}).makespan);
  }
}

// The three schedules learners meet beside DualPipe, swept the same way (regions found by
// sweeping ranks 1-8, M 1-40 and 1/8-grid costs against the simulator; see formulas.h).
TEST_CASE("Interleaved 1F1B: (ranks-1)(F+B) at chunk costs applies at every shape it runs") {
  CostDraw draw(21);
  int applied = 0;
  for (int t = 0; t < 12; ++t) {
    const Costs c = draw.next();
    for (int p : {1, 2, 3, 5, 8})
      for (int k : {1, 2, 3})
        for (int v : {1, 2, 3, 4}) {
          SimConfig config{"interleaved-1f1b", p, k * p, c};
          config.chunks = v;
          applied += check_applies_is_exact(config);
        }
  }
  CHECK(applied == 12 * 5 * 3 * 4);  // no shape it runs is outside the region
  // Its PP is the ranks, not the V x ranks stages: 4 ranks with 2 chunks idle 3(F+B) = 9.
  CHECK(reference_bubble("interleaved-1f1b", 4, 8, 8, Costs{}).bubble_max == Approx(9));
  SimConfig late{"interleaved-1f1b", 4, 8, Costs{1, 2, 1, 3, 0.25}};
  CHECK(formula_is_off(late));  // every region needs p2p latency 0
}

TEST_CASE("ZB-H2: (PP-1)(F+B-3W) applies at PP = 1, W = 0, or M >= 2PP-1, W <= F, B >= 3W") {
  CostDraw draw(22);
  int applied = 0;
  for (int t = 0; t < 30; ++t) {
    const Costs c = draw.next();
    for (int p : {1, 2, 3, 4, 6})
      for (int m = 1; m <= 3 * p + 1; ++m) applied += check_applies_is_exact("zb-h2", p, m, c);
  }
  CHECK(applied > 300);
  // W = 0 makes it 1F1B's (PP-1)(F+B) at any M, fewer micro-batches than stages included.
  for (int p : {2, 3, 5})
    for (int m = 1; m <= 2 * p; ++m) CHECK(check_applies_is_exact("zb-h2", p, m, Costs{1.5, 2.25, 0, 3, 0}));
  // Just outside: inside the paper's own region (W <= F, W <= B-W) but B-W < 2W, the last rank's
  // wait for its first forward, (PP-1)F, is longer than the formula: 3 x 1 against 3 x 0.75.
  const Costs thin_input{1, 2.25, 1, 3, 0};  // B-W = 1.25 < 2W
  CHECK(formula_is_off({"zb-h2", 4, 8, thin_input}));
  CHECK(simulate_checked({"zb-h2", 4, 8, thin_input}).bubble_max == Approx(3 * 1.0));
  // At B = 3W exactly both agree, so the boundary is inside.
  CHECK(check_applies_is_exact("zb-h2", 4, 8, Costs{1, 3, 1, 3, 0}));
  // One micro-batch short of 2PP-1 with W > 0: the warm-up cannot fill the wait.
  CHECK(formula_is_off({"zb-h2", 4, 6, Costs{1, 2.5, 0.5, 3, 0}}));
  CHECK(check_applies_is_exact("zb-h2", 4, 7, Costs{1, 2.5, 0.5, 3, 0}));
}

TEST_CASE("ZB-V: the paper's 0 holds on one rank only; its edges idle (ranks-1)F at equal costs") {
  CostDraw draw(23);
  for (int t = 0; t < 20; ++t) {
    const Costs c = draw.next();
    for (int m : {1, 2, 5}) CHECK(check_applies_is_exact("zb-v", 1, m, c));
    for (int p : {2, 3, 4})
      for (int m : {1, 2 * p - 1, 3 * p}) check_applies_is_exact("zb-v", p, m, c);
  }
  // At F = B-W = W, where the paper's 0 counts idle inside each rank's span, every rank still
  // waits at the edges of the step: (ranks-1)F from 2 x ranks - 1 micro-batches on.
  for (int p : {2, 3, 4, 8}) {
    INFO(p << " ranks");
    CHECK(formula_is_off({"zb-v", p, 4 * p, Costs{1, 2, 1, 3, 0}}));
    CHECK(simulate_checked({"zb-v", p, 4 * p, Costs{1, 2, 1, 3, 0}}).bubble_max == Approx(p - 1));
  }
}
