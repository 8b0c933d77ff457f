// Sweeps over schedules x ranks x micro-batches. Each cell is an ordinary simulate() call
// without the timeline, so a sweep's numbers are exactly those of single simulations.
#include "pipesim/sweep.h"

#include <cctype>

#include "fields.h"
#include "pipesim/engine.h"
#include "pipesim/rules.h"
#include "simulate_valid.h"

namespace pipesim {

Result<MicrobatchSpec> parse_microbatch_spec(const std::string& text, const std::string& path) {
  MicrobatchSpec spec;
  std::string digits = text;
  if (!digits.empty() && (digits.back() == 'R' || digits.back() == 'r')) {
    spec.per_rank = true;
    digits.pop_back();
  }
  const bool all_digits = !digits.empty() && digits.size() <= 9 &&
                          digits.find_first_not_of("0123456789") == std::string::npos;
  if (!all_digits || std::stoi(digits) < 1)
    return make_error(Rule::SweepMicrobatchSpec, path, {{"got", summary(text)}});
  spec.value = std::stoi(digits);
  return spec;
}

namespace {

// The config of one cell: the request's chunks only where the schedule takes them.
SimConfig cell_config(const SweepRequest& req, const std::string& name, int ranks, int microbatches) {
  SimConfig config{name, ranks, microbatches, req.costs};
  if (find_schedule_info(name)->chunks.taken()) config.chunks = req.chunks;
  return config;
}

}  // namespace

Status validate_sweep(const SweepRequest& req) {
  if (req.schedules.empty() || req.ranks.empty() || req.microbatches.empty())
    return make_error(Rule::SweepEmpty, "");
  for (std::size_t i = 0; i < req.schedules.size(); ++i)
    if (find_schedule_info(req.schedules[i]) == nullptr)
      return make_error(Rule::SweepScheduleUnknown, "/schedules/" + std::to_string(i),
                        {{"got", summary(req.schedules[i])}});
  for (std::size_t i = 0; i < req.ranks.size(); ++i)
    if (req.ranks[i] < 1 || req.ranks[i] > kMaxRanks)
      return make_error(Rule::RangeIntegers, "/ranks/" + std::to_string(i),
                        {{"field", "ranks"}, {"min", 1}, {"max", kMaxRanks}, {"got", req.ranks[i]}});
  if (Status st = validate_costs(req.costs); !st.ok()) return st;
  if (req.chunks != 0)
    if (Status st = detail::int_in_range(req.chunks, 1, kMaxChunks, "chunks", "/chunks"); !st.ok())
      return st;
  const std::int64_t cells = static_cast<std::int64_t>(req.schedules.size()) * req.ranks.size() *
                             req.microbatches.size();
  if (cells > kMaxSweepCells)
    return make_error(Rule::SweepTooManyCells, "", {{"limit", kMaxSweepCells}, {"got", cells}});
  std::int64_t ops = 0;
  for (const auto& name : req.schedules)
    for (int r : req.ranks)
      for (const auto& m : req.microbatches) {
        const std::int64_t mb = static_cast<std::int64_t>(m.value) * (m.per_rank ? r : 1);
        if (mb > kMaxMicrobatches) continue;  // reported per row
        const ScheduleInfo& info = *find_schedule_info(name);
        const std::int64_t cell_ops = estimate_ops(
            info, r, mb, effective_chunks(info, cell_config(req, name, r, 1)));
        if (cell_ops <= kMaxOps) ops += cell_ops;  // larger cells fail alone with too_large
      }
  if (ops > kMaxSweepOps)
    return make_error(Rule::SweepTooManyOps, "", {{"ops", ops}, {"limit", kMaxSweepOps}});
  return Ok{};
}

namespace {

// Runs a request validate_sweep accepted: each cell's shape is checked, its costs are not again.
std::vector<SweepRow> run_valid_sweep(const SweepRequest& req) {
  std::vector<SweepRow> rows;
  detail::SimWorkspace workspace;  // one set of buffers for every cell
  for (const auto& name : req.schedules)
    for (int r : req.ranks)
      for (const auto& m : req.microbatches) {
        SweepRow row;
        row.schedule = name;
        row.ranks = r;
        const std::int64_t mb = static_cast<std::int64_t>(m.value) * (m.per_rank ? r : 1);
        row.microbatches = mb > kMaxMicrobatches ? kMaxMicrobatches + 1 : static_cast<int>(mb);
        const SimConfig config = cell_config(req, name, r, row.microbatches);
        const Status shape = detail::validate_config(config, true);
        const Result<SimResult> result = shape.ok() ? detail::simulate_valid(config, SimOptions{TimelineForm::None}, workspace)
                                                    : Result<SimResult>(shape.error());
        row.ok = result.ok();
        if (!row.ok) {
          row.error = result.error();
        } else {
          const SimResult& s = result.value();
          row.stages = s.stages;
          row.makespan = s.makespan;
          row.bubble_max = s.bubble_max;
          row.bubble_fraction = s.bubble_fraction;
          row.utilization = s.utilization;
          row.max_peak_activations = s.max_peak_activations;
          row.max_peak_activation_memory = s.max_peak_activation_memory;
          row.param_copies = s.param_copies;
        }
        rows.push_back(std::move(row));
      }
  return rows;
}

}  // namespace

Result<std::vector<SweepRow>> run_sweep(const SweepRequest& req) {
  if (Status st = validate_sweep(req); !st.ok()) return st.error();
  return run_valid_sweep(req);
}

Result<SweepRequest> sweep_from_json(const Json& json) {
  if (!json.is_object()) return make_error(Rule::SweepNotObject, "");
  auto fields = detail::FieldReader::open(
      json, "", "sweep", {"schedules", "ranks", "microbatches", "costs", "stageCosts", "chunks"});
  if (!fields.ok()) return fields.error();
  const detail::FieldReader& f = fields.value();
  for (const char* key : {"schedules", "ranks", "microbatches"})
    if (!f.has(key) || !f.at(key).is_array())
      return make_error(Rule::FieldArray, f.path(key), {{"field", key}});
  SweepRequest req;
  const Json& names = f.at("schedules");
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (!names[i].is_string())
      return make_error(Rule::FieldStrings, "/schedules/" + std::to_string(i), {{"field", "schedules"}});
    req.schedules.push_back(names[i].get<std::string>());
  }
  const Json& ranks = f.at("ranks");
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    auto v = int_from_json(ranks[i], "/ranks/" + std::to_string(i), "ranks entries");
    if (!v.ok()) return v.error();
    req.ranks.push_back(v.value());
  }
  const Json& mbs = f.at("microbatches");
  for (std::size_t i = 0; i < mbs.size(); ++i) {
    const std::string path = "/microbatches/" + std::to_string(i);
    if (mbs[i].is_string()) {
      auto spec = parse_microbatch_spec(mbs[i].get<std::string>(), path);
      if (!spec.ok()) return spec.error();
      req.microbatches.push_back(spec.value());
    } else {
      auto v = int_from_json(mbs[i], path, "microbatches entries");
      if (!v.ok()) return v.error();
      req.microbatches.push_back(MicrobatchSpec{v.value(), false});
    }
  }
  if (f.has("costs")) {
    auto costs = costs_from_json(f.at("costs"), f.path("costs"));
    if (!costs.ok()) return costs.error();
    req.costs = costs.value();
  }
  if (f.has("stageCosts")) {  // each cell checks their count against its own stages
    auto stages = stage_costs_from_json(f.at("stageCosts"), f.path("stageCosts"), req.costs);
    if (!stages.ok()) return stages.error();
    req.costs.stages = std::move(stages).value();
  }
  if (Status st = f.read("chunks", req.chunks); !st.ok()) return st.error();
  if (Status st = validate_sweep(req); !st.ok()) return st.error();
  return req;
}

Result<std::vector<SweepRow>> sweep_request(const Json& json) {
  auto request = sweep_from_json(json);
  if (!request.ok()) return request.error();
  return run_valid_sweep(request.value());
}

Json sweep_to_json(const std::vector<SweepRow>& rows) {
  Json out = Json::array();
  for (const SweepRow& r : rows) {
    Json j{{"schedule", r.schedule}, {"ranks", r.ranks}, {"microbatches", r.microbatches}, {"ok", r.ok}};
    if (!r.ok) {
      j["error"] = error_to_json(r.error);
    } else {
      j["stages"] = r.stages;
      j["makespan"] = r.makespan;
      j["bubbleMax"] = r.bubble_max;
      j["bubbleFraction"] = r.bubble_fraction;
      j["utilization"] = r.utilization;
      j["maxPeakActivations"] = r.max_peak_activations;
      j["maxPeakActivationMemory"] = r.max_peak_activation_memory;
      j["paramCopies"] = r.param_copies;
    }
    out.push_back(std::move(j));
  }
  return Json{{"rows", std::move(out)}};
}

}  // namespace pipesim
