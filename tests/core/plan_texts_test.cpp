// The planner's phrase table (pipesim/plan_texts.h): every row can be said, a phrase is made only
// with exactly its template's params, the catalogue lists the table, and a plan carries the
// phrase of every sentence it says (the page's Hindi is checked against the same table in
// tests/browser/lib-plan-text.test.mjs).
#include "pipesim/plan_texts.h"

#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "pipesim/catalogue.h"
#include "pipesim/planner.h"

using namespace pipesim;

TEST_CASE("every plan phrase has a unique id and a template whose formats core can write") {
  std::set<std::string> ids;
  for (const PlanTextInfo& info : list_plan_texts()) {
    CHECK(ids.insert(info.id).second);
    CHECK(std::string(info.id).rfind("plan.", 0) == 0);
    // A made-up value per placeholder: a name for {s:title}, a number for everything else.
    const std::string message = info.message;
    std::vector<PlanParam> params;
    for (const std::string& name : plan_text_params(message)) {
      if (message.find("{" + name + ":title}") != std::string::npos) params.emplace_back(name, "dualpipe");
      else params.emplace_back(name, 1.5);
    }
    CHECK_NOTHROW(plan_text(info.text, params).english());
  }
}

TEST_CASE("a plan phrase is made with exactly its template's params") {
  CHECK(plan_text(PlanTextId::StepDepthRequested, {{"ranks", 16}}).english() == "P = 16: requested.");
  CHECK(plan_text(PlanTextId::PartIdles, {{"bubble", 0.052631}}).english() == "idles 5.26%");
  CHECK_THROWS_AS(plan_text(PlanTextId::StepDepthRequested), InternalError);
  CHECK_THROWS_AS(plan_text(PlanTextId::StepDepthRequested, {{"ranks", 16}, {"extra", 1}}), InternalError);
  CHECK_THROWS_AS(plan_text(PlanTextId::StepDepthRequested, {{"rank", 16}}), InternalError);
  // Clauses and lists are said inside the phrase: none, one, or joined with "; ".
  const PlanText a = plan_text(PlanTextId::PartIdles, {{"bubble", 0.5}});
  const PlanText b = plan_text(PlanTextId::PartComputes, {{"utilization", 0.25}});
  CHECK(plan_text(PlanTextId::StepNoAlternative,
                  {{"copies", plan_text(PlanTextId::PartOneCopy, {{"n", 1}})},
                   {"withComm", std::vector<PlanText>{}}})
            .english() == "No other schedule with at most 1 parameter copy does better at the same P and M.");
  CHECK(PlanText{"plan.step.alternatives",
                 {{"schedule", "zb-v"}, {"own", a}, {"peak", 2.25}, {"list", std::vector<PlanText>{a, b}}}}
            .english()
            .find("than ZB-V (idles 50.00%, 2.2 units of activations): idles 50.00%; computes 25.00%.") !=
        std::string::npos);
}

TEST_CASE("the catalogue lists every plan phrase with its placeholder names") {
  const Json c = catalogue_to_json();
  REQUIRE(c.at("planTexts").size() == list_plan_texts().size());
  CHECK(c.at("planTexts").at(0).dump() ==
        R"({"id":"plan.step.tokens","message":"{tokens:si} training tokens: at least the {min:si} below which the spec refuses to plan pipeline parallelism.","params":["tokens","min"]})");
}

TEST_CASE("a plan's JSON carries the phrase of each sentence beside its English") {
  const Json spec = Json::parse(R"({"cluster":{"gpus":64,"gpuModel":"H100","memoryPerGpuGb":80,"nodes":8,
    "gpusPerNode":8,"interconnectGbpsPerGpu":400},"model":{"totalParams":70e9,"type":"dense","layers":80},
    "trainingTokens":2e12,"customAllToAllKernel":false})");
  const Plan plan = make_plan(plan_spec_from_json(spec).value()).value();
  for (const PlanStep& step : plan.reasoning) CHECK(step.text == step.said.english());
  const Json j = plan_to_json(plan);
  const Json& schedule = j.at("reasoning").at(2);
  CHECK(schedule.at("topic") == "schedule");
  CHECK(schedule.at("id") == "plan.step.schedule_small_run");
  CHECK(schedule.at("params").dump() == R"({"gpus":64,"limit":100})");
  CHECK(schedule.at("text") == "64 GPUs, under 100 -> 1F1B is fine: the bubble costs little at this scale.");
  CHECK(j.at("allToAllPhrase").dump() == R"({"id":"plan.kernel.none","params":{}})");
  CHECK(j.at("rollback").at("textPhrase").at("id") == "plan.rollback.no_fallback");
  CHECK(j.at("rollback").at("textPhrase").at("params").at("steps") == kPlanRollbackSteps);
}
