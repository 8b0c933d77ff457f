// What a user asks pipesim to simulate: a schedule name, a pipeline shape and a cost model.
// validate() is the single gate between untrusted input and the generators and engine.
#pragma once

#include <cstdint>
#include <string>

#include "pipesim/error.h"

namespace pipesim {

/// Execution time of each kind of op, in arbitrary time units (DeepSeek's table uses F, B, W, F&B).
struct Costs {
  double forward = 1.0;     ///< F: forward of one micro-batch through one stage (> 0)
  double backward = 2.0;    ///< B: full backward of one chunk, input- plus weight-gradient (> 0)
  double weight = 1.0;      ///< W: weight-gradient part of B (0 <= W <= B); a zero-bubble B costs B - W
  double overlapped = 3.0;  ///< F&B: one forward and one full backward run as an overlapped pair (> 0)
  double p2p_latency = 0.0; ///< added to every dependency that crosses ranks (>= 0)
};

/// One simulation request. Field names match the JSON schema (docs/schema.md).
struct SimConfig {
  std::string schedule = "1f1b";  ///< one of list_schedules()
  int ranks = 4;                  ///< pipeline-parallel devices
  int microbatches = 8;           ///< micro-batches per step, over both directions where there are two
  Costs costs;
};

/// Upper bounds that keep every request fast and small: a larger request fails with too_large
/// before anything is allocated. kMaxOps bounds ops in one simulation (about 100 MB of JSON).
inline constexpr int kMaxRanks = 1024;
inline constexpr int kMaxMicrobatches = 1 << 20;
inline constexpr std::int64_t kMaxOps = 2'000'000;
inline constexpr double kMaxCost = 1e6;
/// The engine counts time in integer ticks of 1e-6 units, so sums are exact and identical on every
/// platform; costs are rounded to that resolution and a positive cost must be at least 1e-6.
/// (kMaxOps x kMaxCost x kTicksPerUnit = 2e18 ticks stays below 2^63.)
inline constexpr double kTicksPerUnit = 1e6;

/// Checks every field of `config` against the general rules and the rules of its schedule.
/// Errors: unknown_schedule (/schedule), invalid_config (the offending field), too_large ("").
Status validate(const SimConfig& config);

/// Checks the cost model alone (shared by simulate, sweep and hand-written schedules).
Status validate_costs(const Costs& costs);

}  // namespace pipesim
