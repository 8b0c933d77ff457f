// DeepSeek's bubble table, and the papers' closed forms for the schedules learners meet beside it,
// as code, with the region in which each entry equals the simulated bubble.max (found by sweeping
// shapes and costs; tests/core/applies_test.cpp checks every region against the simulator).
#include "pipesim/formulas.h"

#include <algorithm>
#include <cmath>

#include "pipesim/comm.h"
#include "pipesim/stage_costs.h"

namespace pipesim {
namespace {

constexpr const char* kDeepSeekTable = "deepseek-ai/DualPipe README; DeepSeek-V3 report, Table 2";
constexpr const char* kMegatron =
    "Narayanan et al., Megatron-LM (SC'21) §2.2.2: 1/V of 1F1B's bubble at V chunks per rank";
constexpr const char* kZeroBubble =
    "Qi et al., Zero Bubble Pipeline Parallelism (arXiv 2401.10241)";

bool nearly_equal(double a, double b) {
  return std::fabs(a - b) <= 1e-9 * std::max({1.0, std::fabs(a), std::fabs(b)});
}
bool at_most(double a, double b) { return a <= b || nearly_equal(a, b); }

const RegionClause kNoLatency{"p2pLatency", "=", "0"};
// Every region also needs equal stages (no stageCosts, or all alike); said in these words.
const RegionClause kEqualStages{"stageCosts", "=", "equal"};
constexpr const char* kEqualStagesText = "every stage costs the same";

/// The region in words, from its clauses and note: alternatives joined by ", or ", every-case
/// clauses after "; ", the note in parentheses.
std::string region_text(const ReferenceBubble& ref) {
  auto clauses = [](const std::vector<RegionClause>& list) {
    std::string out;
    for (const RegionClause& c : list) {
      const bool equal_stages = c.left == kEqualStages.left;
      out += (out.empty() ? "" : ", ") + (equal_stages ? std::string(kEqualStagesText) : c.left + " " + c.op + " " + c.right);
    }
    return out;
  };
  std::string text;
  for (const auto& alternative : ref.any) text += (text.empty() ? "" : ", or ") + clauses(alternative);
  if (!ref.all.empty()) text += (text.empty() ? "" : "; ") + clauses(ref.all);
  if (!ref.note.empty()) text += " (" + ref.note + ")";
  return text;
}

ReferenceBubble reference_bubble_of_equal_stages(const std::string& schedule, int ranks, int stages,
                                                 int microbatches, const Costs& c);

}  // namespace

ReferenceBubble reference_bubble(const std::string& schedule, int ranks, int stages,
                                 int microbatches, const Costs& costs) {
  // Equal stages (none listed, or all alike) are costs' own F, B, W and F&B; unequal ones are
  // evaluated at their mean and never apply.
  const bool equal_stages = stage_costs_uniform(costs);
  Costs c = costs;
  const StageCost typical = equal_stages ? stage_cost(costs, 0) : mean_stage_cost(costs);
  c.forward = typical.forward;
  c.backward = typical.backward;
  c.weight = typical.weight;
  c.overlapped = typical.overlapped;
  c.stages.clear();
  ReferenceBubble ref = reference_bubble_of_equal_stages(schedule, ranks, stages, microbatches, c);
  if (ref.formula.empty()) return ref;
  ref.all.push_back(kEqualStages);
  ref.condition = region_text(ref);
  if (!equal_stages) {
    ref.applies = false;
    ref.reason =
        "the stages' costs differ (stageCosts) and the formula assumes equal stages; it is "
        "evaluated at their mean";
  }
  return ref;
}

namespace {

ReferenceBubble reference_bubble_of_equal_stages(const std::string& schedule, int ranks, int stages,
                                                 int microbatches, const Costs& c) {
  ReferenceBubble ref;
  ref.source = kDeepSeekTable;
  const double pp = stages;
  const bool no_latency = c.p2p_latency == 0;
  if (schedule == "gpipe" || schedule == "1f1b") {
    ref.formula = "(PP-1)(F+B)";
    ref.bubble_max = (pp - 1) * (c.forward + c.backward);
    ref.all = {kNoLatency};
    ref.applies = no_latency;
  } else if (schedule == "zb-h1") {
    ref.formula = "(PP-1)(F+B-2W)";
    ref.bubble_max = (pp - 1) * (c.forward + c.backward - 2 * c.weight);
    ref.any = {{{"M", ">=", "PP"}, {"W", "<=", "F"}, {"W", "<=", "B-W"}}};
    ref.all = {kNoLatency};
    ref.applies = no_latency && microbatches >= stages && at_most(c.weight, c.forward) &&
                  at_most(c.weight, c.backward - c.weight);
  } else if (schedule == "dualpipe" || schedule == "dualpipev") {
    ref.formula = "(PP/2-1)(F&B+B-3W)";
    ref.bubble_max = (pp / 2 - 1) * (c.overlapped + c.backward - 3 * c.weight);
    ref.any = {{{"PP", "=", "2"}},
               {{"B-W", "=", "F"}, {"W", "<=", "F"}, {"max(F,B)", "<=", "F&B"}, {"F&B", "<=", "F+B"}}};
    ref.all = {kNoLatency};
    const bool in_cost_region = nearly_equal(c.backward - c.weight, c.forward) &&
                                at_most(c.weight, c.forward) &&
                                at_most(std::max(c.forward, c.backward), c.overlapped) &&
                                at_most(c.overlapped, c.forward + c.backward);
    ref.applies = no_latency && (stages == 2 || in_cost_region);
  } else if (schedule == "interleaved-1f1b") {
    // Megatron's interleaved bubble, (p-1)(t_f+t_b)/v with t_f, t_b a whole stage's: F and B here
    // are one chunk's costs (a chunk is 1/V of a rank's layers), so it is (ranks-1)(F+B). Exact at
    // every shape the schedule runs (M a multiple of ranks, M = ranks included) and any W.
    const double pp_ranks = ranks;
    ref.formula = "(PP-1)(F+B)";
    ref.bubble_max = (pp_ranks - 1) * (c.forward + c.backward);
    ref.all = {kNoLatency};
    ref.note_id = "chunk-costs";
    ref.note = "PP = ranks; F and B of one chunk";
    ref.source = kMegatron;
    ref.applies = no_latency;
  } else if (schedule == "zb-h2") {
    // The paper's (p-1)(T_F+T_B-2T_W) with T_B the input-gradient B-W: (PP-1)(F+B-3W). The paper
    // counts idle inside each rank's span; against the step's makespan (bubble.max) the last
    // rank's wait for its first forward, (PP-1)F, also counts, and the formula is exact only
    // where it is the larger: B-W >= 2W. Inside the paper's own region with B-W < 2W, bubble.max
    // is (PP-1)F. Fewer than 2PP-1 micro-batches leave the warm-up short unless W = 0.
    ref.formula = "(PP-1)(F+B-3W)";
    ref.bubble_max = (pp - 1) * (c.forward + c.backward - 3 * c.weight);
    ref.any = {{{"PP", "=", "1"}},
               {{"W", "=", "0"}},
               {{"M", ">=", "2PP-1"}, {"W", "<=", "F"}, {"B", ">=", "3W"}}};
    ref.all = {kNoLatency};
    ref.source = std::string(kZeroBubble) + ", ZB-H2 (§2.2, handcrafted schedules)";
    const bool in_cost_region = microbatches >= 2 * stages - 1 && at_most(c.weight, c.forward) &&
                                at_most(3 * c.weight, c.backward);
    ref.applies = no_latency && (stages == 1 || c.weight == 0 || in_cost_region);
  } else if (schedule == "zb-v") {
    // The paper (and sail-sg's README table) gives ZB-V no bubble at T_F = T_B = T_W, counted
    // inside each rank's span (iterations overlap once the optimizer step is not synchronised)
    // and no closed form for other costs. Against the step's makespan the ranks still wait at
    // the edges ((ranks-1)F at F = B-W = W, M >= 2 x ranks - 1), so the 0 is exact on one rank
    // only.
    ref.formula = "0";
    ref.bubble_max = 0;
    ref.any = {{{"ranks", "=", "1"}}};
    ref.all = {kNoLatency};
    ref.note_id = "rank-span";
    ref.note = "the paper's 0 at F = B-W = W counts idle inside each rank's span; the simulated "
               "idle time adds the waits at its edges";
    ref.source = std::string(kZeroBubble) + " §6, ZB-V";
    ref.applies = no_latency && ranks == 1;
  } else {
    ref.source = "";
  }
  ref.condition = ref.formula.empty() ? "" : region_text(ref);
  return ref;
}

}  // namespace

ReferenceBubble result_reference(const SimResult& r) {
  // Under communication the table's F, B and F&B are the ops' real lengths, in the config's
  // part order (effective_costs).
  ReferenceBubble ref =
      reference_bubble(r.config.schedule, r.config.ranks, r.stages, r.config.microbatches,
                       effective_costs(r.config.costs, part_order(r.config)));
  if (r.config.a2a_overlap && !ref.formula.empty()) {
    // The closed forms are for the plain schedules: combined 1F1B adds a warm-up forward and
    // runs the steady state as pairs of cost F&B.
    ref.applies = false;
    ref.reason = "a2aOverlap is on, and the formula is for the plain schedule";
  }
  return ref;
}

}  // namespace pipesim
