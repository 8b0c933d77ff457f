// Hostile input at the core (issue 13): bounded parsing (size, depth, duplicate keys), messages
// that quote any value as one short line, the strict number grammar the CLI shares with JSON,
// and the streamed result text, byte for byte the JSON tree's dump.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "pipesim/catalogue.h"
#include "pipesim/custom_schedule.h"
#include "pipesim/engine.h"
#include "pipesim/exercises.h"
#include "pipesim/json.h"
#include "pipesim/planner.h"
#include "pipesim/rules.h"
#include "../fuzz/fuzz_checks.h"
#include "pipesim/sweep.h"

using namespace pipesim;

namespace {

// Parses and simulates, as `pipesim simulate --input` and the JS API do; the error.
Error request_error(const std::string& text) {
  auto json = parse_json(text);
  if (!json.ok()) return json.error();
  auto result = simulate_request(json.value());
  REQUIRE_FALSE(result.ok());
  return result.error();
}

std::string nested_arrays(int levels) { return std::string(levels, '[') + std::string(levels, ']'); }

std::string repeat(const std::string& piece, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += piece;
  return out;
}

// one_clean_line: the fuzz harnesses' definition (tests/fuzz/fuzz_checks.h), one copy for both.
using pipesim::fuzz::one_clean_line;

}  // namespace

TEST_CASE("arrays and objects may nest 64 levels; the 65th is a parse_error at its pointer") {
  CHECK(parse_json(nested_arrays(kMaxJsonDepth)).ok());
  const auto deep = parse_json(nested_arrays(kMaxJsonDepth + 1));
  REQUIRE_FALSE(deep.ok());
  CHECK(deep.error().code == ErrorCode::ParseError);
  CHECK(deep.error().rule == "json.too_deep");
  CHECK(deep.error().message == "input nests arrays and objects more than 64 levels deep");
  CHECK(deep.error().path == repeat("/0", kMaxJsonDepth));  // level k is at "/0" x (k - 1)
  const auto objects = parse_json(repeat("{\"a\":", 70) + "1" + std::string(70, '}'));
  REQUIRE_FALSE(objects.ok());
  CHECK(objects.error().path == repeat("/a", kMaxJsonDepth));
}

TEST_CASE("100,000 levels of nesting, alone or as a field's value, are refused as too deep") {
  CHECK(parse_json(nested_arrays(100000)).error().rule == "json.too_deep");
  CHECK(parse_json(std::string(100000, '[')).error().rule == "json.too_deep");  // never closed
  const Error e = request_error(R"({"schedule":"1f1b","ranks":)" + nested_arrays(100000) + "}");
  CHECK(e.rule == "json.too_deep");
  CHECK(e.path == "/ranks" + repeat("/0", kMaxJsonDepth - 1));
}

TEST_CASE("input above 16 MB is too_large before it is parsed; 16 MB exactly is read") {
  std::string text = "{}";
  text.resize(static_cast<std::size_t>(kMaxInputBytes), ' ');
  CHECK(parse_json(text).ok());
  text += ' ';
  const auto e = parse_json(text);
  REQUIRE_FALSE(e.ok());
  CHECK(e.error().code == ErrorCode::TooLarge);
  CHECK(e.error().rule == "input.too_large");
  CHECK(e.error().message == "input is larger than the limit of 16777216 bytes");
  CHECK(e.error().path == "");
}

