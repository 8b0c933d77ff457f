// Per-stage costs (Costs::stages, JSON "stageCosts"): the rules every consumer of them shares, so
// the engine, the communication model, the closed forms and the checks agree on what a stage
// costs and what an overlapped pair of two different stages costs.
//
// The pair rule. An overlapped FB pair of a forward on stage a and a backward on stage b lasts
//   F_a + B_b - min(S_a, S_b),   where S_x = F_x + B_x - F&B_x
// is what overlapping saves on stage x. Why: stages differ mostly by how many layers (and extra
// modules) they hold, and a pair overlaps its two chunks layer by layer (DeepSeek-V3 report
// §3.2.1, Fig. 4), so with per-layer costs f, b and pair cost o, a forward of La layers beside a
// backward of Lb layers overlaps min(La, Lb) layers at o each and runs the rest alone:
// min(La, Lb) o + (La - Lb)+ f + (Lb - La)+ b, which is exactly the rule with F_x = Lx f,
// B_x = Lx b, F&B_x = Lx o. On one stage (a = b) it is F&B_a, so a list of equal stages times
// exactly as Costs without stages. Under the communication model the pair's parts are laid out
// from stage a's forward components and stage b's backward components (pipesim/comm.h).
#pragma once

#include <vector>

#include "pipesim/config.h"
#include "pipesim/error.h"

namespace pipesim {

/// The cost of one stage: costs.stages[stage] when there are stages, else costs' own F, B, W and
/// F&B.
StageCost stage_cost(const Costs& costs, int stage);

/// An overlapped pair of a forward on a stage costing `forward_stage` and a backward on one
/// costing `backward_stage`: F_a + B_b - min(S_a, S_b) (the rule above), computed in the engine's
/// ticks so it equals what the engine runs.
double stage_pair_cost(const StageCost& forward_stage, const StageCost& backward_stage);

/// True when `costs` has no stages or every stage costs the same: a closed form may then apply,
/// with F, B, W and F&B those of stage 0.
bool stage_costs_uniform(const Costs& costs);

/// The stages' average F, B, W and F&B (costs' own when there are no stages): the equal-stage
/// run with the same total work, at which results evaluate a closed form for unequal stages.
StageCost mean_stage_cost(const Costs& costs);

/// `costs` with F, B, W and F&B those of `stage` and no stage list: what the communication model
/// and the checks use for one stage.
Costs single_stage_costs(const Costs& costs, int stage);

/// Checks costs.stages (when set): at most kMaxStages entries, each in the ranges of Costs
/// (paths /stageCosts/<i>/<field>), W <= B, every pair of stages overlapping to a positive length
/// (stage_costs.pair), the ratio form of the communication model only (stage_costs.comm), its
/// all-to-all time within kMaxCost on every stage. Called by validate_costs.
Status validate_stage_costs(const Costs& costs);

/// stage_costs.count at /stageCosts unless costs.stages is empty or has `stages` entries.
Status check_stage_count(const Costs& costs, int stages);

}  // namespace pipesim
