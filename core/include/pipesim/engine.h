// The engine executes per-rank op lists under a cost model and reports the timeline and metrics.
// Each rank runs its list strictly in order; an op starts when its rank is free and its data
// dependencies (plus p2p latency across ranks) have finished.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "pipesim/config.h"
#include "pipesim/error.h"
#include "pipesim/recycling_allocator.h"
#include "pipesim/schedule.h"
#include "pipesim/timeline_columns.h"

namespace pipesim {

/// An op with the times the engine gave it.
struct TimedOp {
  Op op;
  double start = 0.0;
  double end = 0.0;
};

/// One rank's timed ops in execution order. Its storage is recycled within a thread
/// (pipesim/recycling_allocator.h), so repeated simulations do not fault fresh pages in.
using RankTimeline = std::vector<TimedOp, RecyclingAllocator<TimedOp>>;

/// What one stage-micro-batch of activations is in per-GPU units, one unit being one
/// micro-batch's activations through 1/ranks of the model (so schedules whose stages are smaller
/// than a rank's share, like DualPipeV's, compare on one scale): ranks / stages.
inline double activation_memory_unit(int ranks, int stages) {
  return stages > 0 ? static_cast<double>(ranks) / stages : 1.0;
}

/// Per-rank figures. idle = makespan - busy.
struct RankStats {
  int rank = 0;
  double busy = 0.0;
  double idle = 0.0;
  int peak_activations = 0;  ///< max stage-micro-batches whose F finished and whose B has not
  /// peak_activations in per-GPU units: activations of one micro-batch through 1/ranks of the
  /// model, = peak_activations x ranks / stages (a DualPipeV stage is half a rank's share of
  /// layers, so its count halves), so schedules with different stage sizes compare directly.
  double peak_activation_memory = 0.0;
  // With a communication model (Costs::comm) only; busy = compute + exposed_comm.
  double compute = 0.0;       ///< time the compute stream ran
  double comm = 0.0;          ///< time the communication stream ran
  double exposed_comm = 0.0;  ///< time inside ops that the compute stream waited for communication
};

/// One rank's in-flight activations over time, in per-GPU units (activation_memory_unit): the
/// level is level[i] from time[i] until time[i + 1], and level.back() after. time[0] = 0 with
/// level 0, then one point per F or B end in the rank's order (+1 unit at an F's end, -1 at a
/// B's, full or input-gradient; W and FB pairs change nothing), so its highest level is the rank's
/// peak_activation_memory and its last is 0. A zero-length B (W = B) puts two points at one time;
/// the later one holds.
struct ActivationSteps {
  std::vector<double> time;
  std::vector<double> level;
};

/// Communication totals over all ranks (pipesim/comm.h). hidden = total - exposed.
struct CommSummary {
  double total = 0.0;
  double exposed = 0.0;
  double hidden = 0.0;
  double hidden_fraction = 0.0;      ///< hidden / total, 0 when there is no communication
  double compute_utilization = 0.0;  ///< sum of compute / (ranks * makespan): utilisation with
                                     ///< exposed communication counted as lost time
};

/// Everything a simulation reports. Units are those of Costs.
struct SimResult {
  SimConfig config;
  int stages = 0;
  int stages_per_rank = 1;
  int param_copies = 1;
  double makespan = 0.0;
  std::vector<RankStats> per_rank;
  double bubble_max = 0.0;       ///< max per-rank idle: the quantity in DeepSeek's bubble table
  double bubble_total = 0.0;     ///< sum of per-rank idle
  double bubble_fraction = 0.0;  ///< bubble_total / (ranks * makespan)
  double utilization = 0.0;      ///< 1 - bubble_fraction
  int max_peak_activations = 0;  ///< max over ranks of peak_activations
  double max_peak_activation_memory = 0.0;  ///< max over ranks of peak_activation_memory
  std::optional<CommSummary> comm;  ///< set exactly when config.costs.comm is
  /// Per rank, with SimOptions::activation_steps; else empty.
  std::vector<ActivationSteps> activation_steps;
  std::vector<RankTimeline> timeline;  ///< per rank, in execution order (TimelineForm::Ops)
  TimelineTable columns;  ///< the same timeline as columns (TimelineForm::Columns), else empty
};

/// Receives the trace of a finished simulation in time order (see replay). Default: ignore.
class Observer {
 public:
  virtual ~Observer() = default;
  virtual void on_op_start(int /*rank*/, const TimedOp& /*op*/) {}
  virtual void on_op_finish(int /*rank*/, const TimedOp& /*op*/) {}
  /// In-flight activations on `rank` changed by `delta` at `time`, now `in_flight`.
  virtual void on_activations(int /*rank*/, double /*time*/, int /*delta*/, int /*in_flight*/) {}
};

/// How a simulation records its timeline. Without Ops, SimResult::timeline holds every rank's
/// list empty.
enum class TimelineForm : std::uint8_t {
  None,     ///< metrics only (sweeps)
  Ops,      ///< SimResult::timeline: every op with its start and end
  Columns,  ///< SimResult::columns: the same in one block of columns (what the JS API hands over)
};

/// What to record besides the metrics.
struct SimOptions {
  TimelineForm timeline = TimelineForm::Ops;
  /// Also record SimResult::activation_steps (O(ops) after the run; off for sweeps).
  bool activation_steps = false;
};

/// Runs `schedule` under `costs`. Errors: invalid_schedule (check_schedule fails), deadlock (the
/// message names the stuck head op of every blocked rank and what it waits for). Never hangs: it
/// does O(ops) work.
Result<SimResult> simulate_schedule(const Schedule& schedule, const Costs& costs,
                                    const SimOptions& options = {});

/// validate + generate_schedule + simulate_schedule. The usual entry point.
Result<SimResult> simulate(const SimConfig& config, const SimOptions& options = {});

/// Feeds the trace of `result` to `observer` ordered by (time, priority, sequence): finishes
/// before starts at equal times, then rank, then position in the rank's list.
void replay(const SimResult& result, Observer& observer);

}  // namespace pipesim
