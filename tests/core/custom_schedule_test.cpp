// Hand-written schedules: labels round-trip with op_label, pasted timelines run, errors have paths.
#include <catch2/catch.hpp>

#include "pipesim/custom_schedule.h"

using namespace pipesim;

TEST_CASE("op labels parse back to the op they print") {
  for (const char* label : {"F0.3@2", "B1.0@5", "Bz1.12@0", "W0.7@3", "FB(F0.4@1,B1.0@1)"}) {
    auto op = parse_op_label(label, "/x");
    REQUIRE(op.ok());
    CHECK(op_label(op.value()) == label);
  }
  for (const char* bad : {"", "F", "F0.3", "F0.3@", "X0.1@1", "F0.1@1x", "FB(F0.1@1)", "Bz", "F-1.0@0"}) {
    auto op = parse_op_label(bad, "/rankOps/0/3");
    REQUIRE_FALSE(op.ok());
    CHECK(op.error().path == "/rankOps/0/3");
  }
}

TEST_CASE("a pasted two-stage 1F1B runs with hand-checkable times") {
  // Same as engine_test's first case: F F B B with F=1 B=2 gives makespan 6.
  const Json j = Json::parse(R"({"schedule":"custom","stages":2,"microbatches":1,
    "rankOps":[["F0.0@0","B0.0@0"],[{"op":"F","dir":0,"mb":0,"stage":1},"B0.0@1"]]})");
  auto r = simulate_request(j);
  REQUIRE(r.ok());
  CHECK(r.value().makespan == 6);
  CHECK(r.value().config.schedule == "custom");
  CHECK(r.value().bubble_max == 3);
}

TEST_CASE("a simulated timeline can be pasted back and gives the same result") {
  auto original = simulate({"dualpipe", 4, 8, {}});
  REQUIRE(original.ok());
  const Json out = result_to_json(original.value());
  Json request{{"schedule", "custom"}, {"stages", 4}, {"directions", 2}, {"microbatches", 8},
               {"rankOps", out["timeline"]}};
  auto again = simulate_request(request);
  REQUIRE(again.ok());
  CHECK(again.value().makespan == original.value().makespan);
  CHECK(again.value().bubble_max == original.value().bubble_max);
}

TEST_CASE("custom schedule errors name the op") {
  auto r = simulate_request(Json::parse(
      R"({"schedule":"custom","stages":2,"microbatches":1,"rankOps":[["F0.0@0","B0.0@0"],["F0.0@1","Q"]]})"));
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == ErrorCode::InvalidSchedule);
  CHECK(r.error().path == "/rankOps/1/1");
  CHECK(r.error().message == "op \"Q\" is not of the form F0.3@2, B0.3@2, Bz0.3@2, W0.3@2 or FB(F0.4@1,B1.0@1)");
  auto missing = simulate_request(Json::parse(R"({"schedule":"custom","microbatches":1,"rankOps":[[]]})"));
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().message == "missing field stages for a custom schedule");
}

TEST_CASE("an op object with an unknown field is an error at its path") {
  // docs/schema.md: unknown fields are errors. An op object has its timeline fields only (start and
  // end are read back and ignored); before issue 30, {"op":"F",...,"evil":1} ran.
  auto request = [](const std::string& op) {
    return Json::parse(R"({"schedule":"custom","stages":2,"microbatches":1,"rankOps":[["F0.0@0","B0.0@0"],[)" + op +
                       R"(,"B0.0@1"]]})");
  };
  for (const auto& [op, key] : std::vector<std::pair<std::string, std::string>>{
           {R"({"op":"F","dir":0,"mb":0,"stage":1,"evil":1})", "evil"},
           {R"({"op":"F","dir":0,"mb":0,"stage":1,"zb":false})", "zb"},  // zb is a B's only
           {R"({"op":"F","dir":0,"mb":0,"stage":1,"stgae":1})", "stgae"},
           {R"({"op":"F","dir":0,"mb":0,"stage":1,"fdir":0})", "fdir"}}) {
    auto r = simulate_request(request(op));
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().rule == "field.unknown_in");
    CHECK(r.error().path == "/rankOps/1/0/" + key);
    CHECK(r.error().message == "unknown field \"" + key + "\" in rankOps.1.0");
  }
  auto pair = simulate_request(Json::parse(
      R"({"schedule":"custom","stages":1,"microbatches":2,"rankOps":[["F0.0@0",
         {"op":"FB","fdir":0,"fmb":1,"fstage":0,"bdir":0,"bmb":0,"bstage":0,"dir":0},"B0.1@0"]]})"));
  REQUIRE_FALSE(pair.ok());
  CHECK(pair.error().path == "/rankOps/0/1/dir");
  CHECK(pair.error().message == "unknown field \"dir\" in rankOps.0.1");
  // A timeline's own fields, start and end included, still read back.
  auto ok = simulate_request(request(R"({"op":"F","dir":0,"mb":0,"stage":1,"start":1.0,"end":2.0})"));
  CHECK(ok.ok());
}
