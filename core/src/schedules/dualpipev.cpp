// DualPipeV, the V-shape "cut-in-half" DualPipe (Sea AI Lab; reference: deepseek-ai/DualPipe,
// dualpipe/dualpipev.py). R ranks run 2R stages of one direction: rank r holds stage r (phase 0,
// on the way down) and stage 2R-1-r (phase 1, on the way back), so the last rank hands its own
// phase-0 output to its phase 1. One copy of the parameters; M micro-batches, M >= 2R.
#include <utility>

#include "dualpipe_steps.h"
#include "generators.h"

namespace pipesim::detail {

void generate_dualpipev(const SimConfig& config, OpPlan& out) {
  const int ranks = config.ranks;
  Schedule s;
  s.name = "dualpipev";
  s.ranks = ranks;
  s.stages = 2 * ranks;
  s.directions = 1;
  s.microbatches_per_direction = config.microbatches;
  s.stages_per_rank = 2;
  s.param_copies = 1;
  // At most an F, a B and a W for each of a rank's 2M chunks (two phases of M).
  out.begin(std::move(s),
            6 * static_cast<std::size_t>(ranks) * static_cast<std::size_t>(config.microbatches));
  for (int r = 0; r < ranks; ++r) {
    out.open_rank();
    emit_dualpipe_steps(dualpipev_rank_plan(ranks, config.microbatches, r), out);
  }
}

DualPipeRankPlan dualpipev_rank_plan(int ranks, int microbatches, int r) {
  DualPipeRankPlan plan;
  plan.half_ranks = ranks;
  plan.half_rank = r;
  plan.chunks_per_phase = microbatches;
  plan.middle = r == ranks - 1;
  plan.phase_dir = {0, 0};
  plan.phase_stage = {r, 2 * ranks - 1 - r};
  return plan;
}

}  // namespace pipesim::detail
