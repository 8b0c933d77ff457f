// The DualPipe planner: the lesson's planner specification (rohitg00/ai-engineering-from-scratch,
// phase 10 lesson 19, outputs/skill-dualpipe-planner.md) as code. Given a cluster, a model and a
// token budget it picks a schedule, pipeline depth P and micro-batch count M, simulates the
// bubble (never a closed form), estimates memory per GPU, and says which rule decided. Hard
// rejects and refusals are part of the plan, not errors: an error means the spec itself is bad.
// docs/schema.md "Planner" documents the JSON.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pipesim/error.h"
#include "pipesim/json.h"
#include "pipesim/memory.h"
#include "pipesim/plan_texts.h"

namespace pipesim {

// Thresholds stated by the lesson's planner spec (skill-dualpipe-planner.md).
inline constexpr int kPlanMaxDepth = 64;       ///< hard reject: "P > 64 on any training run"
inline constexpr double kPlanMinTokens = 1e9;  ///< refusal: "below 1B tokens"
inline constexpr double kPlanSlowInterconnectGbps = 200;  ///< refusal: "200Gbps or slower per GPU"
inline constexpr int kPlanSmallRunGpus = 100;             ///< "small runs under 100 GPUs -> 1F1B"
inline constexpr int kPlanLargeDenseGpus = 500;           ///< "dense under 500 GPUs -> Zero Bubble"
inline constexpr int kPlanSmallClusterDepth = 4;          ///< "P: 4 for small clusters"
/// "16-32 for frontier MoE training"; DeepSeek-V3 used 16 (report §3.2), the bottom of the range.
inline constexpr int kPlanFrontierMoeDepth = 16;
inline constexpr int kPlanMicrobatchesPerRank = 8;  ///< "M/P between 8 and 16": we take the low end
inline constexpr int kPlanMaxMicrobatchesPerRank = 16;
inline constexpr int kPlanRollbackSteps = 1000;  ///< "measured over the first 1000 steps"

// Our judgment calls: the spec names these ideas without numbers, and we know of no source.
inline constexpr double kPlanFrontierMoeParams = 100e9;  ///< a MoE this large counts as "frontier"
inline constexpr int kPlanDefaultDepth = 8;  ///< P for clusters neither small nor frontier MoE
inline constexpr double kPlanUsableMemoryFraction =
    0.8;  ///< the rest is left for activations and buffers

// The communication model for plans with expert parallelism: DeepSeek-V3 reports a
// computation-to-communication ratio of about 1:1 (report §3.2.1) with 400 Gbps InfiniBand per
// GPU (50 GB/s, §3.2.2). We assume the same bytes per unit of compute as DeepSeek-V3 and scale
// the ratio by 400 / interconnect Gbps (our assumption: all-to-all time ~ bytes / bandwidth).
inline constexpr double kPlanReferenceCommRatio = 1.0;
inline constexpr double kPlanReferenceInterconnectGbps = 400;

// Training state per GPU comes from the memory model (pipesim/memory.h) under the spec's
// recipe and ZeRO stage: by default mixed-precision Adam (ZeRO paper, §3.1: 2 + 2 + 12 bytes)
// with ZeRO-1, which DeepSeek-V3 uses (report §3.2).
inline constexpr int kPlanDefaultZeroStage = 1;

// GPU-hours estimate when the spec gives none: DeepSeek-V3 report §1 (Table 1) spent 180K H800
// GPU-hours per trillion tokens on a 37B-active model; we scale by active parameters x tokens
// (training FLOPs ~ 6 N D) and by the GPU's dense BF16 peak relative to the H800.
inline constexpr double kPlanCalibrationGpuHoursPerTrillion = 180e3;
inline constexpr double kPlanCalibrationActiveParams = 37e9;

/// The cluster a plan is for.
struct ClusterSpec {
  int gpus = 0;
  std::string gpu_model;
  double memory_per_gpu_gb = 0;  ///< GB = 1e9 bytes
  int nodes = 0;
  int gpus_per_node = 0;                 ///< nodes x gpus_per_node = gpus
  double interconnect_gbps_per_gpu = 0;  ///< cross-node bandwidth per GPU, Gbit/s
};

/// Dense transformer or mixture of experts.
enum class ModelType { Dense, Moe };

/// The model a plan is for; parameter counts are plain numbers (671e9).
struct ModelSpec {
  double total_params = 0;
  double active_params = 0;  ///< per token; = total_params for a dense model
  ModelType type = ModelType::Dense;
  int layers = 0;
  int experts = 0;          ///< routed experts per MoE layer (0 for dense)
  /// Routed-expert weights of a MoE (`pipesim params` counts them: 653.9e9 of DeepSeek-V3's
  /// 671.0e9); everything else is replicated by each copy. 0 = not given: the active parameters
  /// are then counted as replicated, which overstates memory.
  double routed_params = 0;
  int expert_parallel = 1;  ///< EP degree; > 1 means experts are spread over GPUs
};

/// Choices the user fixes instead of letting the planner pick; the hard rejects check them.
struct PlanRequest {
  std::string schedule;  ///< "" = choose
  int ranks = 0;         ///< 0 = choose
  int microbatches = 0;  ///< 0 = choose
  /// Model chunks per rank, for a requested schedule whose catalogue entry takes them
  /// (interleaved-1f1b); 0 = its default. chunks.unsupported at /requested/chunks otherwise.
  int chunks = 0;
};

/// Everything the planner reads (docs/schema.md "Planner", spec).
struct PlanSpec {
  std::string title;
  ClusterSpec cluster;
  ModelSpec model;
  double training_tokens = 0;
  bool custom_all_to_all_kernel = false;
  std::optional<double> gpu_hours;  ///< the training budget; estimated when absent
  PlanRequest requested;
  std::string recipe = kDefaultRecipe;  ///< precision recipe (training.recipe)
  int zero = kPlanDefaultZeroStage;     ///< ZeRO stage over the data-parallel group (training.zero)
};

/// A refusal: the plan declines `refused` and recommends `instead` ("" when it plans nothing).
struct PlanRefusal {
  std::string rule;
  std::string refused;
  std::string instead;
  PlanText message;
};

/// A hard reject: no pipeline plan; `recommend` says what to do.
struct PlanReject {
  std::string rule;
  PlanText message;
  PlanText recommend;
};

/// Per-GPU training state at the planned P, from the memory model.
struct PlanMemory {
  double params_per_gpu = 0;  ///< parameters held by one GPU, all copies
  int param_copies = 1;       ///< 2 for DualPipe
  double total_gb = 0;        ///< weights, gradients and optimizer shard
  double replication_gb = 0;  ///< the part due to copies beyond the first
  double usable_gb = 0;       ///< memory_per_gpu_gb x kPlanUsableMemoryFraction
  bool fits = false;          ///< total_gb <= usable_gb
  MemoryResult model;         ///< the memory model's result, with its assumptions
};

/// The plan re-simulated under the communication model (pipesim/comm.h), for plans with expert
/// parallelism only: DualPipe exists to hide the all-to-all, which the plain bubble cannot show.
struct PlanComm {
  double ratio = 0;  ///< all-to-all time per unit of compute (kPlanReferenceCommRatio scaled)
  int layers = 1;    ///< layers per chunk: model.layers / stages, rounded
  double compute_utilization = 0;       ///< the plan's schedule
  double compute_utilization_1f1b = 0;  ///< 1F1B at the same P and M
  double hidden_fraction = 0;           ///< share of the all-to-all the schedule hides
  double gpu_hours_saved_vs_1f1b = 0;   ///< utilisation difference x gpu_hours
};

/// A schedule that would beat the plan's at the same P and M without holding more parameter
/// copies (so the memory check above still holds): a lower simulated bubble, or with expert
/// parallelism a higher compute utilisation under the communication model.
struct PlanAlternative {
  std::string schedule;
  int chunks = 0;                 ///< chunks per rank it ran with (its default), 0 for a fixed layout
  double bubble_fraction = 0;     ///< at the plan's P and M, plain costs
  std::optional<double> compute_utilization;  ///< with the plan's comm model (EP plans only)
  double peak_activation_memory = 0;  ///< max over ranks, per-GPU units (SimResult)
};

/// One line of the plan's reasoning, tagged with what it decides.
struct PlanStep {
  std::string topic;  ///< e.g. "schedule", "depth", "microbatches"
  PlanText said;      ///< the phrase (pipesim/plan_texts.h)
  std::string text;   ///< said in English
};

/// The planner's answer (docs/schema.md "Planner", plan).
struct Plan {
  PlanSpec spec;
  std::optional<std::string> schedule;         ///< empty when refused entirely or rejected
  int ranks = 0;                               ///< P: GPUs in one pipeline
  int stages = 0;                              ///< pipeline stages per direction (2P for DualPipeV)
  int microbatches = 0;                        ///< M
  int chunks = 0;                              ///< chunks per rank (interleaved-1f1b), else 0
  std::optional<double> bubble_fraction;       ///< simulated, at P and M
  /// The schedule's peak in-flight activations per GPU (SimResult::max_peak_activation_memory:
  /// one micro-batch through 1/P of the model is 1), and 1F1B's at the same P and M.
  std::optional<double> peak_activation_memory;
  std::optional<double> peak_activation_memory_1f1b;
  std::optional<double> bubble_fraction_1f1b;  ///< 1F1B simulated at the same P and M
  std::optional<double> gpu_hours;             ///< the training budget
  std::string gpu_hours_source;                ///< "given" or "estimated"
  std::optional<double> gpu_hours_saved_vs_1f1b;  ///< (bubble_1f1b - bubble) x gpu_hours
  std::optional<PlanMemory> memory;
  std::optional<PlanComm> comm;  ///< with expert parallelism only
  std::string rule;              ///< id of the rule that decided
  std::optional<PlanRefusal> refusal;
  std::optional<PlanReject> reject;
  PlanText all_to_all;                       ///< the kernel recommendation
  std::string rollback_fallback;             ///< schedule to fall back to ("" = none simpler)
  std::optional<double> rollback_threshold;  ///< aggregate utilisation below which to fall back
  PlanText rollback;                         ///< the rollback-trigger paragraph
  std::vector<PlanAlternative> alternatives;  ///< better schedules at the same P and M, best first
  std::vector<PlanStep> reasoning;
};

/// Reads a spec (docs/schema.md "Planner"). Errors: invalid_config naming the field, with its
/// JSON pointer; unknown_schedule for a bad requested.schedule.
Result<PlanSpec> plan_spec_from_json(const Json& json);

/// Applies the rules. Errors only for requests the simulator cannot run (invalid_config on
/// /requested/..., too_large) or a cluster no depth <= 64 divides (invalid_config).
Result<Plan> make_plan(const PlanSpec& spec);

/// {"title","schedule","ranks","stages","microbatches","bubbleFraction",...} (docs/schema.md).
Json plan_to_json(const Plan& plan);

/// The one-page plan as Markdown.
std::string plan_to_markdown(const Plan& plan);

/// Dense BF16 peak of `gpu_model` relative to the H800 (1 for H800/H100/H200, ~0.32 for
/// A100/A800); empty when the model is not in our table.
std::optional<double> relative_gpu_speed(const std::string& gpu_model);

}  // namespace pipesim
