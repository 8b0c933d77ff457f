// ZB-H1 (Qi et al., "Zero Bubble Pipeline Parallelism", ICLR 2024, §3.1, Fig. 3): 1F1B with every
// backward split into B (input gradient, on the critical path) and W (weight gradient, deferred).
// Rank r keeps 1F1B's warm-up of P-1-r forwards, so its activation memory equals 1F1B's, and keeps
// its W's r ops behind its B's. With p2p latency 0, W <= F and W <= B-W this reproduces the paper's
// bubble of (P-1)(F+B-2W) per rank exactly (tests/core/table_test.cpp checks it on random costs).
#include <algorithm>

#include "generators.h"

namespace pipesim::detail {

void generate_zb_h1(const SimConfig& config, OpPlan& out) {
  const int p = config.ranks;
  const int m_total = config.microbatches;
  out.begin(one_stage_per_rank(config, "zb-h1"),
            3 * static_cast<std::size_t>(p) * static_cast<std::size_t>(m_total));
  for (int r = 0; r < p; ++r) {
    out.open_rank();
    const OpPlan::Lane lane = out.lane(0, r);
    const int warmup = std::min(p - 1 - r, m_total);
    // Rank r runs B r steps ahead of its W: the deeper the rank, the longer 1F1B's drain keeps it
    // waiting, and the more W's it can park there. Even counting the parked W's as live memory
    // (the paper's accounting), rank r holds (P-1-r) + 1 + r = P micro-batches, like 1F1B.
    const int defer = r;
    int next_f = 0, next_b = 0, next_w = 0;  // W's run in B order, so the pending ones are [next_w, next_b)
    auto backward = [&] {
      out.backward(lane, next_b++, true);
      while (next_b - next_w > defer) out.weight(lane, next_w++);
    };
    while (next_f < warmup) out.forward(lane, next_f++);
    while (next_f < m_total) {
      out.forward(lane, next_f++);
      backward();
    }
    while (next_b < m_total) backward();
    while (next_w < m_total) out.weight(lane, next_w++);
  }
}

}  // namespace pipesim::detail
