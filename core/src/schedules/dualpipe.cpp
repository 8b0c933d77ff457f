// DualPipe (DeepSeek-V3 technical report, §3.2.1; reference: deepseek-ai/DualPipe). Two
// directions of M/2 micro-batches each: direction 0 enters at rank 0 (rank r runs its stage r),
// direction 1 enters at rank R-1 (rank r runs its stage R-1-r). Every rank therefore holds two
// stages, and the pipeline holds two copies of the model's parameters.
#include <algorithm>

#include "dualpipe_steps.h"
#include "generators.h"

namespace pipesim::detail {

void generate_dualpipe(const SimConfig& config, OpPlan& out) {
  const int ranks = config.ranks;
  // At most an F, a B and a W for each of a rank's M chunks (two phases of M/2).
  out.begin(two_direction_shell(config, "dualpipe"),
            3 * static_cast<std::size_t>(ranks) * static_cast<std::size_t>(config.microbatches));
  for (int r = 0; r < ranks; ++r) {
    out.open_rank();
    emit_dualpipe_steps(dualpipe_rank_plan(ranks, config.microbatches, r), out);
  }
}

DualPipeRankPlan dualpipe_rank_plan(int ranks, int microbatches, int r) {
  DualPipeRankPlan plan;
  plan.half_ranks = ranks / 2;
  plan.half_rank = std::min(r, ranks - 1 - r);
  plan.chunks_per_phase = microbatches / 2;
  plan.middle = plan.half_rank == plan.half_ranks - 1;
  // The reference's phase 0 is the direction that reaches this rank first: direction 0 on the
  // first half of the ranks, direction 1 on the second half.
  const int second_half = r >= ranks / 2 ? 1 : 0;
  for (int phase = 0; phase < 2; ++phase) {
    const int dir = phase ^ second_half;
    plan.phase_dir[static_cast<std::size_t>(phase)] = dir;
    plan.phase_stage[static_cast<std::size_t>(phase)] = dir == 0 ? r : ranks - 1 - r;
  }
  return plan;
}

}  // namespace pipesim::detail
