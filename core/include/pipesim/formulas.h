// Published closed forms, kept beside the simulator so the product can show both and say when a
// formula applies. DeepSeek's table (deepseek-ai/DualPipe README; DeepSeek-V3 report, Table 2)
// gives the per-device bubble in terms of the number of pipeline stages PP; Megatron-LM's and the
// Zero Bubble paper's forms cover interleaved 1F1B, ZB-H2 and ZB-V.
#pragma once

#include <string>
#include <vector>

#include "pipesim/config.h"
#include "pipesim/engine.h"

namespace pipesim {

/// One comparison of a region of validity, `left op right`, in the formulas' symbols: F, B, W,
/// F&B, PP, M, ranks, p2pLatency, and sums or products of them written as in the formula (B-W,
/// F+B, 2PP-1, 3W, max(F,B)). `op` is "=", "<=" or ">=". A client words a region from these.
struct RegionClause {
  std::string left;   ///< e.g. "W"
  std::string op;     ///< "=", "<=" or ">="
  std::string right;  ///< e.g. "B-W"
};

struct ReferenceBubble {
  std::string formula;     ///< e.g. "(PP/2-1)(F&B+B-3W)"; "" when no published formula exists
  double bubble_max = 0;   ///< the formula's value for these stages and costs
  bool applies = false;    ///< costs lie in the region where the formula is exact (and p2p = 0)
  /// The region as data: the formula is exact when every clause of one alternative of `any`
  /// holds (no alternatives: always) and every clause of `all` holds too.
  std::vector<std::vector<RegionClause>> any;
  std::vector<RegionClause> all;  ///< holds in every case (p2p latency 0)
  std::string note_id;    ///< "" or a stable id for `note`, so a client can say it in its language
  std::string note;       ///< what the clauses do not say, in English ("" for none)
  std::string condition;  ///< the region in words, written from the clauses and the note
  std::string source;
  /// Why the formula misses when the region's own terms cannot say: "" unless the stages' costs
  /// differ (Costs::stages), which every closed form's region excludes.
  std::string reason;
};

/// The published value for `schedule` on `ranks` ranks with `stages` pipeline stages per direction
/// (PP; for interleaved 1F1B the formula's PP is `ranks`) and `microbatches` (M, over both
/// directions) under `costs`. Regions (found by sweeping shapes and costs, and checked by
/// simulation in tests/core/table_test.cpp and applies_test.cpp):
/// GPipe, 1F1B: always; ZB-H1: M >= PP, W <= F and W <= B-W (with fewer micro-batches than
/// stages the warm-up never fills, so the deferred W's cannot fill the cool-down bubbles);
/// DualPipe, DualPipeV: PP = 2 (the formula's 0: the two ranks feed each other from the first op),
/// or B-W = F, W <= F and max(F, B) <= F&B <= F+B (their shape rules already give M >= PP).
/// interleaved 1F1B: (ranks-1)(F+B) with F, B one chunk's costs (Megatron-LM's 1/V of 1F1B),
/// at every shape it runs; ZB-H2: the paper's (PP-1)(F+B-3W) where PP = 1, W = 0, or M >= 2PP-1,
/// W <= F and B >= 3W (below B = 3W the last rank's wait for its first forward, (PP-1)F, is
/// longer); ZB-V: the paper's 0 (at F = B-W = W, inside each rank's span) only on one rank.
/// All need p2pLatency = 0 and equal stages: with per-stage costs (Costs::stages) that differ,
/// applies is false, `reason` says why, and the formula is evaluated at the stages' mean costs
/// (mean_stage_cost: the equal-stage run with the same work); equal per-stage costs count as
/// those costs.
ReferenceBubble reference_bubble(const std::string& schedule, int ranks, int stages,
                                 int microbatches, const Costs& costs);

/// reference_bubble for a simulated result, under its effective costs (pipesim/comm.h) in its
/// part order. With a2aOverlap it never applies: the formulas are for the plain schedules.
ReferenceBubble result_reference(const SimResult& result);

}  // namespace pipesim
