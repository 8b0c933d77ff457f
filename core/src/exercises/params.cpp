// params: weight memory per GPU under each schedule's stage layout, and DualPipe's second copy.
// A stage holds 1/stages of the model; expert parallelism further divides the routed experts by
// EP; a rank holds stages_per_rank stages. 1F1B: P stages, one per rank. DualPipe and Chimera: P
// stages per direction, two per rank (two copies). DualPipeV: 2P stages of one copy, two per rank.
#include <string>

#include "fields.h"
#include "pipesim/exercises.h"
#include "pipesim/planner.h"
#include "pipesim/rules.h"

namespace pipesim {
namespace {

// fp32 master weights + fp32 Adam first and second moments: 4 + 4 + 4 bytes per parameter.
constexpr double kOptimizerBytesPerParam = 12.0;
constexpr double kBytesPerGb = 1e9;

}  // namespace

double params_per_gpu(int stages, int stages_per_rank, double non_routed, double routed, int ep) {
  return stages_per_rank * (non_routed / stages + routed / (static_cast<double>(stages) * ep));
}

TrainingState training_state(const SimResult& r) {
  TrainingState state;
  state.per_gpu = r.param_copies;
  if (r.config.model_params) {
    // The model spread evenly over the stages, as `pipesim params` holds it (no experts, EP 1).
    state.params_per_gpu =
        params_per_gpu(r.stages, r.stages_per_rank, *r.config.model_params, 0, 1);
    state.bytes_per_gpu = *state.params_per_gpu * (kPlanWeightGradBytes + kPlanOptimizerBytes);
  }
  return state;
}

Status validate_params(const ParamsRequest& r) {
  if (r.model.name == "custom")
    if (Status st = validate_model(r.model); !st.ok()) return st;
  if (Status st = detail::int_in_range(r.pp, 1, kMaxRanks, "pp", "/pp"); !st.ok()) return st;
  if (Status st = detail::int_in_range(r.ep, 1, 4096, "ep", "/ep"); !st.ok()) return st;
  if (r.model.routed_experts == 0 && r.ep != 1)
    return make_error(Rule::ParamsNoExperts, "/ep", {{"got", r.ep}});
  if (r.model.routed_experts > 0 && r.model.routed_experts % r.ep != 0)
    return make_error(Rule::ParamsEpDivides, "/ep", {{"experts", r.model.routed_experts}, {"got", r.ep}});
  if (Status st = detail::int_in_range(r.dp, 1, 1 << 20, "dp", "/dp"); !st.ok()) return st;
  if (Status st = detail::positive_number(r.bytes_per_param, 16, "bytesPerParam", "/bytesPerParam");
      !st.ok())
    return st;
  return detail::positive_number(r.gpu_memory_gb, 1e6, "gpuMemoryGb", "/gpuMemoryGb");
}

namespace {

// params() for a request validate_params accepted. Every schedule of the catalogue, laid out
// as its StageLayout says (tests/core/params_test.cpp checks the layouts against simulate).
ParamsResult params_valid(const ParamsRequest& r) {
  ParamsResult out;
  out.request = r;
  out.count = count_params(r.model);
  const double routed = static_cast<double>(out.count.routed);
  const double rest = static_cast<double>(out.count.total - out.count.routed);
  const double gpu_bytes = r.gpu_memory_gb * kBytesPerGb;
  for (const ScheduleInfo& info : list_schedules()) {
    const StageLayout& l = info.layout;
    ScheduleFootprint f;
    f.schedule = info.name;
    f.stages = l.stages(r.pp);
    f.stages_per_rank = l.stages_per_rank;
    f.param_copies = l.param_copies;
    f.params_per_gpu = params_per_gpu(f.stages, l.stages_per_rank, rest, routed, r.ep);
    f.weight_bytes_per_gpu = f.params_per_gpu * r.bytes_per_param;
    f.optimizer_bytes_per_gpu =
        r.optimizer ? kOptimizerBytesPerParam * f.params_per_gpu / r.dp : 0.0;
    f.bytes_per_gpu = f.weight_bytes_per_gpu + f.optimizer_bytes_per_gpu;
    f.share_of_gpu_memory = f.bytes_per_gpu / gpu_bytes;
    out.schedules.push_back(f);
  }
  // The lesson's question: what DualPipe's second copy costs over 1F1B.
  const auto footprint = [&](const char* name) -> const ScheduleFootprint& {
    for (const ScheduleFootprint& f : out.schedules)
      if (f.schedule == name) return f;
    PIPESIM_CHECK(false, "the catalogue lists 1f1b and dualpipe");
    return out.schedules.front();
  };
  const ScheduleFootprint& one_f_one_b = footprint("1f1b");
  const ScheduleFootprint& dualpipe = footprint("dualpipe");
  out.overhead_params_per_gpu = dualpipe.params_per_gpu - one_f_one_b.params_per_gpu;
  out.overhead_bytes_per_gpu = dualpipe.bytes_per_gpu - one_f_one_b.bytes_per_gpu;
  out.overhead_share_of_model = out.overhead_params_per_gpu / static_cast<double>(out.count.total);
  out.overhead_share_of_gpu_memory = out.overhead_bytes_per_gpu / gpu_bytes;
  return out;
}

}  // namespace

Result<ParamsResult> params(const ParamsRequest& r) {
  if (Status st = validate_params(r); !st.ok()) return st.error();
  return params_valid(r);
}

Result<ParamsRequest> params_request_from_json(const Json& json) {
  using detail::FieldReader;
  auto fields = FieldReader::open(
      json, "", "params request",
      {"model", "custom", "pp", "ep", "dp", "bytesPerParam", "optimizer", "gpuMemoryGb"});
  if (!fields.ok()) return fields.error();
  const FieldReader& f = fields.value();
  if (Status st = f.require({"model", "pp"}); !st.ok()) return st.error();
  ParamsRequest r;
  std::string model = "custom";
  if (Status st = f.read("model", model); !st.ok()) return st.error();
  if (model == "custom") {
    if (!f.has("custom")) return make_error(Rule::ParamsCustomMissing, "/custom");
    auto custom = FieldReader::open(f.at("custom"), "/custom", "custom",
                                    {"layers", "hidden", "intermediate", "vocab", "heads", "kvHeads",
                                     "headDim", "tiedEmbeddings", "denseLayers", "routedExperts",
                                     "sharedExperts", "expertIntermediate"});
    if (!custom.ok()) return custom.error();
    const FieldReader& c = custom.value();
    if (Status st = c.require({"layers", "hidden", "vocab", "heads"}); !st.ok()) return st.error();
    ModelConfig& m = r.model;
    m.label = "custom";
    m.source = "user input";
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
  } else {
    if (f.has("custom")) return make_error(Rule::ParamsCustomOnly, "/custom", {{"got", summary(model)}});
    auto preset = model_preset(model);
    if (!preset.ok()) return preset.error();
    r.model = preset.value();
  }
  for (Status st : {f.read("pp", r.pp), f.read("ep", r.ep), f.read("dp", r.dp),
                    f.read("bytesPerParam", r.bytes_per_param), f.read("optimizer", r.optimizer),
                    f.read("gpuMemoryGb", r.gpu_memory_gb)})
    if (!st.ok()) return st.error();
  if (Status st = validate_params(r); !st.ok()) return st.error();
  return r;
}

Result<ParamsResult> params_request(const Json& json) {
  auto request = params_request_from_json(json);
  if (!request.ok()) return request.error();
  return params_valid(request.value());
}

namespace {

Json parts_to_json(const std::vector<ParamPart>& parts) {
  Json list = Json::array();
  for (const ParamPart& p : parts)
    list.push_back(Json{{"part", p.part}, {"params", p.params}, {"formula", p.formula}});
  return list;
}

Json model_to_json(const ModelConfig& m) {
  Json j{{"name", m.name},
         {"label", m.label},
         {"source", m.source},
         {"layers", m.layers},
         {"hidden", m.hidden},
         {"vocab", m.vocab},
         {"tiedEmbeddings", m.tied_embeddings}};
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

}  // namespace

Json params_result_to_json(const ParamsResult& r) {
  Json j;
  j["model"] = model_to_json(r.request.model);
  j["totalParams"] = r.count.total;
  j["routedParams"] = r.count.routed;
  j["nonRoutedParams"] = r.count.total - r.count.routed;
  j["breakdown"] = parts_to_json(r.count.breakdown);
  j["excluded"] = parts_to_json(r.count.excluded);
  j["pp"] = r.request.pp;
  j["ep"] = r.request.ep;
  j["dp"] = r.request.dp;
  j["bytesPerParam"] = r.request.bytes_per_param;
  j["optimizer"] = r.request.optimizer;
  j["gpuMemoryGb"] = r.request.gpu_memory_gb;
  Json schedules = Json::object();
  for (const ScheduleFootprint& f : r.schedules)
    schedules[f.schedule] = Json{{"stages", f.stages},
                                 {"stagesPerRank", f.stages_per_rank},
                                 {"paramCopies", f.param_copies},
                                 {"paramsPerGpu", f.params_per_gpu},
                                 {"weightBytesPerGpu", f.weight_bytes_per_gpu},
                                 {"optimizerBytesPerGpu", f.optimizer_bytes_per_gpu},
                                 {"bytesPerGpu", f.bytes_per_gpu},
                                 {"shareOfGpuMemory", f.share_of_gpu_memory}};
  j["schedules"] = std::move(schedules);
  j["dualpipeOverhead"] = Json{{"paramsPerGpu", r.overhead_params_per_gpu},
                               {"bytesPerGpu", r.overhead_bytes_per_gpu},
                               {"shareOfModel", r.overhead_share_of_model},
                               {"shareOfGpuMemory", r.overhead_share_of_gpu_memory}};
  return j;
}

}  // namespace pipesim
