// validate(): general range rules, then the schedule's own shape rules, then the costs, then the
// size cap, in that order so the message names the first thing the user should fix.
#include <cmath>
#include <string>
#include <tuple>

#include "fields.h"
#include "pipesim/comm.h"
#include "pipesim/config.h"
#include "pipesim/memory.h"
#include "pipesim/rules.h"
#include "pipesim/stage_costs.h"
#include "schedules/registry.h"
#include "simulate_valid.h"

namespace pipesim {
Status validate_costs(const Costs& c) {
  for (const auto& [field, v, zero_ok] :
       {std::tuple<const char*, double, bool>{"forward", c.forward, false},
        {"backward", c.backward, false},
        {"weight", c.weight, true},
        {"overlapped", c.overlapped, false},
        {"p2pLatency", c.p2p_latency, true}})
    if (Status st = detail::cost_in_range(v, zero_ok, std::string("costs.") + field,
                                          std::string("/costs/") + field);
        !st.ok())
      return st;
  // W is the weight-gradient share of the full backward B, so it cannot exceed it.
  if (c.weight > c.backward)
    return make_error(Rule::FieldAtMostField, "/costs/weight",
                      {{"field", "costs.weight"}, {"target", "costs.backward"}, {"value", c.backward},
                       {"got", c.weight}});
  if (Status st = validate_comm(c); !st.ok()) return st;  // the communication model (pipesim/comm.h)
  return validate_stage_costs(c);  // per-stage costs, when there are any (pipesim/stage_costs.h)
}

namespace detail {

Status validate_config(const SimConfig& config, bool costs_checked) {
  if (Status st = check_schedule_name(config.schedule, "/schedule"); !st.ok()) return st;
  const ScheduleInfo& info = *find_schedule_info(config.schedule);
  if (Status st = detail::int_in_range(config.ranks, 1, kMaxRanks, "ranks", "/ranks"); !st.ok())
    return st;
  if (Status st = detail::int_in_range(config.microbatches, 1, kMaxMicrobatches, "microbatches",
                                       "/microbatches");
      !st.ok())
    return st;
  if (Status st = detail::check_shape(info, config); !st.ok()) return st;
  if (!costs_checked)
    if (Status st = validate_costs(config.costs); !st.ok()) return st;
  // A sweep checks its one list of stage costs once, but its cells have different stages.
  if (Status st = check_stage_count(
          config.costs, config.ranks * effective_chunks(info, config) / info.layout.directions);
      !st.ok())
    return st;
  // The schedule's shape is checked above, so an error here is the memory model's own.
  if (config.memory_model)
    if (Status st = validate_memory(memory_request_for(config)); !st.ok())
      return detail::with_path_prefix(st.error(), "/memoryModel");
  if (config.timing == Timing::Runtime) {
    if (!info.runtime_timing)
      return make_error(Rule::TimingSchedule, "/timing",
                        {{"allowed", runtime_timing_schedules()}, {"got", config.schedule}});
    if (config.costs.comm) return make_error(Rule::TimingComm, "/timing");
  }
  // Megatron-Core's combined 1F1B is a path of its 1F1B schedules only
  // (megatron/core/pipeline_parallel/schedules.py: forward_backward_no_pipelining and
  // forward_backward_pipelining_with_interleaving), and delay_wgrad_compute asserts
  // overlap_moe_expert_parallel_comm (megatron/core/transformer/transformer_config.py).
  if (config.a2a_overlap && !info.a2a_overlap)
    return make_error(Rule::A2aOverlapSchedule, "/a2aOverlap",
                      {{"allowed", a2a_overlap_schedules()}, {"got", config.schedule}});
  // With PP > 1 Megatron asserts virtual pipeline stages (transformer_config.py), and a VPP size
  // of 1 is none (megatron/training/arguments.py). Its warm-up rule at one chunk would chain the
  // pairs of neighbouring ranks (rank r's pair k needs rank r+1's pair k, which needs rank r's
  // pair k-1), so each rank would run a pair only every second pair-length (docs/schema.md).
  if (config.a2a_overlap && config.ranks > 1 && effective_chunks(info, config) < 2)
    return make_error(Rule::A2aOverlapChunks, info.chunks.taken() ? "/chunks" : "/a2aOverlap",
                      {{"schedule", config.schedule},
                       {"chunks", effective_chunks(info, config)},
                       {"ranks", config.ranks}});
  if (config.delay_wgrad && !config.a2a_overlap)
    return make_error(Rule::DelayWgradA2aOverlap, "/delayWgrad");
  const std::int64_t ops =
      estimate_ops(info, config.ranks, config.microbatches, effective_chunks(info, config));
  if (ops > kMaxOps)
    return make_error(Rule::ConfigTooLarge, "",
                      {{"ops", ops}, {"schedule", config.schedule}, {"limit", kMaxOps}});
  return Ok{};
}

}  // namespace detail

Status validate(const SimConfig& config) { return detail::validate_config(config, false); }

const char* timing_name(Timing timing) {
  return timing == Timing::Runtime ? "runtime" : "dependency";
}

}  // namespace pipesim
