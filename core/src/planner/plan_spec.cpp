// Reading and checking a planner spec. Every field is read with its own path, so a bad or
// missing field is reported as one line naming it (the CLI's exit-1 contract).
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "fields.h"
#include "pipesim/planner.h"
#include "pipesim/rules.h"
#include "pipesim/schedule.h"

namespace pipesim {
namespace {

// Largest accepted sizes: well past any real run, small enough to stay exact in a double.
constexpr int kMaxGpus = 10'000'000;
constexpr double kMaxParams = kMaxModelParams;
constexpr double kMaxTokens = 1e18;

using detail::FieldReader;

// The object at `key` of `parent` (required), opened with its known fields.
Result<FieldReader> open_object(const FieldReader& parent, const char* key,
                                const std::vector<const char*>& known) {
  if (Status st = parent.require({key}); !st.ok()) return st.error();
  return FieldReader::open(parent.at(key), parent.path(key), key, known);
}

// Reads an integer in [lo, hi]; a missing field is an error unless `fallback` is given.
Status read_int(const FieldReader& f, const char* key, int lo, int hi, int& out,
                std::optional<int> fallback = std::nullopt) {
  if (!f.has(key)) {
    if (fallback) {
      out = *fallback;
      return Ok{};
    }
    return f.require({key});
  }
  return f.read_in(key, lo, hi, out);
}

// Reads a finite number in (0, hi].
Status read_positive(const FieldReader& f, const char* key, double hi, double& out) {
  if (Status st = f.require({key}); !st.ok()) return st;
  double v = 0;
  if (Status st = f.read(key, v); !st.ok()) return st;
  if (!std::isfinite(v) || v <= 0 || v > hi)
    return make_error(Rule::RangePositiveAtMost, f.path(key), {{"field", f.name(key)}, {"max", hi}, {"got", v}});
  out = v;
  return Ok{};
}

Status read_string(const FieldReader& f, const char* key, std::string& out) {
  if (Status st = f.require({key}); !st.ok()) return st;
  if (!f.at(key).is_string() || f.at(key).get<std::string>().empty())
    return make_error(Rule::FieldNonEmptyString, f.path(key),
                      {{"field", f.name(key)}, {"got", detail::describe(f.at(key))}});
  out = f.at(key).get<std::string>();
  return Ok{};
}

Status read_cluster(const FieldReader& root, ClusterSpec& c) {
  auto reader = open_object(
      root, "cluster",
      {"gpus", "gpuModel", "memoryPerGpuGb", "nodes", "gpusPerNode", "interconnectGbpsPerGpu"});
  if (!reader.ok()) return reader.error();
  const FieldReader& j = reader.value();
  for (Status st :
       {read_int(j, "gpus", 1, kMaxGpus, c.gpus), read_string(j, "gpuModel", c.gpu_model),
        read_positive(j, "memoryPerGpuGb", 1e6, c.memory_per_gpu_gb),
        read_int(j, "nodes", 1, kMaxGpus, c.nodes),
        read_int(j, "gpusPerNode", 1, kMaxGpus, c.gpus_per_node),
        read_positive(j, "interconnectGbpsPerGpu", 1e6, c.interconnect_gbps_per_gpu)})
    if (!st.ok()) return st;
  if (static_cast<long long>(c.nodes) * c.gpus_per_node != c.gpus)
    return make_error(Rule::FieldProduct, "/cluster/nodes",
                      {{"field", "cluster.nodes"}, {"other", "cluster.gpusPerNode"},
                       {"target", "cluster.gpus"}, {"value", c.gpus}, {"a", c.nodes},
                       {"b", c.gpus_per_node}});
  return Ok{};
}

Status read_model(const FieldReader& root, ModelSpec& m) {
  auto reader = open_object(root, "model",
                            {"totalParams", "activeParams", "type", "layers", "experts", "expertParallel",
                             "routedParams"});
  if (!reader.ok()) return reader.error();
  const FieldReader& j = reader.value();
  std::string type;
  if (Status st = read_string(j, "type", type); !st.ok()) return st;
  if (type != "dense" && type != "moe") return make_error(Rule::ModelType, "/model/type", {{"got", summary(type)}});
  m.type = type == "moe" ? ModelType::Moe : ModelType::Dense;
  if (Status st = read_positive(j, "totalParams", kMaxParams, m.total_params); !st.ok()) return st;
  if (Status st = read_int(j, "layers", 1, 100'000, m.layers); !st.ok()) return st;
  if (m.type == ModelType::Dense) {
    m.active_params = m.total_params;
    if (j.has("activeParams")) {
      if (Status st = read_positive(j, "activeParams", kMaxParams, m.active_params); !st.ok())
        return st;
      if (m.active_params != m.total_params)
        return make_error(Rule::DenseActiveParams, "/model/activeParams",
                          {{"total", m.total_params}, {"got", m.active_params}});
    }
    // A dense model has no experts to spread; say so rather than quoting a range of one value.
    if (Status st = read_int(j, "experts", 0, 1'000'000, m.experts, 0); !st.ok()) return st;
    if (m.experts != 0)
      return make_error(Rule::DenseOnly, "/model/experts",
                        {{"field", "model.experts"}, {"value", 0}, {"got", m.experts}});
    if (Status st = read_int(j, "expertParallel", 1, kMaxGpus, m.expert_parallel, 1); !st.ok())
      return st;
    if (m.expert_parallel != 1)
      return make_error(Rule::DenseOnly, "/model/expertParallel",
                        {{"field", "model.expertParallel"}, {"value", 1}, {"got", m.expert_parallel}});
    if (j.has("routedParams")) {
      double routed = 0;
      if (Status st = j.read("routedParams", routed); !st.ok()) return st;
      if (routed != 0)
        return make_error(Rule::DenseOnly, "/model/routedParams",
                          {{"field", "model.routedParams"}, {"value", 0}, {"got", routed}});
    }
    return Ok{};
  }
  if (Status st = read_positive(j, "activeParams", kMaxParams, m.active_params); !st.ok()) return st;
  if (m.active_params > m.total_params)
    return make_error(Rule::FieldAtMostField, "/model/activeParams",
                      {{"field", "model.activeParams"}, {"target", "model.totalParams"},
                       {"value", m.total_params}, {"got", m.active_params}});
  if (j.has("routedParams")) {
    if (Status st = read_positive(j, "routedParams", kMaxParams, m.routed_params); !st.ok()) return st;
    if (m.routed_params > m.total_params)
      return make_error(Rule::FieldAtMostField, "/model/routedParams",
                        {{"field", "model.routedParams"}, {"target", "model.totalParams"},
                         {"value", m.total_params}, {"got", m.routed_params}});
  }
  if (Status st = read_int(j, "experts", 2, 1'000'000, m.experts); !st.ok()) return st;
  if (Status st = read_int(j, "expertParallel", 1, m.experts, m.expert_parallel); !st.ok()) return st;
  if (m.experts % m.expert_parallel != 0)
    return make_error(Rule::FieldDivides, "/model/expertParallel",
                      {{"field", "model.expertParallel"}, {"target", "model.experts"},
                       {"value", m.experts}, {"got", m.expert_parallel}});
  return Ok{};
}

Status read_requested(const FieldReader& root, const ClusterSpec& cluster, PlanRequest& r) {
  if (!root.has("requested")) return Ok{};
  auto reader = open_object(root, "requested", {"schedule", "ranks", "microbatches", "chunks"});
  if (!reader.ok()) return reader.error();
  const FieldReader& j = reader.value();
  if (j.has("schedule")) {
    if (Status st = read_string(j, "schedule", r.schedule); !st.ok()) return st;
    if (Status st = check_schedule_name(r.schedule, "/requested/schedule"); !st.ok()) return st;
  }
  // P above 64 is a hard reject, not a bad spec, so ranks may exceed it here; whether it divides
  // the cluster is checked after that reject (make_plan).
  if (Status st = read_int(j, "ranks", 1, cluster.gpus, r.ranks, 0); !st.ok()) return st;
  if (Status st = read_int(j, "chunks", 1, kMaxChunks, r.chunks, 0); !st.ok()) return st;
  return read_int(j, "microbatches", 1, kMaxMicrobatches, r.microbatches, 0);
}

// training: {recipe, zero}, the memory model's accounting (pipesim/memory.h); both optional.
Status read_training(const FieldReader& root, PlanSpec& spec) {
  if (!root.has("training")) return Ok{};
  auto reader = open_object(root, "training", {"recipe", "zero"});
  if (!reader.ok()) return reader.error();
  const FieldReader& j = reader.value();
  if (j.has("recipe")) {
    if (Status st = read_string(j, "recipe", spec.recipe); !st.ok()) return st;
    if (auto recipe = find_recipe(spec.recipe, "/training/recipe"); !recipe.ok()) return recipe.error();
  }
  return read_int(j, "zero", 0, kMaxZeroStage, spec.zero, kPlanDefaultZeroStage);
}

}  // namespace

Result<PlanSpec> plan_spec_from_json(const Json& json) {
  auto reader = FieldReader::open(json, "", "planner spec",
                                  {"title", "cluster", "model", "trainingTokens",
                                   "customAllToAllKernel", "gpuHours", "requested", "training"});
  if (!reader.ok()) return reader.error();
  const FieldReader& f = reader.value();
  PlanSpec spec;
  if (f.has("title"))
    if (Status st = read_string(f, "title", spec.title); !st.ok()) return st.error();
  if (Status st = read_cluster(f, spec.cluster); !st.ok()) return st.error();
  if (Status st = read_model(f, spec.model); !st.ok()) return st.error();
  if (Status st = read_positive(f, "trainingTokens", kMaxTokens, spec.training_tokens); !st.ok())
    return st.error();
  for (Status st : {f.require({"customAllToAllKernel"}),
                    f.read("customAllToAllKernel", spec.custom_all_to_all_kernel)})
    if (!st.ok()) return st.error();
  if (f.has("gpuHours")) {
    double hours = 0;
    if (Status st = read_positive(f, "gpuHours", 1e12, hours); !st.ok()) return st.error();
    spec.gpu_hours = hours;
  }
  if (spec.model.expert_parallel > spec.cluster.gpus)
    return make_error(Rule::FieldAtMostField, "/model/expertParallel",
                      {{"field", "model.expertParallel"}, {"target", "cluster.gpus"},
                       {"value", spec.cluster.gpus}, {"got", spec.model.expert_parallel}});
  if (Status st = read_requested(f, spec.cluster, spec.requested); !st.ok()) return st.error();
  if (Status st = read_training(f, spec); !st.ok()) return st.error();
  return spec;
}

}  // namespace pipesim
