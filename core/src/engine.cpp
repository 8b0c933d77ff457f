// The public face of the engine: simulate() and simulate_schedule() build an OpPlan (from the
// generators, or from a user's Schedule), run it (engine_run.cpp) and turn the tallies into a
// SimResult; replay() turns a result into a (time, priority, sequence)-ordered trace.
#include "pipesim/engine.h"

#include <algorithm>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "activation_steps.h"
#include "engine_run.h"
#include "op_plan.h"
#include "pipesim/stage_costs.h"
#include "plan_columns.h"
#include "runtime_timing.h"
#include "schedules/registry.h"
#include "simulate_valid.h"

#ifndef PIPESIM_KEEP_MEMORY
#define PIPESIM_KEEP_MEMORY 1
#endif

namespace pipesim {
namespace {

using detail::EngineRun;
using detail::RankTally;
using detail::Tick;
using detail::to_units;

// Per-rank compute, communication and exposed time from the engine's tallies.
void add_comm_stats(SimResult& r, const EngineRun& run) {
  Tick total_compute = 0, total_comm = 0, total_exposed = 0;
  for (std::size_t rank = 0; rank < run.ranks.size(); ++rank) {
    const RankTally& t = run.ranks[rank];
    RankStats& st = r.per_rank[rank];
    st.compute = to_units(t.compute);
    st.comm = to_units(t.comm);
    st.exposed_comm = to_units(t.busy - t.compute);
    total_compute += t.compute;
    total_comm += t.comm;
    total_exposed += t.busy - t.compute;
  }
  CommSummary s;
  s.total = to_units(total_comm);
  s.exposed = to_units(total_exposed);
  s.hidden = to_units(total_comm - total_exposed);
  s.hidden_fraction = total_comm > 0 ? static_cast<double>(total_comm - total_exposed) /
                                           static_cast<double>(total_comm)
                                     : 0.0;
  s.compute_utilization =
      run.makespan > 0 ? static_cast<double>(total_compute) /
                             (static_cast<double>(run.ranks.size()) * static_cast<double>(run.makespan))
                       : 0.0;
  r.comm = s;
}

// Runs a plan already known to pass check_schedule and validate_costs; `ops` as for run_engine.
// `order` is how the ops' parts run under the communication model (pipesim/comm.h).
Result<SimResult> run_plan(const detail::OpPlan& plan, const std::vector<std::vector<Op>>* ops,
                           const Costs& costs, PartOrder order, const SimOptions& options,
                           detail::EngineBuffers& buffers) {
  auto run = detail::run_engine(plan, ops, costs, order, options, buffers);
  if (!run.ok()) return run.error();
  const Schedule& schedule = plan.shape();

  SimResult r;
  r.config.schedule = schedule.name;
  r.config.ranks = schedule.ranks;
  r.config.microbatches = schedule.microbatches_per_direction * schedule.directions;
  r.config.costs = costs;
  r.stages = schedule.stages;
  r.stages_per_rank = schedule.stages_per_rank;
  r.param_copies = schedule.param_copies;
  EngineRun engine_run = std::move(run).value();
  r.timeline = std::move(engine_run.timeline);
  r.columns = std::move(engine_run.columns);
  r.activation_steps = std::move(engine_run.activation_steps);
  r.makespan = to_units(engine_run.makespan);
  Tick total_idle = 0, max_idle = 0;
  // One stage holds 1/stages of the model (of one copy); one rank's share is 1/ranks.
  const double memory_per_activation = activation_memory_unit(schedule.ranks, schedule.stages);
  for (int rank = 0; rank < schedule.ranks; ++rank) {
    RankStats st;
    st.rank = rank;
    const RankTally& tally = engine_run.ranks[static_cast<std::size_t>(rank)];
    const Tick idle = engine_run.makespan - tally.busy;
    st.busy = to_units(tally.busy);
    st.idle = to_units(idle);
    total_idle += idle;
    max_idle = std::max(max_idle, idle);
    st.peak_activations = tally.peak_activations;
    st.peak_activation_memory = st.peak_activations * memory_per_activation;
    PIPESIM_CHECK(tally.in_flight == 0, "activations must return to zero at the end of a step");
    r.max_peak_activations = std::max(r.max_peak_activations, st.peak_activations);
    r.max_peak_activation_memory = std::max(r.max_peak_activation_memory, st.peak_activation_memory);
    r.per_rank.push_back(st);
  }
  r.bubble_max = to_units(max_idle);
  r.bubble_total = to_units(total_idle);
  r.bubble_fraction = engine_run.makespan > 0
                          ? static_cast<double>(total_idle) /
                                (static_cast<double>(schedule.ranks) * static_cast<double>(engine_run.makespan))
                          : 0.0;
  r.utilization = 1.0 - r.bubble_fraction;
  if (costs.comm) add_comm_stats(r, engine_run);
  return r;
}

}  // namespace

namespace detail {

Result<SimResult> simulate_valid(const SimConfig& config, const SimOptions& options,
                                 SimWorkspace& ws) {
  if (config.timing == Timing::Runtime) {  // DualPipe(V) only; times a list of ops, not a plan
    auto result = simulate_runtime(config);
    if (!result.ok()) return result;
    SimResult r = std::move(result).value();
    if (options.activation_steps)
      r.activation_steps = detail::ops_activation_steps(
          r.timeline, activation_memory_unit(r.config.ranks, r.stages));
    if (options.timeline == TimelineForm::Columns) r.columns = ops_columns(r.timeline);
    if (options.timeline != TimelineForm::Ops) r.timeline.assign(r.timeline.size(), {});
    return r;
  }
  // The generator writes straight into the plan. Built-in generators are trusted to emit
  // well-formed lists (tests/core run check_schedule and the invariant checker over every
  // generator and many shapes), so the structural check, a third of a simulation's time, is
  // skipped here. User-supplied lists go through simulate_schedule.
  find_schedule(config.schedule)->generate(config, ws.plan);
  auto result = run_plan(ws.plan, nullptr, config.costs, part_order(config), options, ws.engine);
  if (!result.ok()) return result;
  SimResult r = std::move(result).value();
  r.config = config;  // keep the caller's microbatch count and costs verbatim
  return r;
}

Result<SimResult> simulate_valid(const SimConfig& config, const SimOptions& options) {
  // Natively one workspace per thread, kept between calls: a fresh one made every call allocate
  // its plan and start times anew, and glibc serves blocks that large straight from the kernel
  // (mmap), so every call faulted them in again (zb-v 64x1024: 10 MB, ~2,400 page faults). Where
  // the build does not keep memory (WebAssembly, core/CMakeLists.txt), a fresh one each call.
  if (!PIPESIM_KEEP_MEMORY) {
    SimWorkspace fresh;
    return simulate_valid(config, options, fresh);
  }
  thread_local SimWorkspace ws;
  return simulate_valid(config, options, ws);
}

}  // namespace detail

Result<SimResult> simulate_schedule(const Schedule& schedule, const Costs& costs,
                                    const SimOptions& options) {
  if (Status st = check_schedule(schedule); !st.ok()) return st.error();
  if (Status st = validate_costs(costs); !st.ok()) return st.error();
  if (Status st = check_stage_count(costs, schedule.stages); !st.ok()) return st.error();
  detail::OpPlan plan;
  Schedule shape;
  shape.name = schedule.name;
  shape.ranks = schedule.ranks;
  shape.stages = schedule.stages;
  shape.directions = schedule.directions;
  shape.microbatches_per_direction = schedule.microbatches_per_direction;
  shape.stages_per_rank = schedule.stages_per_rank;
  shape.param_copies = schedule.param_copies;
  std::size_t ops = 0;
  for (const std::vector<Op>& rank_ops : schedule.rank_ops) ops += rank_ops.size();
  plan.begin(std::move(shape), ops);
  for (const std::vector<Op>& rank_ops : schedule.rank_ops) {
    plan.open_rank();
    for (const Op& op : rank_ops) plan.push(op);
  }
  detail::EngineBuffers buffers;
  // The timeline holds the caller's own Ops, exactly as given.
  // A hand-written schedule's pairs are DeepSeek's (it has no a2aOverlap option).
  return run_plan(plan, &schedule.rank_ops, costs, PartOrder::DeepSeek, options, buffers);
}

Result<SimResult> simulate(const SimConfig& config, const SimOptions& options) {
  if (Status st = validate(config); !st.ok()) return st.error();
  return detail::simulate_valid(config, options);
}

void replay(const SimResult& result, Observer& observer) {
  // (time, priority, rank, index): finishes (0) before starts (1) at equal times.
  using Event = std::tuple<double, int, int, std::size_t>;
  std::vector<Event> events;
  for (std::size_t rank = 0; rank < result.timeline.size(); ++rank)
    for (std::size_t i = 0; i < result.timeline[rank].size(); ++i) {
      const TimedOp& t = result.timeline[rank][i];
      events.emplace_back(t.start, 1, static_cast<int>(rank), i);
      events.emplace_back(t.end, 0, static_cast<int>(rank), i);
    }
  std::sort(events.begin(), events.end());
  std::vector<int> in_flight(result.timeline.size(), 0);
  for (const auto& [time, priority, rank, i] : events) {
    const TimedOp& t = result.timeline[static_cast<std::size_t>(rank)][i];
    if (priority == 1) {
      observer.on_op_start(rank, t);
      continue;
    }
    observer.on_op_finish(rank, t);
    const int delta = detail::activation_delta(t.op.kind);
    if (delta != 0) {
      in_flight[static_cast<std::size_t>(rank)] += delta;
      observer.on_activations(rank, time, delta, in_flight[static_cast<std::size_t>(rank)]);
    }
  }
}

}  // namespace pipesim
