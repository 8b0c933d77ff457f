// What a user asks pipesim to simulate: a schedule name, a pipeline shape and a cost model.
// validate() is the single gate between untrusted input and the generators and engine.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pipesim/error.h"

namespace pipesim {

/// Component times of one chunk (one micro-batch through one stage, all its layers), in cost
/// units, after DeepSeek-V3 report §3.2.1: attention, all-to-all dispatch, MLP (experts),
/// all-to-all combine; the backward splits attention and MLP into input- and weight-gradient
/// parts. Compute parts must add up to the op costs: forward_attn + forward_mlp = F,
/// backward_attn + backward_attn_weight + backward_mlp + backward_mlp_weight = B and
/// backward_attn_weight + backward_mlp_weight = W. All >= 0.
struct ChunkComponents {
  double forward_attn = 0, forward_dispatch = 0, forward_mlp = 0, forward_combine = 0;
  double backward_attn = 0;         ///< attention backward for input (ATTN(B) in Fig. 4)
  double backward_attn_weight = 0;  ///< attention backward for weights (ATTN(W))
  double backward_dispatch = 0;     ///< the all-to-all that undoes dispatch (DISPATCH(B))
  double backward_mlp = 0;          ///< MLP backward for input (MLP(B))
  double backward_mlp_weight = 0;   ///< MLP backward for weights (MLP(W))
  double backward_combine = 0;      ///< the all-to-all that undoes combine (COMBINE(B))
};

/// The compute-communication model (docs/schema.md "Communication model"). Either a ratio that
/// derives the components from F, B and W, or explicit components.
struct CommCosts {
  bool explicit_components = false;  ///< true: use `components`; false: derive them from `ratio`
  double ratio = 1.0;       ///< ratio form: all-to-all time of a chunk per unit of its compute (>= 0)
  double attn_share = 0.5;  ///< ratio form: attention's share of each compute part, in [0, 1]
  ChunkComponents components;  ///< explicit form
  int layers = 1;  ///< layers per chunk, in [1, kMaxCommLayers]: each component splits evenly
};

/// One pipeline stage's op costs (docs/schema.md "Per-stage costs"), in the units of Costs. A
/// stage's chunks cost these on whatever rank runs them and in either direction: stage s of
/// DualPipe's or Chimera's direction 1 runs the same layers as stage s of direction 0 (of the
/// other parameter copy), DualPipeV's and ZB-V's 2R stages are the V's, interleaved 1F1B's
/// V x R are its virtual stages. An overlapped pair of a forward on stage a and a backward on
/// stage b lasts stage_pair_cost(a, b) (pipesim/stage_costs.h).
struct StageCost {
  double forward = 1.0;     ///< F of this stage (> 0)
  double backward = 2.0;    ///< full B of this stage (> 0)
  double weight = 1.0;      ///< W of this stage (0 <= W <= B)
  double overlapped = 3.0;  ///< F&B of a forward and a backward both of this stage (> 0)
};

/// Execution time of each kind of op, in arbitrary time units (DeepSeek's table uses F, B, W, F&B).
struct Costs {
  double forward = 1.0;     ///< F: forward of one micro-batch through one stage (> 0)
  double backward = 2.0;    ///< B: full backward of one chunk, input- plus weight-gradient (> 0)
  double weight = 1.0;      ///< W: weight-gradient part of B (0 <= W <= B); a zero-bubble B costs B - W
  double overlapped = 3.0;  ///< F&B: one forward and one full backward run as an overlapped pair (> 0)
  double p2p_latency = 0.0; ///< added to every dependency that crosses ranks (>= 0)
  /// Communication model; absent means no communication: every op costs exactly F, B, B-W, W or
  /// F&B, as before the model existed. See pipesim/comm.h.
  std::optional<CommCosts> comm;
  /// Per-stage costs (JSON "stageCosts", next to "costs"), one per pipeline stage along direction
  /// 0; empty: every stage costs forward, backward, weight and overlapped above. When set they
  /// replace those four for every op (p2p_latency and comm stay shared), and their count must be
  /// the schedule's stages (rule stage_costs.count).
  std::vector<StageCost> stages;

