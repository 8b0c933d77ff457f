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
    const std::string id = info.id;
    CHECK((id.rfind("plan.", 0) == 0 || id.rfind("trace.derived.", 0) == 0 ||
           id.rfind("memory.", 0) == 0));
    // A client reads an id ending in a CLDR category as a plural form ("memory.source.zero" was
    // one), so only a family's rows end in one.
    const std::size_t dot = id.rfind('.');
    const std::string last = id.substr(dot + 1);
    if (plan_text_family(id).empty())
      for (const char* category : {"zero", "one", "two", "few", "many", "other"})
        CHECK(last != category);
    // A made-up value per placeholder: a name for {s:title}, an integer for a plural family's
    // {n}, a number for everything else.
    const std::string message = info.message;
    const std::string family = plan_text_family(id);
    std::vector<PlanParam> params;
    for (const std::string& name : plan_text_params(message)) {
      if (message.find("{" + name + ":title}") != std::string::npos) params.emplace_back(name, "dualpipe");
      else if (!family.empty() && name == "n") params.emplace_back(name, id == family + ".one" ? 1 : 3);
      else params.emplace_back(name, 1.5);
    }
    if (family.empty()) {
      CHECK_NOTHROW(plan_text(info.text, params).english());
      continue;
    }
    // A plural family: an .other row and its .one, both with {n}; a phrase of it carries the
    // family's id and English says the form of its count.
    CHECK(ids.count(family + ".one") + ids.count(family + ".other") + (id == family + ".one" ? 1 : 0) >= 1);
    CHECK(message.find("{n}") != std::string::npos);
    if (id == family + ".other") {
      const PlanText said = plan_text(info.text, params);
      CHECK(said.id == family);
      CHECK(said.english() == PlanText{family, params}.english());
    } else {
      CHECK_THROWS_AS(plan_text(info.text, params), InternalError);  // said from its .other row
      CHECK_NOTHROW(PlanText{family, params}.english());
    }
  }
}

TEST_CASE("no plan phrase is a clause: each starts a sentence or is a derivation, a recommendation or a name") {
  for (const PlanTextInfo& info : list_plan_texts()) {
    const std::string id = info.id;
    const std::string message = info.message;
    CHECK(id.rfind("plan.part.", 0) == std::string::npos);
    CHECK(message.front() != ' ');  // nothing is glued on after another phrase's words
    if (id.rfind("plan.step.", 0) == 0 || id.rfind("plan.kernel.", 0) == 0 || id.rfind("plan.rollback.", 0) == 0 ||
        id.rfind("plan.reject.", 0) == 0 || id.rfind("plan.refusal.", 0) == 0)
      CHECK((message.back() == '.' || message.back() == ')'));
  }
}

TEST_CASE("a plural family says its count in English's form, and each language picks its own from the id") {
  const PlanText one = plan_text(PlanTextId::KernelStock, {{"ep", 8}, {"n", 1}});
  const PlanText two = plan_text(PlanTextId::KernelStock, {{"ep", 16}, {"n", 2}});
  CHECK(one.id == "plan.kernel.stock");
  CHECK(one.english().rfind("EP = 8 spans 1 node. Without", 0) == 0);
  CHECK(two.english().rfind("EP = 16 spans 2 nodes. Without", 0) == 0);
  CHECK(plan_text_to_json(two).dump().rfind(R"({"id":"plan.kernel.stock","params":{"ep":16,"n":2}})", 0) == 0);
  CHECK(plan_text(PlanTextId::StepNoAlternative, {{"n", 1}}).english() ==
        "No other schedule with at most 1 parameter copy does better at the same P and M.");
  CHECK(plan_text(PlanTextId::StepNoAlternativeComm, {{"n", 2}}).english() ==
        "No other schedule with at most 2 parameter copies does better at the same P and M with the all-to-all "
        "counted.");
  CHECK_THROWS_AS(plan_text(PlanTextId::KernelStock, {{"ep", 8}, {"n", 1.5}}), InternalError);  // a count
  CHECK(plan_text_family("plan.kernel.stock.one") == "plan.kernel.stock");
  CHECK(plan_text_family("plan.step.depth").empty());
}

TEST_CASE("a plan phrase is made with exactly its template's params") {
  CHECK(plan_text(PlanTextId::StepDepthRequested, {{"ranks", 16}}).english() == "P = 16: requested.");
  CHECK(plan_text(PlanTextId::StepAlternative, {{"schedule", "zb-v"}, {"bubble", 0.052631}, {"peak", 2.25}})
            .english() == "ZB-V idles 5.26% and holds 2.2 units of activations.");
  CHECK_THROWS_AS(plan_text(PlanTextId::StepDepthRequested), InternalError);
  CHECK_THROWS_AS(plan_text(PlanTextId::StepDepthRequested, {{"ranks", 16}, {"extra", 1}}), InternalError);
  CHECK_THROWS_AS(plan_text(PlanTextId::StepDepthRequested, {{"rank", 16}}), InternalError);
  // A whole sentence said inside another: the reject, and the recommendation after its label.
  CHECK(plan_text(PlanTextId::StepReject, {{"reject", plan_text(PlanTextId::RejectDualPipeWithoutEp)},
                                           {"recommend", plan_text(PlanTextId::RecommendOneCopy)}})
            .english() ==
        "DualPipe keeps two copies of the parameters; without expert parallelism there is no all-to-all to hide "
        "that would justify them. Recommendation: DualPipeV (one copy) or Zero Bubble.");
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
