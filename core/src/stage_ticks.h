// Private: per-stage costs in the engine's integer ticks, and the one place the overlapped-pair
// rule of pipesim/stage_costs.h is computed (engine, runtime timing, checks and public helpers
// all call pair_ticks).
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "pipesim/config.h"

namespace pipesim::detail {

using StageTick = std::int64_t;

/// A cost in ticks, rounded as the engine rounds every cost.
inline StageTick cost_ticks(double units) { return std::llround(units * kTicksPerUnit); }

/// One stage's costs in ticks; saving = F + B - F&B, what overlapping saves on this stage.
struct StageTicks {
  StageTick forward = 0, backward = 0, weight = 0, overlapped = 0, saving = 0;
};

StageTicks stage_ticks_of(const StageCost& cost);
/// costs.stages in ticks (empty without stages).
std::vector<StageTicks> stage_ticks(const Costs& costs);

/// A forward on stage `f` overlapped with a backward on stage `b`: F_f + B_b - min(S_f, S_b);
/// F&B of the stage when f and b are one stage.
inline StageTick pair_ticks(const StageTicks& f, const StageTicks& b) {
  return f.forward + b.backward - (f.saving < b.saving ? f.saving : b.saving);
}

}  // namespace pipesim::detail
