// The contract core gives its clients: the rule table, structured errors and the catalogue.
#include <catch2/catch.hpp>

#include <cstring>
#include <set>
#include <string>

#include "pipesim/catalogue.h"
#include "pipesim/custom_schedule.h"
#include "pipesim/engine.h"
#include "pipesim/rules.h"
#include "pipesim/sweep.h"
#include "pipesim/timeline_columns.h"

using namespace pipesim;

namespace {

// The message a client rebuilds from rule + params with the rule's template (what the Hindi page
// does with its own templates).
std::string render(const Error& e) {
  const RuleInfo* info = nullptr;
  for (const RuleInfo& r : list_rules())
    if (e.rule == r.id) info = &r;
  REQUIRE(info != nullptr);
  std::string out = info->message;
  for (const ErrorParam& p : e.params) {
    const std::string key = "{" + p.name + "}";
    for (auto at = out.find(key); at != std::string::npos; at = out.find(key))
      out.replace(at, key.size(), p.text());
  }
  return out;
}

Error simulate_error(const std::string& json) {
  auto parsed = parse_json(json);
  if (!parsed.ok()) return parsed.error();
  auto r = simulate_request(parsed.value());
  REQUIRE_FALSE(r.ok());
  return r.error();
}

}  // namespace

TEST_CASE("rule ids are unique, dotted, and their templates name their params") {
  std::set<std::string> ids;
  for (const RuleInfo& r : list_rules()) {
    INFO(r.id);
    CHECK(ids.insert(r.id).second);
    CHECK((std::string(r.id).find('.') != std::string::npos || std::string(r.id) == "internal"));
    CHECK(rule_info(r.rule).id == r.id);
    // A filled template has no braces left: every placeholder got its param.
    ErrorParams params;
    for (const std::string& name : template_params(r.message)) params.emplace_back(name, "x");
    const Error e = make_error(r.rule, "", params);
    CHECK(e.message.find('{') == std::string::npos);
    CHECK(e.code == r.code);
    CHECK(e.rule == r.id);
  }
}

TEST_CASE("an error whose params do not match its template is a bug, not a message") {
  CHECK_THROWS_AS(make_error(Rule::RanksEven, "/ranks", {{"min", 2}, {"got", 3}}), InternalError);
  CHECK_THROWS_AS(make_error(Rule::ScheduleShape, "", {{"extra", 1}}), InternalError);
}

TEST_CASE("errors carry a rule and params from which their message can be rebuilt") {
  const char* inputs[] = {
      R"({"schedule":"dualpipe","ranks":3,"microbatches":8})",
      R"({"schedule":"dualpipe","ranks":4,"microbatches":9})",
      R"({"schedule":"dualpipe","ranks":8,"microbatches":10})",
      R"({"schedule":"chimera","ranks":4,"microbatches":6})",
      R"({"schedule":"zigzag","ranks":4,"microbatches":8})",
      R"({"schedule":"1f1b","ranks":2.5,"microbatches":8})",
      R"({"schedule":"1f1b","ranks":4,"microbatches":8,"costs":{"forward":-1}})",
      R"({"schedule":"1f1b","ranks":4,"microbatches":8,"costs":{"weight":3}})",
      R"({"schedule":"1f1b","ranks":4,"microbatches":8,"costs":{"forward":1e-9}})",
      R"({"schedule":"1f1b","ranks":4,"microbatches":8,"costs":{"comm":{"ratio":1,"layers":99}}})",
      R"({"schedule":"1f1b","ranks":1024,"microbatches":1048576})",
      R"({"schedule":"1f1b","ranks":4})",
      R"({"schedule":"1f1b","ranks":4,"microbatches":8,"extra":1})",
      R"({"schedule":"custom","stages":2,"microbatches":1,"rankOps":[["F0.0@0","X"],[]]})",
      R"({"schedule":"custom","stages":2,"microbatches":1,"rankOps":[["B0.0@0","F0.0@0"],["F0.0@1","B0.0@1"]]})",
      R"({"schedule":"1f1b",)",
  };
  for (const char* input : inputs) {
    INFO(input);
    const Error e = simulate_error(input);
    CHECK_FALSE(e.rule.empty());
    CHECK(render(e) == e.message);
  }
}

