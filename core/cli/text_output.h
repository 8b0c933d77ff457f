// Human-readable renderings for the CLI (JSON output comes straight from pipesim/json.h).
#pragma once

#include <ostream>
#include <vector>

#include "pipesim/engine.h"
#include "pipesim/lesson_report.h"
#include "pipesim/sweep.h"

namespace pipesim::cli {

void print_simulation_text(const SimResult& result, std::ostream& out);
void print_sweep_text(const std::vector<SweepRow>& rows, std::ostream& out);
void print_sweep_csv(const std::vector<SweepRow>& rows, std::ostream& out);
void print_lesson_text(const LessonReport& report, std::ostream& out);

}  // namespace pipesim::cli
