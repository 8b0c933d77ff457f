// The contract core gives its clients: the rule table, structured errors and the catalogue.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <memory>
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
  // DualPipe's region (formulas.cpp), as data and in words written from it.
  const Json& ref = c.at("schedules").at(3).at("reference");
  CHECK(ref.at("region").dump() ==
        R"json({"any":[[{"left":"PP","op":"=","right":"2"}],)json"
        R"json([{"left":"B-W","op":"=","right":"F"},{"left":"W","op":"<=","right":"F"},)json"
        R"json({"left":"max(F,B)","op":"<=","right":"F&B"},{"left":"F&B","op":"<=","right":"F+B"}]],)json"
        R"json("all":[{"left":"p2pLatency","op":"=","right":"0"},{"left":"stageCosts","op":"=","right":"equal"}],"note":null})json");
  CHECK(ref.at("condition") == "PP = 2, or B-W = F, W <= F, max(F,B) <= F&B, F&B <= F+B; p2pLatency = 0, every stage costs the same");
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

namespace {

// Value `i` of column `c` of `t`, read back as the column's declared type T.
template <typename T>
double column_value(const TimelineTable& t, std::size_t c, std::size_t i) {
  REQUIRE(sizeof(T) == static_cast<std::size_t>(column_type_size(timeline_column_infos()[c].type)));
  T v;
  std::memcpy(&v, t.data() + t.offsets()[c] + i * sizeof v, sizeof v);
  return static_cast<double>(v);
}

// Every column of `columns` equals the Ops timeline of `ops`, op for op (rank, then execution order).
void check_columns_match(const SimResult& ops, const SimResult& columns) {
  const TimelineTable& t = columns.columns;
  std::size_t count = 0;
  for (const auto& list : ops.timeline) count += list.size();
  REQUIRE(t.count() == count);
  REQUIRE(t.offsets().size() == timeline_column_infos().size());
  for (std::size_t c = 0; c < t.offsets().size(); ++c) {
    CHECK(t.offsets()[c] % 8 == 0);  // every column aligned for any type
    const std::size_t end = c + 1 < t.offsets().size() ? t.offsets()[c + 1] : t.size_bytes();
    CHECK(end - t.offsets()[c] >= count * static_cast<std::size_t>(column_type_size(timeline_column_infos()[c].type)));
  }
  std::size_t i = 0;
  for (std::size_t rank = 0; rank < ops.timeline.size(); ++rank)
    for (const TimedOp& op : ops.timeline[rank]) {
      const bool pair = op.op.kind == OpKind::ForwardBackward;
      const double want[] = {static_cast<double>(rank), static_cast<double>(op.op.kind), op.op.zero_bubble ? 1.0 : 0.0,
                             static_cast<double>(op.op.chunk.dir), static_cast<double>(op.op.chunk.mb),
                             static_cast<double>(op.op.chunk.stage), pair ? op.op.backward_chunk.dir : -1.0,
                             pair ? op.op.backward_chunk.mb : -1.0, pair ? op.op.backward_chunk.stage : -1.0,
                             op.start, op.end};
      const double got[] = {column_value<std::int16_t>(t, 0, i), column_value<std::uint8_t>(t, 1, i),
                            column_value<std::uint8_t>(t, 2, i), column_value<std::uint8_t>(t, 3, i),
                            column_value<std::int32_t>(t, 4, i), column_value<std::int16_t>(t, 5, i),
                            column_value<std::int8_t>(t, 6, i), column_value<std::int32_t>(t, 7, i),
                            column_value<std::int16_t>(t, 8, i), column_value<double>(t, 9, i),
                            column_value<double>(t, 10, i)};
      for (std::size_t c = 0; c < std::size(want); ++c) {
        INFO("op " << i << " column " << timeline_column_infos()[c].name);
        REQUIRE(got[c] == want[c]);
      }
      ++i;
    }
  // The Columns form leaves the Ops lists empty, one per rank, as without a timeline.
  CHECK(columns.timeline.size() == ops.timeline.size());
  for (const auto& list : columns.timeline) CHECK(list.empty());
}

}  // namespace

