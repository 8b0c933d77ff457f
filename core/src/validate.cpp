// validate(): general range rules, then the schedule's own shape rules, then the size cap, in
// that order so the message names the first thing the user should fix.
#include <cmath>
#include <string>
#include <tuple>

#include "format.h"
#include "pipesim/comm.h"
#include "pipesim/config.h"
#include "schedules/registry.h"

namespace pipesim {
namespace {

using detail::format_number;

Status cost_error(const char* field, const std::string& rule, double v) {
  return Error{ErrorCode::InvalidConfig,
               std::string("costs.") + field + " must be " + rule + " (got " + format_number(v) + ")",
               std::string("/costs/") + field};
}

Status check_cost(const char* field, double v, bool may_be_zero) {
  const char* rule = may_be_zero ? "a finite number >= 0" : "a finite number > 0";
  if (!std::isfinite(v) || v < 0 || (!may_be_zero && v == 0)) return cost_error(field, rule, v);
  if (!may_be_zero && v < 1 / kTicksPerUnit)
    return cost_error(field, ">= " + format_number(1 / kTicksPerUnit) + ", the time resolution", v);
  if (v > kMaxCost) return cost_error(field, "<= " + format_number(kMaxCost), v);
  return Ok{};
}

std::string schedule_names() {
  std::string names;
  for (const auto& info : list_schedules()) names += (names.empty() ? "" : ", ") + info.name;
  return names;
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
    return Error{ErrorCode::InvalidConfig,
                 "costs.weight must be <= costs.backward = " + format_number(c.backward) +
                     " (got " + format_number(c.weight) + ")",
                 "/costs/weight"};
  return validate_comm(c);  // the communication model, when there is one (pipesim/comm.h)
}

Status validate(const SimConfig& config) {
  const detail::ScheduleEntry* entry = detail::find_schedule(config.schedule);
  if (entry == nullptr)
    return Error{ErrorCode::UnknownSchedule,
                 "schedule must be one of " + schedule_names() + " (got \"" + config.schedule + "\")",
                 "/schedule"};
  if (config.ranks < 1 || config.ranks > kMaxRanks)
    return Error{ErrorCode::InvalidConfig,
                 "ranks must be an integer in [1, " + std::to_string(kMaxRanks) + "] (got " +
                     std::to_string(config.ranks) + ")",
                 "/ranks"};
  if (config.microbatches < 1 || config.microbatches > kMaxMicrobatches)
    return Error{ErrorCode::InvalidConfig,
                 "microbatches must be an integer in [1, " + std::to_string(kMaxMicrobatches) +
                     "] (got " + std::to_string(config.microbatches) + ")",
                 "/microbatches"};
  if (Status st = entry->check_shape(config); !st.ok()) return st;
  if (Status st = validate_costs(config.costs); !st.ok()) return st;
  const std::int64_t ops = entry->estimate_ops(config);
  if (ops > kMaxOps)
    return Error{ErrorCode::TooLarge,
                 "ranks x microbatches is too large: about " + std::to_string(ops) + " ops for " +
                     config.schedule + ", above the limit of " + std::to_string(kMaxOps),
                 ""};
  return Ok{};
}

}  // namespace pipesim
