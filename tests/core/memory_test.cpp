// The memory results (issue 12 item 3): each rank's activations over time (activation_steps),
// checked against replay()'s observer, which walks the trace in time order independently of the
// engine's recording, and against the peaks. The memory model in bytes is memory_model_test.cpp.
#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "pipesim/custom_schedule.h"
#include "pipesim/engine.h"
#include "pipesim/json.h"

using namespace pipesim;

namespace {

// Records on_activations per rank: the same step function, from an event-ordered replay.
class StepRecorder : public Observer {
 public:
  explicit StepRecorder(int ranks, double unit) : steps_(static_cast<std::size_t>(ranks)), unit_(unit) {
    for (ActivationSteps& s : steps_) {
      s.time.push_back(0);
      s.level.push_back(0);
    }
  }
  void on_activations(int rank, double time, int /*delta*/, int in_flight) override {
    ActivationSteps& s = steps_[static_cast<std::size_t>(rank)];
    s.time.push_back(time);
    s.level.push_back(in_flight * unit_);
  }
  const std::vector<ActivationSteps>& steps() const { return steps_; }

 private:
  std::vector<ActivationSteps> steps_;
  double unit_;
};

SimResult run(SimConfig config, bool steps = true, TimelineForm form = TimelineForm::Ops) {
  SimOptions options;
  options.timeline = form;
  options.activation_steps = steps;
  auto r = simulate(config, options);
  REQUIRE(r.ok());
  return r.value();
}

void check_steps(const SimResult& r) {
  INFO(r.config.schedule << " " << r.config.ranks << "x" << r.config.microbatches);
  REQUIRE(r.activation_steps.size() == static_cast<std::size_t>(r.config.ranks));
  StepRecorder replayed(r.config.ranks, activation_memory_unit(r.config.ranks, r.stages));
  replay(r, replayed);
  for (std::size_t rank = 0; rank < r.activation_steps.size(); ++rank) {
    const ActivationSteps& s = r.activation_steps[rank];
    INFO("rank " << rank);
    CHECK(s.time == replayed.steps()[rank].time);
    CHECK(s.level == replayed.steps()[rank].level);
    CHECK(*std::max_element(s.level.begin(), s.level.end()) == r.per_rank[rank].peak_activation_memory);
    CHECK(s.level.back() == 0);
    CHECK(std::is_sorted(s.time.begin(), s.time.end()));
    std::size_t forwards_and_backwards = 0;
    for (const TimedOp& t : r.timeline[rank])
      forwards_and_backwards += t.op.kind == OpKind::Forward || t.op.kind == OpKind::Backward;
    CHECK(s.time.size() == forwards_and_backwards + 1);
  }
}

}  // namespace

TEST_CASE("activation steps follow replay's observer and peak at peakActivationMemory") {
  const Costs uneven{1.3, 2.1, 0.4, 2.9, 0.25};
  for (const ScheduleInfo& info : list_schedules())
    for (int ranks : {2, 4})
      for (const Costs& c : {Costs{}, uneven}) {
        SimConfig config{info.name, ranks, 4 * ranks, c};
        check_steps(run(config));
      }
  SimConfig v3{"interleaved-1f1b", 3, 6, {}};
  v3.chunks = 3;  // a unit of 1/3: levels are counts x (1/3), as the peaks are
  check_steps(run(v3));
}

TEST_CASE("activation steps of a DualPipeV rank count half a rank's share per stage") {
  // DualPipeV 2x4: 4 stages of half a rank's layers, so each chunk is 0.5 per-GPU units.
  const SimResult r = run({"dualpipev", 2, 4, {}});
  for (const ActivationSteps& s : r.activation_steps)
    for (double level : s.level) CHECK(level * 2 == static_cast<double>(static_cast<int>(level * 2)));
  CHECK(r.activation_steps[0].level[1] == 0.5);  // rank 0's first F0.0@0 ends: one half-stage chunk
  CHECK(r.activation_steps[0].time[1] == 1);
}

TEST_CASE("activation steps are recorded in every timeline form and under runtime timing, only when asked") {
  const SimConfig config{"dualpipe", 4, 8, Costs{1, 1.5, 0.9, 2, 0.5}};
  CHECK(run(config, false).activation_steps.empty());
  const SimResult ops = run(config);
  for (TimelineForm form : {TimelineForm::None, TimelineForm::Columns}) {
    const SimResult other = run(config, true, form);
    REQUIRE(other.activation_steps.size() == ops.activation_steps.size());
    for (std::size_t r = 0; r < ops.activation_steps.size(); ++r) {
      CHECK(other.activation_steps[r].time == ops.activation_steps[r].time);
      CHECK(other.activation_steps[r].level == ops.activation_steps[r].level);
    }
  }
  SimConfig runtime = config;
  runtime.timing = Timing::Runtime;
  check_steps(run(runtime));
  // A hand-written schedule goes through simulate_schedule.
  auto custom = simulate_request(
      parse_json(R"({"schedule":"custom","stages":2,"microbatches":2,"rankOps":[["F0.0@0","F0.1@0","Bz0.0@0","B0.1@0","W0.0@0"],["F0.0@1","B0.0@1","F0.1@1","B0.1@1"]]})")
          .value(),
      SimOptions{TimelineForm::Ops, true});
  REQUIRE(custom.ok());
  check_steps(custom.value());
  // Rank 0 by hand (F=1, B=2, W=1; Bz = B-W = 1): F0.0 ends at 1, F0.1 at 2; Bz0.0 waits for
  // rank 1's B0.0 (F0.0@1 1-2, B0.0@1 2-4) and ends at 5; B0.1 waits for B0.1@1 (F 4-5, B 5-7)
  // and ends at 9; W0.0 (9-10) changes nothing.
  CHECK(custom.value().activation_steps[0].time == std::vector<double>{0, 1, 2, 5, 9});
  CHECK(custom.value().activation_steps[0].level == std::vector<double>{0, 1, 2, 1, 0});
}

TEST_CASE("result JSON carries the steps after the timeline, written as result_to_json dumps them") {
  SimConfig config{"zb-v", 3, 7, Costs{0.7, 1.9, 0.3, 2, 0.1}};
  const SimResult r = run(config);
  const std::string text = result_json_text(r);
  CHECK(text == result_to_json(r, true).dump());
  const Json j = parse_json(text).value();
  REQUIRE(j.contains("activationSteps"));
  CHECK(j.at("activationSteps").size() == 3);
  CHECK(j.at("activationSteps").at(1).at("time").get<std::vector<double>>() == r.activation_steps[1].time);
  CHECK_FALSE(parse_json(result_json_text(run(config, false))).value().contains("activationSteps"));
}
