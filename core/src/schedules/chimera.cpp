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
  out.begin(two_direction_shell(config, "chimera"),
            2 * static_cast<std::size_t>(d) * static_cast<std::size_t>(config.microbatches));
  // A rank's slots run from 0 to below 2D x units + 2D (the last unit's last B), each holding at
  // most one op, so placing every op in its slot and reading the slots in order gives the rank's
  // list without sorting. A slot holds the plan op itself (an idle slot a key no chunk has), so
  // reading them back takes no branch on the op's kind.
  constexpr std::uint32_t kIdle = UINT32_MAX;
  std::vector<PlanOp> slots(2 * static_cast<std::size_t>(d) * (static_cast<std::size_t>(units) + 1));
  for (int r = 0; r < d; ++r) {
    std::fill(slots.begin(), slots.end(), PlanOp{kIdle, 0, 0});
    const int stage_of[2] = {r, d - 1 - r};
    const OpPlan::Lane lanes[2] = {out.lane(0, stage_of[0]), out.lane(1, stage_of[1])};
    const auto place = [&](std::size_t slot, const PlanOp& op) {
      PIPESIM_CHECK(slots[slot].key == kIdle, "Chimera's two directions must never share a slot on a rank");
      slots[slot] = op;
    };
    for (int u = 0; u < units; ++u)
      for (int k = 0; k < per_direction_unit; ++k) {
        const int mb = u * per_direction_unit + k;
        const std::size_t entry = 2 * static_cast<std::size_t>(d) * static_cast<std::size_t>(u) +
                                  2 * static_cast<std::size_t>(k);
        for (int dir = 0; dir < 2; ++dir) {
          const auto stage = static_cast<std::size_t>(stage_of[dir]);
          place(entry + stage, OpPlan::forward_op(lanes[dir], mb));
          place(entry + 2 * static_cast<std::size_t>(d) - 1 - stage, OpPlan::backward_op(lanes[dir], mb));
        }
      }
    out.open_rank();
    for (const PlanOp& op : slots)
      if (op.key != kIdle) out.append(op);
  }
}

}  // namespace pipesim::detail
