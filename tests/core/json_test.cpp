// The JSON schema: config parsing errors with paths, and the result's shape.
#include <catch2/catch.hpp>

#include "pipesim/json.h"

using namespace pipesim;

namespace {
Error parse_error_of(const std::string& text) {
  auto r = config_from_json_text(text);
  REQUIRE_FALSE(r.ok());
  return r.error();
}
}  // namespace

TEST_CASE("config parsing rejects wrong types with the field and value") {
  Error e = parse_error_of(R"({"schedule":"1f1b","ranks":2.7,"microbatches":8})");
  CHECK(e.code == ErrorCode::InvalidConfig);
  CHECK(e.message == "ranks must be an integer (got 2.7)");
  CHECK(e.path == "/ranks");
  CHECK(parse_error_of(R"({"schedule":"1f1b","ranks":"4","microbatches":8})").message ==
        "ranks must be an integer (got \"4\")");
  CHECK(parse_error_of(R"({"schedule":"1f1b","ranks":true,"microbatches":8})").message ==
        "ranks must be an integer (got true)");
  e = parse_error_of(R"({"schedule":"1f1b","ranks":4,"microbatches":8,"costs":{"forward":"1"}})");
  CHECK(e.message == "costs.forward must be a number (got \"1\")");
  CHECK(e.path == "/costs/forward");
  CHECK(parse_error_of(R"({"schedule":"1f1b","ranks":4,"microbatches":1e300})").message ==
        "microbatches must be an integer in the 32-bit range (got 1e+300)");
}

TEST_CASE("config parsing rejects unknown and missing fields and bad JSON") {
  Error e = parse_error_of(R"({"schedule":"1f1b","ranks":4,"microbatches":8,"cost":{}})");
  CHECK(e.message == "unknown field \"cost\"");
  CHECK(e.path == "/cost");
  e = parse_error_of(R"({"schedule":"1f1b","ranks":4,"microbatches":8,"costs":{"fwd":1}})");
  CHECK(e.message == "unknown field \"fwd\" in costs");
  CHECK(parse_error_of(R"({"schedule":"1f1b","ranks":4})").message == "missing field microbatches");
  e = parse_error_of(R"({"schedule":"1f1b",)");
  CHECK(e.code == ErrorCode::ParseError);
  CHECK(e.message == "input is not valid JSON: parse error at line 1, column 20: syntax error while parsing object key - unexpected end of input; expected string literal");
  CHECK(parse_error_of("[1,2]").message == "config must be a JSON object (got [1,2])");
  e = parse_error_of(R"({"schedule":"1f1b","ranks":1e999,"microbatches":8})");
  CHECK(e.code == ErrorCode::ParseError);
  CHECK(e.message == "input is not valid JSON: number overflow parsing '1e999'");
}

TEST_CASE("config parsing accepts integral floats and fills default costs") {
  auto r = config_from_json_text(R"({"schedule":"dualpipe","ranks":8.0,"microbatches":20,"costs":{"overlapped":2.4}})");
  REQUIRE(r.ok());
  CHECK(r.value().ranks == 8);
  CHECK(r.value().costs.overlapped == 2.4);
  CHECK(r.value().costs.backward == 2);
}

TEST_CASE("results carry the documented fields in order") {
  auto r = simulate({"1f1b", 2, 2, {}});
  REQUIRE(r.ok());
  const Json j = result_to_json(r.value());
  std::vector<std::string> keys;
  for (const auto& item : j.items()) keys.push_back(item.key());
  CHECK(keys == std::vector<std::string>{"schedule", "ranks", "stages", "microbatches", "costs", "makespan",
                                         "perRank", "bubble", "utilization", "stagesPerRank", "paramCopies",
                                         "maxPeakActivations", "maxPeakActivationMemory", "reference",
                                         "timeline"});
  CHECK(j["timeline"][0][0].dump() == R"({"op":"F","dir":0,"mb":0,"stage":0,"start":0.0,"end":1.0})");
  CHECK(j["timeline"][1][1].dump() == R"({"op":"B","dir":0,"mb":0,"stage":1,"zb":false,"start":2.0,"end":4.0})");
  auto d = simulate({"dualpipe", 2, 4, {}});
  REQUIRE(d.ok());
  bool saw_pair = false;
  const Json dj = result_to_json(d.value());
  for (const auto& op : dj["timeline"][0])
    if (op["op"] == "FB") {
      saw_pair = true;
      CHECK(op.contains("fdir"));
      CHECK(op.contains("bstage"));
    }
  CHECK(saw_pair);
}
