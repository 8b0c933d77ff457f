// Hand-written schedules: a user pastes per-rank op lists and the engine runs them like ours.
// Ops are written as the CLI prints them ("F0.3@2", "Bz1.0@5", "W1.0@5", "FB(F0.4@1,B1.0@1)")
// or as the timeline objects of a result ({"op":"F","dir":0,"mb":3,"stage":2}), so a simulated
// timeline can be edited and fed back.
#pragma once

#include <string>

#include "pipesim/engine.h"
#include "pipesim/json.h"

namespace pipesim {

/// Parses one op label; errors name `path`.
Result<Op> parse_op_label(const std::string& label, const std::string& path);

/// Reads {"schedule":"custom","stages":S,"directions":1|2,"microbatches":M (all directions),
/// "rankOps":[[op,...] per rank],"costs":{...}} into a Schedule (not yet checked) and its costs.
/// Bounds: ranks <= kMaxRanks, total ops <= kMaxOps, directions x microbatches x stages <= kMaxOps.
struct CustomRequest {
  Schedule schedule;
  Costs costs;
};
Result<CustomRequest> custom_schedule_from_json(const Json& json);

/// Simulates either kind of request: a built-in schedule config or a custom schedule (when
/// "schedule" is "custom"). What the CLI's --input and the WASM simulate call use (the latter
/// with TimelineForm::Columns).
Result<SimResult> simulate_request(const Json& json, const SimOptions& options = {});

}  // namespace pipesim