TEST_CASE("timeline columns written by the engine equal its Ops timeline, op for op") {
  Costs latency;
  latency.p2p_latency = 0.5;
  Costs overlapped;
  overlapped.overlapped = 2.4;
  // F, B, W and FB pairs in both directions, zero-bubble Bs, two stages per rank, p2p latency.
  // Runtime timing times a list of ops, not the engine's plan: its columns come from that list.
  SimConfig runtime{"dualpipe", 8, 20, overlapped};
  runtime.timing = Timing::Runtime;
  const SimConfig configs[] = {{"dualpipe", 8, 20, overlapped}, {"dualpipev", 4, 10, {}},
                               {"zb-h1", 4, 8, {}}, {"gpipe", 4, 4, latency}, {"chimera", 4, 8, {}},
                               {"interleaved-1f1b", 4, 8, latency}, {"zb-v", 4, 8, {}}, runtime};
  for (const SimConfig& config : configs) {
    INFO(config.schedule << (config.timing == Timing::Runtime ? " (runtime timing)" : ""));
    const auto ops = simulate(config);
    const auto columns = simulate(config, SimOptions{TimelineForm::Columns});
    REQUIRE(ops.ok());
    REQUIRE(columns.ok());
    check_columns_match(ops.value(), columns.value());
  }
  // A hand-written schedule: its columns come from the plan, its Ops are the caller's own.
  const Schedule schedule = generate_schedule({"zb-h1", 3, 6, latency}).value();
  const auto ops = simulate_schedule(schedule, latency);
  const auto columns = simulate_schedule(schedule, latency, SimOptions{TimelineForm::Columns});
  REQUIRE(ops.ok());
  REQUIRE(columns.ok());
  check_columns_match(ops.value(), columns.value());
}

TEST_CASE("a copied timeline table holds its own copy of the bytes") {
  const auto r = simulate({"1f1b", 4, 8, {}}, SimOptions{TimelineForm::Columns});
  REQUIRE(r.ok());
  const TimelineTable& original = r.value().columns;
  TimelineTable copy = original;
  REQUIRE(copy.size_bytes() == original.size_bytes());
  CHECK(copy.data() != original.data());
  CHECK(std::memcmp(copy.data(), original.data(), original.size_bytes()) == 0);
  CHECK(copy.offsets() == original.offsets());
}

TEST_CASE("a timeline table's padding between columns is zero: the same run gives the same block, byte for byte") {
  const SimConfig config{"gpipe", 3, 3, {}};  // 18 ops: the 1-byte columns end 6 bytes short of 8
  const auto first = simulate(config, SimOptions{TimelineForm::Columns});
  REQUIRE(first.ok());
  const std::size_t size = first.value().columns.size_bytes();
  {
    // Leave non-zero bytes where the next block of this size is likely to be allocated.
    std::unique_ptr<std::uint8_t[]> dirty(new std::uint8_t[size]);
    std::fill(dirty.get(), dirty.get() + size, std::uint8_t{0xAB});
  }
  const auto second = simulate(config, SimOptions{TimelineForm::Columns});
  REQUIRE(second.ok());
  const TimelineTable& t = second.value().columns;
  std::size_t padding = 0;
  for (std::size_t c = 0; c < t.offsets().size(); ++c) {
    const std::size_t used = t.count() * static_cast<std::size_t>(column_type_size(timeline_column_infos()[c].type));
    const std::size_t end = c + 1 < t.offsets().size() ? t.offsets()[c + 1] : t.size_bytes();
    for (std::size_t b = t.offsets()[c] + used; b < end; ++b, ++padding) CHECK(t.data()[b] == 0);
  }
  CHECK(padding > 0);
  REQUIRE(first.value().columns.size_bytes() == size);
  CHECK(std::memcmp(first.value().columns.data(), t.data(), size) == 0);
}
