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

/// For every communication part of `kind` (in part order), the compute parts running under it
/// and for how long, and the time nothing covers.
std::vector<PartHiding> part_hiding(const KindTicks& kind);

}  // namespace pipesim::detail
