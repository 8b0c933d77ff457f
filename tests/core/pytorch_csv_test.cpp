// torch.distributed.pipelining CSV in and out (pipesim/pytorch_csv.h): every built-in schedule
// round-trips with the same timeline, torch's spellings read as its schedules.py defines them
// (_Action.__repr__: stage, type, micro-batch; "(a;b)OVERLAP_F_B"), and bad files name the row
// and column of the fault.
#include <string>

#include <catch2/catch.hpp>

#include "pipesim/pytorch_csv.h"
#include "pipesim/rules.h"

using namespace pipesim;

namespace {

void check_same_timeline(const SimResult& a, const SimResult& b) {
  REQUIRE(a.timeline.size() == b.timeline.size());
  for (std::size_t r = 0; r < a.timeline.size(); ++r) {
    REQUIRE(a.timeline[r].size() == b.timeline[r].size());
    for (std::size_t i = 0; i < a.timeline[r].size(); ++i) {
      INFO("rank " << r << " op " << i);
      CHECK(op_label(a.timeline[r][i].op) == op_label(b.timeline[r][i].op));
      CHECK(a.timeline[r][i].start == b.timeline[r][i].start);
      CHECK(a.timeline[r][i].end == b.timeline[r][i].end);
    }
  }
  CHECK(a.makespan == b.makespan);
  CHECK(a.bubble_max == b.bubble_max);
  CHECK(a.max_peak_activations == b.max_peak_activations);
  CHECK(a.stages == b.stages);
  CHECK(a.stages_per_rank == b.stages_per_rank);
  CHECK(a.param_copies == b.param_copies);
}

}  // namespace

TEST_CASE("export then import gives every built-in schedule the same timeline") {
  const Costs costs{1, 1.5, 0.9, 2, 0.25};
  for (const ScheduleInfo& info : list_schedules())
    for (int ranks : {2, 4, 6}) {
      const int m = 4 * ranks;  // meets every shape rule at even ranks
      const SimConfig config{info.name, ranks, m, costs};
      INFO(info.name << " " << ranks << "x" << m);
      auto schedule = generate_schedule(config);
      REQUIRE(schedule.ok());
      auto again = simulate_pytorch_csv(schedule_to_pytorch_csv(schedule.value()), costs);
      REQUIRE(again.ok());
      check_same_timeline(simulate(config).value(), again.value());
    }
}

// The two unit-cost models under which every op of a run can last one step: a zero-bubble split
// (F = B - W = W) and full backwards (F = B); F&B = 1 makes an overlapped pair one step too.
const Costs kUnitSplit{1, 2, 1, 1, 0};
const Costs kUnitFull{1, 1, 0.5, 1, 0};

TEST_CASE("export then import round-trips in both CSV forms, grid and compact") {
  for (const ScheduleInfo& info : list_schedules()) {
    bool any_grid = false;
    for (int ranks : {2, 4}) {
      const int m = 4 * ranks;
      for (const Costs& costs : {kUnitSplit, kUnitFull, Costs{1, 1.5, 0.9, 2, 0.25}}) {
        const SimConfig config{info.name, ranks, m, costs};
        INFO(info.name << " " << ranks << "x" << m << " F=" << costs.forward << " B=" << costs.backward);
        const SimResult direct = simulate(config).value();
        const std::string csv = pytorch_csv_from_config(config).value();
        const bool grid = !pytorch_csv_steps(direct).empty();
        any_grid = any_grid || grid;
        // Only the grid has empty cells (the compact form writes none).
        if (!grid) CHECK((csv.find(",,") == std::string::npos && csv.find("\n,") == std::string::npos));
        auto again = simulate_pytorch_csv(csv, costs);
        REQUIRE(again.ok());
        check_same_timeline(direct, again.value());
        // The op order alone decides the run: the same file under other costs runs as ours does.
        const Costs other{1, 2.5, 1, 3, 0};
        check_same_timeline(simulate(SimConfig{info.name, ranks, m, other}).value(),
                            simulate_pytorch_csv(csv, other).value());
      }
    }
    // Every schedule has a grid at one of the unit costs but DualPipe and DualPipeV, which run
    // full backwards (B) beside split ones (B - W): with W > 0 they never last the same.
    INFO(info.name);
    CHECK(any_grid == (info.name != "dualpipe" && info.name != "dualpipev"));
  }
}