  Costs() = default;
  /// Positional form Costs{F, B, W, F&B, p2p}, kept working now that `comm` exists.
  Costs(double forward_cost, double backward_cost, double weight_cost, double overlapped_cost,
        double p2p_latency_cost = 0.0)
      : forward(forward_cost), backward(backward_cost), weight(weight_cost),
        overlapped(overlapped_cost), p2p_latency(p2p_latency_cost) {}
};

/// When an op may start (JSON "timing": "dependency" | "runtime", default "dependency").
enum class Timing {
  /// When its rank is free and the ops it depends on have finished (plus p2p latency): the
  /// idealised model every closed form assumes.
  Dependency,
  /// Also at the communication points of DeepSeek's step() (deepseek-ai/DualPipe dualpipe.py and
  /// dualpipev.py): receives and sends are queued, then posted together and all waited for before
  /// the next compute (_commit_and_wait_comm), a send completing once its receive is posted.
  /// DualPipe and DualPipeV only, without the communication model (rules timing.*).
  Runtime,
};

/// "dependency" or "runtime".
const char* timing_name(Timing timing);

struct MemoryRequest;  // pipesim/memory.h

/// One simulation request. Field names match the JSON schema (docs/schema.md).
struct SimConfig {
  std::string schedule = "1f1b";  ///< one of list_schedules()
  int ranks = 4;                  ///< pipeline-parallel devices
  int microbatches = 8;           ///< micro-batches per step, over both directions where there are two
  Costs costs;
  Timing timing = Timing::Dependency;
  /// Model chunks per rank, for the schedules whose catalogue entry takes them
  /// (ScheduleInfo::chunks, e.g. interleaved-1f1b's virtual stages); 0 means the schedule's
  /// default. Other schedules fix their layout and accept only 0.
  int chunks = 0;
  /// Megatron-Core's combined 1F1B (--overlap-moe-expert-parallel-comm; JSON "a2aOverlap"), for
  /// the schedules whose catalogue entry takes it (ScheduleInfo::a2a_overlap): each rank runs one
  /// more warm-up forward, then every steady-state forward and backward as one overlapped FB pair,
  /// whose all-to-alls hide under the other chunk's computation (pipesim/comm.h, PartOrder);
  /// warm-up and cool-down ops stay unpaired.
  bool a2a_overlap = false;
  /// Megatron-Core's --delay-wgrad-compute (JSON "delayWgrad"; needs a2a_overlap, as Megatron
  /// asserts): the weight-gradient GEMMs run after their backward node without holding up the
  /// next all-to-all, so more computation lies under it (PartOrder::MegatronDelayWgrad).
  bool delay_wgrad = false;
  /// A model whose memory the result counts in bytes (pipesim/memory.h): model, recipe, ZeRO
  /// stage, TP, DP, EP and activations; the schedule, P (= ranks), M and chunks are this config's.
  /// JSON "memoryModel"; absent: memory only in units of a rank's share.
  std::shared_ptr<const MemoryRequest> memory_model = nullptr;
};

/// Upper bounds that keep every request fast and small: a larger request fails with too_large
/// before anything is allocated. kMaxOps bounds ops in one simulation (about 100 MB of JSON).
inline constexpr int kMaxRanks = 1024;
/// Most stages in one direction: two per rank (DualPipeV) at kMaxRanks. Hand-written schedules
/// are held to it too, so a stage index always fits the timeline's int16 column.
inline constexpr int kMaxStages = 2 * kMaxRanks;
inline constexpr int kMaxMicrobatches = 1 << 20;
/// Most model chunks per rank a schedule that takes `chunks` accepts; ranks x chunks is held to
/// kMaxStages as well.
inline constexpr int kMaxChunks = 16;
inline constexpr std::int64_t kMaxOps = 2'000'000;
inline constexpr double kMaxCost = 1e6;
/// Most parameters a model may have (the memory model's params, the planner's model.totalParams).
inline constexpr double kMaxModelParams = 1e16;
/// The engine counts time in integer ticks of 1e-6 units, so sums are exact and identical on every
/// platform; costs are rounded to that resolution and a positive cost must be at least 1e-6.
/// (kMaxOps x kMaxCost x kTicksPerUnit = 2e18 ticks stays below 2^63.)
inline constexpr double kTicksPerUnit = 1e6;
/// Most layers per chunk the communication model splits a chunk into (pipesim/comm.h). The
/// communication of one chunk (dispatch + combine) is at most kMaxCost, so an op lasts at most
/// 3 x kMaxCost and kMaxOps such ops plus p2p latency stay below 2^63 ticks.
inline constexpr int kMaxCommLayers = 64;

/// Checks every field of `config` against the general rules and the rules of its schedule.
/// Errors: unknown_schedule (/schedule), invalid_config (the offending field), too_large ("").
Status validate(const SimConfig& config);

/// Checks the cost model alone (shared by simulate, sweep and hand-written schedules).
Status validate_costs(const Costs& costs);

}  // namespace pipesim
