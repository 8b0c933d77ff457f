// Private: one catalogue entry per schedule: what it is (ScheduleInfo) and its generator.
#pragma once

#include <string>
#include <vector>

#include "op_plan.h"
#include "pipesim/config.h"
#include "pipesim/schedule.h"

namespace pipesim::detail {

struct ScheduleEntry {
  ScheduleInfo info;
  void (*generate)(const SimConfig&, OpPlan&);  ///< writes a config validate() accepted into the plan
};

/// The entry called `name`, or nullptr.
const ScheduleEntry* find_schedule(const std::string& name);
const std::vector<ScheduleEntry>& schedule_entries();

/// The schedule's own shape rules (ShapeRules) for a config already within the general ranges.
Status check_shape(const ScheduleInfo& info, const SimConfig& config);

}  // namespace pipesim::detail
