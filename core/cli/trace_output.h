// Chrome trace-event output (`pipesim simulate --format chrome`): open the file in Perfetto or
// chrome://tracing to browse a schedule with zoom and search. One time unit is shown as 1 ms.
#pragma once

#include <ostream>

#include "pipesim/engine.h"

namespace pipesim::cli {

void print_chrome_trace(const SimResult& result, std::ostream& out);

}  // namespace pipesim::cli
