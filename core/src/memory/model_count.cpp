// Parameter counts of a transformer from its configuration, and the two presets the lesson uses.
// Every weight matrix, bias and norm vector is counted, so the breakdown sums exactly to the total.
//
// Llama-3-70B: Meta's configuration (hidden 8192, 80 layers, FFN 28672, 64 heads, 8 KV heads of
// dim 128, vocabulary 128256, untied embeddings), 70,553,706,496 parameters ("70.6B").
// DeepSeek-V3: deepseek-ai/DeepSeek-V3 inference/configs/config_671B.json and inference/model.py
// (MLA with q_lora_rank 1536, kv_lora_rank 512, qk_nope 128, qk_rope 64, v_head 128, 128 heads;
// first 3 of 61 layers dense with FFN 18432; 1 shared + 256 routed experts of 2048; a gate with a
// per-expert bias; vocabulary 129280; untied): 671,026,419,200 parameters ("671B"). The MTP module
// (README_WEIGHTS.md: 11.5B unique parameters, sharing embedding and head) is listed as excluded.
#include <cstdint>
#include <string>
#include <vector>

#include "fields.h"
#include "pipesim/rules.h"
#include "pipesim/model.h"

namespace pipesim {
namespace {

using I = std::int64_t;

ModelConfig llama3_70b() {
  ModelConfig m;
  m.name = "llama3-70b";
  m.label = "Llama-3-70B";
  m.source_text = PlanTextId::MemorySourceLlama3;
  m.source = plan_text(*m.source_text).english();
  m.layers = 80;
  m.hidden = 8192;
  m.intermediate = 28672;
  m.vocab = 128256;
  m.heads = 64;
  m.kv_heads = 8;
  m.head_dim = 128;
  m.dense_layers = 80;
  return m;
}

ModelConfig deepseek_v3() {
  ModelConfig m;
  m.name = "deepseek-v3";
  m.label = "DeepSeek-V3";
  m.source = "deepseek-ai/DeepSeek-V3 inference/configs/config_671B.json, inference/model.py";
  m.layers = 61;
  m.hidden = 7168;
  m.intermediate = 18432;
  m.vocab = 129280;
  m.attention = AttentionKind::MultiHeadLatent;
  m.heads = 128;
  m.q_lora_rank = 1536;
  m.kv_lora_rank = 512;
  m.qk_nope_head_dim = 128;
  m.qk_rope_head_dim = 64;
  m.v_head_dim = 128;
  m.dense_layers = 3;
  m.routed_experts = 256;
  m.shared_experts = 1;
  m.expert_intermediate = 2048;
  m.activated_experts = 8;  // n_activated_experts
  m.router_bias = true;
  m.mtp_modules = 1;
  return m;
}

Status custom_int(int v, int lo, int hi, const char* field) {
  return detail::int_in_range(v, lo, hi, std::string("custom.") + field,
                              std::string("/custom/") + field);
}

// Attention weights of one layer, with the formula in the configuration's terms.
ParamPart attention_per_layer(const ModelConfig& m) {
  const I h = m.hidden, n = m.heads;
  if (m.attention == AttentionKind::GroupedQuery) {
    const I d = m.head_dim > 0 ? m.head_dim : h / n;
    return {"attention", h * n * d + 2 * h * m.kv_heads * d + n * d * h,
            "q hidden x heads*headDim + k, v hidden x kvHeads*headDim + o heads*headDim x hidden"};
  }
  const I qk = m.qk_nope_head_dim + m.qk_rope_head_dim;
  return {"attention",
          h * m.q_lora_rank + m.q_lora_rank + I{m.q_lora_rank} * n * qk +
              h * (m.kv_lora_rank + m.qk_rope_head_dim) + m.kv_lora_rank +
              I{m.kv_lora_rank} * n * (m.qk_nope_head_dim + m.v_head_dim) + n * m.v_head_dim * h,
          "MLA: wq_a hidden x qLoraRank + q_norm + wq_b qLoraRank x heads*(qkNope+qkRope) + wkv_a "
          "hidden x (kvLoraRank+qkRope) + kv_norm + wkv_b kvLoraRank x heads*(qkNope+v) + wo "
          "heads*v x hidden"};
}

I swiglu(I hidden, I width) { return 3 * hidden * width; }

}  // namespace

const std::vector<ModelConfig>& model_presets() {
  static const std::vector<ModelConfig> kPresets = {llama3_70b(), deepseek_v3()};
  return kPresets;
}

std::string model_preset_names() {
  std::string names;
  for (const ModelConfig& m : model_presets()) names += (names.empty() ? "" : ", ") + m.name;
  return names;
}

Result<ModelConfig> model_preset(const std::string& name) {
  for (const ModelConfig& m : model_presets())
    if (m.name == name) return m;
  return make_error(Rule::FieldOneOf, "/model",
                    {{"field", "model"}, {"allowed", model_preset_names() + ", custom"}, {"got", summary(name)}});
}

Status validate_model(const ModelConfig& m) {
  for (Status st :
       {custom_int(m.layers, 1, 1024, "layers"), custom_int(m.hidden, 1, 65536, "hidden"),
        custom_int(m.vocab, 1, 1 << 22, "vocab"), custom_int(m.heads, 1, 1024, "heads"),
        custom_int(m.dense_layers, 0, m.layers, "denseLayers"),
        custom_int(m.routed_experts, 0, 4096, "routedExperts"),
        custom_int(m.shared_experts, 0, 64, "sharedExperts")})
    if (!st.ok()) return st;
  if (m.dense_layers > 0)
    if (Status st = custom_int(m.intermediate, 1, 1 << 20, "intermediate"); !st.ok()) return st;
  if (m.routed_experts + m.shared_experts > 0)
    if (Status st = custom_int(m.expert_intermediate, 1, 1 << 20, "expertIntermediate"); !st.ok())
      return st;
  if (m.dense_layers < m.layers && m.routed_experts == 0)
    return make_error(Rule::ModelRoutedExperts, "/custom/routedExperts",
                      {{"denseLayers", m.dense_layers}, {"layers", m.layers}});
  if (m.attention == AttentionKind::MultiHeadLatent) return Ok{};  // presets only
  if (Status st = custom_int(m.head_dim, 0, 1024, "headDim"); !st.ok()) return st;
  if (m.head_dim == 0 && m.hidden % m.heads != 0)
    return make_error(Rule::FieldDivides, "/custom/heads",
                      {{"field", "custom.heads"}, {"target", "custom.hidden"}, {"value", m.hidden}, {"got", m.heads}});
  if (m.kv_heads < 1 || m.kv_heads > m.heads || m.heads % m.kv_heads != 0)
    return make_error(Rule::FieldDivides, "/custom/kvHeads",
                      {{"field", "custom.kvHeads"}, {"target", "custom.heads"}, {"value", m.heads}, {"got", m.kv_heads}});
  return Ok{};
}

ParamCount count_params(const ModelConfig& m) {
  const I h = m.hidden, layers = m.layers, dense = m.dense_layers, moe = layers - dense;
  ParamCount c;
  const ParamPart attn = attention_per_layer(m);
  c.breakdown.push_back({"embedding", I{m.vocab} * h, "vocab x hidden"});
  c.breakdown.push_back({"attention", layers * attn.params, "layers x (" + attn.formula + ")"});
  c.breakdown.push_back({"layerNorms", layers * 2 * h, "layers x 2 RMSNorm vectors of hidden"});
  if (dense > 0)
    c.breakdown.push_back(
        {"denseFfn", dense * swiglu(h, m.intermediate), "denseLayers x 3 x hidden x intermediate"});
  if (moe > 0) {
    if (m.shared_experts > 0)
      c.breakdown.push_back({"sharedExperts",
                             moe * m.shared_experts * swiglu(h, m.expert_intermediate),
                             "moeLayers x sharedExperts x 3 x hidden x expertIntermediate"});
    c.breakdown.push_back({"router", moe * I{m.routed_experts} * (h + (m.router_bias ? 1 : 0)),
                           m.router_bias ? "moeLayers x routedExperts x (hidden + 1 bias)"
                                         : "moeLayers x routedExperts x hidden"});
    c.routed = moe * m.routed_experts * swiglu(h, m.expert_intermediate);
    c.breakdown.push_back(
        {"routedExperts", c.routed, "moeLayers x routedExperts x 3 x hidden x expertIntermediate"});
  }
  c.breakdown.push_back({"finalNorm", h, "hidden"});
  if (!m.tied_embeddings) c.breakdown.push_back({"outputHead", I{m.vocab} * h, "hidden x vocab"});
  for (const ParamPart& p : c.breakdown) c.total += p.params;
  if (m.mtp_modules > 0) {
    // One extra MoE layer, eh_proj (2 hidden -> hidden) and enorm, hnorm and the head's norm;
    // embedding and output head are shared with the main model (DeepSeek-V3 report §2.2).
    const I moe_layer = attn.params + 2 * h + m.shared_experts * swiglu(h, m.expert_intermediate) +
                        I{m.routed_experts} * (h + (m.router_bias ? 1 : 0)) +
                        I{m.routed_experts} * swiglu(h, m.expert_intermediate);
    c.excluded.push_back({"mtp", m.mtp_modules * (moe_layer + 2 * h * h + 3 * h),
                          "mtpModules x (one MoE layer + eh_proj 2 hidden x hidden + 3 norms)"});
  }
  return c;
}

}  // namespace pipesim
