// Interleaved 1F1B, Megatron-LM's virtual pipeline (Narayanan et al., "Efficient Large-Scale
// Language Model Training on GPU Clusters Using Megatron-LM", SC'21, §2.2.2). The model is cut
// into V x R stages; rank r holds the V chunks r, r + R, ..., r + (V-1)R, so a micro-batch loops
// V times round the ranks. The order follows NVIDIA/Megatron-LM
// megatron/core/pipeline_parallel/schedules.py, forward_backward_pipelining_with_interleaving,
// with its default group of R micro-batches per virtual stage:
// - virtual micro-batch k (0 <= k < V x M) is micro-batch (k / VR) x R + k % R on chunk
//   (k % VR) / R for its forward and on chunk V-1 minus that for its backward: R micro-batches
//   enter chunk 0, then the same R chunk 1, and so on (get_schedule_table);
// - rank r warms up with 2(R-1-r) + (V-1)R forwards, all of them when that reaches V x M
//   (get_pp_rank_microbatches), then alternates forward k and backward k - warm-up, then drains.
// V = 1 is Megatron's non-interleaved path, plain 1F1B (R-1-r warm-up forwards). Each op costs
// F or B of one chunk, so against 1F1B at V times those costs the bubble shrinks by V.
//
// With a2aOverlap, Megatron-Core's combined 1F1B: the warm-up has one more forward
// (get_pp_rank_microbatches, "to ensure the forward and backward computations are independent
// in all 1f1b steps"), and each steady-state step runs forward k with backward k - warm-up as
// one overlapped FB pair (forward_backward_helper_wrapper calling
// combined_1f1b_schedule_for_interleaved_pipelining in megatron/core/pipeline_parallel/
// combined_1f1b.py); warm-up forwards and cool-down backwards stay alone. Like Megatron,
// validate() takes it at V >= 2, or V = 1 on one rank (Megatron's no-pipelining path).
#include <algorithm>
#include <cstddef>
#include <vector>

#include "generators.h"

namespace pipesim::detail {

void generate_interleaved_1f1b(const SimConfig& config, OpPlan& out) {
  const int p = config.ranks;
  const int m = config.microbatches;
  const int v = effective_chunks(*find_schedule_info(config.schedule), config);
  Schedule s;
  s.name = config.schedule;
  s.ranks = p;
  s.stages = v * p;
  s.microbatches_per_direction = m;
  s.stages_per_rank = v;
  out.begin(std::move(s), 2 * static_cast<std::size_t>(v) * static_cast<std::size_t>(p) *
                              static_cast<std::size_t>(m));
  const int total = v * m;
  std::vector<OpPlan::Lane> lanes(static_cast<std::size_t>(v));
  for (int r = 0; r < p; ++r) {
    out.open_rank();
    for (int c = 0; c < v; ++c) lanes[static_cast<std::size_t>(c)] = out.lane(0, c * p + r);
    // Walks virtual micro-batches k = 0, 1, ... as (group, chunk, position) without dividing:
    // one step per op, where the four divisions of k / VR, k % VR, / R and % R cost more than
    // the rest of the generator (callgrind, 64 ranks x 1024 micro-batches).
    struct Cursor {
      int group = 0, chunk = 0, position = 0;
      int mb(int ranks) const { return group * ranks + position; }
      void advance(int ranks, int chunks) {
        if (++position < ranks) return;
        position = 0;
        if (++chunk < chunks) return;
        chunk = 0;
        ++group;
      }
    };
    Cursor f, b;
    auto forward = [&] {
      out.forward(lanes[static_cast<std::size_t>(f.chunk)], f.mb(p));
      f.advance(p, v);
    };
    auto backward = [&] {
      out.backward(lanes[static_cast<std::size_t>(v - 1 - b.chunk)], b.mb(p));
      b.advance(p, v);
    };
    const int extra = config.a2a_overlap ? 1 : 0;
    const int warmup =
        std::min(total, (v == 1 ? p - 1 - r : 2 * (p - 1 - r) + (v - 1) * p) + extra);
    for (int k = 0; k < warmup; ++k) forward();
    for (int k = warmup; k < total; ++k) {
      if (config.a2a_overlap) {  // forward k with backward k - warm-up, as one pair
        out.pair(lanes[static_cast<std::size_t>(f.chunk)], f.mb(p),
                 lanes[static_cast<std::size_t>(v - 1 - b.chunk)], b.mb(p));
        f.advance(p, v);
        b.advance(p, v);
        continue;
      }
      forward();
      backward();
    }
    for (int k = total - warmup; k < total; ++k) backward();
  }
}

}  // namespace pipesim::detail
