// Private: each rank's in-flight activations over time (SimResult::activation_steps), built from
// the plan the engine ran and its recorded starts, or from a list of timed ops (runtime timing).
// The accounting is activation_delta's, the one rule the engine's peaks, replay() and these
// steps share.
#pragma once

#include <vector>

#include "engine_run.h"
#include "op_plan.h"
#include "pipesim/engine.h"

namespace pipesim::detail {

/// What an op does to its rank's in-flight activations when it ends: a chunk is in flight from
/// the end of its F to the end of its B (full or input-gradient). A W changes nothing, and an FB
/// pair releases its backward's activations as its forward's appear (net zero).
inline int activation_delta(OpKind kind) {
  switch (kind) {
    case OpKind::Forward: return 1;
    case OpKind::Backward: return -1;
    case OpKind::Weight:
    case OpKind::ForwardBackward: return 0;
  }
  return 0;
}

/// The steps of every rank of `plan`: op i started at tick `starts[i]` and ran
/// `lengths.of(i, op)` ticks; one stage-micro-batch is `unit` per-GPU units
/// (activation_memory_unit).
std::vector<ActivationSteps> plan_activation_steps(const OpPlan& plan, const Tick* starts,
                                                   const OpLengths& lengths, double unit);

/// The same from a per-rank list of timed ops (SimResult::timeline's form).
std::vector<ActivationSteps> ops_activation_steps(const std::vector<RankTimeline>& timeline,
                                                  double unit);

}  // namespace pipesim::detail