TEST_CASE("a key given twice in one object is a parse_error at the key's pointer") {
  auto dup = [](const std::string& text) {
    const auto r = parse_json(text);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == ErrorCode::ParseError);
    CHECK(r.error().rule == "json.duplicate_key");
    return r.error();
  };
  const Error top = dup(R"({"ranks":4,"ranks":8})");
  CHECK(top.message == "input has the key \"ranks\" twice in one object");
  CHECK(top.path == "/ranks");
  CHECK(dup(R"({"costs":{"forward":1,"backward":2,"forward":3}})").path == "/costs/forward");
  CHECK(dup(R"([{"x":1},{"y":1,"x":2,"y":3}])").path == "/1/y");
  CHECK(dup(R"({"a/b~":1,"a/b~":2})").path == "/a~1b~0");  // RFC 6901 escaping
  // Past 16 keys the check uses a hash set: a repeat far from its first is found too.
  std::string big = "{";
  for (int i = 0; i < 40; ++i) big += "\"k" + std::to_string(i) + "\":" + std::to_string(i) + ",";
  CHECK(dup(big + "\"k3\":0}").path == "/k3");
  CHECK(parse_json(big + "\"k40\":0}").ok());
  // Equal keys in different objects are not repeats.
  CHECK(parse_json(R"({"a":{"x":1},"b":{"x":1}})").ok());
}

TEST_CASE("an error path stops at the deepest ancestor that fits in 256 bytes") {
  const std::string key(300, 'k');
  const Error unknown = request_error(R"({"schedule":"1f1b","ranks":4,"microbatches":8,"costs":{")" + key + R"(":1}})");
  CHECK(unknown.rule == "field.unknown_in");
  CHECK(unknown.path == "/costs");
  CHECK(unknown.message == "unknown field \"" + std::string(65, 'k') + "... (300 bytes)\" in costs");
  const auto dup = parse_json(R"({")" + key + R"(":{"a":1,"a":2}})");
  REQUIRE_FALSE(dup.ok());
  CHECK(dup.error().path == "");  // the key holding the object does not fit, so neither does /a
  CHECK(json_pointer_child("/x", std::string(253, 'y')) == "/x/" + std::string(253, 'y'));  // 256
  CHECK(json_pointer_child("/x", std::string(254, 'y')) == "/x");
}

TEST_CASE("summary() leaves short printable text alone and escapes control characters") {
  CHECK(summary("dualpipe") == "dualpipe");
  CHECK(summary("a\"b\\c") == "a\"b\\c");
  CHECK(summary("a\nb\tc\rd") == "a\\nb\\tc\\rd");
  CHECK(summary(std::string("\0\x01\x1f\x7f", 4)) == "\\u0000\\u0001\\u001f\\u007f");
  CHECK(summary("\xc2\x85|\xe2\x80\xa8|\xe2\x80\xa9") == "\\u0085|\\u2028|\\u2029");  // NEL, LS, PS
  CHECK(summary("h\xc3\xa9 \xe0\xa4\xb9\xe0\xa4\xbf \xf0\x9f\x98\x80") == "h\xc3\xa9 \xe0\xa4\xb9\xe0\xa4\xbf \xf0\x9f\x98\x80");
}

TEST_CASE("summary() shows bytes that are not UTF-8 as \\xNN") {
  CHECK(summary("a\xff" "b") == "a\\xffb");
  CHECK(summary("\xc3") == "\\xc3");                  // truncated sequence
  CHECK(summary("\xc0\xaf") == "\\xc0\\xaf");         // overlong "/"
  CHECK(summary("\xed\xa0\x80") == "\\xed\\xa0\\x80");  // a UTF-16 surrogate
  CHECK(summary("\xf4\x90\x80\x80") == "\\xf4\\x90\\x80\\x80");  // above U+10FFFF
}

TEST_CASE("summary() cuts long text to 80 bytes: its start and its length") {
  const std::string exact(80, 'x');
  CHECK(summary(exact) == exact);
  const std::string cut = summary(std::string(81, 'x'));
  CHECK(cut == std::string(66, 'x') + "... (81 bytes)");  // 66 + 14 = 80
  const std::string huge = summary(std::string(100'000'000, 'x'));
  CHECK(huge == std::string(59, 'x') + "... (100000000 bytes)");  // 59 + 21
  // A character or an escape is never split: 'é' is two bytes, "\n" two characters.
  const std::string accents = summary(repeat("\xc3\xa9", 50));  // 100 bytes
  CHECK(accents == repeat("\xc3\xa9", 32) + "... (100 bytes)");  // 64 + 15 <= 80
  const std::string newlines = summary(std::string(50, '\n'));
  CHECK(newlines == repeat("\\n", 33) + "... (50 bytes)");  // 66 + 14
  CHECK(summary(huge) == huge);  // idempotent: a summary quotes as itself
}

