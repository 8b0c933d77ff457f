// DeepSeek's bubble table (deepseek-ai/DualPipe README; DeepSeek-V3 report Table 2), checked over
// many random costs inside each formula's region of validity. Expected values are the formulas;
// the random costs come from our own generator so native and wasm draw the same numbers.
#include <cmath>
#include <cstdint>

#include <catch2/catch.hpp>

#include "invariants.h"
#include "pipesim/formulas.h"

using namespace pipesim;
using pipesim::testing::simulate_checked;

namespace {

// xorshift64*: deterministic on every platform, unlike <random>'s distributions.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : s_(seed) {}
  // Multiples of 1/1000 inside [lo, hi]: exact in the engine's 1e-6 ticks.
  double uniform(double lo, double hi) { return std::round(raw(lo, hi) * 1000) / 1000; }

 private:
  double raw(double lo, double hi) {
    s_ ^= s_ >> 12;
    s_ ^= s_ << 25;
    s_ ^= s_ >> 27;
    const std::uint64_t x = s_ * 2685821657736338717ULL;
    return lo + (hi - lo) * static_cast<double>(x >> 11) / 9007199254740992.0;
  }

  std::uint64_t s_;
};

}  // namespace

TEST_CASE("1F1B and GPipe idle (PP-1)(F+B) per rank for any costs") {
  Rng rng(1);
  for (int t = 0; t < 40; ++t) {
    Costs c;
    c.forward = rng.uniform(0.1, 3);
    c.backward = rng.uniform(0.1, 3);
    c.weight = 0;
    for (int p : {2, 3, 4, 8})
      for (int m : {1, p, 3 * p}) {
        const double expected = (p - 1) * (c.forward + c.backward);
        CHECK(simulate_checked({"1f1b", p, m, c}).bubble_max == Approx(expected));
        CHECK(simulate_checked({"gpipe", p, m, c}).bubble_max == Approx(expected));
      }
  }
}

TEST_CASE("ZB-H1 idles (PP-1)(F+B-2W) when W <= F and W <= B-W") {
  Rng rng(2);
  int checked = 0;
  while (checked < 60) {
    Costs c;
    c.forward = rng.uniform(0.1, 3);
    c.weight = rng.uniform(0.05, 2);
    c.backward = c.weight + rng.uniform(0.05, 3);
    if (c.weight > c.forward || c.weight > c.backward - c.weight) continue;
    ++checked;
    for (int p : {2, 4, 5, 8})
      for (int m : {p, 2 * p + 1, 4 * p}) {
        const double expected = (p - 1) * (c.forward + c.backward - 2 * c.weight);
        CHECK(simulate_checked({"zb-h1", p, m, c}).bubble_max == Approx(expected));
      }
  }
}

TEST_CASE("DualPipe and DualPipeV idle (PP/2-1)(F&B+B-3W) inside DeepSeek's region") {
  // Region: B-W = F, W <= F, max(F,B) <= F&B <= F+B.
  Rng rng(3);
  for (int t = 0; t < 60; ++t) {
    Costs c;
    c.forward = rng.uniform(0.2, 3);
    c.weight = std::round(rng.uniform(0.01, 1) * c.forward * 1000) / 1000;
    c.backward = c.forward + c.weight;
    c.overlapped = rng.uniform(c.backward, c.forward + c.backward);
    REQUIRE(reference_bubble("dualpipe", 8, 8, 16, c).applies);
    for (int pp : {2, 4, 6, 8, 16}) {
      const double expected = (pp / 2.0 - 1) * (c.overlapped + c.backward - 3 * c.weight);
      for (int m : {2 * pp, 2 * pp + 2, 6 * pp}) {
        CHECK(simulate_checked({"dualpipe", pp, m, c}).bubble_max == Approx(expected).margin(1e-9));
        CHECK(simulate_checked({"dualpipev", pp / 2, m, c}).bubble_max == Approx(expected).margin(1e-9));
      }
    }
  }
}

TEST_CASE("DualPipe 8x20 idles 6 with F=1 B=2 W=1 F&B=3 and 4.2 with F&B=2.4") {
  // (8/2-1)(3+2-3) = 6 and (8/2-1)(2.4+2-3) = 4.2 (the acceptance figures).
  CHECK(simulate_checked({"dualpipe", 8, 20, Costs{}}).bubble_max == Approx(6));
  CHECK(simulate_checked({"dualpipe", 8, 20, Costs{1, 2, 1, 2.4, 0}}).bubble_max == Approx(4.2));
}

TEST_CASE("reference_bubble says when DeepSeek's formula applies") {
  CHECK(reference_bubble("dualpipe", 8, 8, 16, Costs{}).applies);
  CHECK_FALSE(reference_bubble("dualpipe", 8, 8, 16, Costs{1, 2.5, 1, 3, 0}).applies);  // B-W != F
  CHECK_FALSE(reference_bubble("dualpipe", 8, 8, 16, Costs{1, 2, 1, 1.5, 0}).applies);  // F&B < B
  CHECK_FALSE(reference_bubble("1f1b", 8, 8, 16, Costs{1, 2, 1, 3, 0.5}).applies);      // latency
  CHECK(reference_bubble("zb-h1", 4, 4, 8, Costs{1, 2, 1, 3, 0}).bubble_max == Approx(3));
}
