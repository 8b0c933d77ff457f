// Calculators behind the lesson's exercises (issue 5): recovered GPU-hours between two schedules,
// parameter counts and what one GPU holds under every schedule (the memory model's view), and the
// rank x time-slot grid of a hand trace. Each has a request struct validated with exact messages
// and JSON-pointer paths, a pure calculation, and camelCase JSON in and out, so the CLI
// (pipesim recover | params | trace) and the WASM module return the same answers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pipesim/config.h"
#include "pipesim/engine.h"
#include "pipesim/error.h"
#include "pipesim/json.h"
#include "pipesim/memory.h"
#include "pipesim/model.h"

namespace pipesim {

// ---------------------------------------------------------------------------------------------
// recover: GPU-hours recovered by moving from one schedule to another.
//
// Definition: a run whose useful work takes H GPU-hours at utilisation u occupies H/u GPU-hours.
// The baseline C is the cost of the `to` run per million tokens (DeepSeek-V3's 180K H800
// GPU-hours per trillion tokens, report §1, = 0.18 per million, already includes DualPipe), so the
// same tokens cost H = C * u_to of useful work, and the `from` run would cost C * u_to / u_from.
// Recovered = C * (u_to / u_from - 1). Both runs use the same ranks, micro-batches and costs, so
// they do the same useful work; only their idle fractions differ. Only pipeline bubbles count.

/// The one definition of GPU-hours saved (recover, the planner and the lesson report all call
/// it): `cost_to` is what the better run costs, and the same useful work at `utilization_from`
/// costs cost_to x utilization_to / utilization_from, so the saving is
/// cost_to x (utilization_to / utilization_from - 1). Not (u_to - u_from) x cost: that treats the
/// budget as a run at 100% utilisation and understates the saving.
double gpu_hours_saved(double cost_to, double utilization_from, double utilization_to);

/// Default baseline: DeepSeek-V3 report §1, 180K H800 GPU-hours per trillion tokens.
inline constexpr double kDeepSeekV3GpuHoursPerMillionTokens = 0.18;

/// Most tokens a recover request may extrapolate to (1e16: far above any published run).
inline constexpr double kMaxTrainingTokens = 1e16;

struct RecoverRequest {
  int ranks = 8;
  int microbatches = 16;
  std::string from = "1f1b";    ///< the schedule we move away from
  std::string to = "dualpipe";  ///< the schedule whose cost the baseline measures
  Costs costs;
  double gpu_hours_per_million_tokens = kDeepSeekV3GpuHoursPerMillionTokens;  ///< C, > 0
  /// Tokens of a whole training run, when the saving is extrapolated to one (DeepSeek-V3's
  /// pre-training: 14.8e12, report §4.2). The extrapolation holds only at this request's M and
  /// costs, which the result states beside it.
  std::optional<double> training_tokens;
};

/// The saving at one micro-batch count M (same ranks, schedules, costs and baseline).
struct RecoverPoint {
  int microbatches = 0;
  double utilization_from = 0, utilization_to = 0;
  double recovered_gpu_hours_per_million_tokens = 0;
  std::optional<double> recovered_gpu_hours_for_run;  ///< with RecoverRequest::training_tokens
};

struct RecoverResult {
  RecoverRequest request;
  double makespan_from = 0, makespan_to = 0;          ///< cost units
  double utilization_from = 0, utilization_to = 0;    ///< 1 - bubble.fraction of each run
  double utilization_gain = 0;                        ///< utilization_to - utilization_from
  double gpu_hours_per_million_tokens_from = 0;       ///< C * u_to / u_from
  double recovered_gpu_hours_per_million_tokens = 0;  ///< C * (u_to / u_from - 1)
  std::optional<double> recovered_gpu_hours_for_run;  ///< per million tokens x training_tokens / 1e6
  /// The saving's main driver: a schedule's idle time per rank does not grow with M, so its
  /// share of the step, and the saving, shrinks as M grows. One point per M of
  /// recover_microbatch_series, the request's own M included.
  std::vector<RecoverPoint> by_microbatches;
};

/// The micro-batch counts recover() reports beside the request's own: the smallest M both
/// schedules accept at `ranks`, then 1.5, 2, 3, 4, 6 and 8 times it, each raised to the next M
/// both accept, and `microbatches` itself; sorted, without repeats, and without the counts the
/// size caps refuse (validate's too_large). Requires a request validate_recover accepted.
std::vector<int> recover_microbatch_series(const RecoverRequest& request);

/// Errors: unknown_schedule (/from, /to), invalid_config (/ranks, /microbatches, /costs/...,
/// /gpuHoursPerMillionTokens, /trainingTokens; a shape one schedule cannot run names that
/// schedule), too_large.
Status validate_recover(const RecoverRequest& request);
Result<RecoverResult> recover(const RecoverRequest& request);
/// {"ranks","microbatches","from","to","costs"?,"gpuHoursPerMillionTokens"?,"trainingTokens"?};
/// runs validate.
Result<RecoverRequest> recover_request_from_json(const Json& json);
/// recover_request_from_json then recover, validating once (the CLI's and the page's call).
Result<RecoverResult> recover_request(const Json& json);
Json recover_result_to_json(const RecoverResult& result);

// ---------------------------------------------------------------------------------------------
// params: the parameter breakdown of a model (pipesim/model.h) and what one GPU holds of it under
// every schedule of the catalogue, counted by the memory model (pipesim/memory.h).

/// A params request: the model and the accounting every schedule's row shares (the memory
/// model's recipe, ZeRO stage and layout; the schedule is each row's own).
struct ParamsRequest {
  ModelConfig model;
  int pp = 8;  ///< pipeline-parallel ranks P
  int tp = 1;  ///< tensor parallelism
  int ep = 1;  ///< expert parallelism: routed experts over EP GPUs of the data-parallel group
  int dp = 1;  ///< data parallelism; ZeRO shards over it
  std::string recipe = kDefaultRecipe;  ///< precision recipe (pipesim/memory.h)
  int zero = 0;                         ///< ZeRO stage
  double gpu_memory_gb = 80.0;          ///< GPU memory, 1 GB = 1e9 bytes
};

/// The memory model's request for `request` under `schedule`, without activations.
MemoryRequest params_memory_request(const ParamsRequest& request, const std::string& schedule);

/// What one GPU holds under one schedule: the memory model's result for it.
struct ScheduleFootprint {
  std::string schedule;
  MemoryResult memory;
};

/// The breakdown and every catalogue schedule's footprint under one accounting.
struct ParamsResult {
  ParamsRequest request;
  ParamCount count;
  std::vector<ScheduleFootprint> schedules;  ///< every catalogue schedule, in catalogue order
  /// DualPipe minus 1F1B per GPU: the second copy's slice.
  double overhead_params_per_gpu = 0, overhead_bytes_per_gpu = 0;
  double overhead_share_of_model = 0;       ///< overhead_params_per_gpu / total params
  double overhead_share_of_gpu_memory = 0;  ///< overhead_bytes_per_gpu / GPU memory
};

/// Errors: invalid_config with paths /pp, /tp, /ep, /dp, /recipe, /zero, /gpuMemoryGb, /custom/...
Status validate_params(const ParamsRequest& request);
Result<ParamsResult> params(const ParamsRequest& request);
/// {"model": "llama3-70b"|"deepseek-v3"|"custom", "custom"?: {layers, hidden, intermediate,
///  vocab, heads, kvHeads, headDim?, tiedEmbeddings?, denseLayers?, routedExperts?,
///  sharedExperts?, expertIntermediate?}, "pp", "tp"?, "ep"?, "dp"?, "recipe"?, "zero"?,
///  "gpuMemoryGb"?}; runs validate_params.
Result<ParamsRequest> params_request_from_json(const Json& json);
/// params_request_from_json then params, validating once.
Result<ParamsResult> params_request(const Json& json);
Json params_result_to_json(const ParamsResult& result);

// ---------------------------------------------------------------------------------------------
// trace: the rank x time-slot grid of a simulation whose op times fall on a slot grid.

/// Cap on ranks x slots, so a grid stays a small JSON document (too_large above it).
inline constexpr std::int64_t kMaxTraceCells = 200'000;

struct TraceRequest {
  SimConfig config;
  double slot_length = 1.0;  ///< every op cost and p2pLatency must be a multiple of it
};

struct TraceGrid {
  SimResult result;
  double slot_length = 1.0;
  int slots = 0;  ///< makespan / slot_length
  /// cells[rank][slot]: index into result.timeline[rank] of the op covering that slot, or -1 when
  /// the rank is idle. An op of length k slots covers k consecutive cells (an FB pair spans 3 at
  /// F&B = 3).
  std::vector<std::vector<int>> cells;
  std::optional<int> first_all_busy_slot;  ///< smallest slot in which no rank is idle
};

/// Errors: those of validate(config) under /config, invalid_config (/slotLength, or the first
/// cost that is not a multiple of slotLength), too_large (more than kMaxTraceCells cells).
Result<TraceGrid> trace_grid(const TraceRequest& request);
/// {"config": {schedule, ranks, microbatches, costs?}, "slotLength"?}
Result<TraceRequest> trace_request_from_json(const Json& json);
/// trace_request_from_json then trace_grid, validating once.
Result<TraceGrid> trace_request(const Json& json);
/// {"schedule","ranks","microbatches","slotLength","slots","firstAllBusySlot" (null if never),
///  "bubbleMax","grid":[[cell|null, ...] per rank]} where a cell is the op's timeline JSON
///  fields plus "index" (position in the rank's timeline) and "offset" (slot within the op).
Json trace_grid_to_json(const TraceGrid& grid);

}  // namespace pipesim
