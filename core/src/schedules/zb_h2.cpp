// ZB-H2 (Qi et al., "Zero Bubble Pipeline Parallelism", ICLR 2024, §2.2, Fig. 3 bottom): ZB-H1's
// split backward with a larger memory budget, in the authors' own op order. Their efficiency
// script, which computes the paper's bubble rates, builds it as a hand schedule with a warm-up
// twice 1F1B's (sail-sg/zero-bubble-pipeline-parallelism, branch arxiv,
// megatron/core/pipeline_parallel/efficiency.py, get_hand_schedule with warmup_c=2). Rank r
// (0-based, of p) runs:
//   1. 2(p-1-r) forwards (twice 1F1B's p-1-r: up to 2p-1 micro-batches alive on rank 0);
//   2. for each micro-batch i in order: the next forward while any is left, then B_i (input
//      gradient), then W_{i-2r} once i >= 2r (the W's lag 2r backwards behind);
//   3. the 2r W's still owed.
// Their script asserts M >= 2p. For fewer micro-batches we keep the same rule with the warm-up
// cut to the M forwards there are and every W not yet placed at the end (the order is the
// authors' whenever M >= 2p-2, where the warm-up is not cut). Each rank's list is then timed by
// the engine under the real costs; at T_F = T_B = T_W every rank is busy for 3M slots in a row
// (tests/core check it, and check the lists against a port of the script's own construction).
#include <algorithm>

#include "generators.h"

namespace pipesim::detail {

void generate_zb_h2(const SimConfig& config, OpPlan& out) {
  const int p = config.ranks;
  const int m = config.microbatches;
  out.begin(one_stage_per_rank(config, "zb-h2"),
            3 * static_cast<std::size_t>(p) * static_cast<std::size_t>(m));
  for (int r = 0; r < p; ++r) {
    out.open_rank();
    const OpPlan::Lane lane = out.lane(0, r);
    const int warmup = std::min(2 * (p - 1 - r), m);
    const int w_lag = 2 * r;
    for (int mb = 0; mb < warmup; ++mb) out.forward(lane, mb);
    int next_f = warmup, next_w = 0;
    for (int i = 0; i < m; ++i) {
      if (next_f < m) out.forward(lane, next_f++);
      out.backward(lane, i, true);
      if (i >= w_lag) out.weight(lane, next_w++);
    }
    while (next_w < m) out.weight(lane, next_w++);
  }
}

}  // namespace pipesim::detail
