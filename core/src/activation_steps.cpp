// Each rank's in-flight activations as a step function of time (activation_steps.h): one point
// at time 0, then one per F or B end, in the rank's order (its ops never overlap, so that is time
// order). Levels are counts times the per-GPU unit, so a rank's highest level is exactly its
// peak_activation_memory.
#include "activation_steps.h"

namespace pipesim::detail {
namespace {

// Appends one rank's points; `end_of(i)` and `kind_of(i)` describe its i-th op.
template <typename EndOf, typename KindOf>
ActivationSteps rank_steps(std::size_t ops, double unit, EndOf end_of, KindOf kind_of) {
  std::size_t changes = 0;
  for (std::size_t i = 0; i < ops; ++i) changes += activation_delta(kind_of(i)) != 0;
  ActivationSteps s;
  s.time.reserve(changes + 1);
  s.level.reserve(changes + 1);
  s.time.push_back(0);
  s.level.push_back(0);
  int in_flight = 0;
  for (std::size_t i = 0; i < ops; ++i) {
    const int delta = activation_delta(kind_of(i));
    if (delta == 0) continue;
    in_flight += delta;
    s.time.push_back(end_of(i));
    s.level.push_back(in_flight * unit);
  }
  PIPESIM_CHECK(in_flight == 0, "activations must return to zero at the end of a step");
  return s;
}

}  // namespace

std::vector<ActivationSteps> plan_activation_steps(const OpPlan& plan, const Tick* starts,
                                                   const OpLengths& lengths, double unit) {
  std::vector<ActivationSteps> out;
  const int ranks = plan.shape().ranks;
  out.reserve(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    const PlanOp* ops = plan.begin(r);
    const auto first = static_cast<std::size_t>(ops - plan.begin(0));
    const Tick* start = starts + first;
    out.push_back(rank_steps(
        static_cast<std::size_t>(plan.end(r) - ops), unit,
        [&](std::size_t i) { return to_units(start[i] + lengths.of(first + i, ops[i])); },
        [&](std::size_t i) { return static_cast<OpKind>(ops[i].code & kSlotMask & 3); }));
  }
  return out;
}

std::vector<ActivationSteps> ops_activation_steps(const std::vector<RankTimeline>& timeline,
                                                  double unit) {
  std::vector<ActivationSteps> out;
  out.reserve(timeline.size());
  for (const RankTimeline& ops : timeline)
    out.push_back(rank_steps(
        ops.size(), unit, [&](std::size_t i) { return ops[i].end; },
        [&](std::size_t i) { return ops[i].op.kind; }));
  return out;
}

}  // namespace pipesim::detail