TEST_CASE("the JSON of an error holds its rule and its params as numbers and strings") {
  const Json j = error_to_json(simulate_error(R"({"schedule":"dualpipe","ranks":8,"microbatches":10})"));
  CHECK(j.dump() ==
        R"js({"code":"invalid_config","message":"microbatches must be >= 2 * ranks = 16 for dualpipe (got 10)",)js"
        R"js("path":"/microbatches","rule":"microbatches.min_multiple_of_ranks",)js"
        R"js("params":{"k":2,"min":16,"schedule":"dualpipe","got":10}})js");
}

TEST_CASE("the catalogue's stage layouts are what the generators build") {
  for (const ScheduleInfo& info : list_schedules()) {
    INFO(info.name);
    for (int ranks : {2, 4, 6}) {
      const int m = 4 * ranks;
      auto r = simulate({info.name, ranks, m, Costs{}});
      REQUIRE(r.ok());
      CHECK(r.value().stages == info.layout.stages(ranks));
      CHECK(r.value().stages_per_rank == info.layout.stages_per_rank);
      CHECK(r.value().param_copies == info.layout.param_copies);
      std::int64_t ops = 0;
      for (const auto& list : r.value().timeline) ops += static_cast<std::int64_t>(list.size());
      CHECK(ops <= estimate_ops(info, ranks, m));  // the size cap's estimate is an upper bound
    }
  }
}

TEST_CASE("shape rules as data decide exactly what validate accepts") {
  for (const ScheduleInfo& info : list_schedules())
    for (int ranks = 1; ranks <= 6; ++ranks)
      for (int m = 1; m <= 30; ++m) {
        const ShapeRules& s = info.shape;
        const bool expected = ranks >= s.min_ranks && (!s.even_ranks || ranks % 2 == 0) &&
                              (!s.even_microbatches || m % 2 == 0) &&
                              m >= s.min_microbatches_per_rank * ranks &&
                              (!s.microbatches_multiple_of_ranks || m % ranks == 0);
        INFO(info.name << " " << ranks << "x" << m);
        CHECK(validate({info.name, ranks, m, Costs{}}).ok() == expected);
      }
}

TEST_CASE("the catalogue lists every schedule, limit, default, column and rule") {
  const Json c = catalogue_to_json();
  CHECK(c.at("schedules").size() == list_schedules().size());
  CHECK(c.at("schedules").at(3).at("name") == "dualpipe");
  CHECK(c.at("schedules").at(3).at("constraints") == "even ranks >= 2, even microbatches >= 2 * ranks");
  CHECK(c.at("schedules").at(3).at("reference").at("formula") == "(PP/2-1)(F&B+B-3W)");
  CHECK(c.at("limits").at("maxOps") == kMaxOps);
  CHECK(c.at("limits").at("tick") == 1e-6);
  CHECK(c.at("limits").at("maxSweepOps") == kMaxSweepOps);
  CHECK(c.at("costs").dump() == R"({"forward":1.0,"backward":2.0,"weight":1.0,"overlapped":3.0,"p2pLatency":0.0})");
  CHECK(c.at("comm").dump() == R"({"ratio":1.0,"attnShare":0.5,"layers":1})");
  CHECK(c.at("opKinds").dump() == R"(["F","B","W","FB"])");
  CHECK(c.at("timeline").size() == timeline_column_infos().size());
  CHECK(c.at("rules").size() == list_rules().size());
  CHECK(c.at("rules").at(0).dump() ==
        R"({"id":"json.invalid","code":"parse_error","message":"input is not valid JSON: {detail}","params":["detail"]})");
}

TEST_CASE("timeline columns hold every op's fields in their declared types") {
  auto r = simulate({"dualpipe", 4, 8, Costs{}});
  REQUIRE(r.ok());
  const TimelineTable t = timeline_columns(r.value());
  std::size_t ops = 0;
  for (const auto& list : r.value().timeline) ops += list.size();
  CHECK(t.count == ops);
  REQUIRE(t.columns.size() == timeline_column_infos().size());
  for (const TimelineColumn& c : t.columns)
    CHECK(c.bytes.size() == ops * static_cast<std::size_t>(column_type_size(c.info->type)));
  // The last op of rank 3, read back from the "end" column (float64, the last column).
  double end = 0;
  std::memcpy(&end, t.columns.back().bytes.data() + (ops - 1) * sizeof end, sizeof end);
  CHECK(std::string(t.columns.back().info->name) == "end");
  CHECK(end == r.value().timeline.back().back().end);
}
