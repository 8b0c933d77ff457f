// The memory model: what one GPU holds while training, in bytes, and every assumption the number
// rests on. One model for every caller: `pipesim memory`, `pipesim params` (each schedule's
// footprint), the planner's memory check, exercise 4, the page's calculators and the timeline's
// memory lane (SimConfig::memory_model) all read it.
//
// Per GPU, for a model of N parameters (R of them in routed experts) laid out as TP x PP x DP with
// EP expert parallelism:
// - parameters: a stage holds 1/stages of the model (spread evenly), a rank holds stages_per_rank
//   stages (the schedule's StageLayout, so DualPipe and Chimera hold two copies), every matrix is
//   split over TP, and the routed experts further over EP;
// - model states: each kind (weights, gradients, master weights, optimizer state) costs its
//   recipe's bytes per parameter (PrecisionRecipe, data with sources), divided by the
//   data-parallel group where the ZeRO stage shards it (Rajbhandari et al., "ZeRO: Memory
//   Optimizations Toward Training Trillion Parameter Models", SC'20, §5): the non-expert
//   parameters over DP, the routed experts over their own expert-data-parallel group, DP / EP;
// - activations: Korthikanti et al., "Reducing Activation Recomputation in Large Transformer
//   Models" (arXiv 2205.05198, §4, Table 2), bytes per layer for one micro-batch, times the layers
//   of 1/P of the model, times the schedule's simulated peak of in-flight micro-batches
//   (SimResult::max_peak_activation_memory, in that unit).
// docs/schema.md "Memory" documents the JSON.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pipesim/config.h"
#include "pipesim/error.h"
#include "pipesim/json.h"
#include "pipesim/model.h"
#include "pipesim/plan_texts.h"

