// A memory request: read from JSON, checked (validate_memory), written back; and the model's view
// of a configured transformer (memory_model_of). docs/schema.md "Memory" documents the fields.
#include <string>

#include "fields.h"
#include "model_json.h"
#include "pipesim/config.h"
#include "pipesim/memory.h"
#include "pipesim/rules.h"
#include "pipesim/schedule.h"
#include "schedules/registry.h"

namespace pipesim {

MemoryModel memory_model_of(const ModelConfig& m) {
  const ParamCount count = count_params(m);
  MemoryModel out;
  out.name = m.name;
  out.label = m.label;
  out.source = m.source;
  out.label_text = m.label_text;
  out.source_text = m.source_text;
  out.params = static_cast<double>(count.total);
  out.routed_params = static_cast<double>(count.routed);
  out.routed_experts = m.routed_experts;
  out.layers = m.layers;
  out.hidden = m.hidden;
  out.heads = m.heads;
  return out;
}

int default_microbatches(const MemoryRequest& q) {
  const ScheduleInfo* info = find_schedule_info(q.schedule);
  int m = 2 * q.layout.pp;
  if (!info) return m;
  const ShapeRules& rules = info->shape;
  if (rules.min_microbatches_per_rank > 2) m = rules.min_microbatches_per_rank * q.layout.pp;
  if (rules.even_microbatches && m % 2 != 0) ++m;
  return m;
}

namespace {

using detail::int_in_range;

// A schedule error names the config's fields; in a memory request P is layout.pp. Layout errors
// name the fields bare ("ep must divide dp"), so they read the same in a params request, whose
// layout fields sit at the top level.
Error schedule_error(Error e) {
  if (e.path == "/ranks") e.path = "/layout/pp";
  return e;
}

Status validate_model_fields(const MemoryModel& m) {
  if (Status st = detail::positive_number(m.params, kMaxModelParams, "params", "/params"); !st.ok())
    return st;
  if (m.routed_params < 0 || !(m.routed_params <= m.params))
    return make_error(Rule::FieldAtMostField, "/routedParams",
                      {{"field", "routedParams"}, {"target", "params"}, {"value", m.params},
                       {"got", m.routed_params}});
  for (Status st : {int_in_range(m.layers, 0, 1 << 20, "shape.layers", "/shape/layers"),
                    int_in_range(m.hidden, 0, 1 << 20, "shape.hidden", "/shape/hidden"),
                    int_in_range(m.heads, 0, 1 << 16, "shape.heads", "/shape/heads")})
    if (!st.ok()) return st;
  return Ok{};
}

Status validate_layout(const MemoryRequest& q) {
  const ParallelLayout& l = q.layout;
  for (Status st : {int_in_range(l.tp, 1, kMaxTensorParallel, "tp", "/layout/tp"),
                    int_in_range(l.pp, 1, kMaxRanks, "pp", "/layout/pp"),
                    int_in_range(l.ep, 1, kMaxExpertParallel, "ep", "/layout/ep"),
                    int_in_range(l.dp, 1, kMaxDataParallel, "dp", "/layout/dp")})
    if (!st.ok()) return st;
  if (l.ep > 1 && q.model.routed_params == 0)
    return make_error(Rule::ParamsNoExperts, "/layout/ep", {{"got", l.ep}});
  if (q.model.routed_experts > 0 && q.model.routed_experts % l.ep != 0)
    return make_error(Rule::ParamsEpDivides, "/layout/ep",
                      {{"experts", q.model.routed_experts}, {"got", l.ep}});
  // Expert parallelism is carved out of the data-parallel group (DeepSeek-V3: DP 128, EP 64).
  if (l.dp % l.ep != 0)
    return make_error(Rule::FieldDivides, "/layout/ep",
                      {{"field", "ep"}, {"target", "dp"}, {"value", l.dp}, {"got", l.ep}});
  // Megatron splits the heads over TP (Korthikanti §4.2.1: a/t heads per GPU).
  if (q.model.heads > 0 && q.model.heads % l.tp != 0)
    return make_error(Rule::FieldDivides, "/layout/tp",
                      {{"field", "tp"}, {"target", "heads"}, {"value", q.model.heads}, {"got", l.tp}});
  return Ok{};
}

}  // namespace

Status validate_memory(const MemoryRequest& q) {
  if (Status st = validate_model_fields(q.model); !st.ok()) return st;
  if (auto recipe = find_recipe(q.recipe); !recipe.ok()) return recipe.error();
  if (Status st = int_in_range(q.zero, 0, kMaxZeroStage, "zero", "/zero"); !st.ok()) return st;
  if (Status st = validate_layout(q); !st.ok()) return st;
  SimConfig config;
  config.schedule = q.schedule;
  config.ranks = q.layout.pp;
  config.microbatches = q.microbatches > 0 ? q.microbatches : default_microbatches(q);
  config.chunks = q.chunks;
  // The schedule is simulated only for the activations' peak, so only then does its size cap
  // apply; the parameter copies need its shape rules alone.
  if (Status st = check_schedule_name(q.schedule, "/schedule"); !st.ok()) return st;
  Status shape = q.activations
                     ? validate(config)
                     : int_in_range(config.microbatches, 1, kMaxMicrobatches, "microbatches", "/microbatches");
  if (shape.ok() && !q.activations) shape = detail::check_shape(*find_schedule_info(q.schedule), config);
  if (!shape.ok()) return schedule_error(shape.error());
  if (q.activations) {
    if (q.model.layers == 0 || q.model.hidden == 0 || q.model.heads == 0)
      return make_error(Rule::MemoryShapeMissing, "/activations");
    const ActivationSpec& a = *q.activations;
    for (Status st : {int_in_range(a.seq_length, 1, kMaxSeqLength, "activations.seqLength",
                                   "/activations/seqLength"),
                      int_in_range(a.micro_batch_size, 1, kMaxMicroBatchSize,
                                   "activations.microBatchSize", "/activations/microBatchSize")})
      if (!st.ok()) return st;
  }
  return detail::positive_number(q.gpu_memory_gb, kMaxGpuMemoryGb, "gpuMemoryGb", "/gpuMemoryGb");
}

namespace {

using detail::FieldReader;

Status read_bare_model(const FieldReader& f, MemoryModel& m) {
  m = MemoryModel{};
  m.label_text = PlanTextId::MemoryModelParams;
  m.source_text = PlanTextId::MemorySourceGiven;
  m.label = plan_text(*m.label_text).english();
  m.source = plan_text(*m.source_text).english();
  for (Status st : {f.read("params", m.params), f.read("routedParams", m.routed_params)})
    if (!st.ok()) return st;
  if (!f.has("shape")) return Ok{};
  auto shape = FieldReader::open(f.at("shape"), "/shape", "shape", {"layers", "hidden", "heads"});
  if (!shape.ok()) return shape.error();
  const FieldReader& s = shape.value();
  if (Status st = s.require({"layers", "hidden", "heads"}); !st.ok()) return st;
  for (Status st : {s.read_in("layers", 1, 1 << 20, m.layers), s.read_in("hidden", 1, 1 << 20, m.hidden),
                    s.read_in("heads", 1, 1 << 16, m.heads)})
    if (!st.ok()) return st;
  return Ok{};
}

// layout.gpus with dp: they must agree; without dp, DP = gpus / (tp x pp).
Status read_layout(const FieldReader& f, MemoryRequest& q, bool in_config) {
  if (!f.has("layout")) return Ok{};
  std::vector<const char*> known = {"tp", "ep", "dp", "sequenceParallel"};
  if (!in_config) {
    known.push_back("pp");
    known.push_back("gpus");
  }
  auto layout = FieldReader::open(f.at("layout"), "/layout", "layout", known);
  if (!layout.ok()) return layout.error();
  const FieldReader& l = layout.value();
  ParallelLayout& out = q.layout;
  for (Status st : {l.read("tp", out.tp), l.read("ep", out.ep), l.read("dp", out.dp),
                    l.read("sequenceParallel", out.sequence_parallel)})
    if (!st.ok()) return st;
  if (in_config) return Ok{};
  if (Status st = l.read("pp", out.pp); !st.ok()) return st;
  if (!l.has("gpus")) return Ok{};
  int gpus = 0;
  for (Status st : {l.read("gpus", gpus), int_in_range(gpus, 1, 1 << 30, "gpus", "/layout/gpus"), int_in_range(out.tp, 1, kMaxTensorParallel, "tp", "/layout/tp"),
                    int_in_range(out.pp, 1, kMaxRanks, "pp", "/layout/pp")})
    if (!st.ok()) return st;
  const std::int64_t model_parallel = std::int64_t{out.tp} * out.pp;
  if (l.has("dp")) {
    if (out.gpus() != gpus)
      return make_error(Rule::MemoryGpusProduct, "/layout/gpus", {{"product", out.gpus()}, {"got", gpus}});
    return Ok{};
  }
  if (gpus % model_parallel != 0)
    return make_error(Rule::MemoryGpusDivide, "/layout/gpus", {{"product", model_parallel}, {"got", gpus}});
  out.dp = static_cast<int>(gpus / model_parallel);
  q.dp_from_gpus = true;
  return int_in_range(out.dp, 1, kMaxDataParallel, "dp", "/layout/dp");
}

Status read_activations(const FieldReader& f, MemoryRequest& q) {
  if (!f.has("activations")) return Ok{};
  auto act = FieldReader::open(f.at("activations"), "/activations", "activations",
                               {"seqLength", "microBatchSize", "recompute"});
  if (!act.ok()) return act.error();
  const FieldReader& a = act.value();
  if (Status st = a.require({"seqLength"}); !st.ok()) return st;
  ActivationSpec spec;
  std::string recompute = recompute_name(spec.recompute);
  for (Status st : {a.read("seqLength", spec.seq_length), a.read("microBatchSize", spec.micro_batch_size),
                    a.read("recompute", recompute)})
    if (!st.ok()) return st;
  bool known = false;
  for (Recompute r : {Recompute::None, Recompute::Selective, Recompute::Full})
    if (recompute == recompute_name(r)) {
      spec.recompute = r;
      known = true;
    }
  if (!known)
    return make_error(Rule::FieldOneOf, "/activations/recompute",
                      {{"field", "activations.recompute"}, {"allowed", "none, selective, full"},
                       {"got", summary(recompute)}});
  q.activations = spec;
  return Ok{};
}

}  // namespace

Result<MemoryRequest> memory_request_from_json(const Json& json, bool in_config) {
  std::vector<const char*> known = {"model", "custom", "params", "routedParams", "shape", "recipe",
                                    "zero", "layout", "activations", "gpuMemoryGb"};
  if (!in_config) {
    known.push_back("schedule");
    known.push_back("microbatches");
    known.push_back("chunks");
  }
  auto fields = FieldReader::open(json, "", in_config ? "memoryModel" : "memory request", known);
  if (!fields.ok()) return fields.error();
  const FieldReader& f = fields.value();
  MemoryRequest q;
  if (f.has("model") == f.has("params"))
    return make_error(Rule::MemoryModelOrParams, f.has("model") ? "/params" : "/model",
                      {{"models", model_preset_names()}});
  if (f.has("model")) {
    for (const char* bare : {"routedParams", "shape"})
      if (f.has(bare)) return make_error(Rule::MemoryModelOrParams, f.path(bare), {{"models", model_preset_names()}});
    auto model = detail::read_model(f);
    if (!model.ok()) return model.error();
    q.model = memory_model_of(model.value());
  } else {
    if (f.has("custom")) return make_error(Rule::MemoryModelOrParams, "/custom", {{"models", model_preset_names()}});
    if (Status st = read_bare_model(f, q.model); !st.ok()) return st.error();
  }
  for (Status st : {f.read("recipe", q.recipe), f.read("zero", q.zero), read_layout(f, q, in_config),
                    read_activations(f, q), f.read("gpuMemoryGb", q.gpu_memory_gb)})
    if (!st.ok()) return st.error();
  if (in_config) return q;
  for (Status st : {f.read("schedule", q.schedule),
                    f.read_in("microbatches", 1, kMaxMicrobatches, q.microbatches), f.read("chunks", q.chunks)})
    if (!st.ok()) return st.error();
  if (Status st = validate_memory(q); !st.ok()) return st.error();
  return q;
}

MemoryRequest memory_request_for(const SimConfig& config) {
  MemoryRequest q = *config.memory_model;
  q.schedule = config.schedule;
  q.layout.pp = config.ranks;
  q.microbatches = config.microbatches;
  q.chunks = config.chunks;
  return q;
}

}  // namespace pipesim
