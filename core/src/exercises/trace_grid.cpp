// trace: a simulation laid on a grid of equal time slots, for tracing a schedule by hand. Every
// cost (and the p2p latency) must be a whole number of slots, so every op starts and ends on a
// slot boundary and covers whole cells; the check is done in the engine's integer ticks.
#include <cmath>
#include <cstdint>
#include <string>

#include "fields.h"
#include "pipesim/exercises.h"
#include "pipesim/rules.h"
#include "pipesim/schedule.h"
#include "simulate_valid.h"

namespace pipesim {
namespace {

using Tick = std::int64_t;
Tick ticks(double units) { return std::llround(units * kTicksPerUnit); }

Status multiple_of_slot(double value, Tick slot, const std::string& what, const std::string& path,
                        double slot_length) {
  if (ticks(value) % slot == 0) return Ok{};
  return make_error(Rule::TraceSlotMultiple, path, {{"field", what}, {"slot", slot_length}, {"got", value}});
}

// Only the costs of op kinds the schedule actually runs must fit the grid.
Status check_costs_fit(const SimResult& r, const Costs& c, double slot_length) {
  const Tick slot = ticks(slot_length);
  bool forward = false, backward = false, zero_bubble = false, pair = false;
  for (const auto& ops : r.timeline)
    for (const TimedOp& t : ops) {
      const Op& op = t.op;
      forward |= op.kind == OpKind::Forward;
      backward |= op.kind == OpKind::Backward && !op.zero_bubble;
      zero_bubble |= op.kind == OpKind::Backward && op.zero_bubble;
      pair |= op.kind == OpKind::ForwardBackward;
    }
  const std::string p = "/config/costs/";
  if (forward)
    if (Status st = multiple_of_slot(c.forward, slot, "costs.forward", p + "forward", slot_length);
        !st.ok())
      return st;
  if (backward)
    if (Status st =
            multiple_of_slot(c.backward, slot, "costs.backward", p + "backward", slot_length);
        !st.ok())
      return st;
  if (zero_bubble) {
    if (Status st = multiple_of_slot(c.weight, slot, "costs.weight", p + "weight", slot_length);
        !st.ok())
      return st;
    if (Status st =
            multiple_of_slot(c.backward, slot, "costs.backward", p + "backward", slot_length);
        !st.ok())
      return st;
  }
  if (pair)
    if (Status st =
            multiple_of_slot(c.overlapped, slot, "costs.overlapped", p + "overlapped", slot_length);
        !st.ok())
      return st;
  return multiple_of_slot(c.p2p_latency, slot, "costs.p2pLatency", p + "p2pLatency", slot_length);
}

Status validate_slot(const TraceRequest& request) {
  if (Status st =
          detail::positive_number(request.slot_length, kMaxCost, "slotLength", "/slotLength");
      !st.ok())
    return st;
  if (request.slot_length < 1 / kTicksPerUnit)
    return make_error(Rule::RangeResolution, "/slotLength",
                      {{"field", "slotLength"}, {"min", 1 / kTicksPerUnit}, {"got", request.slot_length}});
  return Ok{};
}

// trace_grid() for a request validate_trace accepted.
Result<TraceGrid> trace_valid(const TraceRequest& request) {
  auto sim = detail::simulate_valid(request.config);
  if (!sim.ok()) return detail::with_path_prefix(sim.error(), "/config");
  if (Status st = check_costs_fit(sim.value(), request.config.costs, request.slot_length); !st.ok())
    return st.error();
  TraceGrid grid;
  grid.result = std::move(sim).value();
  grid.slot_length = request.slot_length;
  const Tick slot = ticks(request.slot_length);
  const Tick makespan = ticks(grid.result.makespan);
  PIPESIM_CHECK(makespan % slot == 0, "a makespan of whole-slot ops must be whole slots");
  const std::int64_t slots = makespan / slot;
  const std::int64_t cells = slots * grid.result.config.ranks;
  if (cells > kMaxTraceCells)
    return make_error(Rule::TraceTooLarge, "", {{"cells", cells}, {"limit", kMaxTraceCells}});
  grid.slots = static_cast<int>(slots);
  grid.cells.assign(grid.result.timeline.size(),
                    std::vector<int>(static_cast<std::size_t>(slots), -1));
  for (std::size_t rank = 0; rank < grid.result.timeline.size(); ++rank) {
    const auto& ops = grid.result.timeline[rank];
    for (std::size_t i = 0; i < ops.size(); ++i) {
      const Tick start = ticks(ops[i].start), end = ticks(ops[i].end);
      PIPESIM_CHECK(start % slot == 0 && end % slot == 0,
                    "whole-slot ops must start and end on slots");
      for (Tick t = start / slot; t < end / slot; ++t)
        grid.cells[rank][static_cast<std::size_t>(t)] = static_cast<int>(i);
    }
  }
  for (int t = 0; t < grid.slots && !grid.first_all_busy_slot; ++t) {
    bool all_busy = true;
    for (const auto& row : grid.cells) all_busy = all_busy && row[static_cast<std::size_t>(t)] >= 0;
    if (all_busy) grid.first_all_busy_slot = t;
  }
  return grid;
}

}  // namespace

Result<TraceGrid> trace_grid(const TraceRequest& request) {
  if (Status st = validate_slot(request); !st.ok()) return st.error();
  if (Status st = validate(request.config); !st.ok())
    return detail::with_path_prefix(st.error(), "/config");
  return trace_valid(request);
}

Result<TraceRequest> trace_request_from_json(const Json& json) {
  auto fields = detail::FieldReader::open(json, "", "trace request", {"config", "slotLength"});
  if (!fields.ok()) return fields.error();
  const detail::FieldReader& f = fields.value();
  if (Status st = f.require({"config"}); !st.ok()) return st.error();
  auto config = config_from_json(f.at("config"));
  if (!config.ok()) return detail::with_path_prefix(config.error(), "/config");
  TraceRequest r;
  r.config = config.value();
  if (Status st = f.read("slotLength", r.slot_length); !st.ok()) return st.error();
  if (Status st = validate_slot(r); !st.ok()) return st.error();  // config_from_json checked the rest
  return r;
}

Result<TraceGrid> trace_request(const Json& json) {
  auto request = trace_request_from_json(json);
  if (!request.ok()) return request.error();
  return trace_valid(request.value());
}

namespace {

Json cell_to_json(const TimedOp& t, std::size_t index, int offset) {
  Json j = op_fields_to_json(t.op);
  j["index"] = index;
  j["offset"] = offset;
  return j;
}

}  // namespace

Json trace_grid_to_json(const TraceGrid& g) {
  Json j;
  j["schedule"] = g.result.config.schedule;
  j["ranks"] = g.result.config.ranks;
  j["microbatches"] = g.result.config.microbatches;
  j["costs"] = costs_to_json(g.result.config.costs);
  j["slotLength"] = g.slot_length;
  j["slots"] = g.slots;
  j["firstAllBusySlot"] = g.first_all_busy_slot ? Json(*g.first_all_busy_slot) : Json(nullptr);
  j["bubbleMax"] = g.result.bubble_max;
  Json rows = Json::array();
  for (std::size_t rank = 0; rank < g.cells.size(); ++rank) {
    Json row = Json::array();
    const auto& ops = g.result.timeline[rank];
    for (std::size_t t = 0; t < g.cells[rank].size(); ++t) {
      const int i = g.cells[rank][t];
      if (i < 0) {
        row.push_back(nullptr);
        continue;
      }
      const TimedOp& op = ops[static_cast<std::size_t>(i)];
      const Tick first = ticks(op.start) / ticks(g.slot_length);
      row.push_back(cell_to_json(op, static_cast<std::size_t>(i),
                                 static_cast<int>(static_cast<Tick>(t) - first)));
    }
    rows.push_back(std::move(row));
  }
  j["grid"] = std::move(rows);
  return j;
}

}  // namespace pipesim
