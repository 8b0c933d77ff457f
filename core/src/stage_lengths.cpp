// Op lengths under per-stage costs (stage_lengths.h). Without the communication model an op
// lasts its stage's F, B, B - W or W, and an FB pair the pair rule's F_a + B_b - min(S_a, S_b)
// (pipesim/stage_costs.h). With it, each stage's op kinds are laid out once from that stage's
// costs, and each distinct pair of stages the plan overlaps once (DualPipe's pairs meet a few
// stage pairs per rank, so a cache keyed by the two stages stays small).
#include "stage_lengths.h"

#include <cstdint>
#include <map>
#include <optional>
#include <utility>

#include "overlap/comm_ticks.h"
#include "pipesim/stage_costs.h"
#include "stage_ticks.h"

namespace pipesim::detail {

StageLengths stage_lengths(const OpPlan& plan, const Costs& costs, PartOrder order) {
  const int ranks = plan.shape().ranks;
  const int stages = plan.shape().stages;
  PIPESIM_CHECK(costs.stages.size() == static_cast<std::size_t>(stages),
                "per-stage costs have one entry per stage");
  StageLengths out;
  out.ticks.resize(plan.size());
  out.compute.assign(static_cast<std::size_t>(ranks), 0);
  out.comm.assign(static_cast<std::size_t>(ranks), 0);
  const std::vector<StageTicks> t = stage_ticks(costs);
  // Under the communication model: each stage's lone ops, and each overlapped pair of stages.
  std::vector<std::optional<CommTicks>> lone(costs.comm ? t.size() : 0);
  std::map<std::pair<int, int>, KindTicks> pairs;
  const auto lone_of = [&](int stage) -> const CommTicks& {
    std::optional<CommTicks>& c = lone[static_cast<std::size_t>(stage)];
    if (!c) c = comm_ticks(single_stage_costs(costs, stage), order);
    return *c;
  };
  const ChunkIndex& index = plan.index();
  std::size_t i = 0;
  for (int r = 0; r < ranks; ++r)
    for (const PlanOp* p = plan.begin(r); p != plan.end(r); ++p, ++i) {
      const int slot = p->code & kSlotMask;
      const int stage = index.chunk(p->key).stage;
      const StageTicks& s = t[static_cast<std::size_t>(stage)];
      if (costs.comm) {
        const KindTicks* k = nullptr;
        if (slot == kSlotPair) {
          const int b = index.chunk(p->backward_key).stage;
          auto found = pairs.find({stage, b});
          if (found == pairs.end())
            found = pairs
                        .emplace(std::make_pair(stage, b),
                                 comm_pair_ticks(single_stage_costs(costs, stage),
                                                 single_stage_costs(costs, b),
                                                 pair_ticks(s, t[static_cast<std::size_t>(b)]), order))
                        .first;
          k = &found->second;
        } else {
          const CommTicks& c = lone_of(stage);
          k = slot == kSlotForward    ? &c.forward
              : slot == kSlotBackward ? &c.backward
              : slot == kSlotBackwardZb ? &c.backward_zb
                                      : &c.weight;
        }
        out.ticks[i] = k->duration;
        out.compute[static_cast<std::size_t>(r)] += k->compute;
        out.comm[static_cast<std::size_t>(r)] += k->comm;
        continue;
      }
      Tick length = 0;
      switch (slot) {
        case kSlotForward: length = s.forward; break;
        case kSlotBackward: length = s.backward; break;
        case kSlotBackwardZb: length = s.backward - s.weight; break;
        case kSlotWeight: length = s.weight; break;
        default:
          length = pair_ticks(s, t[static_cast<std::size_t>(index.chunk(p->backward_key).stage)]);
      }
      out.ticks[i] = length;
      out.compute[static_cast<std::size_t>(r)] += length;
    }
  return out;
}

}  // namespace pipesim::detail
