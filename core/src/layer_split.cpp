// The layer split of pipesim/layer_split.h: the DeepSeek-V3 preset's part costs (worked out from
// the configuration pipesim params counts, so the two never disagree), the published and
// balanced splits, and the request's JSON.
#include "pipesim/layer_split.h"

#include <cmath>
#include <functional>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "fields.h"
#include "pipesim/exercises.h"
#include "pipesim/rules.h"

namespace pipesim {
namespace {

// NVIDIA's published DeepSeek-V3 layout, "Et|(tt|)*30mL": 32 pieces (see the header).
constexpr int kPublishedPieces = 32;
constexpr const char* kPublishedSource =
    "NVIDIA Megatron-MoE-ModelZoo best-practice/DeepSeekV3, --pipeline-model-parallel-layout "
    "\"Et|(tt|)*30mL\"";

// Weights a token passes through, by part of a configuration counted by count_params.
double part_params(const ParamCount& count, const char* part) {
  for (const ParamPart& p : count.breakdown)
    if (p.part == part) return static_cast<double>(p.params);
  return 0;
}

LayerModel deepseek_v3_layers() {
  const ModelConfig m = model_preset("deepseek-v3").value();
  const ParamCount count = count_params(m);
  const double moe_layers = m.layers - m.dense_layers;
  const double attention = part_params(count, "attention") / m.layers;
  const double experts_ffn = part_params(count, "sharedExperts") / moe_layers +
                             part_params(count, "routedExperts") / moe_layers *
                                 m.activated_experts / m.routed_experts;
  const double layer = attention + experts_ffn;  // = attention + a dense FFN (same size)
  const double head = part_params(count, "outputHead");
  const double mtp_projection = 2.0 * m.hidden * m.hidden;
  LayerModel model;
  model.name = m.name;
  model.label = m.label;
  model.source = m.source + "; DeepSeek-V3 report §2.2 (MTP), §4.2 (61 layers); module costs are "
                 "their matmul weights per token against a layer's (attention + 9 experts' FFNs)";
  model.layers = m.layers;
  model.embedding = 0;  // a lookup: no matmul
  model.head = head / layer;
  model.mtp = (layer + mtp_projection + head) / layer;
  return model;
}

double fixed_weight(const LayerModel& m, int stage, int stages) {
  return (stage == 0 ? m.embedding : 0) + (stage == stages - 1 ? m.head + m.mtp : 0);
}

// The preset's published pieces joined into `stages` groups (stages divides kPublishedPieces).
std::vector<int> published_layers(int stages) {
  const int group = kPublishedPieces / stages;
  std::vector<int> layers(static_cast<std::size_t>(stages), 0);
  for (int piece = 0; piece < kPublishedPieces; ++piece) {
    const int in_piece = piece == 0 ? 1 : piece == kPublishedPieces - 1 ? 0 : 2;
    layers[static_cast<std::size_t>(piece / group)] += in_piece;
  }
  return layers;
}

std::string join(const std::vector<int>& v) {
  std::string out;
  for (int x : v) out += (out.empty() ? "" : ", ") + std::to_string(x);
  return out;
}

double round_to_tick(double v) { return std::round(v * kTicksPerUnit) / kTicksPerUnit; }

}  // namespace

Result<LayerModel> layer_model_preset(const std::string& name) {
  if (name == "deepseek-v3") return deepseek_v3_layers();
  return make_error(Rule::FieldOneOf, "/model",
                    {{"field", "model"}, {"allowed", "deepseek-v3, custom"}, {"got", summary(name)}});
}

std::vector<int> balanced_layers(const LayerModel& model, int stages) {
  std::vector<int> layers(static_cast<std::size_t>(stages), 0);
  // Each layer in turn to the lightest stage (earliest on a tie): the heaviest stage ends as
  // light as whole layers allow.
  using Entry = std::pair<double, int>;  // (weight, stage)
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> lightest;
  for (int s = 0; s < stages; ++s) lightest.push({fixed_weight(model, s, stages), s});
  for (int l = 0; l < model.layers; ++l) {
    const auto [weight, s] = lightest.top();
    lightest.pop();
    ++layers[static_cast<std::size_t>(s)];
    lightest.push({weight + 1, s});
  }
  return layers;
}

Result<LayerSplit> layer_split(const LayerSplitRequest& req) {
  const LayerModel& m = req.model;
  if (Status st = detail::int_in_range(m.layers, 1, kMaxLayerSplitLayers, "custom.layers", "/custom/layers");
      !st.ok())
    return st.error();
  for (const auto& [field, v] : {std::pair<const char*, double>{"embedding", m.embedding},
                                 {"head", m.head}, {"mtp", m.mtp}})
    if (!std::isfinite(v) || v < 0 || v > kMaxModuleLayers)
      return make_error(Rule::RangeNumber, std::string("/custom/") + field,
                        {{"field", std::string("custom.") + field}, {"min", 0},
                         {"max", kMaxModuleLayers}, {"got", v}});
  if (Status st = detail::int_in_range(req.stages, 1, kMaxStages, "stages", "/stages"); !st.ok())
    return st.error();
  if (Status st = validate_costs(req.costs); !st.ok()) return st.error();
  LayerSplit out;
  out.request = req;
  std::vector<int> layers = req.layers_per_stage;
  if (!layers.empty()) {
    if (layers.size() != static_cast<std::size_t>(req.stages))
      return make_error(Rule::LayerSplitCount, "/layersPerStage",
                        {{"stages", req.stages}, {"got", layers.size()}});
    long long sum = 0;
    for (std::size_t i = 0; i < layers.size(); ++i) {
      if (layers[i] < 0 || layers[i] > kMaxLayerSplitLayers)
        return make_error(Rule::RangeIntegers, "/layersPerStage/" + std::to_string(i),
                          {{"field", "layersPerStage"}, {"min", 0}, {"max", kMaxLayerSplitLayers},
                           {"got", layers[i]}});
      sum += layers[i];
    }
    if (sum != m.layers)
      return make_error(Rule::LayerSplitSum, "/layersPerStage", {{"layers", m.layers}, {"got", sum}});
    out.rule = "given";
    out.rule_text = "the request's layers per stage";
  } else if (m.name == "deepseek-v3" && kPublishedPieces % req.stages == 0) {
    layers = published_layers(req.stages);
    out.rule = "published";
    out.rule_text = std::string("DeepSeek does not publish its split; NVIDIA's Megatron-Core layout (") +
                    kPublishedSource + ": embedding + 1 layer, 30 pieces of 2, MTP + head) joined " +
                    std::to_string(kPublishedPieces / req.stages) + " pieces a stage: " + join(layers);
  } else {
    layers = balanced_layers(m, req.stages);
    out.rule = "balanced";
    out.rule_text = "each layer to the lightest stage, the embedding on the first and the head "
                    "and MTP on the last: " + join(layers);
  }
  double total = 0;
  int first = 0;
  for (int s = 0; s < req.stages; ++s) {
    SplitStage st;
    st.first_layer = first;
    st.layers = layers[static_cast<std::size_t>(s)];
    first += st.layers;
    st.embedding = s == 0 && m.embedding > 0;
    st.head = s == req.stages - 1 && m.head > 0;
    st.mtp = s == req.stages - 1 && m.mtp > 0;
    st.weight = st.layers + fixed_weight(m, s, req.stages);
    if (!(st.weight > 0))
      return make_error(Rule::LayerSplitEmptyStage, req.layers_per_stage.empty() ? "/stages" : "/layersPerStage",
                        {{"stage", s}, {"layers", m.layers}, {"stages", req.stages}});
    total += st.weight;
    out.max_weight = std::max(out.max_weight, st.weight);
    out.stages.push_back(st);
  }
  out.mean_weight = total / req.stages;
  out.imbalance = out.max_weight / out.mean_weight;
  const Costs& c = req.costs;
  for (SplitStage& st : out.stages) {
    const double scale = st.weight / out.mean_weight;
    st.cost = StageCost{round_to_tick(c.forward * scale), round_to_tick(c.backward * scale),
                        round_to_tick(c.weight * scale), round_to_tick(c.overlapped * scale)};
  }
  return out;
}

Result<LayerSplitRequest> layer_split_request_from_json(const Json& json) {
  auto fields = detail::FieldReader::open(json, "", "layer split request",
                                          {"model", "custom", "stages", "layersPerStage", "costs"});
  if (!fields.ok()) return fields.error();
  const detail::FieldReader& f = fields.value();
  if (Status st = f.require({"model", "stages"}); !st.ok()) return st.error();
  LayerSplitRequest req;
  std::string name;
  if (Status st = f.read("model", name); !st.ok()) return st.error();
  if (name == "custom") {
    if (!f.has("custom")) return make_error(Rule::FieldMissing, "/custom", {{"field", "custom"}});
    auto c = detail::FieldReader::open(f.at("custom"), "/custom", "", {"layers", "embedding", "head", "mtp"});
    if (!c.ok()) return c.error();
    if (Status st = c.value().require({"layers"}); !st.ok()) return st.error();
    req.model.label = "custom";
    req.model.source = "the request";
    for (Status st : {c.value().read("layers", req.model.layers), c.value().read("embedding", req.model.embedding),
                      c.value().read("head", req.model.head), c.value().read("mtp", req.model.mtp)})
      if (!st.ok()) return st.error();
  } else {
    if (f.has("custom"))
      return make_error(Rule::ParamsCustomOnly, "/custom", {{"got", summary(name)}});
    auto preset = layer_model_preset(name);
    if (!preset.ok()) return preset.error();
    req.model = preset.value();
  }
  if (Status st = f.read("stages", req.stages); !st.ok()) return st.error();
  if (f.has("layersPerStage")) {
    const Json& list = f.at("layersPerStage");
    if (!list.is_array()) return make_error(Rule::FieldArray, "/layersPerStage", {{"field", "layersPerStage"}});
    if (list.size() > static_cast<std::size_t>(kMaxStages))
      return make_error(Rule::LayerSplitCount, "/layersPerStage", {{"stages", req.stages}, {"got", list.size()}});
    for (std::size_t i = 0; i < list.size(); ++i) {
      auto v = int_from_json(list[i], "/layersPerStage/" + std::to_string(i), "layersPerStage entries");
      if (!v.ok()) return v.error();
      req.layers_per_stage.push_back(v.value());
    }
  }
  if (f.has("costs")) {
    auto costs = costs_from_json(f.at("costs"), f.path("costs"));
    if (!costs.ok()) return costs.error();
    req.costs = costs.value();
  }
  return req;
}

Result<LayerSplit> layer_split_request(const Json& json) {
  auto req = layer_split_request_from_json(json);
  if (!req.ok()) return req.error();
  return layer_split(req.value());
}

Json layer_split_to_json(const LayerSplit& s) {
  const LayerModel& m = s.request.model;
  Json split = Json::array();
  std::vector<StageCost> costs;
  for (std::size_t i = 0; i < s.stages.size(); ++i) {
    const SplitStage& st = s.stages[i];
    split.push_back(Json{{"stage", i},           {"firstLayer", st.first_layer}, {"layers", st.layers},
                         {"embedding", st.embedding}, {"head", st.head},          {"mtp", st.mtp},
                         {"weight", st.weight}});
    costs.push_back(st.cost);
  }
  return Json{{"model", Json{{"name", m.name}, {"label", m.label}, {"source", m.source},
                             {"layers", m.layers}, {"embedding", m.embedding}, {"head", m.head},
                             {"mtp", m.mtp}}},
              {"stages", s.request.stages},
              {"rule", s.rule},
              {"ruleText", s.rule_text},
              {"costs", costs_to_json(s.request.costs)},
              {"meanWeight", s.mean_weight},
              {"maxWeight", s.max_weight},
              {"imbalance", s.imbalance},
              {"split", std::move(split)},
              {"stageCosts", stage_costs_to_json(costs)}};
}

}  // namespace pipesim
