// Reading and checking a planner spec. Every field is read with its own path, so a bad or
// missing field is reported as one line naming it (the CLI's exit-1 contract).
#include <cmath>
#include <set>
#include <string>

#include "format.h"
#include "pipesim/planner.h"
#include "pipesim/schedule.h"

namespace pipesim {
namespace {

using detail::format_number;

// Largest accepted sizes: well past any real run, small enough to stay exact in a double.
constexpr int kMaxGpus = 10'000'000;
constexpr double kMaxParams = 1e16;
constexpr double kMaxTokens = 1e18;

Error field_error(const std::string& path, const std::string& message) {
  return Error{ErrorCode::InvalidConfig, message, path};
}

std::string name_of(const std::string& path) {  // "/cluster/gpus" -> "cluster.gpus"
  std::string name = path.substr(1);
  for (char& ch : name)
    if (ch == '/') ch = '.';
  return name;
}

Status only_fields(const Json& obj, const std::string& path, const std::set<std::string>& known) {
  for (const auto& item : obj.items())
    if (known.count(item.key()) == 0)
      return field_error(path + "/" + item.key(), "unknown field \"" + item.key() + "\"" +
                                                      (path.empty() ? "" : " in " + name_of(path)));
  return Ok{};
}

Status object_at(const Json& parent, const std::string& path, const Json*& out) {
  const std::string key = path.substr(path.rfind('/') + 1);
  if (!parent.contains(key)) return field_error(path, "missing field " + name_of(path));
  out = &parent.at(key);
  if (!out->is_object())
    return field_error(path, name_of(path) + " must be an object (got " + out->dump() + ")");
  return Ok{};
}

// Reads an integer in [lo, hi]; a missing field is an error unless `fallback` is given.
Status read_int(const Json& obj, const std::string& path, int lo, int hi, int& out,
                std::optional<int> fallback = std::nullopt) {
  const std::string key = path.substr(path.rfind('/') + 1);
  if (!obj.contains(key)) {
    if (fallback) {
      out = *fallback;
      return Ok{};
    }
    return field_error(path, "missing field " + name_of(path));
  }
  auto v = int_from_json(obj.at(key), path, name_of(path));
  if (!v.ok()) return v.error();
  if (v.value() < lo || v.value() > hi)
    return field_error(path, name_of(path) + " must be an integer in [" + std::to_string(lo) +
                                 ", " + std::to_string(hi) + "] (got " + std::to_string(v.value()) +
                                 ")");
  out = v.value();
  return Ok{};
}

// Reads a finite number in (0, hi].
Status read_positive(const Json& obj, const std::string& path, double hi, double& out) {
  const std::string key = path.substr(path.rfind('/') + 1);
  if (!obj.contains(key)) return field_error(path, "missing field " + name_of(path));
  auto v = number_from_json(obj.at(key), path, name_of(path));
  if (!v.ok()) return v.error();
  if (!std::isfinite(v.value()) || v.value() <= 0 || v.value() > hi)
    return field_error(path, name_of(path) + " must be a number in (0, " + format_number(hi) +
                                 "] (got " + format_number(v.value()) + ")");
  out = v.value();
  return Ok{};
}

Status read_string(const Json& obj, const std::string& path, std::string& out) {
  const std::string key = path.substr(path.rfind('/') + 1);
  if (!obj.contains(key)) return field_error(path, "missing field " + name_of(path));
  const Json& v = obj.at(key);
  if (!v.is_string() || v.get<std::string>().empty())
    return field_error(path, name_of(path) + " must be a non-empty string (got " + v.dump() + ")");
  out = v.get<std::string>();
  return Ok{};
}

Status read_cluster(const Json& root, ClusterSpec& c) {
  const Json* j = nullptr;
  if (Status st = object_at(root, "/cluster", j); !st.ok()) return st;
  if (Status st = only_fields(
          *j, "/cluster",
          {"gpus", "gpuModel", "memoryPerGpuGb", "nodes", "gpusPerNode", "interconnectGbpsPerGpu"});
      !st.ok())
    return st;
  for (Status st :
       {read_int(*j, "/cluster/gpus", 1, kMaxGpus, c.gpus),
        read_string(*j, "/cluster/gpuModel", c.gpu_model),
        read_positive(*j, "/cluster/memoryPerGpuGb", 1e6, c.memory_per_gpu_gb),
        read_int(*j, "/cluster/nodes", 1, kMaxGpus, c.nodes),
        read_int(*j, "/cluster/gpusPerNode", 1, kMaxGpus, c.gpus_per_node),
        read_positive(*j, "/cluster/interconnectGbpsPerGpu", 1e6, c.interconnect_gbps_per_gpu)})
    if (!st.ok()) return st;
  if (static_cast<long long>(c.nodes) * c.gpus_per_node != c.gpus)
    return field_error(
        "/cluster/nodes",
        "cluster.nodes x cluster.gpusPerNode must equal cluster.gpus = " + std::to_string(c.gpus) +
            " (got " + std::to_string(c.nodes) + " x " + std::to_string(c.gpus_per_node) + ")");
  return Ok{};
}

Status read_model(const Json& root, ModelSpec& m) {
  const Json* j = nullptr;
  if (Status st = object_at(root, "/model", j); !st.ok()) return st;
  if (Status st = only_fields(
          *j, "/model",
          {"totalParams", "activeParams", "type", "layers", "experts", "expertParallel"});
      !st.ok())
    return st;
  std::string type;
  if (Status st = read_string(*j, "/model/type", type); !st.ok()) return st;
  if (type != "dense" && type != "moe")
    return field_error("/model/type",
                       "model.type must be \"dense\" or \"moe\" (got \"" + type + "\")");
  m.type = type == "moe" ? ModelType::Moe : ModelType::Dense;
  if (Status st = read_positive(*j, "/model/totalParams", kMaxParams, m.total_params); !st.ok())
    return st;
  if (Status st = read_int(*j, "/model/layers", 1, 100'000, m.layers); !st.ok()) return st;
  if (m.type == ModelType::Dense) {
    m.active_params = m.total_params;
    if (j->contains("activeParams")) {
      if (Status st = read_positive(*j, "/model/activeParams", kMaxParams, m.active_params);
          !st.ok())
        return st;
      if (m.active_params != m.total_params)
        return field_error(
            "/model/activeParams",
            "model.activeParams must equal model.totalParams = " + format_number(m.total_params) +
                " for a dense model (got " + format_number(m.active_params) + ")");
    }
    // A dense model has no experts to spread; say so rather than quoting a range of one value.
    if (Status st = read_int(*j, "/model/experts", 0, 1'000'000, m.experts, 0); !st.ok()) return st;
    if (m.experts != 0)
      return field_error("/model/experts", "model.experts must be 0 for a dense model (got " +
                                               std::to_string(m.experts) + ")");
    if (Status st = read_int(*j, "/model/expertParallel", 1, kMaxGpus, m.expert_parallel, 1);
        !st.ok())
      return st;
    if (m.expert_parallel != 1)
      return field_error("/model/expertParallel",
                         "model.expertParallel must be 1 for a dense model (got " +
                             std::to_string(m.expert_parallel) + ")");
    return Ok{};
  }
  if (Status st = read_positive(*j, "/model/activeParams", kMaxParams, m.active_params); !st.ok())
    return st;
  if (m.active_params > m.total_params)
    return field_error("/model/activeParams", "model.activeParams must be <= model.totalParams = " +
                                                  format_number(m.total_params) + " (got " +
                                                  format_number(m.active_params) + ")");
  if (Status st = read_int(*j, "/model/experts", 2, 1'000'000, m.experts); !st.ok()) return st;
  if (Status st = read_int(*j, "/model/expertParallel", 1, m.experts, m.expert_parallel); !st.ok())
    return st;
  if (m.experts % m.expert_parallel != 0)
    return field_error(
        "/model/expertParallel",
        "model.expertParallel must divide model.experts = " + std::to_string(m.experts) + " (got " +
            std::to_string(m.expert_parallel) + ")");
  return Ok{};
}

Status read_requested(const Json& root, const ClusterSpec& cluster, PlanRequest& r) {
  if (!root.contains("requested")) return Ok{};
  const Json* j = nullptr;
  if (Status st = object_at(root, "/requested", j); !st.ok()) return st;
  if (Status st = only_fields(*j, "/requested", {"schedule", "ranks", "microbatches"}); !st.ok())
    return st;
  if (j->contains("schedule")) {
    if (Status st = read_string(*j, "/requested/schedule", r.schedule); !st.ok()) return st;
    bool known = false;
    std::string names;
    for (const auto& info : list_schedules()) {
      known = known || info.name == r.schedule;
      names += (names.empty() ? "" : ", ") + info.name;
    }
    if (!known)
      return Error{ErrorCode::UnknownSchedule,
                   "requested.schedule must be one of " + names + " (got \"" + r.schedule + "\")",
                   "/requested/schedule"};
  }
  // P above 64 is a hard reject, not a bad spec, so ranks may exceed it here; whether it divides
  // the cluster is checked after that reject (make_plan).
  if (Status st = read_int(*j, "/requested/ranks", 1, cluster.gpus, r.ranks, 0); !st.ok())
    return st;
  return read_int(*j, "/requested/microbatches", 1, kMaxMicrobatches, r.microbatches, 0);
}

}  // namespace

Result<PlanSpec> plan_spec_from_json(const Json& json) {
  if (!json.is_object())
    return field_error("", "planner spec must be a JSON object (got " + json.dump() + ")");
  if (Status st = only_fields(json, "",
                              {"title", "cluster", "model", "trainingTokens",
                               "customAllToAllKernel", "gpuHours", "requested"});
      !st.ok())
    return st.error();
  PlanSpec spec;
  if (json.contains("title"))
    if (Status st = read_string(json, "/title", spec.title); !st.ok()) return st.error();
  if (Status st = read_cluster(json, spec.cluster); !st.ok()) return st.error();
  if (Status st = read_model(json, spec.model); !st.ok()) return st.error();
  if (Status st = read_positive(json, "/trainingTokens", kMaxTokens, spec.training_tokens);
      !st.ok())
    return st.error();
  if (!json.contains("customAllToAllKernel"))
    return field_error("/customAllToAllKernel", "missing field customAllToAllKernel");
  if (!json.at("customAllToAllKernel").is_boolean())
    return field_error("/customAllToAllKernel", "customAllToAllKernel must be true or false (got " +
                                                    json.at("customAllToAllKernel").dump() + ")");
  spec.custom_all_to_all_kernel = json.at("customAllToAllKernel").get<bool>();
  if (json.contains("gpuHours")) {
    double hours = 0;
    if (Status st = read_positive(json, "/gpuHours", 1e12, hours); !st.ok()) return st.error();
    spec.gpu_hours = hours;
  }
  if (spec.model.expert_parallel > spec.cluster.gpus)
    return field_error(
        "/model/expertParallel",
        "model.expertParallel must be <= cluster.gpus = " + std::to_string(spec.cluster.gpus) +
            " (got " + std::to_string(spec.model.expert_parallel) + ")");
  if (Status st = read_requested(json, spec.cluster, spec.requested); !st.ok()) return st.error();
  return spec;
}

}  // namespace pipesim
