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
  const auto pz = static_cast<std::size_t>(p);
  out.begin(one_stage_per_rank(config, "zb-h2"), 3 * pz * static_cast<std::size_t>(m));
  // Each rank runs its F's and B's in micro-batch order, so "the neighbour's F (B) of micro-batch
  // k ran in an earlier slot" is "the neighbour had run more than k of them when this slot began".
  std::vector<RankSlots> now(pz), before(pz);
  std::vector<std::vector<SlotOp>> lists(pz);
  for (auto& list : lists) list.reserve(3 * static_cast<std::size_t>(m));
  const int alive_cap = 2 * p - 1;
  int done_ranks = 0;
  for (int slot = 0; done_ranks < p; ++slot) {
    // A slot in which no rank can run would repeat for ever; 3pM slots (every op in a slot of its
    // own) bound a run that progresses, so a bug here is an internal error, not a hang.
    PIPESIM_CHECK(slot <= 3 * p * m, "ZB-H2's slot construction must finish");
    before = now;
    for (int r = 0; r < p; ++r) {
      const auto rz = static_cast<std::size_t>(r);
      RankSlots& k = now[rz];
      if (k.next_w == m) continue;
      // The last stage's B needs its own F; any other B the next stage's B.
      const int b_inputs = r == p - 1 ? before[rz].next_f : before[rz + 1].next_b;
      const int f_inputs = r == 0 ? m : before[rz - 1].next_f;
      if (k.next_b < k.next_f && k.next_b < b_inputs) {
        lists[rz].push_back({k.next_b++, Kind::B});
      } else if (k.next_f < f_inputs && k.next_f - k.next_w < alive_cap) {
        lists[rz].push_back({k.next_f++, Kind::F});
      } else if (k.next_w < k.next_b) {
        lists[rz].push_back({k.next_w++, Kind::W});
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
