// Private: timing "runtime" (pipesim/config.h Timing::Runtime). The op order is the generators';
// this adds the communication points of DeepSeek's step() and times the ops against them.
#pragma once

#include "pipesim/config.h"
#include "pipesim/engine.h"
#include "pipesim/error.h"

namespace pipesim::detail {

/// Simulates a validated DualPipe or DualPipeV config whose timing is Runtime. Errors: internal
/// if the ranks wait on each other for ever (never expected: the reference code runs).
Result<SimResult> simulate_runtime(const SimConfig& config);

}  // namespace pipesim::detail
