// Private: the engine's timeline written as columns (pipesim/timeline_columns.h) straight from
// the plan it ran and the start times it recorded, for TimelineForm::Columns; and the same from
// a list of timed ops, for runs the engine's plan does not time (runtime timing).
#pragma once

#include "engine_run.h"
#include "op_plan.h"
#include "pipesim/timeline_columns.h"

namespace pipesim::detail {

/// The timeline of `plan` (every op, rank by rank): op i started at tick `starts[i]` and ran
/// `lengths.of(i, op)` ticks.
TimelineTable plan_columns(const OpPlan& plan, const Tick* starts, const OpLengths& lengths);

/// The columns of a per-rank list of timed ops (SimResult::timeline's form).
TimelineTable ops_columns(const std::vector<RankTimeline>& timeline);

}  // namespace pipesim::detail
