// The eight steps of DeepSeek's DualPipe step() as op lists. Names follow the reference: phase 0
// and phase 1 are the two model chunks a rank holds; "zb" marks a backward whose weight gradient
// is deferred to a later W, which pops the oldest pending one (the reference's WeightGradStore is
// a FIFO queue).
#include "dualpipe_steps.h"

#include <cstddef>
#include <vector>

#include "generators.h"

namespace pipesim::detail {
namespace {

class RankProgram {
 public:
  RankProgram(const DualPipeRankPlan& plan, OpPlan& out)
      : out_(out), lanes_{out.lane(plan.phase_dir[0], plan.phase_stage[0]),
                          out.lane(plan.phase_dir[1], plan.phase_stage[1])} {
    pending_w_.resize(2 * static_cast<std::size_t>(plan.half_ranks));  // zero-bubble B's per rank
  }

  void f(int phase) { out_.forward(lanes_[phase], next_f_[phase]++); }
  void b(int phase, bool zb = false) {
    const int mb = next_b_[phase]++;
    out_.backward(lanes_[phase], mb, zb);
    if (zb) {
      PIPESIM_CHECK(pending_ < pending_w_.size(),
                    "a DualPipe rank defers fewer than 2 * half_ranks weight gradients");
      pending_w_[pending_++] = {phase, mb};
    }
  }
  void w() {
    const PendingW& p = pending_w_[next_w_++];
    out_.weight(lanes_[p.phase], p.mb);
  }
  void fb(int f_phase, int b_phase) {
    out_.pair(lanes_[f_phase], next_f_[f_phase]++, lanes_[b_phase], next_b_[b_phase]++);
  }
  bool weights_pending() const { return next_w_ < pending_; }

 private:
  struct PendingW {
    int phase = 0;
    int mb = 0;
  };

  OpPlan& out_;
  const OpPlan::Lane lanes_[2];  // the two phases' (direction, stage)
  int next_f_[2] = {0, 0};
  int next_b_[2] = {0, 0};
  // The FIFO: every zero-bubble B in order, and the next one a W takes. Nothing is removed, which
  // keeps w() a plain array read, and the array is sized up front (a rank defers 2n-h-1 < 2n:
  // n-h-1 in steps 3 and 7 each, h+1 in step 6), which keeps b() small enough to inline.
  std::vector<PendingW> pending_w_;
  std::size_t pending_ = 0;
  std::size_t next_w_ = 0;
};

}  // namespace

void emit_dualpipe_steps(const DualPipeRankPlan& plan, OpPlan& out) {
  RankProgram p(plan, out);
  const int n = plan.half_ranks;
  const int h = plan.half_rank;

  // Step 1, nF0: fill this rank's share of phase-0 warm-up.
  for (int i = 0; i < (n - h - 1) * 2; ++i) p.f(0);
  // Step 2, nF0F1: alternate phase 0 and phase 1 forwards.
  for (int i = 0; i < h + 1; ++i) {
    p.f(0);
    p.f(1);
  }
  // Step 3, nB1W1F1: zero-bubble backward, its weight gradient at once, then a forward.
  for (int i = 0; i < n - h - 1; ++i) {
    p.b(1, true);
    p.w();
    p.f(1);
  }
  // Step 4, nF0B1F1B0: the steady state of overlapped pairs. The middle ranks run their first F0
  // and B1 separately: the reference notes this "further reduces bubble size".
  for (int i = 0; i < plan.chunks_per_phase - 2 * n + h + 1; ++i) {
    if (i == 0 && plan.middle) {
      p.f(0);
      p.b(1);
    } else {
      p.fb(0, 1);
    }
    p.fb(1, 0);
  }
  // Step 5, nB1F1B0.
  for (int i = 0; i < n - h - 1; ++i) {
    p.b(1);
    p.fb(1, 0);
  }
  // Step 6, nB1B0: from the middle iteration on, backwards defer their weight gradients; on odd
  // half-ranks the switch happens before that iteration's B1, on even ones after it.
  const int step6 = h + 1;
  bool zb = false;
  for (int i = 0; i < step6; ++i) {
    if (i == step6 / 2 && h % 2 == 1) zb = true;
    p.b(1, zb);
    if (i == step6 / 2 && h % 2 == 0) zb = true;
    p.b(0, zb);
  }
  // Step 7, nWB0: a deferred W, then a zero-bubble B0.
  for (int i = 0; i < n - h - 1; ++i) {
    p.w();
    p.b(0, true);
  }
  // Step 8, nW: drain the remaining weight gradients.
  for (int i = 0; i < h + 1; ++i) p.w();
  PIPESIM_CHECK(!p.weights_pending(), "DualPipe must leave no weight gradient behind");
}

}  // namespace pipesim::detail
