// params: a model's parameter breakdown and, for every catalogue schedule, what one GPU holds of
// it: a view of the memory model (pipesim/memory.h), one request per schedule that differs only
// in the schedule, so every row shares the recipe, sharding and layout and says so once.
#include <string>

#include "fields.h"
#include "memory/model_json.h"
#include "pipesim/exercises.h"
#include "pipesim/rules.h"

namespace pipesim {

MemoryRequest params_memory_request(const ParamsRequest& r, const std::string& schedule) {
  MemoryRequest q;
  q.model = memory_model_of(r.model);
  q.recipe = r.recipe;
  q.zero = r.zero;
  q.layout.tp = r.tp;
  q.layout.pp = r.pp;
  q.layout.ep = r.ep;
  q.layout.dp = r.dp;
  q.schedule = schedule;
  q.gpu_memory_gb = r.gpu_memory_gb;
  return q;
}

Status validate_params(const ParamsRequest& r) {
  if (r.model.name == "custom")
    if (Status st = validate_model(r.model); !st.ok()) return st;
  // The memory model's own checks; a params request names the layout's fields at its top level.
  if (Status st = validate_memory(params_memory_request(r, "1f1b")); !st.ok()) {
    Error e = st.error();
    if (e.path.rfind("/layout/", 0) == 0) e.path = e.path.substr(7);
    return e;
  }
  return Ok{};
}

namespace {

// params() for a request validate_params accepted. Every schedule of the catalogue, laid out
// as its StageLayout says (tests/core/params_test.cpp checks the layouts against simulate).
ParamsResult params_valid(const ParamsRequest& r) {
  ParamsResult out;
  out.request = r;
  out.count = count_params(r.model);
  for (const ScheduleInfo& info : list_schedules())
    out.schedules.push_back({info.name, memory_of(params_memory_request(r, info.name), 0)});
  // The lesson's question: what DualPipe's second copy costs over 1F1B.
  const auto footprint = [&](const char* name) -> const MemoryResult& {
    for (const ScheduleFootprint& f : out.schedules)
      if (f.schedule == name) return f.memory;
    PIPESIM_CHECK(false, "the catalogue lists 1f1b and dualpipe");
    return out.schedules.front().memory;
  };
  const MemoryResult& one_f_one_b = footprint("1f1b");
  const MemoryResult& dualpipe = footprint("dualpipe");
  out.overhead_params_per_gpu = dualpipe.held.total() - one_f_one_b.held.total();
  out.overhead_bytes_per_gpu = dualpipe.states.total() - one_f_one_b.states.total();
  out.overhead_share_of_model = out.overhead_params_per_gpu / static_cast<double>(out.count.total);
  out.overhead_share_of_gpu_memory = out.overhead_bytes_per_gpu / (r.gpu_memory_gb * 1e9);
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
      {"model", "custom", "pp", "tp", "ep", "dp", "recipe", "zero", "gpuMemoryGb"});
  if (!fields.ok()) return fields.error();
  const FieldReader& f = fields.value();
  if (Status st = f.require({"model", "pp"}); !st.ok()) return st.error();
  ParamsRequest r;
  auto model = detail::read_model(f);
  if (!model.ok()) return model.error();
  r.model = model.value();
  for (Status st : {f.read("pp", r.pp), f.read("tp", r.tp), f.read("ep", r.ep), f.read("dp", r.dp),
                    f.read("recipe", r.recipe), f.read("zero", r.zero),
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

}  // namespace

Json params_result_to_json(const ParamsResult& r) {
  Json j;
  j["model"] = detail::model_to_json(r.request.model);
  j["totalParams"] = r.count.total;
  j["routedParams"] = r.count.routed;
  j["nonRoutedParams"] = r.count.total - r.count.routed;
  j["breakdown"] = parts_to_json(r.count.breakdown);
  j["excluded"] = parts_to_json(r.count.excluded);
  j["pp"] = r.request.pp;
  j["tp"] = r.request.tp;
  j["ep"] = r.request.ep;
  j["dp"] = r.request.dp;
  j["recipe"] = r.request.recipe;
  j["zero"] = r.request.zero;
  j["gpuMemoryGb"] = r.request.gpu_memory_gb;
  Json schedules = Json::object();
  for (const ScheduleFootprint& f : r.schedules) {
    const MemoryResult& m = f.memory;
    schedules[f.schedule] = Json{{"stages", m.stages},
                                 {"stagesPerRank", m.stages_per_rank},
                                 {"paramCopies", m.param_copies},
                                 {"paramsPerGpu", m.held.total()},
                                 {"weightBytesPerGpu", m.states.weights},
                                 {"gradientBytesPerGpu", m.states.gradients},
                                 {"masterBytesPerGpu", m.states.master_weights},
                                 {"optimizerBytesPerGpu", m.states.optimizer_states},
                                 {"bytesPerGpu", m.states.total()},
                                 {"shareOfGpuMemory", m.share_of_gpu_memory}};
  }
  j["schedules"] = std::move(schedules);
  j["dualpipeOverhead"] = Json{{"paramsPerGpu", r.overhead_params_per_gpu},
                               {"bytesPerGpu", r.overhead_bytes_per_gpu},
                               {"shareOfModel", r.overhead_share_of_model},
                               {"shareOfGpuMemory", r.overhead_share_of_gpu_memory}};
  // One accounting for every row: the first schedule's assumptions without its own copies.
  Json assumptions = memory_result_to_json(r.schedules.front().memory).at("assumptions");
  assumptions.erase("copies");
  j["assumptions"] = std::move(assumptions);
  return j;
}

}  // namespace pipesim
