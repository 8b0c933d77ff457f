// Sweeps: the same cost model over a grid of schedules x ranks x micro-batch counts. A cell whose
// shape a schedule does not allow is reported as a row with its error, not as a failure of the
// whole sweep, so a chart can show "n/a" where DualPipe needs more micro-batches.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pipesim/config.h"
#include "pipesim/error.h"
#include "pipesim/json.h"

namespace pipesim {

/// A micro-batch count, either absolute or a multiple of the ranks ("4R").
struct MicrobatchSpec {
  int value = 1;
  bool per_rank = false;
  int resolve(int ranks) const { return per_rank ? value * ranks : value; }
};

struct SweepRequest {
  std::vector<std::string> schedules;
  std::vector<int> ranks;
  std::vector<MicrobatchSpec> microbatches;
  Costs costs;
  /// SimConfig::chunks for the schedules that take chunks (0: each one's default); the other
  /// schedules run their fixed layout.
  int chunks = 0;
};

struct SweepRow {
  std::string schedule;
  int ranks = 0;
  int microbatches = 0;
  bool ok = false;
  Error error;  ///< set when !ok
  int stages = 0;
  double makespan = 0, bubble_max = 0, bubble_fraction = 0, utilization = 0;
  int max_peak_activations = 0;
  double max_peak_activation_memory = 0;  ///< SimResult::max_peak_activation_memory
  int param_copies = 1;
};

/// Limits: at most kMaxSweepCells cells and kMaxSweepOps ops in total (too_large otherwise).
inline constexpr int kMaxSweepCells = 20'000;
inline constexpr std::int64_t kMaxSweepOps = 60'000'000;

/// Checks the grid (names known, lists non-empty, costs valid, size within limits).
Status validate_sweep(const SweepRequest& request);

/// Runs every cell in order schedule-major, then ranks, then micro-batches.
Result<std::vector<SweepRow>> run_sweep(const SweepRequest& request);

/// {"schedules":[..], "ranks":[..], "microbatches":[8, "4R", ..], "costs":{..}, "stageCosts"?,
/// "chunks"?}; runs validate_sweep. A cell whose stages differ from stageCosts' count is a row
/// with that error (stage_costs.count).
Result<SweepRequest> sweep_from_json(const Json& json);
/// sweep_from_json then the sweep, validating once: what the CLI's and the page's sweeps call.
Result<std::vector<SweepRow>> sweep_request(const Json& json);
/// {"rows":[{schedule, ranks, microbatches, ok, stages, makespan, bubbleMax, bubbleFraction,
///  utilization, maxPeakActivations, maxPeakActivationMemory, paramCopies} | {schedule, ranks, microbatches, ok:false, error}]}
Json sweep_to_json(const std::vector<SweepRow>& rows);

/// Parses "8", "4R" (a multiple of ranks). Errors name `path`.
Result<MicrobatchSpec> parse_microbatch_spec(const std::string& text, const std::string& path);

}  // namespace pipesim
