// Private: the communication model in the engine's integer ticks. The engine asks only for the
// length, compute and communication time of each op kind; the public functions in comm.h convert
// the same tick results to cost units, so engine, JSON and exercises can never disagree.
#pragma once

#include <cstdint>
#include <vector>

#include "pipesim/comm.h"

namespace pipesim::detail {

using CommTick = std::int64_t;

/// llround(units * kTicksPerUnit), as the engine rounds every cost.
CommTick comm_to_ticks(double units);
/// Ticks back to cost units.
inline double comm_units(CommTick ticks) { return static_cast<double>(ticks) / kTicksPerUnit; }

struct TickPart {
  Stream stream = Stream::Compute;
  PartKind part = PartKind::Attn;
  Pass pass = Pass::Forward;
  int layer = 0;
  CommTick start = 0, end = 0;
};

struct KindTicks {
  CommTick duration = 0, compute = 0, comm = 0;
  std::vector<TickPart> parts;  ///< from 0
};

/// The timing of every op kind.
struct CommTicks {
  KindTicks forward, backward, backward_zb, weight, pair;
  const KindTicks& of(const Op& op) const;
};

/// Every op kind's timing under a validated `costs` (comm set) in `order` (part_layout.cpp).
CommTicks comm_ticks(const Costs& costs, PartOrder order);

/// An FB pair of a forward on a stage costing `forward_stage` and a backward on one costing
/// `backward_stage` (single-stage Costs, pipesim/stage_costs.h) in `order`: the forward's
/// components from the first, the backward's from the second, the compute scaled to `overlapped`
/// (the pair rule's length). comm_ticks(c, order).pair is comm_pair_ticks(c, c, F&B of c, order).
KindTicks comm_pair_ticks(const Costs& forward_stage, const Costs& backward_stage,
                          CommTick overlapped, PartOrder order);

/// The timing of `op` under `costs` with per-stage costs (costs.stages set) in `order`: each
/// chunk's components from its own stage.
KindTicks staged_comm_ticks(const Op& op, const Costs& costs, PartOrder order);

/// For every communication part of `kind` (in part order), the compute parts running under it
/// and for how long, and the time nothing covers.
std::vector<PartHiding> part_hiding(const KindTicks& kind);

/// An FB pair of a forward on a stage costing `forward_stage` and a backward on one costing
/// `backward_stage` (single-stage Costs, pipesim/stage_costs.h): the forward's components from
/// the first, the backward's from the second, the compute scaled to `overlapped` (the pair rule's
/// length). comm_ticks(c).pair is comm_pair_ticks(c, c, F&B of c).
KindTicks comm_pair_ticks(const Costs& forward_stage, const Costs& backward_stage,
                          CommTick overlapped);

/// The timing of `op` under `costs` with per-stage costs (costs.stages set): each chunk's
/// components from its own stage.
KindTicks staged_comm_ticks(const Op& op, const Costs& costs);

}  // namespace pipesim::detail
