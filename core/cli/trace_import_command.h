// pipesim trace-import: core's trace reader (pipesim/trace.h) as a CLI command. Like the plan and
// exercise commands it returns what to print, or the input error main reports as one line.
#pragma once

#include <string>
#include <vector>

#include "pipesim/error.h"

namespace pipesim::cli {

/// Runs `pipesim trace-import` on its arguments (the command name removed).
Result<std::string> run_trace_import(std::vector<std::string> argv);

/// Usage lines for the main help text.
extern const char* const kTraceImportUsage;

}  // namespace pipesim::cli
