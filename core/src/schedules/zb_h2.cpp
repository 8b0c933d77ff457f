// ZB-H2 (Qi et al., "Zero Bubble Pipeline Parallelism", ICLR 2024, §2.2, Fig. 3 bottom): ZB-H1's
// split backward with a larger memory budget. The paper draws it by hand for T_F = T_B = T_W:
// extra forwards in the warm-up fill the bubble before each rank's first B (up to 2p-1 micro-
// batches alive on rank 0 instead of 1F1B's p), and the W's at the tail are reordered so every
// rank works without a gap from its first op to its last: a parallelogram rather than 1F1B's
// trapezoid. The paper gives no algorithm, so the order is built the way the figure is: in unit
// time slots (T_F = T_B = T_W = 1, no latency) each rank runs, in this priority,
//   1. its next B (input gradient) once the next stage's B of that micro-batch is done;
//   2. else its next F once the previous stage's F is done, while fewer than 2p-1 of its
//      micro-batches hold activations (F done, W not yet: the paper's accounting);
//   3. else its oldest pending W.
// Each rank's list is the order it ran its ops in; the engine then times that order under the
// real costs. At equal costs every rank is busy for 3M slots in a row (tests/core check it).
#include <cstddef>
#include <vector>

#include "generators.h"

namespace pipesim::detail {
namespace {

enum class Kind : char { F, B, W };
struct SlotOp {
  int mb;
  Kind kind;
};
struct RankSlots {
  int next_f = 0, next_b = 0, next_w = 0;
};

}  // namespace

void generate_zb_h2(const SimConfig& config, OpPlan& out) {
  const int p = config.ranks;
  const int m = config.microbatches;
  const auto mz = static_cast<std::size_t>(m);
  out.begin(one_stage_per_rank(config, "zb-h2"), 3 * static_cast<std::size_t>(p) * mz);
  // The slot in which each (rank, micro-batch) F and B ran; an op is usable from the next slot.
  constexpr int kNotRun = -1;
  std::vector<int> f_slot(static_cast<std::size_t>(p) * mz, kNotRun), b_slot(f_slot);
  auto ran_before = [&](const std::vector<int>& slots, int r, int mb, int slot) {
    const int s = slots[static_cast<std::size_t>(r) * mz + static_cast<std::size_t>(mb)];
    return s != kNotRun && s < slot;
  };
  auto mark = [&](std::vector<int>& slots, int r, int mb, int slot) {
    slots[static_cast<std::size_t>(r) * mz + static_cast<std::size_t>(mb)] = slot;
  };
  std::vector<RankSlots> ranks(static_cast<std::size_t>(p));
  std::vector<std::vector<SlotOp>> lists(static_cast<std::size_t>(p));
  const int alive_cap = 2 * p - 1;
  int done_ranks = 0;
  for (int slot = 0; done_ranks < p; ++slot) {
    // A slot in which no rank can run would repeat for ever; 3pM slots (every op in a slot of its
    // own) bound a run that progresses, so a bug here is an internal error, not a hang.
    PIPESIM_CHECK(slot <= 3 * p * m, "ZB-H2's slot construction must finish");
    for (int r = 0; r < p; ++r) {
      RankSlots& k = ranks[static_cast<std::size_t>(r)];
      std::vector<SlotOp>& list = lists[static_cast<std::size_t>(r)];
      if (k.next_w == m) continue;
      const bool b_ready =
          k.next_b < k.next_f && (r == p - 1 ? ran_before(f_slot, r, k.next_b, slot)
                                             : ran_before(b_slot, r + 1, k.next_b, slot));
      const bool f_ready = k.next_f < m && k.next_f - k.next_w < alive_cap &&
                           (r == 0 || ran_before(f_slot, r - 1, k.next_f, slot));
      if (b_ready) {
        mark(b_slot, r, k.next_b, slot);
        list.push_back({k.next_b++, Kind::B});
      } else if (f_ready) {
        mark(f_slot, r, k.next_f, slot);
        list.push_back({k.next_f++, Kind::F});
      } else if (k.next_w < k.next_b) {
        list.push_back({k.next_w++, Kind::W});
        if (k.next_w == m) ++done_ranks;
      }
    }
  }
  for (int r = 0; r < p; ++r) {
    out.open_rank();
    const OpPlan::Lane lane = out.lane(0, r);
    for (const SlotOp& op : lists[static_cast<std::size_t>(r)]) {
      if (op.kind == Kind::F) out.forward(lane, op.mb);
      if (op.kind == Kind::B) out.backward(lane, op.mb, true);
      if (op.kind == Kind::W) out.weight(lane, op.mb);
    }
  }
}

}  // namespace pipesim::detail
