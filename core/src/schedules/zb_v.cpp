// ZB-V (Qi et al., "Zero Bubble Pipeline Parallelism", arXiv 2401.10241 §6): two chunks per rank
// in DualPipeV's V, rank r holding stage r on the way down and stage 2R-1-r on the way back, with
// every backward split into B (input gradient) and W (weight gradient). The order is PyTorch's
// torch/distributed/pipelining/schedules.py,
// ScheduleZBVZeroBubble._calculate_single_rank_operations: 2(R-r)-1 chunk-0 forwards; r pairs of
// chunk-1 and chunk-0 forwards; R-r rounds of a chunk-1 forward, B and W; a steady state of F0 B0
// W0 F1 B1 W1 (no F0 once all have run); r rounds of B0 and B1 with their W's deferred; R-r rounds
// of B0 and the oldest chunk-0 W; then the deferred W's, chunk 1's first. Like PyTorch, the order
// is built for max(M, 2R-1) micro-batches and the ops of micro-batches past M are dropped (PyTorch
// leaves those slots empty). With T_F = T_B = T_W the paper's schedule has no bubble and 1F1B's
// activation memory.
#include <algorithm>
#include <cstddef>

#include "generators.h"

namespace pipesim::detail {
namespace {

class RankOrder {
 public:
  RankOrder(OpPlan& out, OpPlan::Lane chunk0, OpPlan::Lane chunk1, int microbatches)
      : out_(out), lanes_{chunk0, chunk1}, m_(microbatches) {}
  void f(int c) { emit(0, c, f_[c]++); }
  void b(int c) { emit(1, c, b_[c]++); }
  void w(int c) { emit(2, c, w_[c]++); }
  int forwards(int c) const { return f_[c]; }
  int backwards(int c) const { return b_[c]; }
  int weights(int c) const { return w_[c]; }

 private:
  void emit(int kind, int c, int mb) {
    if (mb >= m_) return;  // a padding micro-batch
    const OpPlan::Lane& lane = lanes_[c];
    if (kind == 0) out_.forward(lane, mb);
    if (kind == 1) out_.backward(lane, mb, true);
    if (kind == 2) out_.weight(lane, mb);
  }
  OpPlan& out_;
  const OpPlan::Lane lanes_[2];
  const int m_;
  int f_[2] = {0, 0}, b_[2] = {0, 0}, w_[2] = {0, 0};
};

}  // namespace

void generate_zb_v(const SimConfig& config, OpPlan& out) {
  const int p = config.ranks;
  const int m = config.microbatches;
  Schedule s;
  s.name = "zb-v";
  s.ranks = p;
  s.stages = 2 * p;
  s.microbatches_per_direction = m;
  s.stages_per_rank = 2;
  // An F, a B and a W for each of a rank's 2M chunks.
  out.begin(std::move(s), 6 * static_cast<std::size_t>(p) * static_cast<std::size_t>(m));
  const int n = std::max(m, 2 * p - 1);
  for (int r = 0; r < p; ++r) {
    out.open_rank();
    RankOrder o(out, out.lane(0, r), out.lane(0, 2 * p - 1 - r), m);
    for (int i = 0; i < 2 * (p - r) - 1; ++i) o.f(0);
    for (int i = 0; i < r; ++i) {
      o.f(1);
      o.f(0);
    }
    for (int i = 0; i < p - r; ++i) {
      o.f(1);
      o.b(1);
      o.w(1);
    }
    while (o.forwards(1) < o.forwards(0) || o.forwards(0) < n) {
      if (o.forwards(0) < n) o.f(0);
      o.b(0);
      o.w(0);
      o.f(1);
      o.b(1);
      o.w(1);
    }
    for (int i = 0; i < r; ++i) {
      o.b(0);
      o.b(1);
    }
    for (int i = 0; i < p - r; ++i) {
      o.b(0);
      o.w(0);
    }
    while (o.weights(1) < o.backwards(1)) o.w(1);
    while (o.weights(0) < o.backwards(0)) o.w(0);
    PIPESIM_CHECK(o.weights(0) == n && o.backwards(0) == n && o.forwards(0) == n &&
                      o.weights(1) == n && o.backwards(1) == n && o.forwards(1) == n,
                  "ZB-V runs every chunk's F, B and W once");
  }
}

}  // namespace pipesim::detail
