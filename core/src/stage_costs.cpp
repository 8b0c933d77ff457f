// The per-stage cost rules of pipesim/stage_costs.h and their checks. Every cost is compared in
// the engine's integer ticks (stage_ticks.h), so a check here and the engine's run agree exactly.
#include "pipesim/stage_costs.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "fields.h"
#include "pipesim/rules.h"
#include "stage_ticks.h"

namespace pipesim {

namespace detail {

StageTicks stage_ticks_of(const StageCost& c) {
  StageTicks t;
  t.forward = cost_ticks(c.forward);
  t.backward = cost_ticks(c.backward);
  t.weight = cost_ticks(c.weight);
  t.overlapped = cost_ticks(c.overlapped);
  t.saving = t.forward + t.backward - t.overlapped;
  return t;
}

std::vector<StageTicks> stage_ticks(const Costs& costs) {
  std::vector<StageTicks> out;
  out.reserve(costs.stages.size());
  for (const StageCost& c : costs.stages) out.push_back(stage_ticks_of(c));
  return out;
}

}  // namespace detail

StageCost stage_cost(const Costs& costs, int stage) {
  if (!costs.stages.empty()) return costs.stages[static_cast<std::size_t>(stage)];
  return StageCost{costs.forward, costs.backward, costs.weight, costs.overlapped};
}

double stage_pair_cost(const StageCost& forward_stage, const StageCost& backward_stage) {
  return static_cast<double>(detail::pair_ticks(detail::stage_ticks_of(forward_stage),
                                                detail::stage_ticks_of(backward_stage))) /
         kTicksPerUnit;
}

bool stage_costs_uniform(const Costs& costs) {
  const auto& s = costs.stages;
  return std::all_of(s.begin(), s.end(), [&](const StageCost& c) {
    return c.forward == s[0].forward && c.backward == s[0].backward && c.weight == s[0].weight &&
           c.overlapped == s[0].overlapped;
  });
}

StageCost mean_stage_cost(const Costs& costs) {
  if (costs.stages.empty()) return stage_cost(costs, 0);
  StageCost sum{0, 0, 0, 0};
  for (const StageCost& c : costs.stages) {
    sum.forward += c.forward;
    sum.backward += c.backward;
    sum.weight += c.weight;
    sum.overlapped += c.overlapped;
  }
  const double n = static_cast<double>(costs.stages.size());
  return StageCost{sum.forward / n, sum.backward / n, sum.weight / n, sum.overlapped / n};
}

Costs single_stage_costs(const Costs& costs, int stage) {
  Costs c = costs;
  const StageCost s = stage_cost(costs, stage);
  c.forward = s.forward;
  c.backward = s.backward;
  c.weight = s.weight;
  c.overlapped = s.overlapped;
  c.stages.clear();
  return c;
}

namespace {

// A pair of stages whose overlapped pair would not last a positive time, if any. The pair (a, b)
// costs F_a + B_b - min(S_a, S_b), so taking stages in order of falling saving S, each stage x
// meets every stage before it (and itself) with min(S) = S_x: the pair fails when the smallest B
// (or F) so far, with x's own F (or B), is at most S_x. O(n log n) for up to kMaxStages stages.
struct BadPair {
  int forward = -1, backward = -1;
  detail::StageTick ticks = 0;
};

BadPair first_bad_pair(const std::vector<detail::StageTicks>& t) {
  std::vector<int> order(t.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return t[static_cast<std::size_t>(a)].saving > t[static_cast<std::size_t>(b)].saving;
  });
  int min_f = -1, min_b = -1;  // stages with the smallest F and B seen so far
  for (int x : order) {
    const detail::StageTicks& s = t[static_cast<std::size_t>(x)];
    if (min_f < 0 || s.forward < t[static_cast<std::size_t>(min_f)].forward) min_f = x;
    if (min_b < 0 || s.backward < t[static_cast<std::size_t>(min_b)].backward) min_b = x;
    const detail::StageTick as_forward = detail::pair_ticks(s, t[static_cast<std::size_t>(min_b)]);
    if (as_forward <= 0) return BadPair{x, min_b, as_forward};
    const detail::StageTick as_backward = detail::pair_ticks(t[static_cast<std::size_t>(min_f)], s);
    if (as_backward <= 0) return BadPair{min_f, x, as_backward};
  }
  return BadPair{};
}

}  // namespace

Status validate_stage_costs(const Costs& costs) {
  if (costs.stages.empty()) return Ok{};
  if (costs.stages.size() > static_cast<std::size_t>(kMaxStages))
    return make_error(Rule::StageCostsSize, "/stageCosts",
                      {{"max", kMaxStages}, {"got", costs.stages.size()}});
  double largest_chunk = 0;
  for (std::size_t i = 0; i < costs.stages.size(); ++i) {
    const StageCost& c = costs.stages[i];
    const std::string name = "stageCosts." + std::to_string(i) + ".";
    const std::string path = "/stageCosts/" + std::to_string(i) + "/";
    for (const auto& [field, v, zero_ok] :
         {std::tuple<const char*, double, bool>{"forward", c.forward, false},
          {"backward", c.backward, false},
          {"weight", c.weight, true},
          {"overlapped", c.overlapped, false}})
      if (Status st = detail::cost_in_range(v, zero_ok, name + field, path + field); !st.ok())
        return st;
    if (c.weight > c.backward)
      return make_error(Rule::FieldAtMostField, path + "weight",
                        {{"field", name + "weight"}, {"target", name + "backward"},
                         {"value", c.backward}, {"got", c.weight}});
    largest_chunk = std::max({largest_chunk, c.forward, c.backward});
  }
  const BadPair bad = first_bad_pair(detail::stage_ticks(costs));
  if (bad.forward >= 0)
    return make_error(Rule::StageCostsPair, "/stageCosts/" + std::to_string(bad.forward),
                      {{"forward", bad.forward},
                       {"backward", bad.backward},
                       {"got", static_cast<double>(bad.ticks) / kTicksPerUnit}});
  if (costs.comm) {
    if (costs.comm->explicit_components) return make_error(Rule::StageCostsComm, "/costs/comm");
    // Each stage's all-to-all is ratio x its F, bounded like a cost (config.h, kMaxCommLayers).
    const double max_ratio = kMaxCost / largest_chunk;
    if (!(costs.comm->ratio <= max_ratio))
      return make_error(Rule::RangeNumber, "/costs/comm/ratio",
                        {{"field", "costs.comm.ratio"}, {"min", 0}, {"max", max_ratio},
                         {"got", costs.comm->ratio}});
  }
  return Ok{};
}

Status check_stage_count(const Costs& costs, int stages) {
  if (costs.stages.empty() || costs.stages.size() == static_cast<std::size_t>(stages)) return Ok{};
  return make_error(Rule::StageCostsCount, "/stageCosts",
                    {{"stages", stages}, {"got", costs.stages.size()}});
}

}  // namespace pipesim
