// The engine on hand-written schedules, where every time can be worked out on paper.
#include <catch2/catch.hpp>

#include "invariants.h"
#include "pipesim/engine.h"

using namespace pipesim;

namespace {

Schedule two_rank_schedule(std::vector<Op> rank0, std::vector<Op> rank1, int microbatches = 1) {
  Schedule s;
  s.name = "custom";
  s.ranks = 2;
  s.stages = 2;
  s.directions = 1;
  s.microbatches_per_direction = microbatches;
  s.rank_ops = {std::move(rank0), std::move(rank1)};
  return s;
}

Op f(int mb, int stage) { return Op{OpKind::Forward, false, {0, mb, stage}, {}}; }
Op b(int mb, int stage, bool zb = false) { return Op{OpKind::Backward, zb, {0, mb, stage}, {}}; }
Op w(int mb, int stage) { return Op{OpKind::Weight, false, {0, mb, stage}, {}}; }

}  // namespace

TEST_CASE("one micro-batch through two stages: F F B B back to back") {
  // F=1 B=2: rank0 F [0,1], rank1 F [1,2], rank1 B [2,4], rank0 B [4,6].
  const Schedule s = two_rank_schedule({f(0, 0), b(0, 0)}, {f(0, 1), b(0, 1)});
  auto r = simulate_schedule(s, Costs{});
  REQUIRE(r.ok());
  const auto& t = r.value().timeline;
  CHECK(t[0][0].start == 0);
  CHECK(t[1][0].start == 1);
  CHECK(t[1][1].start == 2);
  CHECK(t[0][1].start == 4);
  CHECK(r.value().makespan == 6);
  CHECK(r.value().per_rank[0].idle == 3);  // 6 - (1 + 2)
  CHECK(r.value().bubble_fraction == Approx(6.0 / 12.0));
  CHECK(pipesim::testing::check_invariants(s, r.value()).empty());
}

TEST_CASE("p2p latency is added to every cross-rank dependency") {
  // latency 0.5: rank1 F starts 1.5, ends 2.5; B [2.5,4.5]; rank0 B at 5.
  const Schedule s = two_rank_schedule({f(0, 0), b(0, 0)}, {f(0, 1), b(0, 1)});
  Costs c;
  c.p2p_latency = 0.5;
  auto r = simulate_schedule(s, c);
  REQUIRE(r.ok());
  CHECK(r.value().timeline[1][0].start == 1.5);
  CHECK(r.value().timeline[0][1].start == 5);
  CHECK(r.value().makespan == 7);
}

TEST_CASE("a zero-bubble B costs B-W and its W runs later") {
  // F=1 B=2 W=0.5: rank1 Bz [2,3.5], W [3.5,4]; rank0 B waits only for Bz: [3.5,5.5].
  const Schedule s = two_rank_schedule({f(0, 0), b(0, 0)}, {f(0, 1), b(0, 1, true), w(0, 1)});
  Costs c;
  c.weight = 0.5;
  auto r = simulate_schedule(s, c);
  REQUIRE(r.ok());
  CHECK(r.value().timeline[1][1].end == 3.5);
  CHECK(r.value().timeline[1][2].end == 4);
  CHECK(r.value().timeline[0][1].start == 3.5);
  CHECK(r.value().makespan == 5.5);
}

TEST_CASE("an FB pair waits for both its forward and its backward inputs") {
  // Two micro-batches. Rank1 runs F0 [1,2], FB(F1, B0): F1 needs rank0's F1 (ends 2), B0 needs
  // its own F0 (ends 2) -> [2,5] with F&B=3. Rank0 then runs B0 at 5.
  Schedule s = two_rank_schedule({f(0, 0), f(1, 0), b(0, 0), b(1, 0)},
                                 {f(0, 1), Op{OpKind::ForwardBackward, false, {0, 1, 1}, {0, 0, 1}}, b(1, 1)}, 2);
  auto r = simulate_schedule(s, Costs{});
  REQUIRE(r.ok());
  CHECK(r.value().timeline[1][1].start == 2);
  CHECK(r.value().timeline[1][1].end == 5);
  CHECK(r.value().timeline[0][2].start == 5);
  CHECK(pipesim::testing::check_invariants(s, r.value()).empty());
}

TEST_CASE("a schedule that cannot progress is reported as a deadlock naming the stuck ops") {
  // Rank 0 lists its B before its F, so it waits for its own forward forever; rank 1 waits on it.
  const Schedule s = two_rank_schedule({b(0, 0), f(0, 0)}, {f(0, 1), b(0, 1)});
  auto r = simulate_schedule(s, Costs{});
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == ErrorCode::Deadlock);
  CHECK(r.error().message ==
        "schedule cannot make progress: rank 0 op 0 B0.0@0 waits for F0.0@0 on rank 0; "
        "rank 1 op 0 F0.0@1 waits for F0.0@0 on rank 0");
}

TEST_CASE("malformed op lists are rejected before running") {
  SECTION("duplicate forward") {
    auto r = simulate_schedule(two_rank_schedule({f(0, 0), f(0, 0), b(0, 0)}, {f(0, 1), b(0, 1)}), Costs{});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == ErrorCode::InvalidSchedule);
    CHECK(r.error().message == "rank 0 op 1: F0.0@0 appears twice");
    CHECK(r.error().path == "/rankOps/0/1");
  }
  SECTION("zero-bubble B without its W") {
    auto r = simulate_schedule(two_rank_schedule({f(0, 0), b(0, 0, true)}, {f(0, 1), b(0, 1)}), Costs{});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message == "zero-bubble B0.0@0 has no W");
  }
  SECTION("backward on another rank than its forward") {
    auto r = simulate_schedule(two_rank_schedule({f(0, 0), f(0, 1)}, {b(0, 1), b(0, 0)}), Costs{});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message == "rank 1 op 0: B0.0@1 must run on rank 0, which ran its F");
  }
  SECTION("missing backward") {
    auto r = simulate_schedule(two_rank_schedule({f(0, 0), b(0, 0)}, {f(0, 1)}), Costs{});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message == "B0.0@1 is missing");
  }
}

TEST_CASE("replay reports ops in time order with finishes before starts") {
  struct Recorder : Observer {
    std::vector<std::string> events;
    void on_op_start(int rank, const TimedOp& t) override {
      events.push_back("start " + std::to_string(rank) + " " + op_label(t.op));
    }
    void on_op_finish(int rank, const TimedOp& t) override {
      events.push_back("end " + std::to_string(rank) + " " + op_label(t.op));
    }
  } rec;
  auto r = simulate_schedule(two_rank_schedule({f(0, 0), b(0, 0)}, {f(0, 1), b(0, 1)}), Costs{});
  REQUIRE(r.ok());
  replay(r.value(), rec);
  CHECK(rec.events == std::vector<std::string>{"start 0 F0.0@0", "end 0 F0.0@0", "start 1 F0.0@1",
                                               "end 1 F0.0@1", "start 1 B0.0@1", "end 1 B0.0@1",
                                               "start 0 B0.0@0", "end 0 B0.0@0"});
}
