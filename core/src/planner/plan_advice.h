// Private: the planner's all-to-all kernel recommendation (plan_advice.cpp).
#pragma once

#include "pipesim/planner.h"

namespace pipesim::detail {

/// The kernel recommendation for `spec`: none needed without expert parallelism; with it, use the
/// topology-aware kernel inside the overlapped pairs, or the stock one with Zero Bubble.
PlanText all_to_all_advice(const PlanSpec& spec);

}  // namespace pipesim::detail
