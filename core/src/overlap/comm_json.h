// Private: JSON for the communication model, called from json.cpp so the shared schema code
// only gains a few lines. Output appears only when a config uses the model, so results without
// it (and the golden files) keep their exact bytes.
#pragma once

#include <string>

#include "pipesim/comm.h"
#include "pipesim/json.h"

namespace pipesim::detail {

/// Reads costs.comm at `path` (e.g. "/costs/comm"): {"ratio", "attnShare", "layers"} or
/// {"forward":{..}, "backward":{..}, "layers"}. Ranges are validate_comm's job.
Result<CommCosts> comm_from_json(const Json& json, const std::string& path);

/// The input form back, as read.
Json comm_to_json(const CommCosts& comm);

/// {"stream","part","pass","layer","label","start","end"}
Json op_part_to_json(const OpPart& part);

/// [{"part", "label", "layer", "hiddenBy":[{"part", "label", "overlap"}], "exposed"}]: what hides
/// each communication part of `parts` (docs/schema.md).
Json hiding_to_json(const std::vector<PartHiding>& hiding, const std::vector<OpPart>& parts);

/// The result's "comm" object (docs/schema.md "Communication model").
Json comm_result_to_json(const SimResult& result);

}  // namespace pipesim::detail
