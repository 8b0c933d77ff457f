// timing "runtime" (pipesim/config.h): DualPipe and DualPipeV ops also wait at the communication
// points of DeepSeek's step(). It only adds waits, so it never beats dependency timing; the issue's
// condition for a delay (B-W < F or W > B-W) decides whether it costs anything; traces pass the
// invariant checker; and the default stays dependency-only.
#include <string>

#include <catch2/catch.hpp>

#include "invariants.h"
#include "pipesim/json.h"

using namespace pipesim;
using pipesim::testing::simulate_checked;

namespace {

SimConfig runtime(SimConfig c) {
  c.timing = Timing::Runtime;
  return c;
}

}  // namespace

TEST_CASE("runtime timing only adds waits: no op starts earlier than under dependency timing") {
  for (const Costs& c : {Costs{1, 2, 1, 3, 0}, Costs{1, 1.5, 0.9, 2, 0}, Costs{2, 3, 0.5, 4, 0.25},
                         Costs{1, 3, 1.5, 3.5, 0.5}})
    for (const char* s : {"dualpipe", "dualpipev"})
      for (int ranks : {2, 4, 8}) {
        const SimConfig config{s, ranks, 2 * ranks + 4, c};
        INFO(s << " " << ranks << " F=" << c.forward << " B=" << c.backward << " W=" << c.weight);
        const SimResult dep = simulate_checked(config);
        const SimResult run = simulate_checked(runtime(config));
        REQUIRE(run.timeline.size() == dep.timeline.size());
        for (std::size_t r = 0; r < dep.timeline.size(); ++r) {
          REQUIRE(run.timeline[r].size() == dep.timeline[r].size());
          for (std::size_t i = 0; i < dep.timeline[r].size(); ++i) {
            CHECK(op_label(run.timeline[r][i].op) == op_label(dep.timeline[r][i].op));
            CHECK(run.timeline[r][i].start >= dep.timeline[r][i].start);
          }
        }
        CHECK(run.makespan >= dep.makespan);
      }
}

TEST_CASE("with B-W >= F and W <= B-W the step's communication points cost nothing") {
  // DeepSeek's figure costs F=1 B=2 W=1 F&B=3 (B-W = F, W = B-W), and B-W = 2 > F, W = 1 < B-W:
  // every receive a commit waits for has already been sent.
  for (const Costs& c : {Costs{}, Costs{1, 3, 1, 3.5, 0}})
    for (const char* s : {"dualpipe", "dualpipev"})
      for (int ranks : {4, 8}) {
        const SimConfig config{s, ranks, 20, c};
        CHECK(simulate_checked(runtime(config)).makespan == simulate_checked(config).makespan);
      }
}

TEST_CASE("with B-W < F or W > B-W the step's communication points delay DualPipe 8x20") {
  // The issue's example, F,B,W,F&B = 1, 1.5, 0.9, 2: B-W = 0.6 < F; and 0.5, 2, 1.2, 2.5:
  // B-W = 0.8 >= F but W = 1.2 > B-W.
  for (const Costs& c : {Costs{1, 1.5, 0.9, 2, 0}, Costs{0.5, 2, 1.2, 2.5, 0}}) {
    const SimConfig config{"dualpipe", 8, 20, c};
    CHECK(simulate_checked(runtime(config)).makespan > simulate_checked(config).makespan);
  }
}

TEST_CASE("DualPipeV on one rank has nothing to send: runtime equals dependency timing") {
  const SimConfig config{"dualpipev", 1, 6, Costs{1, 1.5, 0.9, 2, 0}};
  CHECK(simulate_checked(runtime(config)).makespan == simulate_checked(config).makespan);
}

TEST_CASE("timing is read, checked and echoed only when not the default") {
  auto c = config_from_json(Json::parse(
      R"({"schedule":"dualpipe","ranks":4,"microbatches":8,"timing":"runtime"})"));
  REQUIRE(c.ok());
  CHECK(c.value().timing == Timing::Runtime);
  CHECK(result_to_json(simulate(c.value()).value()).at("timing") == "runtime");
  CHECK_FALSE(result_to_json(simulate({"dualpipe", 4, 8, {}}).value()).contains("timing"));
  auto e = config_from_json(Json::parse(
      R"({"schedule":"dualpipe","ranks":4,"microbatches":8,"timing":"eager"})")).error();
  CHECK(e.message == "timing must be one of dependency, runtime (got \"eager\")");
  CHECK(e.path == "/timing");
  e = config_from_json(Json::parse(
      R"({"schedule":"1f1b","ranks":4,"microbatches":8,"timing":"runtime"})")).error();
  CHECK(e.rule == "timing.schedule");
  CHECK(e.message ==
        "timing \"runtime\" follows DeepSeek's dualpipe.py and dualpipev.py, so schedule must be "
        "one of dualpipe, dualpipev (got \"1f1b\")");
  e = config_from_json(Json::parse(R"({"schedule":"dualpipe","ranks":4,"microbatches":8,
      "timing":"runtime","costs":{"comm":{"ratio":1}}})")).error();
  CHECK(e.rule == "timing.comm");
  CHECK(e.path == "/timing");
}
