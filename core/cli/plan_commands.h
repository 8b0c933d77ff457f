// pipesim plan | overlap: the planner and the single-pair overlap analysis as CLI commands. Like
// the exercise commands they return what to print, or the input error main reports as one line.
#pragma once

#include <string>
#include <vector>

#include "pipesim/error.h"

namespace pipesim::cli {

/// True for "plan" and "overlap".
bool is_plan_command(const std::string& command);

/// Runs one of them on its flags; returns everything to print on stdout, or the input error.
Result<std::string> run_plan_command(const std::string& command,
                                     const std::vector<std::string>& argv);

/// Usage lines for the main help text.
extern const char* const kPlanUsage;

}  // namespace pipesim::cli
