// The layer split: turns a model (transformer layers, plus the embedding on the first stage and
// the output head and multi-token-prediction module on the last) and a number of pipeline stages
// into per-stage costs (Costs::stages), so a simulation runs a real pipeline's unequal stages.
//
// Each part costs "layers": one is one transformer layer's compute. A stage's weight is its
// layers plus the modules it holds, and its costs are the given costs scaled by its weight over
// the mean weight, so the stages average exactly the given costs and a run with them does the
// same total work as one without (only their spread differs).
//
// The DeepSeek-V3 preset (the report's 61 layers, first 3 dense; §4.2, DeepSeek-V3
// inference/configs/config_671B.json): part costs from the configuration's matrix sizes, as the
// matmul work per token (2 FLOPs per weight a token passes through, forward and backward alike;
// attention's score and value products, which grow with the sequence, left out):
//   - a layer: MLA attention plus 9 experts' FFNs (1 shared + 8 routed of 3 x 7168 x 2048); a
//     dense layer's FFN (3 x 7168 x 18432) is the same size, so every layer counts as one; the
//     router (0.3%) is left out;
//   - the output head: vocab x hidden = 129280 x 7168, 1.59 layers;
//   - the MTP module (report §2.2): one MoE layer, its 2 hidden x hidden projection and the
//     shared output head once more, 2.76 layers;
//   - the embedding: a table lookup, no matmul: 0.
// DeepSeek does not publish how its 61 layers sit on its 16 stages. NVIDIA's Megatron-Core
// best practice for DeepSeek-V3 (NVIDIA Megatron-MoE-ModelZoo, best-practice/DeepSeekV3:
// --pipeline-model-parallel-layout "Et|(tt|)*30mL") cuts it into 32 pieces: embedding + 1 layer,
// 30 pieces of 2 layers, and MTP + head (loss). For a number of stages dividing 32 we join
// neighbouring pieces, which at 16 stages gives embedding + 3 layers, 14 stages of 4, and
// 2 layers + MTP + head: our assumption, said in every result. Other stage counts, and custom
// models, get the balanced split (below) unless the request lists layers per stage.
#pragma once

#include <string>
#include <vector>

#include "pipesim/config.h"
#include "pipesim/error.h"
#include "pipesim/json.h"

namespace pipesim {

/// A model as the split sees it; module costs in layers (one transformer layer = 1).
struct LayerModel {
  std::string name = "custom";  ///< "deepseek-v3" or "custom"
  std::string label;            ///< display name
  std::string source;           ///< where the layer count and module costs come from
  int layers = 1;               ///< transformer layers, in [1, kMaxLayerSplitLayers]
  double embedding = 0;         ///< on the first stage, in [0, kMaxModuleLayers]
  double head = 0;              ///< output head, on the last stage
  double mtp = 0;               ///< multi-token-prediction module(s), on the last stage
};

/// Bounds on a layer split request.
inline constexpr int kMaxLayerSplitLayers = 100000;
inline constexpr double kMaxModuleLayers = 1000;

/// The presets: "deepseek-v3". Errors: invalid_config (/model) naming the choices.
Result<LayerModel> layer_model_preset(const std::string& name);

struct LayerSplitRequest {
  LayerModel model;
  int stages = 16;  ///< pipeline stages (along direction 0), in [1, kMaxStages]
  /// Layers on each stage, in order; empty: the preset's published layout where there is one for
  /// this many stages, else the balanced split.
  std::vector<int> layers_per_stage;
  /// What the stages average: each stage's F, B, W and F&B are these times its weight over the
  /// mean weight (p2pLatency and comm are not split).
  Costs costs;
};

/// One stage of a split.
struct SplitStage {
  int first_layer = 0;  ///< index of its first layer (0-based)
  int layers = 0;
  bool embedding = false, head = false, mtp = false;
  double weight = 0;  ///< layers + the modules it holds, in layers
  StageCost cost;
};

struct LayerSplit {
  LayerSplitRequest request;
  /// "given" (the request's layers per stage), "published" (the preset's layout joined, see the
  /// file comment) or "balanced".
  std::string rule;
  std::string rule_text;  ///< that rule in words, with its source
  std::vector<SplitStage> stages;
  double mean_weight = 0, max_weight = 0;
  /// max / mean weight: how much longer the slowest stage runs than an equal split's stages.
  double imbalance = 0;
};

/// The balanced split: layers spread so the heaviest stage is as light as whole layers allow
/// (water-filling: every stage filled to one level of weight, the modules counting; the layers
/// left over by rounding go to the stages filled least, earliest first).
std::vector<int> balanced_layers(const LayerModel& model, int stages);

/// Checks, splits and costs. Errors: invalid_config with paths /stages, /layersPerStage,
/// /custom/... (layer_split.* rules), and those of validate_costs at /costs.
Result<LayerSplit> layer_split(const LayerSplitRequest& request);

/// {"model": "deepseek-v3"|"custom", "custom"?: {"layers", "embedding"?, "head"?, "mtp"?},
///  "stages", "layersPerStage"?: [..], "costs"?: {..}}
Result<LayerSplitRequest> layer_split_request_from_json(const Json& json);
/// layer_split_request_from_json then layer_split (the CLI's and the JS API's call).
Result<LayerSplit> layer_split_request(const Json& json);
/// {"model":{name,label,source,layers,embedding,head,mtp},"stages","rule","ruleText","costs",
///  "meanWeight","maxWeight","imbalance","split":[{"stage","firstLayer","layers","embedding",
///  "head","mtp","weight"}],"stageCosts":[{forward,backward,weight,overlapped}]}
Json layer_split_to_json(const LayerSplit& split);

}  // namespace pipesim
