// recover: utilisation of two schedules on the same shape and the GPU-hours per million tokens the
// better one saves, given the cost of the better run (definition in pipesim/exercises.h).
#include <algorithm>
#include <string>
#include <vector>

#include "fields.h"
#include "pipesim/exercises.h"
#include "pipesim/schedule.h"
#include "simulate_valid.h"

namespace pipesim {
namespace {

SimConfig run_config(const RecoverRequest& r, const std::string& schedule, int microbatches) {
  return SimConfig{schedule, r.ranks, microbatches, r.costs};
}

SimConfig run_config(const RecoverRequest& r, const std::string& schedule) {
  return run_config(r, schedule, r.microbatches);
}

// Whether both runs of `r` accept `microbatches` (shape rules and size caps alike).
bool both_accept(const RecoverRequest& r, std::int64_t microbatches) {
  if (microbatches < 1 || microbatches > kMaxMicrobatches) return false;
  const int m = static_cast<int>(microbatches);
  return validate(run_config(r, r.from, m)).ok() && validate(run_config(r, r.to, m)).ok();
}

// The smallest M >= `at_least` both runs accept, or 0 when none does up to the point where the
// shape rules must have been met (they repeat every 2 x ranks micro-batches: even, and a
// multiple of ranks) or the size caps refuse.
int next_accepted(const RecoverRequest& r, std::int64_t at_least) {
  for (std::int64_t m = at_least; m <= at_least + 2LL * r.ranks; ++m)
    if (both_accept(r, m)) return static_cast<int>(m);
  return 0;
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
  if (Status st = detail::positive_number(r.gpu_hours_per_million_tokens, 1e9,
                                         "gpuHoursPerMillionTokens", "/gpuHoursPerMillionTokens");
      !st.ok())
    return st;
  if (r.training_tokens)
    return detail::positive_number(*r.training_tokens, kMaxTrainingTokens, "trainingTokens",
                                   "/trainingTokens");
  return Ok{};
}

std::vector<int> recover_microbatch_series(const RecoverRequest& r) {
  std::vector<int> series{r.microbatches};
  // The shape rules' own floor: M >= k x ranks for both schedules, then the next M both accept.
  std::int64_t floor = 1;
  for (const std::string* name : {&r.from, &r.to})
    if (const ScheduleInfo* info = find_schedule_info(*name))
      floor = std::max<std::int64_t>(floor, std::int64_t{info->shape.min_microbatches_per_rank} * r.ranks);
  const int smallest = next_accepted(r, floor);
  if (smallest > 0) {
    // Half-steps on a doubling scale (1, 1.5, 2, 3, ... 8 times the smallest): evenly spread
    // on the log axis the saving falls along, and 8x reaches M where the bubble is a few percent.
    for (int twice : {2, 3, 4, 6, 8, 12, 16}) {
      const int m = next_accepted(r, std::int64_t{smallest} * twice / 2);
      if (m > 0) series.push_back(m);
    }
  }
  std::sort(series.begin(), series.end());
  series.erase(std::unique(series.begin(), series.end()), series.end());
  return series;
}

namespace {

// A saving per million tokens over the request's whole run, when it names one.
std::optional<double> for_run(const RecoverRequest& r, double per_million_tokens) {
  if (!r.training_tokens) return std::nullopt;
  return per_million_tokens * (*r.training_tokens / 1e6);
}

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
  out.recovered_gpu_hours_for_run = for_run(r, saved);
  for (int m : recover_microbatch_series(r)) {
    RecoverPoint point;
    point.microbatches = m;
    if (m == r.microbatches) {
      point.utilization_from = out.utilization_from;
      point.utilization_to = out.utilization_to;
    } else {
      auto from_m = detail::simulate_valid(run_config(r, r.from, m));
      if (!from_m.ok()) return from_m.error();
      auto to_m = detail::simulate_valid(run_config(r, r.to, m));
      if (!to_m.ok()) return to_m.error();
      point.utilization_from = from_m.value().utilization;
      point.utilization_to = to_m.value().utilization;
    }
    point.recovered_gpu_hours_per_million_tokens =
        gpu_hours_saved(r.gpu_hours_per_million_tokens, point.utilization_from, point.utilization_to);
    point.recovered_gpu_hours_for_run = for_run(r, point.recovered_gpu_hours_per_million_tokens);
    out.by_microbatches.push_back(point);
  }
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
      {"ranks", "microbatches", "from", "to", "costs", "gpuHoursPerMillionTokens",
       "trainingTokens"});
  if (!fields.ok()) return fields.error();
  const detail::FieldReader& f = fields.value();
  if (Status st = f.require({"ranks", "microbatches", "from", "to"}); !st.ok()) return st.error();
  RecoverRequest r;
  for (Status st : {f.read("ranks", r.ranks), f.read("microbatches", r.microbatches),
                    f.read("from", r.from), f.read("to", r.to),
                    f.read("gpuHoursPerMillionTokens", r.gpu_hours_per_million_tokens)})
    if (!st.ok()) return st.error();
  if (f.has("trainingTokens")) {
    double tokens = 0;
    if (Status st = f.read("trainingTokens", tokens); !st.ok()) return st.error();
    r.training_tokens = tokens;
  }
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
  const auto or_null = [](const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); };
  j["trainingTokens"] = or_null(r.request.training_tokens);
  j["recoveredGpuHoursForRun"] = or_null(r.recovered_gpu_hours_for_run);
  Json points = Json::array();
  for (const RecoverPoint& p : r.by_microbatches)
    points.push_back({{"microbatches", p.microbatches},
                      {"utilizationFrom", p.utilization_from},
                      {"utilizationTo", p.utilization_to},
                      {"recoveredGpuHoursPerMillionTokens", p.recovered_gpu_hours_per_million_tokens},
                      {"recoveredGpuHoursForRun", or_null(p.recovered_gpu_hours_for_run)}});
  j["byMicrobatches"] = std::move(points);
  j["definition"] =
      "recovered = gpuHoursPerMillionTokens x (utilizationTo / utilizationFrom - 1): the baseline "
      "is the cost of the 'to' run; the same useful work at utilizationFrom costs baseline x "
      "utilizationTo / utilizationFrom. byMicrobatches repeats it at other M (same ranks, costs "
      "and baseline): the saving depends on M, so a whole-run figure holds only at the M and "
      "costs it was computed for";
  return j;
}

}  // namespace pipesim
