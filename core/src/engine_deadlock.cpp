// The engine's deadlock message (error path only, so plain loops). A run stops with ops left when
// every unfinished rank is parked on an end that can never finish; the message names what each
// of the first four waits for, in the engine's own dependency order.
#include <string>
#include <vector>

#include "engine_run.h"
#include "pipesim/rules.h"

namespace pipesim::detail {
namespace {

// A chunk's F (forward) or B, by dense key.
struct Wait {
  bool forward = true;
  std::size_t key = 0;
};

// What a stuck rank's head op waits for: its first unfinished dependency, in the order the
// engine checks them. Dependencies never un-finish, so this is the one the rank last parked on.
Wait waiting_for(const PlanOp& op, const OpPlan& plan, const EngineBuffers& b) {
  const std::size_t stride = plan.index().stage_stride();
  std::vector<Wait> deps;
  const int slot = op.code & kSlotMask;
  const bool pair = slot == kSlotPair;
  if ((slot == kSlotForward || pair) && (op.code & kAfterPrevious))
    deps.push_back({true, op.key - stride});
  if (slot == kSlotBackward || slot == kSlotBackwardZb || pair) {
    const std::size_t k = pair ? op.backward_key : op.key;
    deps.push_back({true, k});
    if (op.code & kBeforeNext) deps.push_back({false, k + stride});
  }
  if (slot == kSlotWeight) deps.push_back({false, op.key});
  for (const Wait& w : deps) {
    const ChunkState& c = b.chunks[w.key];
    if ((w.forward ? c.forward_end : c.backward_end) < 0) return w;
  }
  PIPESIM_CHECK(false, "a stuck rank's head op must wait for something");
  return {};
}

// The rank whose list holds the F of chunk `key`: a linear scan.
int rank_holding(std::size_t key, const OpPlan& plan) {
  for (int r = 0; r < plan.shape().ranks; ++r)
    for (const PlanOp* op = plan.begin(r); op != plan.end(r); ++op) {
      const int slot = op->code & kSlotMask;
      if ((slot == kSlotForward || slot == kSlotPair) && op->key == key) return r;
    }
  return kNobody;
}

}  // namespace

Error deadlock_error(const OpPlan& plan, const EngineBuffers& b) {
  std::string waits;
  std::string path;  // the first stuck op, where a user's schedule needs fixing
  int listed = 0, stuck = 0;
  for (int r = 0; r < plan.shape().ranks; ++r) {
    const RankState& rank = b.ranks[static_cast<std::size_t>(r)];
    if (rank.next == rank.end) continue;
    ++stuck;
    if (listed == 4) continue;
    ++listed;
    const PlanOp& head = *rank.next;
    const Wait w = waiting_for(head, plan, b);
    const Op awaited{
        w.forward ? OpKind::Forward : OpKind::Backward, false, plan.index().chunk(w.key), {}};
    const auto index = &head - plan.begin(r);
    if (path.empty()) path = "/rankOps/" + std::to_string(r) + "/" + std::to_string(index);
    waits += std::string(listed > 1 ? "; " : "") + "rank " + std::to_string(r) + " op " +
           std::to_string(index) + " " +
           op_label(plan_op_to_op(head, plan.index())) + " waits for " + op_label(awaited) +
           " on rank " + std::to_string(rank_holding(w.key, plan));
  }
  if (stuck > listed) waits += "; and " + std::to_string(stuck - listed) + " more stuck ranks";
  return make_error(Rule::ScheduleDeadlock, path, {{"waits", waits}});
}

}  // namespace pipesim::detail
