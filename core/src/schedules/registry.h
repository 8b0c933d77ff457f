// Private: one catalogue entry per schedule.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "op_plan.h"
#include "pipesim/config.h"
#include "pipesim/schedule.h"

namespace pipesim::detail {

struct ScheduleEntry {
  ScheduleInfo info;
  Status (*check_shape)(const SimConfig&);         ///< schedule-specific ranks/microbatches rules
  std::int64_t (*estimate_ops)(const SimConfig&);  ///< upper bound on ops, for the size cap
  void (*generate)(const SimConfig&, OpPlan&);      ///< writes the schedule into the plan
};

/// The entry called `name`, or nullptr.
const ScheduleEntry* find_schedule(const std::string& name);
const std::vector<ScheduleEntry>& schedule_entries();

}  // namespace pipesim::detail
