// Private: the planner's view of the memory model and its GPU table (plan_memory.cpp).
#pragma once

#include <string>

#include "pipesim/planner.h"

namespace pipesim::detail {

/// The model uses expert parallelism: MoE with EP > 1.
bool expert_parallel(const ModelSpec& model);

/// Whether P = `ranks` splits the cluster into whole pipelines whose data-parallel group holds
/// whole expert-parallel groups: the layouts the memory model can count.
bool layout_fits(const PlanSpec& spec, int ranks);

/// Training state of one GPU at depth `ranks` under `schedule` (its parameter copies), counted by
/// the memory model (pipesim/memory.h) with the spec's recipe and ZeRO stage, DP = gpus / ranks.
/// `shard_experts` false treats the model as one piece (the "fits in one GPU" test: no model
/// parallelism, no expert parallelism). `ranks` must satisfy layout_fits.
PlanMemory memory_at(const PlanSpec& spec, int ranks, const std::string& schedule, int chunks,
                     bool shard_experts);

}  // namespace pipesim::detail
