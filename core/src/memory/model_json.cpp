// Reading a model from a request and writing it back (model_json.h).
#include "model_json.h"

#include <string>

#include "pipesim/rules.h"

namespace pipesim::detail {

Result<ModelConfig> read_model(const FieldReader& f) {
  std::string name = "custom";
  if (Status st = f.read("model", name); !st.ok()) return st.error();
  if (name != "custom") {
    if (f.has("custom")) return make_error(Rule::ParamsCustomOnly, "/custom", {{"got", summary(name)}});
    return model_preset(name);
  }
  if (!f.has("custom")) return make_error(Rule::ParamsCustomMissing, "/custom");
  auto custom = FieldReader::open(f.at("custom"), "/custom", "custom",
                                  {"layers", "hidden", "intermediate", "vocab", "heads", "kvHeads",
                                   "headDim", "tiedEmbeddings", "denseLayers", "routedExperts",
                                   "sharedExperts", "expertIntermediate"});
  if (!custom.ok()) return custom.error();
  const FieldReader& c = custom.value();
  if (Status st = c.require({"layers", "hidden", "vocab", "heads"}); !st.ok()) return st.error();
  ModelConfig m;
  m.label_text = PlanTextId::MemoryModelCustom;
  m.source_text = PlanTextId::MemorySourceUserInput;
  m.label = plan_text(*m.label_text).english();
  m.source = plan_text(*m.source_text).english();
  for (Status st :
       {c.read("layers", m.layers), c.read("hidden", m.hidden), c.read("intermediate", m.intermediate),
        c.read("vocab", m.vocab), c.read("heads", m.heads), c.read("headDim", m.head_dim),
        c.read("tiedEmbeddings", m.tied_embeddings), c.read("routedExperts", m.routed_experts),
        c.read("sharedExperts", m.shared_experts),
        c.read("expertIntermediate", m.expert_intermediate)})
    if (!st.ok()) return st.error();
  m.kv_heads = m.heads;
  m.dense_layers = m.routed_experts > 0 ? 0 : m.layers;
  for (Status st : {c.read("kvHeads", m.kv_heads), c.read("denseLayers", m.dense_layers)})
    if (!st.ok()) return st.error();
  if (Status st = validate_model(m); !st.ok()) return st.error();
  return m;
}

Json model_to_json(const ModelConfig& m) {
  Json j{{"name", m.name},
         {"label", m.label},
         {"source", m.source},
         {"layers", m.layers},
         {"hidden", m.hidden},
         {"vocab", m.vocab},
         {"tiedEmbeddings", m.tied_embeddings}};
  // The label and source as phrases a client says in its own language (none for a name).
  if (m.label_text) j["labelText"] = plan_text_to_json(plan_text(*m.label_text));
  if (m.source_text) j["sourceText"] = plan_text_to_json(plan_text(*m.source_text));
  if (m.dense_layers > 0) j["intermediate"] = m.intermediate;
  if (m.attention == AttentionKind::GroupedQuery) {
    j["attention"] = "gqa";
    j["heads"] = m.heads;
    j["kvHeads"] = m.kv_heads;
    j["headDim"] = m.head_dim > 0 ? m.head_dim : m.hidden / m.heads;
  } else {
    j["attention"] = "mla";
    j["heads"] = m.heads;
    j["qLoraRank"] = m.q_lora_rank;
    j["kvLoraRank"] = m.kv_lora_rank;
    j["qkNopeHeadDim"] = m.qk_nope_head_dim;
    j["qkRopeHeadDim"] = m.qk_rope_head_dim;
    j["vHeadDim"] = m.v_head_dim;
  }
  j["denseLayers"] = m.dense_layers;
  j["routedExperts"] = m.routed_experts;
  j["sharedExperts"] = m.shared_experts;
  j["expertIntermediate"] = m.expert_intermediate;
  return j;
}

}  // namespace pipesim::detail
