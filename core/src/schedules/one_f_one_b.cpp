// 1F1B, the PipeDream-flush schedule (Narayanan et al., 2021): rank r warms up with P-1-r
// forwards, then alternates one forward and one backward, then drains the remaining backwards.
// At most P micro-batches are ever in flight on rank 0.
//
// With a2aOverlap (ranks = 1 only; validate() holds more ranks to chunks >= 2, as Megatron-Core
// does), Megatron-Core's combined 1F1B without pipelining,
// combined_1f1b_schedule_for_no_pipelining in megatron/core/pipeline_parallel/combined_1f1b.py:
// F0 alone, then F(i+1) with B(i) as one overlapped pair, then the last B alone. That is one
// more warm-up forward than plain 1F1B, as in Megatron's interleaved rule
// (get_pp_rank_microbatches in schedules.py).
#include <algorithm>

#include "generators.h"

namespace pipesim::detail {

void generate_1f1b(const SimConfig& config, OpPlan& out) {
  const int m_total = config.microbatches;
  out.begin(one_stage_per_rank(config, "1f1b"),
            2 * static_cast<std::size_t>(config.ranks) * static_cast<std::size_t>(m_total));
  const int extra = config.a2a_overlap ? 1 : 0;
  for (int r = 0; r < config.ranks; ++r) {
    out.open_rank();
    const OpPlan::Lane lane = out.lane(0, r);
    const int warmup = std::min(config.ranks - 1 - r + extra, m_total);
    int next_f = 0, next_b = 0;
    while (next_f < warmup) out.forward(lane, next_f++);
    while (next_f < m_total) {
      if (config.a2a_overlap) {
        out.pair(lane, next_f++, lane, next_b++);
        continue;
      }
      out.forward(lane, next_f++);
      out.backward(lane, next_b++);
    }
    while (next_b < m_total) out.backward(lane, next_b++);
  }
}

}  // namespace pipesim::detail
