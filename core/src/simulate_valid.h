// Private: the trusted half of simulate(). Requests are parsed and validated once on the way in
// (json.cpp, sweep.cpp, the exercise calculators); what they pass on runs without a second check,
// over caller-owned buffers: a sweep runs all its cells in one workspace, so no cell allocates its
// plan or the engine's tables afresh (natively, glibc handed each cell's large buffers back to the
// kernel and the next cell faulted them in again).
#pragma once

#include "engine_run.h"
#include "op_plan.h"
#include "pipesim/engine.h"

namespace pipesim::detail {

/// validate(), with the costs skipped when the caller has already checked them (a sweep checks
/// its one set of costs once, then every cell's shape).
Status validate_config(const SimConfig& config, bool costs_checked);

/// The buffers one simulation needs, reusable by the next.
struct SimWorkspace {
  OpPlan plan;
  EngineBuffers engine;
};

/// simulate() for a config validate() accepted: generates its schedule into `ws` and runs it.
Result<SimResult> simulate_valid(const SimConfig& config, const SimOptions& options, SimWorkspace& ws);
/// The same in the calling thread's workspace, which natively stays allocated between calls
/// (holding the largest simulation's plan and buffers so far: about 60 MB at kMaxOps); a fresh
/// one in builds that do not keep memory (WebAssembly; core/CMakeLists.txt).
Result<SimResult> simulate_valid(const SimConfig& config, const SimOptions& options = {});

}  // namespace pipesim::detail
