// Chimera (Li & Hoefler, "Chimera: Efficiently Training Large-Scale Neural Networks with
// Bidirectional Pipelines", SC'21, §3.1 Fig. 3 and §3.4 Fig. 5a). Two model replicas run in
// opposite directions over the same D = R ranks: direction 0 ("down") enters at rank 0 (rank r
// runs its stage r), direction 1 ("up") enters at rank R-1 (rank r runs its stage R-1-r), so every
// rank holds two stages and the pipeline two copies of the parameters. Ops are plain F and full B:
// Chimera has no overlapped pairs and no split backward.
//
// Basic scheduling unit (Fig. 3): D micro-batches, D/2 per direction. Each direction runs them
// 1F1B-style in unit time slots: micro-batch k enters its first stage at slot 2k, moves one stage
// per slot, turns round on the last stage (its B there takes the next slot) and moves back one
// stage per slot. So on stage s: F at 2k + s, B at 2k + 2D-1-s. Entering every other slot is what
// interleaves the two directions' forwards on the middle ranks; with D even the two directions
// never claim the same slot on a rank (the paper's no-conflict argument; on rank r, F and B of one
// direction have opposite slot parities and the other direction's ops of equal parity lie in a
// disjoint slot range). Each rank leaves D/2-1 slots idle at the start and D/2-1 at the end: D-2
// bubbles in 3D-2 slots, the paper's (D-2)/(2N+D-2) with N = D.
//
// M > D (§3.4, "direct concatenation", Fig. 5a): M/D units, unit u shifted by 2D slots (the 2D
// ops each rank runs per unit), so unit u+1's first forwards fill the idle slots at the end of unit
// u. This is also what the authors' generator does (Shigangli/Chimera, chimera_pipeline_rank.py:
// the next unit's pipeline starts in the slot after the current one's first micro-batch retires).
//
// The slot model fixes only each rank's order; the engine then times that order under the real
// costs. With F = B every op lands in its slot; with B > F the concatenated units leave
// intermediate bubbles, which is why the paper also proposes forward doubling and backward halving.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "generators.h"

namespace pipesim::detail {

void generate_chimera(const SimConfig& config, OpPlan& out) {
  const int d = config.ranks;
  const int per_direction_unit = d / 2;
  const int units = config.microbatches / d;
  // validate(): M is a positive multiple of D. The last merged period assumes a unit before it.
  PIPESIM_CHECK(units >= 1, "Chimera runs at least one unit of micro-batches");
  const std::size_t period = 2 * static_cast<std::size_t>(d);  // slots between two units' starts
  out.begin(two_direction_shell(config, "chimera"),
            2 * static_cast<std::size_t>(d) * static_cast<std::size_t>(config.microbatches));
  // Each slot holds at most one op, so reading a rank's slots in order gives its list without
  // sorting. One unit's ops lie within 3D - 2 < 2 x period slots of its start, so period p (slots
  // [2D p, 2D (p + 1))) holds, slot by slot, unit p's ops of its first period and unit p-1's of
  // its second. Every period but the first and the last therefore holds the same ops a unit
  // further on: a rank's list is built from the slots of one unit (unit 0) and three merged
  // periods, each op then shifted by its unit's micro-batches. Placing all of a rank's ops into a
  // rank-long slot table and reading it back, as before, was about an eighth of a Chimera
  // simulate() at 64 x 1024 (perf); this made the whole call about 6% faster.
  constexpr std::uint32_t kIdle = UINT32_MAX;
  std::vector<PlanOp> unit(2 * period);
  // An op of a merged period and whether it belongs to the previous unit (1) or this one (0).
  struct PeriodOp {
    PlanOp op;
    std::uint32_t previous_unit;
  };
  std::vector<PeriodOp> first, steady, last;
  // The ops of a period holding this unit's ops (`current`) and the previous unit's (`previous`).
  const auto merge = [&](bool current, bool previous, std::vector<PeriodOp>& ops) {
    ops.clear();
    for (std::size_t o = 0; o < period; ++o) {
      const bool now = current && unit[o].key != kIdle;
      const bool before = previous && unit[o + period].key != kIdle;
      PIPESIM_CHECK(!(now && before), "Chimera's two directions must never share a slot on a rank");
      if (now) ops.push_back({unit[o], 0});
      if (before) ops.push_back({unit[o + period], 1});
    }
  };
  for (int r = 0; r < d; ++r) {
    std::fill(unit.begin(), unit.end(), PlanOp{kIdle, 0, 0});
    const int stage_of[2] = {r, d - 1 - r};
    const OpPlan::Lane lanes[2] = {out.lane(0, stage_of[0]), out.lane(1, stage_of[1])};
    const auto place = [&](std::size_t slot, const PlanOp& op) {
      PIPESIM_CHECK(unit[slot].key == kIdle, "Chimera's two directions must never share a slot on a rank");
      unit[slot] = op;
    };
    for (int k = 0; k < per_direction_unit; ++k)
      for (int dir = 0; dir < 2; ++dir) {
        const auto stage = static_cast<std::size_t>(stage_of[dir]);
        place(2 * static_cast<std::size_t>(k) + stage, OpPlan::forward_op(lanes[dir], k));
        place(2 * static_cast<std::size_t>(k) + period - 1 - stage,
              OpPlan::backward_op(lanes[dir], k));
      }
    merge(true, false, first);
    merge(true, true, steady);
    merge(false, true, last);
    out.open_rank();
    for (int p = 0; p <= units; ++p) {
      const std::vector<PeriodOp>& ops = p == units ? last : p == 0 ? first : steady;
      for (const PeriodOp& o : ops) {
        PlanOp op = o.op;
        op.key += (static_cast<std::uint32_t>(p) - o.previous_unit) *
                  static_cast<std::uint32_t>(per_direction_unit);
        out.append(op);
      }
    }
  }
}

}  // namespace pipesim::detail
