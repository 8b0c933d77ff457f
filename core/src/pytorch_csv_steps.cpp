// torch.distributed.pipelining dumps a schedule as a step grid: column k is time step k, every
// action takes one step and an idle step is an empty cell. A simulated run has that grid exactly
// when every op lasts the same time: then each op's start is its step times that time, and the
// columns below reproduce torch's own dumps (pre-padding, warm-up gaps and all). With unequal
// durations no grid tells the truth, so the writer falls back to the compact rows.
#include <cmath>
#include <cstdint>
#include <vector>

#include "pipesim/pytorch_csv.h"

namespace pipesim {
namespace {

// The engine counts in whole ticks and reports ticks / kTicksPerUnit: rounding back is exact.
std::int64_t ticks(double units) { return std::llround(units * kTicksPerUnit); }

}  // namespace

PytorchCsvSteps pytorch_csv_steps(const SimResult& result) {
  std::int64_t unit = -1;
  for (const auto& rank : result.timeline)
    for (const TimedOp& t : rank) {
      const std::int64_t length = ticks(t.end) - ticks(t.start);
      if (unit < 0) unit = length;
      if (length != unit || length <= 0) return {};
    }
  if (unit <= 0) return {};
  PytorchCsvSteps steps(result.timeline.size());
  for (std::size_t r = 0; r < result.timeline.size(); ++r) {
    steps[r].reserve(result.timeline[r].size());
    for (const TimedOp& t : result.timeline[r]) {
      const std::int64_t start = ticks(t.start);
      if (start % unit != 0) return {};  // a latency that is not a whole step shifts it off the grid
      steps[r].push_back(start / unit);
    }
  }
  return steps;
}

}  // namespace pipesim
