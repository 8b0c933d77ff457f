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
#include <cstdint>
#include <utility>
#include <vector>

#include "generators.h"

namespace pipesim::detail {

void generate_chimera(const SimConfig& config, OpPlan& out) {
  const int d = config.ranks;
  const int per_direction_unit = d / 2;
  const int units = config.microbatches / d;
  out.begin(two_direction_shell(config, "chimera"),
            2 * static_cast<std::size_t>(d) * static_cast<std::size_t>(config.microbatches));
  std::vector<std::pair<std::int64_t, Op>> slotted;
  slotted.reserve(2 * static_cast<std::size_t>(config.microbatches));
  for (int r = 0; r < d; ++r) {
    slotted.clear();
    for (int u = 0; u < units; ++u)
      for (int k = 0; k < per_direction_unit; ++k) {
        const int mb = u * per_direction_unit + k;
        const std::int64_t entry = 2 * static_cast<std::int64_t>(d) * u + 2 * k;
        for (int dir = 0; dir < 2; ++dir) {
          const int stage = dir == 0 ? r : d - 1 - r;
          slotted.emplace_back(entry + stage, forward_op(dir, mb, stage));
          slotted.emplace_back(entry + 2 * d - 1 - stage, backward_op(dir, mb, stage));
        }
      }
    std::sort(slotted.begin(), slotted.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    out.open_rank();
    for (std::size_t i = 0; i < slotted.size(); ++i) {
      PIPESIM_CHECK(i == 0 || slotted[i - 1].first < slotted[i].first,
                    "Chimera's two directions must never share a slot on a rank");
      out.push(slotted[i].second);
    }
  }
}

}  // namespace pipesim::detail
