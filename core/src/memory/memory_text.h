// Private: the memory model's assumptions in words (definitions in memory_text.cpp).
#pragma once

#include <string>
#include <vector>

#include "pipesim/memory.h"

namespace pipesim::detail {

/// Every assumption `result` rests on, in the order of MemoryAssumption::topic's list, each with
/// its source. The CLI prints them; the JSON carries them beside the structured fields.
std::vector<MemoryAssumption> memory_assumptions(const MemoryResult& result);

/// 1708435808 -> "1,708,435,808".
std::string grouped_number(double value);

}  // namespace pipesim::detail