TEST_CASE("at unit costs a run is written as torch's step grid, worked by hand") {
  // 1F1B, 2 ranks, 2 micro-batches, F = B = 1. Rank 0: F0 [0,1], F1 [1,2]; rank 1: F0 [1,2],
  // B0 [2,3], F1 [3,4] (rank 0's F1 ended at 2, rank 1 was busy until 3), B1 [4,5]; rank 0: B0
  // waits for rank 1's B0 (ends 3) [3,4], B1 for rank 1's B1 (ends 5) [5,6]. One column per step,
  // idle steps empty, each row ending at its last action.
  const std::string grid = "0F0,0F1,,0B0,,0B1\r\n,1F0,1B0,1F1,1B1\r\n";
  CHECK(pytorch_csv_from_config({"1f1b", 2, 2, kUnitFull}).value() == grid);
  // Read back: the same run; the JSON request writes the same grid.
  CHECK(simulate_pytorch_csv(grid, kUnitFull).value().makespan == 6);
  CHECK(pytorch_csv_from_request(parse_json(R"({"schedule":"1f1b","ranks":2,"microbatches":2,)"
                                            R"("costs":{"forward":1,"backward":1,"weight":0.5,"overlapped":1}})")
                                     .value())
            .value() == grid);
  // ZB-H1 at F = B - W = W = 1 (the default costs): I and W are one step each. Rank 1: F0 [1,2],
  // I0 [2,3], F1 [3,4], I1 [4,5], W0 [5,6], W1 [6,7]; rank 0: F0 [0,1], F1 [1,2], I0 after rank
  // 1's (ends 3) [3,4], W0 [4,5], I1 after rank 1's (ends 5) [5,6], W1 [6,7].
  const std::string zb = pytorch_csv_from_config({"zb-h1", 2, 2, Costs{}}).value();
  CHECK(zb == "0F0,0F1,,0I0,0W0,0I1,0W1\r\n,1F0,1I0,1F1,1I1,1W0,1W1\r\n");
  // Unequal costs have no exact grid (B = 2 steps would need two cells): the compact form.
  CHECK(pytorch_csv_from_config({"1f1b", 2, 2, Costs{}}).value() == "0F0,0F1,0B0,0B1\r\n1F0,1B0,1F1,1B1\r\n");
  // Nor does a p2p latency of half a step, though every op lasts one.
  CHECK(pytorch_csv_steps(simulate({"1f1b", 2, 2, Costs{1, 1, 0.5, 1, 0.5}}).value()).empty());
  // A whole-step latency keeps the grid: the hops become idle cells. Rank 1: F0 [2,3] (rank 0's
  // F0 ends at 1, one step on the wire), B0 [3,4], F1 [4,5], B1 [5,6]; rank 0: B0 [5,6] (rank 1's
  // B0 ends at 4, plus 1), B1 [7,8].
  CHECK(pytorch_csv_from_config({"1f1b", 2, 2, Costs{1, 1, 0.5, 1, 1}}).value() ==
        "0F0,0F1,,,,0B0,,0B1\r\n,,1F0,1B0,1F1,1B1\r\n");
}

TEST_CASE("actions are written as torch writes them: stage, type, micro-batch") {
  // 1F1B on 2 ranks, 2 micro-batches: rank 0 runs F0 F1 B0 B1 of stage 0; rank 1 alternates.
  const std::string csv = schedule_to_pytorch_csv(generate_schedule({"1f1b", 2, 2, {}}).value());
  CHECK(csv == "0F0,0F1,0B0,0B1\r\n1F0,1B0,1F1,1B1\r\n");
  // ZB-H1 splits B into I (input gradient) and W; DualPipe pairs are OVERLAP_F_B.
  CHECK(schedule_to_pytorch_csv(generate_schedule({"zb-h1", 2, 2, {}}).value()).find("1I0") !=
        std::string::npos);
  CHECK(schedule_to_pytorch_csv(generate_schedule({"dualpipe", 2, 8, {}}).value()).find(")OVERLAP_F_B") !=
        std::string::npos);
}

