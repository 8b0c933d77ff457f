// The original lesson's script (course phase 10, lesson 19, code/main.py) prints four tables of
// bubble fractions from closed forms it made up. This module recomputes every figure by
// simulating the real schedules and puts the lesson's number beside it, flagging differences.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pipesim/config.h"
#include "pipesim/json.h"

namespace pipesim {

/// The lesson script's closed forms, verbatim in meaning (P = pipeline stages, M = micro-batches).
/// Kept only to show them beside the simulation; none of them is a published result.
double lesson_bubble_1f1b(int p, int m);
double lesson_bubble_zero_bubble(int p, int m);
double lesson_bubble_dualpipe(int p, int m);
double lesson_bubble_dualpipev(int p, int m);  ///< the script's "1.2 x DualPipe"

struct LessonCell {
  std::string schedule;   ///< our schedule id: 1f1b, zb-h1, dualpipe, dualpipev
  int stages = 0;         ///< P in the lesson: pipeline stages (DualPipeV runs them on P/2 ranks)
  int microbatches = 0;
  double lesson = 0;                 ///< the script's bubble fraction
  std::optional<double> simulated;   ///< ours; empty when the schedule cannot run this shape
  std::string note;                  ///< why not simulated, or "" when it was
  bool differs = false;              ///< |simulated - lesson| > kLessonTolerance
};

/// Differences below half a percentage point are rounding in the script's 1-decimal output.
inline constexpr double kLessonTolerance = 0.005;

struct LessonReport {
  Costs costs;
  std::vector<LessonCell> step1;  ///< P=8, M=16, every schedule
  std::vector<LessonCell> step2;  ///< P=8, M in {4..128}
  std::vector<LessonCell> step3;  ///< M=64, P in {4..64}
  /// Step 4: GPU-hours recovered moving 1F1B -> DualPipe at P=16, M=128 over 2.8M GPU-hours
  double total_gpu_hours = 2'800'000;
  LessonCell step4_1f1b, step4_dualpipe;
  double step4_lesson_recovered = 0, step4_simulated_recovered = 0;
};

/// Runs the four steps under `costs` (the lesson assumes unit chunks; DeepSeek's F=1 B=2 W=1
/// F&B=3 are the default).
LessonReport lesson_report(const Costs& costs = Costs{});
Json lesson_report_to_json(const LessonReport& report);

}  // namespace pipesim
