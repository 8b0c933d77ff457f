// 1F1B, the PipeDream-flush schedule (Narayanan et al., 2021): rank r warms up with P-1-r
// forwards, then alternates one forward and one backward, then drains the remaining backwards.
// At most P micro-batches are ever in flight on rank 0.
#include <algorithm>

#include "generators.h"

namespace pipesim::detail {

Schedule generate_1f1b(const SimConfig& config) {
  Schedule s = one_stage_per_rank(config, "1f1b");
  const int m_total = config.microbatches;
  for (int r = 0; r < config.ranks; ++r) {
    auto& ops = s.rank_ops[static_cast<std::size_t>(r)];
    ops.reserve(2 * static_cast<std::size_t>(m_total));
    const int warmup = std::min(config.ranks - 1 - r, m_total);
    int next_f = 0, next_b = 0;
    while (next_f < warmup) ops.push_back(forward_op(0, next_f++, r));
    while (next_f < m_total) {
      ops.push_back(forward_op(0, next_f++, r));
      ops.push_back(backward_op(0, next_b++, r));
    }
    while (next_b < m_total) ops.push_back(backward_op(0, next_b++, r));
  }
  return s;
}

}  // namespace pipesim::detail
