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
#include "schedules/registry.h"
#include "simulate_valid.h"

namespace pipesim {
namespace {

Status check_cost(const char* field, double v, bool may_be_zero) {
  const std::string name = std::string("costs.") + field;
  const std::string path = std::string("/costs/") + field;
  if (!std::isfinite(v) || v < 0 || (!may_be_zero && v == 0))
    return make_error(may_be_zero ? Rule::RangeNonNegative : Rule::RangePositive, path,
                      {{"field", name}, {"got", v}});
  if (!may_be_zero && v < 1 / kTicksPerUnit)
    return make_error(Rule::RangeResolution, path, {{"field", name}, {"min", 1 / kTicksPerUnit}, {"got", v}});
  if (v > kMaxCost) return make_error(Rule::RangeAtMost, path, {{"field", name}, {"max", kMaxCost}, {"got", v}});
  return Ok{};
}

}  // namespace

Status validate_costs(const Costs& c) {
  for (const auto& [field, v, zero_ok] :
       {std::tuple<const char*, double, bool>{"forward", c.forward, false},
        {"backward", c.backward, false},
        {"weight", c.weight, true},
        {"overlapped", c.overlapped, false},
        {"p2pLatency", c.p2p_latency, true}})
    if (Status st = check_cost(field, v, zero_ok); !st.ok()) return st;
  // W is the weight-gradient share of the full backward B, so it cannot exceed it.
  if (c.weight > c.backward)
    return make_error(Rule::FieldAtMostField, "/costs/weight",
                      {{"field", "costs.weight"}, {"target", "costs.backward"}, {"value", c.backward},
                       {"got", c.weight}});
  return validate_comm(c);  // the communication model, when there is one (pipesim/comm.h)
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
