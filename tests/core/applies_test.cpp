// reference.applies against the simulator: wherever applies says DeepSeek's formula is exact, the
// simulated max idle must equal it (issue 12: ZB-H1 claimed exactness with fewer micro-batches
// than stages, DualPipe on 2 ranks denied it where the formula's 0 is exact). Random costs from a
// fixed-seed generator of our own, so native and wasm draw the same numbers.
#include <cmath>
#include <cstdint>
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

// The claim under test: applies => simulated bubble.max equals the formula.
void check_applies_is_exact(const std::string& schedule, int ranks, int microbatches, const Costs& c) {
  const SimResult r = simulate_checked({schedule, ranks, microbatches, c});
  const ReferenceBubble ref = reference_bubble(schedule, r.stages, microbatches, c);
  if (!ref.applies) return;
  INFO(schedule << " " << ranks << "x" << microbatches << " F=" << c.forward << " B=" << c.backward
                << " W=" << c.weight << " F&B=" << c.overlapped);
  CHECK(r.bubble_max == Approx(ref.bubble_max).margin(1e-9));
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
  CHECK_FALSE(reference_bubble("zb-h1", 6, 4, Costs{}).applies);
  CHECK(reference_bubble("zb-h1", 6, 6, Costs{}).applies);
}

TEST_CASE("DualPipe on 2 ranks and DualPipeV on 1 rank: the formula's 0 is exact for any costs") {
  CostDraw draw(2);
  for (int t = 0; t < 40; ++t) {
    const Costs c = draw.next();
    REQUIRE(reference_bubble("dualpipe", 2, 4, c).applies);
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
