// Private: the eight-step per-rank program shared by DualPipe and DualPipeV, following the step()
// method of DeepSeek's reference implementation (deepseek-ai/DualPipe, dualpipe/dualpipe.py and
// dualpipev.py). Each rank holds two "phases" (model chunks); the generators say which direction
// and stage each phase is. DualPipeV is DualPipe cut in half, so both share this program with
// different parameters.
#pragma once

#include <array>
#include <vector>

#include "op_plan.h"
#include "pipesim/schedule.h"

namespace pipesim::detail {

struct DualPipeRankPlan {
  int half_ranks = 1;        ///< R/2 for DualPipe, R for DualPipeV
  int half_rank = 0;         ///< min(r, R-1-r) for DualPipe, r for DualPipeV
  int chunks_per_phase = 2;  ///< micro-batches each phase processes: M/2 (DualPipe), M (DualPipeV)
  bool middle = false;       ///< the rank(s) where the two phases meet (no overlap at step 4 start)
  std::array<int, 2> phase_dir{0, 1};
  std::array<int, 2> phase_stage{0, 0};
};

/// Rank `r`'s plan in DualPipe on `ranks` ranks with `microbatches` in all (dualpipe.cpp).
DualPipeRankPlan dualpipe_rank_plan(int ranks, int microbatches, int r);
/// Rank `r`'s plan in DualPipeV (dualpipev.cpp).
DualPipeRankPlan dualpipev_rank_plan(int ranks, int microbatches, int r);

/// Pushes the rank's ops, in the reference's order, to `out` (whose rank is open).
void emit_dualpipe_steps(const DualPipeRankPlan& plan, OpPlan& out);

}  // namespace pipesim::detail
