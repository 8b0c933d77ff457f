// Private: simulate() over caller-owned buffers. A sweep runs all its cells in one workspace, so
// no cell allocates its plan or the engine's tables afresh (natively, glibc handed each cell's
// large buffers back to the kernel and the next cell faulted them in again).
#pragma once

#include "engine_run.h"
#include "op_plan.h"
#include "pipesim/engine.h"

namespace pipesim::detail {

struct SimWorkspace {
  OpPlan plan;
  EngineBuffers engine;
};

/// Exactly simulate(config, options), reusing `ws`.
Result<SimResult> simulate_in(const SimConfig& config, const SimOptions& options, SimWorkspace& ws);

}  // namespace pipesim::detail
