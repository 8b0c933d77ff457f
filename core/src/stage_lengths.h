// Private: the length of every op of a plan under per-stage costs (Costs::stages), worked out
// once before the engine runs it, since an op's length then depends on its chunk's stage (and an
// FB pair's on two stages) rather than its kind alone; and, under the communication model, what
// each rank computed and communicated.
#pragma once

#include <vector>

#include "engine_run.h"
#include "op_plan.h"
#include "pipesim/comm.h"
#include "pipesim/config.h"

namespace pipesim::detail {

struct StageLengths {
  std::vector<Tick> ticks;    ///< every op's length, in plan order
  std::vector<Tick> compute;  ///< per rank: compute time of its ops (= their lengths without comm)
  std::vector<Tick> comm;     ///< per rank: communication time of its ops (0 without comm)
};

/// The lengths of `plan`'s ops under `costs`, which has one stage cost per stage of the plan, with
/// the communication model's parts in `order`.
StageLengths stage_lengths(const OpPlan& plan, const Costs& costs, PartOrder order);

}  // namespace pipesim::detail
