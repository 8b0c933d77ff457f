// A transformer's configuration and its parameter count: every weight matrix, bias and norm
// vector, by family, with the formula in the configuration's terms. The presets are the two
// models the lesson compares (Llama-3-70B, DeepSeek-V3). The memory model (pipesim/memory.h)
// and `pipesim params` count parameters here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pipesim/error.h"
#include "pipesim/plan_texts.h"

namespace pipesim {

/// Which attention a model uses: grouped-query (Llama) or DeepSeek's multi-head latent attention.
enum class AttentionKind { GroupedQuery, MultiHeadLatent };

/// A decoder-only transformer as its configuration file describes it. Dense models have
/// routed_experts = 0 and dense_layers = layers; MoE models use dense FFNs in the first
/// dense_layers layers and shared + routed experts after them.
struct ModelConfig {
  std::string name = "custom";  ///< "llama3-70b", "deepseek-v3" or "custom"
  std::string label;            ///< display name
  std::string source;           ///< where the figures come from
  /// The rows of PIPESIM_MEMORY_TEXTS `label` and `source` are the English of, so a client says
  /// them in its own language; none for a name ("DeepSeek-V3", a config file's path).
  std::optional<PlanTextId> label_text, source_text;
  int layers = 0, hidden = 0, vocab = 0;
  int intermediate = 0;          ///< dense FFN width (SwiGLU: three hidden x intermediate matrices)
  bool tied_embeddings = false;  ///< output head shares the embedding matrix
  AttentionKind attention = AttentionKind::GroupedQuery;
  int heads = 0, kv_heads = 0,
      head_dim = 0;                       ///< grouped-query attention (head_dim 0: hidden/heads)
  int q_lora_rank = 0, kv_lora_rank = 0;  ///< multi-head latent attention (DeepSeek-V2/V3)
  int qk_nope_head_dim = 0, qk_rope_head_dim = 0, v_head_dim = 0;
  int dense_layers = 0;  ///< leading layers with a dense FFN
  int routed_experts = 0, shared_experts = 0, expert_intermediate = 0;
  int activated_experts = 0;  ///< routed experts each token runs through (MoE; for compute, not counts)
  bool router_bias =
      false;            ///< a per-expert bias in the gate (DeepSeek-V3's aux-loss-free balancing)
  int mtp_modules = 0;  ///< multi-token-prediction modules: counted separately, excluded
};

/// The presets, in the order the catalogue and messages list them.
const std::vector<ModelConfig>& model_presets();
/// The presets' names as messages list them: "llama3-70b, deepseek-v3".
std::string model_preset_names();
/// The presets: "llama3-70b" and "deepseek-v3". Errors: invalid_config (/model) naming the choices.
Result<ModelConfig> model_preset(const std::string& name);
/// Checks a custom model's fields; paths are /custom/<camelCase field>.
Status validate_model(const ModelConfig& model);

/// One family of weights of a model, e.g. every layer's attention matrices.
struct ParamPart {
  std::string part;  ///< e.g. "embedding", "attention", "routedExperts"
  std::int64_t params = 0;
  std::string formula;  ///< how it was counted, in the configuration's terms
};

/// A model's parameters: the families that sum to the total, and those counted apart.
struct ParamCount {
  std::int64_t total = 0;   ///< sum of breakdown
  std::int64_t routed = 0;  ///< routed-expert weights (sharded by expert parallelism)
  std::vector<ParamPart> breakdown;
  std::vector<ParamPart> excluded;  ///< counted for reference only (the MTP module)
};

/// Counts every weight matrix, bias and norm vector of a validated model.
ParamCount count_params(const ModelConfig& model);

}  // namespace pipesim
