// Private: the trusted half of simulate(). Requests are parsed and validated once on the way in
// (json.cpp, sweep.cpp, the exercise calculators); what they pass on runs without a second check.
#pragma once

#include "pipesim/engine.h"

namespace pipesim::detail {

/// validate(), with the costs skipped when the caller has already checked them (a sweep checks
/// its one set of costs once, then every cell's shape).
Status validate_config(const SimConfig& config, bool costs_checked);

/// simulate() for a config validate() accepted: generates its schedule and runs it.
Result<SimResult> simulate_valid(const SimConfig& config, const SimOptions& options = {});

}  // namespace pipesim::detail
