// check_schedule: the structural rules any op list must meet before the engine runs it, and the
// op labels used in messages. Timing problems (a B listed before its F) are the engine's to find:
// they show up as a deadlock naming the stuck ops.
#include <string>
#include <vector>

#include "chunk_index.h"
#include "pipesim/rules.h"
#include "pipesim/schedule.h"

namespace pipesim {
namespace {

std::string chunk_label(const Chunk& c) {
  return std::to_string(c.dir) + "." + std::to_string(c.mb) + "@" + std::to_string(c.stage);
}

// What is wrong with one op, kept as data until it is reported (the common path makes no string).
struct Problem {
  Rule rule = Rule::Internal;
  char kind = 'F';   // the op's letter in the message: F, B or W
  Chunk chunk;
  int forward_rank = -1;  // schedule.backward_rank only
};

Error schedule_error(int rank, std::size_t index, const Problem& p) {
  ErrorParams params{{"rank", rank}, {"index", index}, {"op", p.kind + chunk_label(p.chunk)}};
  if (p.rule == Rule::ScheduleBackwardRank) params.emplace_back("forwardRank", p.forward_rank);
  return make_error(p.rule, "/rankOps/" + std::to_string(rank) + "/" + std::to_string(index),
                    std::move(params));
}

// Per-chunk bookkeeping while walking the lists: who ran its F and B, and its W debt.
struct ChunkSeen {
  int forward_rank = -1;
  int backward_rank = -1;
  bool zero_bubble = false;
  bool weight_done = false;
};

}  // namespace

const char* op_kind_name(OpKind kind) {
  switch (kind) {
    case OpKind::Forward: return "F";
    case OpKind::Backward: return "B";
    case OpKind::Weight: return "W";
    case OpKind::ForwardBackward: return "FB";
  }
  return "?";
}

std::string op_label(const Op& op) {
  switch (op.kind) {
    case OpKind::Forward: return "F" + chunk_label(op.chunk);
    case OpKind::Backward: return (op.zero_bubble ? "Bz" : "B") + chunk_label(op.chunk);
    case OpKind::Weight: return "W" + chunk_label(op.chunk);
    case OpKind::ForwardBackward:
      return "FB(F" + chunk_label(op.chunk) + ",B" + chunk_label(op.backward_chunk) + ")";
  }
  return "?";
}

Status check_schedule(const Schedule& s) {
  if (s.ranks < 1 || static_cast<int>(s.rank_ops.size()) != s.ranks)
    return make_error(Rule::ScheduleRankLists, "/rankOps",
                      {{"ranks", s.ranks}, {"got", s.rank_ops.size()}});
  if (s.stages < 1 || s.directions < 1 || s.directions > 2 || s.microbatches_per_direction < 1)
    return make_error(Rule::ScheduleShape, "");
  const detail::ChunkIndex index(s);
  std::vector<ChunkSeen> seen(index.size());

  // The walk records a problem only on failure, so the common path builds no strings and no
  // Status objects (this check runs before every simulation of a hand-written schedule).
  Problem problem;
  auto fail = [&](Rule rule, char kind, const Chunk& c, int forward_rank = -1) {
    problem = Problem{rule, kind, c, forward_rank};
    return false;
  };
  auto record_forward = [&](int rank, const Chunk& c) {
    if (!index.contains(c)) return fail(Rule::ScheduleOpOutOfRange, 'F', c);
    ChunkSeen& cs = seen[index(c)];
    if (cs.forward_rank >= 0) return fail(Rule::ScheduleOpTwice, 'F', c);
    cs.forward_rank = rank;
    return true;
  };
  auto record_backward = [&](int rank, const Chunk& c, bool zb) {
    if (!index.contains(c)) return fail(Rule::ScheduleOpOutOfRange, 'B', c);
    ChunkSeen& cs = seen[index(c)];
    if (cs.backward_rank >= 0) return fail(Rule::ScheduleOpTwice, 'B', c);
    if (cs.forward_rank >= 0 && cs.forward_rank != rank)
      return fail(Rule::ScheduleBackwardRank, 'B', c, cs.forward_rank);
    cs.backward_rank = rank;
    cs.zero_bubble = zb;
    return true;
  };
  auto record_weight = [&](int rank, const Chunk& c) {
    if (!index.contains(c)) return fail(Rule::ScheduleOpOutOfRange, 'W', c);
    ChunkSeen& cs = seen[index(c)];
    if (cs.backward_rank != rank || !cs.zero_bubble) return fail(Rule::ScheduleWeightOrder, 'W', c);
    if (cs.weight_done) return fail(Rule::ScheduleOpTwice, 'W', c);
    cs.weight_done = true;
    return true;
  };

  for (int rank = 0; rank < s.ranks; ++rank) {
    const auto& ops = s.rank_ops[static_cast<std::size_t>(rank)];
    for (std::size_t i = 0; i < ops.size(); ++i) {
      const Op& op = ops[i];
      bool ok = true;
      switch (op.kind) {
        case OpKind::Forward: ok = record_forward(rank, op.chunk); break;
        case OpKind::Backward: ok = record_backward(rank, op.chunk, op.zero_bubble); break;
        case OpKind::Weight: ok = record_weight(rank, op.chunk); break;
        case OpKind::ForwardBackward:
          ok = record_forward(rank, op.chunk) && record_backward(rank, op.backward_chunk, false);
          break;
      }
      if (!ok) return schedule_error(rank, i, problem);
    }
  }
  // A F listed on another rank after its B was checked above only in one order; check the rest.
  for (int d = 0; d < s.directions; ++d)
    for (int m = 0; m < s.microbatches_per_direction; ++m)
      for (int st = 0; st < s.stages; ++st) {
        const Chunk c{d, m, st};
        const ChunkSeen& cs = seen[index(c)];
        const bool complete = cs.forward_rank >= 0 && cs.backward_rank >= 0 &&
                              cs.forward_rank == cs.backward_rank && (!cs.zero_bubble || cs.weight_done);
        if (complete) continue;  // the common case: build no strings
        const std::string name = chunk_label(c);
        if (cs.forward_rank < 0) return make_error(Rule::ScheduleOpMissing, "/rankOps", {{"op", "F" + name}});
        if (cs.backward_rank < 0) return make_error(Rule::ScheduleOpMissing, "/rankOps", {{"op", "B" + name}});
        if (cs.forward_rank != cs.backward_rank)
          return make_error(Rule::ScheduleSameRank, "/rankOps", {{"chunk", name}});
        if (cs.zero_bubble && !cs.weight_done)
          return make_error(Rule::ScheduleWeightMissing, "/rankOps", {{"chunk", name}});
      }
  return Ok{};
}

}  // namespace pipesim
