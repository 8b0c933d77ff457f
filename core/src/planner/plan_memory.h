// Private: the planner's memory model and GPU table (definitions in plan_memory.cpp).
#pragma once

#include "pipesim/planner.h"

namespace pipesim::detail {

/// The model uses expert parallelism: MoE with EP > 1.
bool expert_parallel(const ModelSpec& model);

/// Training state of one GPU at depth `ranks` with `copies` parameter copies; `shard_experts`
/// false treats the model as one piece (the "fits in one GPU" test: no model parallelism).
PlanMemory memory_at(const PlanSpec& spec, int ranks, int copies, bool shard_experts);

}  // namespace pipesim::detail
