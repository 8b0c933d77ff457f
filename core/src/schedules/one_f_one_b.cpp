// 1F1B, the PipeDream-flush schedule (Narayanan et al., 2021): rank r warms up with P-1-r
// forwards, then alternates one forward and one backward, then drains the remaining backwards.
// At most P micro-batches are ever in flight on rank 0.
#include <algorithm>

#include "generators.h"

namespace pipesim::detail {

void generate_1f1b(const SimConfig& config, OpPlan& out) {
  const int m_total = config.microbatches;
  out.begin(one_stage_per_rank(config, "1f1b"),
            2 * static_cast<std::size_t>(config.ranks) * static_cast<std::size_t>(m_total));
  for (int r = 0; r < config.ranks; ++r) {
    out.open_rank();
    const OpPlan::Lane lane = out.lane(0, r);
    const int warmup = std::min(config.ranks - 1 - r, m_total);
    int next_f = 0, next_b = 0;
    while (next_f < warmup) out.forward(lane, next_f++);
    while (next_f < m_total) {
      out.forward(lane, next_f++);
      out.backward(lane, next_b++);
    }
    while (next_b < m_total) out.backward(lane, next_b++);
  }
}

}  // namespace pipesim::detail
