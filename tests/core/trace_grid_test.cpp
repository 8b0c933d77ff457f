// trace: the slot grid of a simulation and the first slot in which no rank is idle.
#include <catch2/catch.hpp>

#include "pipesim/exercises.h"

using namespace pipesim;

namespace {

TraceGrid grid_of(const SimConfig& c, double slot = 1.0) {
  auto g = trace_grid(TraceRequest{c, slot});
  REQUIRE(g.ok());
  return g.value();
}

Error error_of(const SimConfig& c, double slot = 1.0) {
  auto g = trace_grid(TraceRequest{c, slot});
  REQUIRE_FALSE(g.ok());
  return g.error();
}

int idle_cells(const TraceGrid& g, std::size_t rank) {
  int n = 0;
  for (int i : g.cells[rank]) n += i < 0 ? 1 : 0;
  return n;
}

}  // namespace

// 1F1B, P = 4: micro-batch 0 reaches rank r at slot r, so the last rank first works in slot
// P-1 = 3 (and ranks 0-2 are then still forwarding: rank 0 runs F3 at slot 3).
// DualPipe, P = 4, M = 8: ranks 0 and 3 start at slot 0 on their own direction; ranks 1 and 2
// receive micro-batch 0 at the end of slot 0 and start at slot 1, while ranks 0 and 3 run their
// second warm-up forward. Slot 1 is the first with no idle rank.
TEST_CASE("the first slot with no idle rank is 3 for 1F1B and 1 for DualPipe at P=4 M=8") {
  CHECK(grid_of({"1f1b", 4, 8, {}}).first_all_busy_slot == 3);
  CHECK(grid_of({"dualpipe", 4, 8, {}}).first_all_busy_slot == 1);
  // Half-length slots: DualPipe's slot 1 becomes slots 2 and 3.
  CHECK(grid_of({"dualpipe", 4, 8, {}}, 0.5).first_all_busy_slot == 2);
}

// DeepSeek's table: DualPipe idles (PP/2-1)(F&B+B-3W) = 1 x (3+2-3) = 2 per rank at PP = 4, so
// each rank's row has exactly 2 empty cells of length 1; 1F1B idles (P-1)(F+B) = 9.
TEST_CASE("each rank's empty cells add up to its idle time") {
  const TraceGrid dp = grid_of({"dualpipe", 4, 8, {}});
  CHECK(dp.slots == 26);  // per rank 8 chunks x (F+B) = 24 busy + 2 idle
  for (std::size_t r = 0; r < 4; ++r) CHECK(idle_cells(dp, r) == 2);
  const TraceGrid f = grid_of({"1f1b", 4, 8, {}});
  CHECK(f.slots == 33);  // (M+P-1)(F+B) = 11 x 3
  for (std::size_t r = 0; r < 4; ++r) CHECK(idle_cells(f, r) == 9);
}

TEST_CASE("an op covers one cell per slot of its length, its index and offset in order") {
  const TraceGrid g = grid_of({"dualpipe", 4, 8, {}});
  for (std::size_t rank = 0; rank < g.cells.size(); ++rank) {
    const auto& ops = g.result.timeline[rank];
    for (std::size_t i = 0; i < ops.size(); ++i)
      for (double t = ops[i].start; t < ops[i].end; t += 1)
        CHECK(g.cells[rank][static_cast<std::size_t>(t)] == static_cast<int>(i));
  }
  // Rank 0 opens with F0.0@0 in slot 0, as DualPipe's step 1 prescribes.
  CHECK(op_label(g.result.timeline[0][static_cast<std::size_t>(g.cells[0][0])].op) == "F0.0@0");
}

TEST_CASE("trace JSON marks idle cells null and FB pairs with both chunks") {
  const Json j = trace_grid_to_json(grid_of({"dualpipe", 4, 8, {}}));
  CHECK(j.at("firstAllBusySlot").get<int>() == 1);
  CHECK(j.at("slots").get<int>() == 26);
  const Json& row0 = j.at("grid").at(0);
  CHECK(row0.at(0).at("op") == "F");
  CHECK(row0.at(0).at("dir") == 0);
  CHECK(row0.at(0).at("mb") == 0);
  CHECK(row0.at(0).at("offset") == 0);
  int nulls = 0, fb_cells = 0;
  for (const Json& cell : row0) {
    nulls += cell.is_null() ? 1 : 0;
    if (!cell.is_null() && cell.at("op") == "FB") {
      ++fb_cells;
      CHECK(cell.contains("fmb"));
      CHECK(cell.contains("bmb"));
    }
  }
  CHECK(nulls == 2);
  CHECK(fb_cells % 3 == 0);  // each pair spans F&B = 3 slots
  CHECK(fb_cells > 0);
}

TEST_CASE("trace rejects costs off the slot grid and oversized grids") {
  Costs c;
  c.overlapped = 2.5;
  Error e = error_of({"dualpipe", 4, 8, c});
  CHECK(e.code == ErrorCode::InvalidConfig);
  CHECK(e.message ==
        "costs.overlapped must be a multiple of slotLength = 1 for a slot grid (got 2.5)");
  CHECK(e.path == "/config/costs/overlapped");
  CHECK(grid_of({"1f1b", 4, 8, c}).slots == 33);  // 1F1B runs no F&B pair
  e = error_of({"dualpipe", 3, 8, {}});
  CHECK(e.message == "ranks must be an even integer >= 2 for dualpipe (got 3)");
  CHECK(e.path == "/config/ranks");
  e = error_of({"1f1b", 4, 8, {}}, 0);
  CHECK(e.message == "slotLength must be a finite number > 0 (got 0)");
  CHECK(e.path == "/slotLength");
  // (2048 + 63) x 3 = 6333 slots x 64 ranks = 405312 cells.
  e = error_of({"1f1b", 64, 2048, {}});
  CHECK(e.code == ErrorCode::TooLarge);
  CHECK(e.message ==
        "the slot grid would have 405312 cells (ranks x slots), above the limit of 200000");
}

TEST_CASE("trace requests are read from JSON with paths under /config") {
  auto json =
      parse_json(R"({"config":{"schedule":"dualpipe","ranks":4,"microbatches":9},"slotLength":1})");
  REQUIRE(json.ok());
  auto r = trace_request_from_json(json.value());
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message == "microbatches must be even for dualpipe (got 9)");
  CHECK(r.error().path == "/config/microbatches");
  json = parse_json(R"({"config":{"schedule":"dualpipe","ranks":4,"microbatches":8},"slots":1})");
  r = trace_request_from_json(json.value());
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message == "unknown field \"slots\"");
  CHECK(r.error().path == "/slots");
}