TEST_CASE("a huge or strange value is quoted as a summary in one short line") {
  const std::string zeros = "[" + repeat("0,", 999'999) + "0]";
  const Error array = request_error(R"({"schedule":"1f1b","ranks":)" + zeros + R"(,"microbatches":8})");
  // "[" and 30 "0," are 61 bytes, the note 19: 80.
  CHECK(array.message == "ranks must be an integer (got [" + repeat("0,", 30) + "... (1000000 items))");
  const Error object = request_error(R"({"schedule":"1f1b","ranks":{"a":[1,2],"b":"x\ny"},"microbatches":8})");
  CHECK(object.message == R"(ranks must be an integer (got {"a":[1,2],"b":"x\ny"}))");
  const std::string name(1 << 20, 'p');
  const Error schedule = request_error(R"({"schedule":")" + name + R"(","ranks":4,"microbatches":8})");
  CHECK(schedule.rule == "schedule.unknown");
  CHECK(schedule.message.size() < 200);
  CHECK(schedule.message.find("... (1048576 bytes)") != std::string::npos);
  const Error key = request_error(R"({"sched\nule":"1f1b"})");
  CHECK(key.message == "unknown field \"sched\\nule\"");
  CHECK(key.path == "/sched\nule");  // a path is data (a JSON pointer), not a line of text
}

TEST_CASE("every message from hostile input is one clean line of at most 300 bytes") {
  const std::string big(5'000'000, 'z');
  const std::string bad_utf8 = "\"\xff\xfe\"";
  const std::string texts[] = {
      nested_arrays(100000),
      R"({"schedule":"1f1b","ranks":")" + big + R"(","microbatches":8})",
      R"({"schedule":"custom","stages":1,"microbatches":1,"rankOps":[[")" + big + R"("]]})",
      R"({"schedule":"custom","stages":1,"microbatches":1,"rankOps":[["F0.0@0\nB0.0@0"]]})",
      R"({"schedule":"custom","stages":1,"microbatches":1,"rankOps":[[{"op":")" + big + R"("}]]})",
      // an op object's unknown field (issue 30), 5 MB long
      R"({"schedule":"custom","stages":1,"microbatches":1,"rankOps":[[{"op":"F","dir":0,"mb":0,"stage":0,")" + big + R"(":1}]]})",
      R"({"schedule":"1f1b","ranks":4,"microbatches":8,"costs":{"forward":)" + big.substr(0, 400) + "}}",
      "{\"schedule\":" + bad_utf8 + "}",
      "{\"schedule\":\"" + big,                 // unterminated string: nlohmann quotes what it read
      "[" + std::string(1000, '1') + "e999]",  // number overflow, quoted by nlohmann
      "tru" + big,
      "{\"a\":1,\"a\":2," + big + "}",
      std::string("{\"a\":\x01}"),
  };
  for (const std::string& text : texts) {
    INFO(text.substr(0, 60));
    const Error e = request_error(text);
    const std::string line = std::string("pipesim: ") + error_code_name(e.code) + ": " + e.message;
    CHECK(one_clean_line(line));
    CHECK(line.size() <= 300);
    CHECK_NOTHROW(error_to_json(e).dump());  // throws on invalid UTF-8
  }
  auto sweep = sweep_request(parse_json(R"({"schedules":["x)" + big + R"("],"ranks":[4],"microbatches":[8]})").value());
  CHECK(sweep.error().message.size() <= 200);
  auto plan = plan_spec_from_json(parse_json(R"({"cluster":{"gpus":8,"gpuModel":"H800","memoryPerGpuGb":80,"nodes":1,"gpusPerNode":8,"interconnectGbpsPerGpu":400},"model":{"type":")" + big + R"("}})").value());
  CHECK(plan.error().message.size() <= 200);
}

TEST_CASE("string params of any error are held to 200 bytes and one line, and still fill the template") {
  const Error e = make_error(Rule::Internal, "", {{"detail", std::string(1000, 'd') + "\n"}});
  CHECK(e.message.size() == 200);
  CHECK(one_clean_line(e.message));
  CHECK(std::get<std::string>(e.params[0].value) == e.message);  // params match the message
  const Error bytes = make_error(Rule::ScheduleUnknown, "/schedule",
                                 {{"field", "schedule"}, {"allowed", "a, b"}, {"got", "\xff\x00"}});
  CHECK(bytes.message == "schedule must be one of a, b (got \"\\xff\")");
}

TEST_CASE("a number's text is read by the JSON grammar and nothing else") {
  for (const char* ok : {"0", "4", "-2", "8.0", "2.5", "1e3", "1E-3", "-0.5e+2", "99999999999"}) {
    INFO(ok);
    const auto j = parse_json_number(ok);
    REQUIRE(j.has_value());
    CHECK(j->is_number());
  }
  CHECK(parse_json_number("8.0")->get<double>() == 8.0);
  CHECK(parse_json_number("-2")->get<int>() == -2);
  for (const char* bad : {"", " 4", "4 ", "\t4", "+4", "0x10", "010", "4.", ".5", "1e", "inf", "-inf",
                          "Infinity", "NaN", "nan", "4,", "[4]", "\"4\"", "true", "1e999", "--1", "4\n"}) {
    INFO(bad);
    CHECK_FALSE(parse_json_number(bad).has_value());
  }
}

TEST_CASE("the streamed result text is the JSON tree's dump, byte for byte") {
  std::vector<Result<SimResult>> results;
  for (const char* name : {"gpipe", "1f1b", "zb-h1", "dualpipe", "dualpipev", "chimera"})
    results.push_back(simulate({name, 4, 8, Costs{}}));
  results.push_back(simulate({"dualpipe", 8, 20, Costs{1, 2, 1, 2.4, 0.125}}));
  Costs comm{1.5, 2.25, 0.75, 3.1, 0.01};
  comm.comm = CommCosts{};
  comm.comm->layers = 4;
  results.push_back(simulate({"dualpipev", 4, 10, comm}));
  const auto custom = simulate_request(parse_json(
      R"js({"schedule":"custom","stages":2,"directions":1,"microbatches":2,"rankOps":[["F0.0@0","F0.1@0","Bz0.0@0","B0.1@0","W0.0@0"],["F0.0@1","FB(F0.1@1,B0.0@1)","B0.1@1"]],"costs":{"forward":0.3}})js").value());
  results.push_back(custom);
  for (const auto& r : results) {
    REQUIRE(r.ok());
    const std::string tree = result_to_json(r.value()).dump();
    CHECK(result_json_text(r.value()) == tree);
    std::ostringstream stream;
    write_result_json(r.value(), stream);
    CHECK(stream.str() == tree);
  }
  CHECK(result_json_text(custom.value()).find(R"("op":"FB","fdir":0,"fmb":1,"fstage":1,"bdir":0,"bmb":0,"bstage":1)") != std::string::npos);
}

TEST_CASE("the catalogue lists the input limits the parser and the messages keep") {
  const Json limits = catalogue_to_json().at("limits");
  CHECK(limits.at("maxInputBytes") == 16 * 1024 * 1024);
  CHECK(limits.at("maxDepth") == 64);
  CHECK(limits.at("maxPathBytes") == 256);
  CHECK(limits.at("summaryBytes") == 80);
  CHECK(limits.at("maxParamBytes") == 200);
  // ... and they are the ones enforced: one more of each is refused.
  CHECK(parse_json(std::string(limits.at("maxDepth").get<std::size_t>() + 1, '[')).error().rule == "json.too_deep");
  CHECK(summary(std::string(limits.at("summaryBytes").get<std::size_t>() + 1, 'x')).size() ==
        limits.at("summaryBytes").get<std::size_t>());
}
