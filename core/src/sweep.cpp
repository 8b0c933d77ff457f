// Sweeps over schedules x ranks x micro-batches. Each cell is an ordinary simulate() call
// without the timeline, so a sweep's numbers are exactly those of single simulations.
#include "pipesim/sweep.h"

#include <cctype>

#include "pipesim/engine.h"
#include "schedules/registry.h"
#include "simulate_in.h"

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
    return Error{ErrorCode::InvalidConfig,
                 "microbatches entries must be positive integers or multiples of ranks like \"4R\" (got \"" +
                     text + "\")",
                 path};
  spec.value = std::stoi(digits);
  return spec;
}

Status validate_sweep(const SweepRequest& req) {
  if (req.schedules.empty() || req.ranks.empty() || req.microbatches.empty())
    return Error{ErrorCode::InvalidConfig, "a sweep needs at least one schedule, one ranks value and one microbatches value", ""};
  for (std::size_t i = 0; i < req.schedules.size(); ++i)
    if (detail::find_schedule(req.schedules[i]) == nullptr)
      return Error{ErrorCode::UnknownSchedule, "unknown schedule \"" + req.schedules[i] + "\"",
                   "/schedules/" + std::to_string(i)};
  for (std::size_t i = 0; i < req.ranks.size(); ++i)
    if (req.ranks[i] < 1 || req.ranks[i] > kMaxRanks)
      return Error{ErrorCode::InvalidConfig,
                   "ranks must be integers in [1, " + std::to_string(kMaxRanks) + "] (got " +
                       std::to_string(req.ranks[i]) + ")",
                   "/ranks/" + std::to_string(i)};
  if (Status st = validate_costs(req.costs); !st.ok()) return st;
  const std::int64_t cells = static_cast<std::int64_t>(req.schedules.size()) * req.ranks.size() *
                             req.microbatches.size();
  if (cells > kMaxSweepCells)
    return Error{ErrorCode::TooLarge,
                 "a sweep may have at most " + std::to_string(kMaxSweepCells) + " cells (got " +
                     std::to_string(cells) + ")",
                 ""};
  std::int64_t ops = 0;
  for (const auto& name : req.schedules)
    for (int r : req.ranks)
      for (const auto& m : req.microbatches) {
        const std::int64_t mb = static_cast<std::int64_t>(m.value) * (m.per_rank ? r : 1);
        if (mb > kMaxMicrobatches) continue;  // reported per row
        SimConfig c{name, r, static_cast<int>(mb), req.costs};
        const std::int64_t cell_ops = detail::find_schedule(name)->estimate_ops(c);
        if (cell_ops <= kMaxOps) ops += cell_ops;  // larger cells fail alone with too_large
      }
  if (ops > kMaxSweepOps)
    return Error{ErrorCode::TooLarge,
                 "the sweep would simulate about " + std::to_string(ops) + " ops, above the limit of " +
                     std::to_string(kMaxSweepOps),
                 ""};
  return Ok{};
}

Result<std::vector<SweepRow>> run_sweep(const SweepRequest& req) {
  if (Status st = validate_sweep(req); !st.ok()) return st.error();
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
        auto result = detail::simulate_in(SimConfig{name, r, row.microbatches, req.costs},
                                          SimOptions{false}, workspace);
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
          row.param_copies = s.param_copies;
        }
        rows.push_back(std::move(row));
      }
  return rows;
}

Result<SweepRequest> sweep_from_json(const Json& json) {
  if (!json.is_object())
    return Error{ErrorCode::InvalidConfig, "sweep must be a JSON object", ""};
  for (const auto& item : json.items())
    if (item.key() != "schedules" && item.key() != "ranks" && item.key() != "microbatches" &&
        item.key() != "costs")
      return Error{ErrorCode::InvalidConfig, "unknown field \"" + item.key() + "\"", "/" + item.key()};
  SweepRequest req;
  for (const char* key : {"schedules", "ranks", "microbatches"})
    if (!json.contains(key) || !json.at(key).is_array())
      return Error{ErrorCode::InvalidConfig, std::string(key) + " must be an array", std::string("/") + key};
  const Json& names = json.at("schedules");
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (!names[i].is_string())
      return Error{ErrorCode::InvalidConfig, "schedules entries must be strings", "/schedules/" + std::to_string(i)};
    req.schedules.push_back(names[i].get<std::string>());
  }
  const Json& ranks = json.at("ranks");
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    auto v = int_from_json(ranks[i], "/ranks/" + std::to_string(i), "ranks entries");
    if (!v.ok()) return v.error();
    req.ranks.push_back(v.value());
  }
  const Json& mbs = json.at("microbatches");
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
  if (json.contains("costs")) {
    auto costs = costs_from_json(json.at("costs"), "/costs");
    if (!costs.ok()) return costs.error();
    req.costs = costs.value();
  }
  if (Status st = validate_sweep(req); !st.ok()) return st.error();
  return req;
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
      j["paramCopies"] = r.param_copies;
    }
    out.push_back(std::move(j));
  }
  return Json{{"rows", std::move(out)}};
}

}  // namespace pipesim
