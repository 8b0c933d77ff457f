// The lesson script's tables, recomputed by simulation. The script calls the pipeline depth P;
// DeepSeek's table compares schedules at the same number of stages, so DualPipeV runs P stages
// on P/2 ranks here.
#include "pipesim/lesson_report.h"

#include <cmath>

#include "pipesim/engine.h"
#include "pipesim/exercises.h"

namespace pipesim {

double lesson_bubble_1f1b(int p, int m) { return 2.0 * (p - 1) / (2.0 * m + 2.0 * (p - 1)); }
double lesson_bubble_zero_bubble(int p, int m) { return (p - 1.0) / (3.0 * m + 2.0 * (p - 1)); }
double lesson_bubble_dualpipe(int p, int m) {
  return static_cast<double>((p - 1) / 2) / (3.0 * m + (p - 1));  // the script floors (P-1)/2
}
double lesson_bubble_dualpipev(int p, int m) { return lesson_bubble_dualpipe(p, m) * 1.2; }

namespace {

LessonCell cell(const std::string& schedule, int p, int m, const Costs& costs) {
  LessonCell c;
  c.schedule = schedule;
  c.stages = p;
  c.microbatches = m;
  SimConfig config{schedule, p, m, costs};
  if (schedule == "1f1b") c.lesson = lesson_bubble_1f1b(p, m);
  if (schedule == "zb-h1") c.lesson = lesson_bubble_zero_bubble(p, m);
  if (schedule == "dualpipe") c.lesson = lesson_bubble_dualpipe(p, m);
  if (schedule == "dualpipev") {
    c.lesson = lesson_bubble_dualpipev(p, m);
    config.ranks = p / 2;
  }
  auto result = simulate(config);
  if (!result.ok()) {
    c.note = result.error().message;
    return c;
  }
  c.simulated = result.value().bubble_fraction;
  c.differs = std::fabs(*c.simulated - c.lesson) > kLessonTolerance;
  return c;
}

const char* const kSchedules[] = {"1f1b", "zb-h1", "dualpipe", "dualpipev"};

Json cell_to_json(const LessonCell& c) {
  Json j{{"schedule", c.schedule}, {"stages", c.stages}, {"microbatches", c.microbatches},
         {"lesson", c.lesson}};
  j["simulated"] = c.simulated ? Json(*c.simulated) : Json(nullptr);
  j["differs"] = c.differs;
  if (!c.note.empty()) j["note"] = c.note;
  return j;
}

Json cells_to_json(const std::vector<LessonCell>& cells) {
  Json out = Json::array();
  for (const auto& c : cells) out.push_back(cell_to_json(c));
  return out;
}

}  // namespace

LessonReport lesson_report(const Costs& costs) {
  LessonReport r;
  r.costs = costs;
  for (const char* s : kSchedules) r.step1.push_back(cell(s, 8, 16, costs));
  for (int m : {4, 8, 16, 32, 64, 128})
    for (const char* s : kSchedules) r.step2.push_back(cell(s, 8, m, costs));
  for (int p : {4, 8, 16, 32, 64})
    for (const char* s : kSchedules) r.step3.push_back(cell(s, p, 64, costs));
  r.step4_1f1b = cell("1f1b", 16, 128, costs);
  r.step4_dualpipe = cell("dualpipe", 16, 128, costs);
  r.step4_lesson_recovered = (r.step4_1f1b.lesson - r.step4_dualpipe.lesson) * r.total_gpu_hours;
  if (r.step4_1f1b.simulated && r.step4_dualpipe.simulated)
    r.step4_simulated_recovered = gpu_hours_saved(r.total_gpu_hours, 1 - *r.step4_1f1b.simulated,
                                                  1 - *r.step4_dualpipe.simulated);
  return r;
}

Json lesson_report_to_json(const LessonReport& r) {
  return Json{{"costs", costs_to_json(r.costs)},
              {"step1", cells_to_json(r.step1)},
              {"step2", cells_to_json(r.step2)},
              {"step3", cells_to_json(r.step3)},
              {"step4", Json{{"totalGpuHours", r.total_gpu_hours},
                             {"oneFOneB", cell_to_json(r.step4_1f1b)},
                             {"dualpipe", cell_to_json(r.step4_dualpipe)},
                             {"lessonRecoveredGpuHours", r.step4_lesson_recovered},
                             {"simulatedRecoveredGpuHours", r.step4_simulated_recovered}}}};
}

}  // namespace pipesim
