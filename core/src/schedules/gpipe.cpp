// The shared schedule shells, and GPipe (Huang et al., 2019): every micro-batch's forward, then every backward. Rank r holds
// stage r. Peak activations grow with M; the bubble is (P-1)(F+B) per rank.
#include "generators.h"

namespace pipesim::detail {

Schedule one_stage_per_rank(const SimConfig& config, const char* name) {
  Schedule s;
  s.name = name;
  s.ranks = config.ranks;
  s.stages = config.ranks;
  s.directions = 1;
  s.microbatches_per_direction = config.microbatches;
  return s;
}

Schedule two_direction_shell(const SimConfig& config, const char* name) {
  Schedule s;
  s.name = name;
  s.ranks = config.ranks;
  s.stages = config.ranks;
  s.directions = 2;
  s.microbatches_per_direction = config.microbatches / 2;
  s.stages_per_rank = 2;
  s.param_copies = 2;
  return s;
}

void generate_gpipe(const SimConfig& config, OpPlan& out) {
  const auto m = static_cast<std::size_t>(config.microbatches);
  out.begin(one_stage_per_rank(config, "gpipe"), 2 * static_cast<std::size_t>(config.ranks) * m);
  for (int r = 0; r < config.ranks; ++r) {
    out.open_rank();
    const OpPlan::Lane lane = out.lane(0, r);
    for (int m = 0; m < config.microbatches; ++m) out.forward(lane, m);
    for (int m = 0; m < config.microbatches; ++m) out.backward(lane, m);
  }
}

}  // namespace pipesim::detail
