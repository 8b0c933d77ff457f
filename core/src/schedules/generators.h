// Private: one generator per schedule (one file each) and the registry that validates shapes and
// dispatches to them. Generators assume a validated config. Each writes its schedule into an
// OpPlan: it begins the plan with the schedule's shape, then opens every rank in order and pushes
// that rank's ops (the engine runs the plan; generate_schedule keeps the Op lists as a Schedule).
#pragma once

#include "op_plan.h"
#include "pipesim/config.h"
#include "pipesim/schedule.h"

namespace pipesim::detail {

void generate_gpipe(const SimConfig& config, OpPlan& out);
void generate_1f1b(const SimConfig& config, OpPlan& out);
void generate_zb_h1(const SimConfig& config, OpPlan& out);
void generate_dualpipe(const SimConfig& config, OpPlan& out);
void generate_dualpipev(const SimConfig& config, OpPlan& out);
void generate_chimera(const SimConfig& config, OpPlan& out);
void generate_interleaved_1f1b(const SimConfig& config, OpPlan& out);
void generate_zb_h2(const SimConfig& config, OpPlan& out);
void generate_zb_v(const SimConfig& config, OpPlan& out);

/// The shape of a single-direction schedule with one stage per rank (no op lists).
Schedule one_stage_per_rank(const SimConfig& config, const char* name);

/// The shape of a bidirectional schedule (DualPipe, Chimera): two directions of M/2 micro-batches
/// over the same ranks; rank r holds stage r of direction 0 and stage R-1-r of direction 1, so two
/// copies of the parameters. No op lists.
Schedule two_direction_shell(const SimConfig& config, const char* name);

}  // namespace pipesim::detail
