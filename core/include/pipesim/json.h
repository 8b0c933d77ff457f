// The JSON schema shared by the CLI, the WASM module and the page (documented in docs/schema.md).
// Input is parsed by hand, field by field, so every error carries a JSON pointer and names the
// value it got; output uses ordered objects so the bytes are the same on every platform.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "pipesim/config.h"
#include "pipesim/engine.h"
#include "pipesim/error.h"

namespace pipesim {

using Json = nlohmann::ordered_json;

/// Parses text as JSON. Errors: parse_error with the position nlohmann reports.
Result<Json> parse_json(const std::string& text);

/// Reads a config object {schedule, ranks, microbatches, costs{...}}. schedule, ranks and
/// microbatches are required; missing costs take the Costs defaults. Unknown fields are errors
/// (a typo must not silently fall back to a default). Runs validate() too.
Result<SimConfig> config_from_json(const Json& json);
Result<SimConfig> config_from_json_text(const std::string& text);

/// Reads only the costs object at `path` (e.g. "/costs"); used by sweeps and exercises.
Result<Costs> costs_from_json(const Json& json, const std::string& path);

/// Reads an integer field: a JSON integer, or a float with no fractional part.
Result<int> int_from_json(const Json& json, const std::string& path, const std::string& name);
/// Reads a finite number field.
Result<double> number_from_json(const Json& json, const std::string& path, const std::string& name);

Json costs_to_json(const Costs& costs);
/// An op's identifying fields as in a timeline entry, without times: {"op","dir","mb","stage","zb"}
/// or {"op":"FB","fdir","fmb","fstage","bdir","bmb","bstage"}.
Json op_fields_to_json(const Op& op);
/// The full result: config, metrics, per-rank stats, reference formula and (optionally) timeline.
Json result_to_json(const SimResult& result, bool with_timeline = true);
/// {"code","message","path"}
Json error_to_json(const Error& error);

}  // namespace pipesim