TEST_CASE("idle cells, quotes, spaces and an older file's B-then-W read as torch reads them") {
  // Two stages, one micro-batch, zero-bubble backward written the old way (B, later W).
  auto s = schedule_from_pytorch_csv(" 0F0 ,,\"0B0\",0W0\n,1F0,1B0,1W0\n");
  REQUIRE(s.ok());
  const Schedule& v = s.value();
  CHECK(v.ranks == 2);
  CHECK(v.stages == 2);
  CHECK(v.directions == 1);
  CHECK(v.microbatches_per_direction == 1);
  REQUIRE(v.rank_ops[0].size() == 3);
  CHECK(op_label(v.rank_ops[0][1]) == "Bz0.0@0");
  CHECK(op_label(v.rank_ops[1][1]) == "Bz0.0@1");
  // F=1 B=2 W=1: F0 [0,1], F1 [1,2], Bz1 [2,3], Bz0 [3,4], W0 [4,5]: makespan 5.
  CHECK(simulate_pytorch_csv(" 0F0 ,,\"0B0\",0W0\n,1F0,1B0,1W0\n", Costs{}).value().makespan == 5);
}

TEST_CASE("a bad CSV gives one error naming row and column") {
  auto e = simulate_pytorch_csv("0F0,0B0\n1F0,1X0,1B0\n", Costs{}).error();
  CHECK(e.code == ErrorCode::InvalidSchedule);
  CHECK(e.message ==
        "row 2, column 2: \"1X0\" is not a compute action such as 0F1, 1I0, 2W3, 3B0 or "
        "(0F7;7B3)OVERLAP_F_B");
  CHECK(e.path == "/1/1");
  e = simulate_pytorch_csv("0F0,0SEND_F0,0B0\n", Costs{}).error();
  CHECK(e.message ==
        "row 1, column 2: 0SEND_F0 is a communication or sharding action; only compute-only "
        "schedules can be read");
  e = simulate_pytorch_csv("(0B0;0F0)OVERLAP_F_B\n", Costs{}).error();
  CHECK(e.message ==
        "row 1, column 1: an OVERLAP_F_B pair must hold one forward and then one full backward "
        "(got (0B0;0F0)OVERLAP_F_B)");
  // Structural: the second 0F0 repeats; the column counts the idle cell before it.
  e = simulate_pytorch_csv("0F0,,0F0,0B0\n1F0,1B0\n", Costs{}).error();
  CHECK(e.rule == "csv.schedule");
  CHECK(e.path == "/0/2");
  CHECK(e.message.rfind("row 1, column 3: ", 0) == 0);
  // The check's own error rides along structured, for clients that say it in another language:
  // its rule and params make exactly the detail, and its path is in the schedule it checked.
  REQUIRE(e.cause.has_value());
  CHECK(e.cause->rule == "schedule.op_twice");
  CHECK(e.cause->path == "/rankOps/0/1");
  const Error inner = make_error(Rule::ScheduleOpTwice, e.cause->path, e.cause->params);
  CHECK(e.message == "row 1, column 3: " + inner.message);
  const Json json = error_to_json(e);
  CHECK(json.at("cause").at("rule") == "schedule.op_twice");
  CHECK(json.at("cause").at("path") == "/rankOps/0/1");
  CHECK(json.at("cause").at("params").at("op") == "F0.0@0");
  // Errors that wrap nothing have no cause, in C++ or JSON.
  const Error plain = simulate_pytorch_csv("0F0,1X0\n", Costs{}).error();
  CHECK_FALSE(plain.cause.has_value());
  CHECK_FALSE(error_to_json(plain).contains("cause"));
  CHECK(simulate_pytorch_csv("\n,,\n", Costs{}).error().message == "the CSV holds no action");
}

// fuzz_pytorch_csv's first finding: a cell of 56 bytes that are not UTF-8 was quoted whole, each
// byte escaped as \xNN, and the CLI's line came to 319 bytes (the cap is 300). A cell is quoted
// as its summary, cut at 80 bytes: 16 escapes and the note.
TEST_CASE("a bad cell is quoted as its summary, so the error stays one short line") {
  const std::string cell(56, '\xff');
  const Error e = simulate_pytorch_csv("0F0," + cell + ",0B0\n", Costs{}).error();
  std::string escaped;
  for (int i = 0; i < 16; ++i) escaped += "\\xff";
  CHECK(e.message == "row 1, column 2: \"" + escaped +
                         "... (56 bytes)\" is not a compute action such as 0F1, 1I0, 2W3, 3B0 or "
                         "(0F7;7B3)OVERLAP_F_B");
  CHECK(("pipesim: invalid_schedule: " + e.message).size() <= 300);
  const Error pair = simulate_pytorch_csv("(0B0;" + std::string(500, 'x') + ")OVERLAP_F_B\n", Costs{}).error();
  CHECK(pair.rule == "csv.overlap");
  CHECK(pair.message.size() < 200);
}
