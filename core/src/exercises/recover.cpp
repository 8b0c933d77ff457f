// recover: utilisation of two schedules on the same shape and the GPU-hours per million tokens the
// better one saves, given the cost of the better run (definition in pipesim/exercises.h).
#include <string>

#include "fields.h"
#include "pipesim/exercises.h"
#include "pipesim/schedule.h"
#include "simulate_valid.h"

namespace pipesim {
namespace {

SimConfig run_config(const RecoverRequest& r, const std::string& schedule) {
  return SimConfig{schedule, r.ranks, r.microbatches, r.costs};
}

// The shape rules are the schedules' own (validate); the schedule field is ours, /from or /to.
Status check_run(const RecoverRequest& r, const std::string& field) {
  const std::string& name = field == "from" ? r.from : r.to;
  if (Status st = check_schedule_name(name, "/" + field); !st.ok()) return st;
  Status st = validate(run_config(r, name));
  if (!st.ok() && st.error().path == "/schedule") {
    Error e = st.error();
    e.path = "/" + field;
    return e;
  }
  return st;
}

}  // namespace

double gpu_hours_saved(double cost_to, double utilization_from, double utilization_to) {
  // Same useful work H in both runs: H = cost_to x u_to, so the `from` run costs H / u_from.
  return cost_to * (utilization_to / utilization_from - 1);
}

Status validate_recover(const RecoverRequest& r) {
  if (Status st = check_run(r, "from"); !st.ok()) return st;
  if (Status st = check_run(r, "to"); !st.ok()) return st;
  return detail::positive_number(r.gpu_hours_per_million_tokens, 1e9, "gpuHoursPerMillionTokens",
                                 "/gpuHoursPerMillionTokens");
}

namespace {

// recover() for a request validate_recover accepted.
Result<RecoverResult> recover_valid(const RecoverRequest& r) {
  auto from = detail::simulate_valid(run_config(r, r.from));
  if (!from.ok()) return from.error();
  auto to = detail::simulate_valid(run_config(r, r.to));
  if (!to.ok()) return to.error();
  RecoverResult out;
  out.request = r;
  out.makespan_from = from.value().makespan;
  out.makespan_to = to.value().makespan;
  out.utilization_from = from.value().utilization;
  out.utilization_to = to.value().utilization;
  out.utilization_gain = out.utilization_to - out.utilization_from;
  const double saved =
      gpu_hours_saved(r.gpu_hours_per_million_tokens, out.utilization_from, out.utilization_to);
  out.gpu_hours_per_million_tokens_from = r.gpu_hours_per_million_tokens + saved;
  out.recovered_gpu_hours_per_million_tokens = saved;
  return out;
}

}  // namespace

Result<RecoverResult> recover(const RecoverRequest& r) {
  if (Status st = validate_recover(r); !st.ok()) return st.error();
  return recover_valid(r);
}

Result<RecoverRequest> recover_request_from_json(const Json& json) {
  auto fields = detail::FieldReader::open(
      json, "", "recover request",
      {"ranks", "microbatches", "from", "to", "costs", "gpuHoursPerMillionTokens"});
  if (!fields.ok()) return fields.error();
  const detail::FieldReader& f = fields.value();
  if (Status st = f.require({"ranks", "microbatches", "from", "to"}); !st.ok()) return st.error();
  RecoverRequest r;
  for (Status st : {f.read("ranks", r.ranks), f.read("microbatches", r.microbatches),
                    f.read("from", r.from), f.read("to", r.to),
                    f.read("gpuHoursPerMillionTokens", r.gpu_hours_per_million_tokens)})
    if (!st.ok()) return st.error();
  if (f.has("costs")) {
    auto costs = costs_from_json(f.at("costs"), f.path("costs"));
    if (!costs.ok()) return costs.error();
    r.costs = costs.value();
  }
  if (Status st = validate_recover(r); !st.ok()) return st.error();
  return r;
}

Result<RecoverResult> recover_request(const Json& json) {
  auto request = recover_request_from_json(json);
  if (!request.ok()) return request.error();
  return recover_valid(request.value());
}

Json recover_result_to_json(const RecoverResult& r) {
  Json j;
  j["ranks"] = r.request.ranks;
  j["microbatches"] = r.request.microbatches;
  j["from"] = r.request.from;
  j["to"] = r.request.to;
  j["costs"] = costs_to_json(r.request.costs);
  j["gpuHoursPerMillionTokens"] = r.request.gpu_hours_per_million_tokens;
  j["makespanFrom"] = r.makespan_from;
  j["makespanTo"] = r.makespan_to;
  j["utilizationFrom"] = r.utilization_from;
  j["utilizationTo"] = r.utilization_to;
  j["utilizationGain"] = r.utilization_gain;
  j["gpuHoursPerMillionTokensFrom"] = r.gpu_hours_per_million_tokens_from;
  j["recoveredGpuHoursPerMillionTokens"] = r.recovered_gpu_hours_per_million_tokens;
  j["definition"] =
      "recovered = gpuHoursPerMillionTokens x (utilizationTo / utilizationFrom - 1): the baseline "
      "is the cost of the 'to' run; the same useful work at utilizationFrom costs baseline x "
      "utilizationTo / utilizationFrom";
  return j;
}

}  // namespace pipesim
