// Published closed forms, kept beside the simulator so the product can show both and say when a
// formula applies. DeepSeek's table (deepseek-ai/DualPipe README; DeepSeek-V3 report, Table 2)
// gives the per-device bubble in terms of the number of pipeline stages PP.
#pragma once

#include <string>

#include "pipesim/config.h"

namespace pipesim {

struct ReferenceBubble {
  std::string formula;     ///< e.g. "(PP/2-1)(F&B+B-3W)"; "" when no published formula exists
  double bubble_max = 0;   ///< the formula's value for these stages and costs
  bool applies = false;    ///< costs lie in the region where the formula is exact (and p2p = 0)
  std::string condition;   ///< the region of validity in words
  std::string source;
};

/// DeepSeek's table value for `schedule` with `stages` pipeline stages (PP) under `costs`.
/// Regions (derived from the schedules' structure and checked by simulation in tests):
/// GPipe, 1F1B: always; ZB-H1: W <= F and W <= B-W; DualPipe, DualPipeV: B-W = F, W <= F and
/// max(F, B) <= F&B <= F+B. All need p2pLatency = 0.
ReferenceBubble reference_bubble(const std::string& schedule, int stages, const Costs& costs);

}  // namespace pipesim