namespace pipesim {

/// Bytes per parameter of each kind of training state under one precision recipe. Recipes are
/// data (precision_recipes()), each with the source that states it.
struct PrecisionRecipe {
  std::string id;       ///< "mixed-adam", "deepseek-v3"
  std::string label;    ///< display name
  std::string source;   ///< where the bytes come from
  std::string reading;  ///< what we read into the source where it is silent ("" when nothing)
  double weight_bytes = 0;     ///< the weights forward and backward compute with
  double gradient_bytes = 0;   ///< the weight gradients
  double master_bytes = 0;     ///< the optimizer's master copy of the weights (0: none)
  double optimizer_bytes = 0;  ///< optimizer state besides the master copy (Adam's m and v)
  std::string weight_format, gradient_format, master_format, optimizer_format;  ///< e.g. "bf16"
  /// The rows of PIPESIM_MEMORY_TEXTS `label` and `source` are the English of, so a client says
  /// them in its own language; none when the text is a name ("DeepSeek-V3").
  std::optional<PlanTextId> label_text, source_text;
  /// ZeRO's K: the bytes ZeRO-1 shards (master weights and optimizer state).
  double k() const { return master_bytes + optimizer_bytes; }
  /// All bytes per parameter.
  double total() const { return weight_bytes + gradient_bytes + k(); }
};

/// The recipe table, default first (the catalogue lists it in this order).
const std::vector<PrecisionRecipe>& precision_recipes();
/// The default recipe's id: mixed-precision Adam as the ZeRO paper counts it (2 + 2 + 12).
inline constexpr const char* kDefaultRecipe = "mixed-adam";
/// The recipe `id`. Errors: invalid_config at `path` naming the choices (field.one_of).
Result<PrecisionRecipe> find_recipe(const std::string& id, const std::string& path = "/recipe");

/// Highest ZeRO stage: 1 shards optimizer state (master weights included), 2 also gradients,
/// 3 also weights (Rajbhandari et al. §5).
inline constexpr int kMaxZeroStage = 3;

/// Activation recomputation (Korthikanti et al. §4.3, §5): none; selective (the attention's
/// s x s parts are recomputed); full (only each layer's input is kept).
enum class Recompute { None, Selective, Full };
/// "none", "selective" or "full".
const char* recompute_name(Recompute recompute);

/// The model whose memory is counted: its parameters and, for activations, its shape.
struct MemoryModel {
  std::string name = "params";  ///< a preset ("llama3-70b"), "custom", or "params" (a bare count)
  std::string label;            ///< display name
  std::string source;           ///< where its figures come from
  double params = 0;            ///< every parameter of the model
  double routed_params = 0;     ///< those in routed experts (split over EP)
  int routed_experts = 0;       ///< routed experts per MoE layer (EP must divide them); 0: unknown
  int layers = 0, hidden = 0, heads = 0;  ///< shape for activations; 0 = not given
  /// The rows of PIPESIM_MEMORY_TEXTS `label` and `source` are the English of; none for a name.
  std::optional<PlanTextId> label_text, source_text;
};

/// The memory model's view of a configured model (its parameters counted by count_params).
MemoryModel memory_model_of(const ModelConfig& model);

/// How the GPUs are split. tp x pp x dp GPUs; EP is carved out of the data-parallel group, so the
/// routed experts have dp / ep expert-data-parallel replicas (DeepSeek-V3: DP 128, EP 64 -> 2).
struct ParallelLayout {
  int tp = 1;  ///< tensor parallelism: every matrix and the activations split over TP GPUs
  int pp = 1;  ///< pipeline ranks P
  int ep = 1;  ///< expert parallelism: routed experts split over EP GPUs of the DP group
  int dp = 1;  ///< data parallelism of the non-expert parameters
  bool sequence_parallel = false;  ///< Megatron's sequence parallelism beside TP (Korthikanti §4.2.2)
  /// tp x pp x dp.
  std::int64_t gpus() const { return std::int64_t{tp} * pp * dp; }
  /// The routed experts' data-parallel degree, dp / ep.
  int expert_dp() const { return dp / ep; }
};

/// Limits on a memory request's fields (too large fails fast; the catalogue lists them).
inline constexpr int kMaxTensorParallel = 1024;
inline constexpr int kMaxDataParallel = 1 << 20;
inline constexpr int kMaxExpertParallel = 4096;
inline constexpr int kMaxSeqLength = 1 << 22;
inline constexpr int kMaxMicroBatchSize = 1 << 16;
inline constexpr double kMaxGpuMemoryGb = 1e6;

/// What activations are counted for; without it a result counts model states only.
struct ActivationSpec {
  /// s, tokens per sequence; a request must give it. The default is what the page starts from:
  /// DeepSeek-V3's pre-training sequence length, 4K (report §4.2).
  int seq_length = 4096;
  int micro_batch_size = 1;      ///< b, sequences per micro-batch
  Recompute recompute = Recompute::Selective;
};

/// A memory request (docs/schema.md "Memory"). In a SimConfig (memory_model) the schedule,
/// layout.pp, microbatches and chunks come from the config instead.
struct MemoryRequest {
  MemoryModel model;
  std::string recipe = kDefaultRecipe;
  int zero = 0;  ///< ZeRO stage, 0..kMaxZeroStage
  ParallelLayout layout;
  /// How DP was chosen, for the comparison's "layout policy": from layout.gpus (every side on
  /// the same GPUs, DP = gpus / (tp x pp)), or given.
  bool dp_from_gpus = false;
  std::string schedule = "1f1b";  ///< the schedule whose StageLayout sets the parameter copies
  int microbatches = 0;           ///< M for the activation peak; 0 = default_microbatches()
  int chunks = 0;                 ///< chunks per rank, for schedules that take them
  std::optional<ActivationSpec> activations;
  double gpu_memory_gb = 80;  ///< for the share of GPU memory, 1 GB = 1e9 bytes
};

/// The smallest legal M of at least 2 x P for `request.schedule` (enough for 1F1B's steady state).
int default_microbatches(const MemoryRequest& request);

/// Errors: invalid_config naming the field (/recipe, /zero, /layout/..., /activations/...,
/// /schedule...), unknown_schedule.
Status validate_memory(const MemoryRequest& request);

/// Bytes of each kind of training state.
struct StateBytes {
  double weights = 0, gradients = 0, master_weights = 0, optimizer_states = 0;
  /// The four summed.
  double total() const { return weights + gradients + master_weights + optimizer_states; }
};

/// Parameters one GPU holds, split the way sharding treats them.
struct ParamsHeld {
  double non_routed = 0;  ///< replicated by every data-parallel replica (sharded over DP)
  double routed = 0;      ///< routed experts (sharded over the expert-DP group)
  /// Both summed.
  double total() const { return non_routed + routed; }
};

/// Activations of one GPU at the schedule's peak (Korthikanti et al. Table 2).
struct ActivationMemory {
  std::string formula;         ///< Table 2's row, e.g. "sbh(10 + 24/t)"
  double bytes_per_layer = 0;  ///< one micro-batch through one layer on one GPU
  double layers_per_unit = 0;  ///< layers / P: a unit is one micro-batch through 1/P of the model
  double bytes_per_unit = 0;   ///< bytes_per_layer x layers_per_unit
  int microbatches = 0;        ///< M of the simulated schedule
  double peak_units = 0;       ///< the schedule's simulated peak, in units
  double peak_bytes = 0;       ///< peak_units x bytes_per_unit
};

/// One assumption a result rests on: its topic, what was assumed, and the source.
struct MemoryAssumption {
  std::string topic;  ///< "model", "recipe", "sharding", "layout", "copies", "activations"
  std::string text;
  std::string source;  ///< in English: source_text's, or a name (a citation, a config file)
  std::optional<PlanText> source_text;  ///< the source as a phrase (id + params); none for a name
};

/// What one GPU holds (docs/schema.md "Memory").
struct MemoryResult {
  MemoryRequest request;  ///< as resolved (dp, microbatches filled in)
  PrecisionRecipe recipe;
  int stages = 0, stages_per_rank = 1, param_copies = 1;  ///< the schedule's StageLayout
  ParamsHeld per_copy;        ///< one copy's parameters on this GPU
  StateBytes per_copy_bytes;  ///< their model states
  StateBytes per_copy_routed_bytes;  ///< the routed experts' part of per_copy_bytes
  ParamsHeld held;            ///< all copies' parameters (per_copy x param_copies)
  StateBytes states;          ///< all copies' model states
  double extra_copy_bytes = 0;  ///< the model states of the copies beyond the first
  std::optional<ActivationMemory> activations;
  double total_bytes = 0;          ///< states + peak activations
  double share_of_gpu_memory = 0;  ///< total_bytes / (gpu_memory_gb x 1e9)
  std::vector<MemoryAssumption> assumptions;
};

/// The model for a validated request whose schedule's peak in-flight activations (in units of
/// one micro-batch through 1/P of the model) are `peak_units` when activations are asked. The one
/// calculation every caller reaches, simulate's results included.
MemoryResult memory_of(const MemoryRequest& request, double peak_units);

/// validate_memory, then simulates the schedule at P ranks and M micro-batches (default costs)
/// when activations are asked, then memory_of.
Result<MemoryResult> memory(const MemoryRequest& request);

/// Reads a request (docs/schema.md "Memory"); `in_config` reads a SimConfig's memoryModel, which
/// takes no layout.pp, schedule, microbatches or chunks. Runs validate_memory unless in_config
/// (the config's validate() runs it once the schedule is known).
Result<MemoryRequest> memory_request_from_json(const Json& json, bool in_config = false);
/// A SimConfig's memory_model with the config's schedule, ranks (as layout.pp), micro-batches
/// and chunks: what the timeline's memory lane counts.
MemoryRequest memory_request_for(const SimConfig& config);
/// {"schedule","stages",...,"assumptions":{...}} (docs/schema.md "Memory").
Json memory_result_to_json(const MemoryResult& result);

/// Two or more sides (models, layouts or schedules) counted the same way unless the request sets
/// them apart: `same_*` say which of the accounting's three parts agree on every side.
struct MemoryComparison {
  std::vector<MemoryResult> sides;
  bool same_recipe = true, same_sharding = true, same_layout_policy = true;
  std::string accounting;  ///< in words: what both sides assume, or what differs
};

/// Most sides a comparison may have.
inline constexpr int kMaxMemorySides = 8;

/// {"sides":[{...}, ...], ...shared fields}: every side is the shared fields with its own laid
/// over them (a side's layout object merges key by key). Errors at /sides/<i>/... for a side's
/// own fields, at the shared field's path otherwise.
Result<MemoryComparison> memory_comparison(const Json& json);
/// {"sides":[result, ...],"accounting":{"sameRecipe","sameSharding","sameLayoutPolicy","text"}}.
Json memory_comparison_to_json(const MemoryComparison& comparison);

/// A single request or, with "sides", a comparison: its JSON result. The CLI's and the page's call.
Result<Json> memory_json(const Json& request);

}  // namespace pipesim
