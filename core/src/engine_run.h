// Private: the engine proper. It runs an OpPlan under integer-tick costs and returns each rank's
// tallies (and the timeline when asked); engine.cpp turns that into a SimResult. The buffers it
// works in are the caller's, so a sweep reuses one set across all its cells.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "op_plan.h"
#include "pipesim/comm.h"
#include "pipesim/config.h"
#include "pipesim/engine.h"
#include "pipesim/error.h"
#include "pipesim/schedule.h"

namespace pipesim::detail {

// Time is counted in integer ticks (kTicksPerUnit per cost unit): sums are exact, so a bubble of
// (8/2-1)(2.4+2-3) reads 4.2, not 4.199999999999989, and every platform gets the same bits.
using Tick = std::int64_t;
inline double to_units(Tick ticks) { return static_cast<double>(ticks) / kTicksPerUnit; }

/// How long each op of a plan runs: its slot's length, or under per-stage costs its own.
struct OpLengths {
  Tick slot[kSlots] = {};
  const Tick* per_op = nullptr;  ///< in plan order; set under per-stage costs (Costs::stages)
  /// The length of `op`, the plan's op number `index`.
  Tick of(std::size_t index, const PlanOp& op) const {
    return per_op != nullptr ? per_op[index] : slot[op.code & kSlotMask];
  }
};

/// What one rank did: busy time and activations as it ran, compute and communication after.
struct RankTally {
  Tick busy = 0;
  Tick compute = 0;  ///< compute part of busy (all of it without the communication model)
  Tick comm = 0;     ///< all communication of its ops (0 without the communication model)
  int in_flight = 0;
  int peak_activations = 0;
};

struct EngineRun {
  std::vector<RankTimeline> timeline;  ///< every rank's list; empty lists unless Ops
  TimelineTable columns;                       ///< with TimelineForm::Columns
  std::vector<ActivationSteps> activation_steps;  ///< with SimOptions::activation_steps
  std::vector<RankTally> ranks;
  Tick makespan = 0;
};

/// Ranks are stored as int16 (kMaxRanks fits) where a table holds one per chunk.
using RankId = std::int16_t;
static_assert(kMaxRanks <= INT16_MAX, "the engine stores ranks as int16");
inline constexpr RankId kNobody = -1;

/// Ops never end before 0, so a negative end means "not finished" and says who waits for it:
/// kNotDone for nobody, parked(r) for rank r.
inline constexpr Tick kNotDone = -1;
inline constexpr Tick parked(int rank) { return -2 - rank; }
inline constexpr int parked_rank(Tick end) { return static_cast<int>(-2 - end); }

/// When a chunk's F and B finished (or who waits for them), together so a dependency check
/// touches one cache line; 16 bytes, as large sweeps are bound by cache misses on this table.
///
/// One waiter per end is enough. Besides the chunk's own rank (its B needs its F, its W its B),
/// only one op anywhere needs the chunk's F, the F of the next stage, and only one its B, the B
/// of the previous stage (check_schedule: every F and B once, a chunk's F, B and W on one rank).
/// A rank parked on its own chunk can never run that chunk, so if it and the other rank both
/// park on one end, neither is ever woken whichever of them the end keeps: a deadlock.
struct ChunkState {
  Tick forward_end = kNotDone;
  Tick backward_end = kNotDone;
};

/// A rank's progress, together so a visit loads and stores one small record: its next op, where
/// its list ends, when it is free, and what it has done so far.
struct RankState {
  const PlanOp* next = nullptr;
  const PlanOp* end = nullptr;
  Tick* start_out = nullptr;  ///< where its next op's start time goes (recording only)
  Tick free_at = 0;
  Tick busy = 0;
  int in_flight = 0;
  int peak_activations = 0;
};

/// The engine's working memory. Reused across runs: each run resets what it reads and grows a
/// buffer only past its largest size so far.
struct EngineBuffers {
  std::vector<ChunkState> chunks;
  std::vector<RankId> chunk_ranks;  ///< per chunk, the rank that ran it (p2p latency only)
  std::vector<RankState> ranks;
  std::vector<int> work;  ///< the stack of ranks ready to advance
  /// Every op's start, rank by rank (recording only). Each is written before it is read, so the
  /// buffer is uninitialised (a vector would zero it) and replaced only when it must grow.
  std::unique_ptr<Tick[]> starts;
  std::size_t starts_capacity = 0;
};

/// The deadlock error of a run that stopped with ops left: for the first four stuck ranks, the
/// head op and the F or B it waits for, and the rank whose list holds that chunk.
Error deadlock_error(const OpPlan& plan, const EngineBuffers& buffers);

/// Runs `plan` (which passes check_schedule) under `costs` (valid), its ops' parts in `order`
/// when costs.comm is set (pipesim/comm.h), recording the timeline in
/// `options.timeline`'s form and the activation steps when asked. As Ops the timeline holds `ops`,
/// the Op lists the plan was made from, or when null the plan's own ops decoded; columns are
/// always decoded from the plan (they hold nothing an Op list could add). Errors: deadlock.
Result<EngineRun> run_engine(const OpPlan& plan, const std::vector<std::vector<Op>>* ops,
                             const Costs& costs, PartOrder order, const SimOptions& options,
                             EngineBuffers& buffers);

}  // namespace pipesim::detail
