// The memory model's results and requests as JSON (docs/schema.md "Memory"). Each assumption is
// an object with its structured values (so the page says it in its own language), its English
// text and its source.
#include <optional>
#include <string>

#include "memory_text.h"
#include "pipesim/memory.h"
#include "pipesim/schedule.h"

namespace pipesim {
namespace {

Json bytes_json(const StateBytes& b) {
  return Json{{"weights", b.weights},
              {"gradients", b.gradients},
              {"masterWeights", b.master_weights},
              {"optimizerStates", b.optimizer_states},
              {"total", b.total()}};
}

Json params_json(const ParamsHeld& p) {
  return Json{{"params", p.total()}, {"nonRoutedParams", p.non_routed}, {"routedParams", p.routed}};
}

const MemoryAssumption& said(const MemoryResult& r, const char* topic) {
  for (const MemoryAssumption& a : r.assumptions)
    if (a.topic == topic) return a;
  PIPESIM_CHECK(false, "every result states each topic");
  return r.assumptions.front();
}

Json assumption(const MemoryResult& r, const char* topic, Json values) {
  const MemoryAssumption& a = said(r, topic);
  values["text"] = a.text;
  values["source"] = a.source;
  if (a.source_text) values["sourceText"] = plan_text_to_json(*a.source_text);
  return values;
}

// A label's phrase ({"id","params"}) when it is not a name.
void label_text(Json& values, const std::optional<PlanTextId>& id) {
  if (id) values["labelText"] = plan_text_to_json(plan_text(*id));
}

Json assumptions_json(const MemoryResult& r) {
  const MemoryRequest& q = r.request;
  const PrecisionRecipe& p = r.recipe;
  const ParallelLayout& l = q.layout;
  Json j;
  j["model"] = assumption(r, "model", {{"name", q.model.name},
                                       {"label", q.model.label},
                                       {"params", q.model.params},
                                       {"routedParams", q.model.routed_params}});
  label_text(j["model"], q.model.label_text);
  j["recipe"] = assumption(r, "recipe", {{"id", p.id},
                                         {"label", p.label},
                                         {"weightBytes", p.weight_bytes},
                                         {"gradientBytes", p.gradient_bytes},
                                         {"masterBytes", p.master_bytes},
                                         {"optimizerBytes", p.optimizer_bytes},
                                         {"weightFormat", p.weight_format},
                                         {"gradientFormat", p.gradient_format},
                                         {"masterFormat", p.master_format},
                                         {"optimizerFormat", p.optimizer_format},
                                         {"reading", p.reading}});
  label_text(j["recipe"], p.label_text);
  j["sharding"] = assumption(r, "sharding", {{"zero", q.zero},
                                             {"dp", l.dp},
                                             {"expertDp", l.expert_dp()},
                                             {"routed", q.model.routed_params > 0},
                                             {"paramCopies", r.param_copies}});
  j["layout"] = assumption(r, "layout", {{"policy", q.dp_from_gpus ? "gpus" : "given"},
                                         {"tp", l.tp},
                                         {"pp", l.pp},
                                         {"dp", l.dp},
                                         {"ep", l.ep},
                                         {"expertDp", l.expert_dp()},
                                         {"gpus", l.gpus()},
                                         {"sequenceParallel", l.sequence_parallel}});
  j["copies"] = assumption(r, "copies", {{"schedule", q.schedule},
                                         {"title", find_schedule_info(q.schedule)->title},
                                         {"stages", r.stages},
                                         {"stagesPerRank", r.stages_per_rank},
                                         {"paramCopies", r.param_copies}});
  if (r.activations) {
    const ActivationMemory& a = *r.activations;
    j["activations"] = assumption(r, "activations",
                                  {{"formula", a.formula},
                                   {"recompute", recompute_name(q.activations->recompute)},
                                   {"sequenceParallel", l.sequence_parallel},
                                   {"seqLength", q.activations->seq_length},
                                   {"microBatchSize", q.activations->micro_batch_size},
                                   {"hidden", q.model.hidden},
                                   {"heads", q.model.heads},
                                   {"tp", l.tp},
                                   {"layersPerUnit", a.layers_per_unit},
                                   {"schedule", q.schedule},
                                   {"pp", l.pp},
                                   {"microbatches", a.microbatches},
                                   {"peakUnits", a.peak_units}});
  }
  return j;
}

}  // namespace

Json memory_result_to_json(const MemoryResult& r) {
  const MemoryRequest& q = r.request;
  Json j;
  j["model"] = Json{{"name", q.model.name}, {"label", q.model.label}, {"params", q.model.params},
                    {"routedParams", q.model.routed_params}};
  j["recipe"] = q.recipe;
  j["zero"] = q.zero;
  j["schedule"] = q.schedule;
  j["stages"] = r.stages;
  j["stagesPerRank"] = r.stages_per_rank;
  j["paramCopies"] = r.param_copies;
  Json per_copy = params_json(r.per_copy);
  per_copy["bytes"] = bytes_json(r.per_copy_bytes);
  const double copy_params = r.per_copy.total(), copy_bytes = r.per_copy_bytes.total();
  per_copy["routedShare"] =
      Json{{"params", copy_params > 0 ? r.per_copy.routed / copy_params : 0.0},
           {"bytes", copy_bytes > 0 ? r.per_copy_routed_bytes.total() / copy_bytes : 0.0}};
  j["perCopy"] = std::move(per_copy);
  Json per_gpu = params_json(r.held);
  per_gpu["bytes"] = bytes_json(r.states);
  j["perGpu"] = std::move(per_gpu);
  j["extraCopyBytes"] = r.extra_copy_bytes;
  if (r.activations) {
    const ActivationMemory& a = *r.activations;
    j["activations"] = Json{{"formula", a.formula},
                            {"bytesPerLayer", a.bytes_per_layer},
                            {"layersPerUnit", a.layers_per_unit},
                            {"bytesPerUnit", a.bytes_per_unit},
                            {"microbatches", a.microbatches},
                            {"peakUnits", a.peak_units},
                            {"peakBytes", a.peak_bytes}};
  } else {
    j["activations"] = nullptr;
  }
  j["totalBytes"] = r.total_bytes;
  j["gpuMemoryGb"] = q.gpu_memory_gb;
  j["shareOfGpuMemory"] = r.share_of_gpu_memory;
  j["assumptions"] = assumptions_json(r);
  return j;
}

}  // namespace pipesim
