// The JSON schema shared by the CLI, the WASM module and the page (documented in docs/schema.md).
// Input is parsed by hand, field by field, so every error carries a JSON pointer and names the
// value it got; output uses ordered objects so the bytes are the same on every platform.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "pipesim/config.h"
#include "pipesim/engine.h"
#include "pipesim/error.h"

namespace pipesim {

using Json = nlohmann::ordered_json;

/// Bounds on every JSON input (the catalogue's limits, docs/schema.md "Input limits"). Text longer
/// than kMaxInputBytes is refused before it is parsed (the CLI stops reading there); arrays and
/// objects may nest kMaxJsonDepth levels (the input's own array or object is level 1), so no
/// parser, message or copy ever recurses deeper.
inline constexpr std::int64_t kMaxInputBytes = 16 * 1024 * 1024;
inline constexpr int kMaxJsonDepth = 64;
/// An error's path (a JSON pointer) stops at the deepest ancestor whose pointer fits in this many
/// bytes, so a long key never makes a long error.
inline constexpr int kMaxPathBytes = 256;

/// Parses text as JSON. Errors: too_large (input.too_large) above kMaxInputBytes; parse_error
/// for text that is not JSON (json.invalid, with nlohmann's position), arrays and objects nested
/// deeper than kMaxJsonDepth (json.too_deep) and an object with a key twice (json.duplicate_key),
/// each at the JSON pointer where it happens. Iterative: any input takes time and memory
/// proportional to its length.
Result<Json> parse_json(const std::string& text);

/// `text` as a JSON number if it is exactly one JSON number literal (-12, 8.0, 1e-3: no
/// whitespace, sign other than a leading minus, hex, inf or nan), else nothing. The CLI reads
/// numeric flags with it, so a flag and a JSON field accept the same numbers.
std::optional<Json> parse_json_number(const std::string& text);

/// `parent` + "/" + `key` as a JSON pointer (RFC 6901: "~" -> "~0", "/" -> "~1"), or `parent`
/// itself if that would exceed kMaxPathBytes.
std::string json_pointer_child(const std::string& parent, const std::string& key);

/// Reads a config object {schedule, ranks, microbatches, costs{...}, stageCosts?[...]}. schedule,
/// ranks and microbatches are required; missing costs take the Costs defaults. Unknown fields are errors
/// (a typo must not silently fall back to a default). Runs validate() too.
Result<SimConfig> config_from_json(const Json& json);
Result<SimConfig> config_from_json_text(const std::string& text);

/// Reads only the costs object at `path` (e.g. "/costs"); used by sweeps and exercises.
Result<Costs> costs_from_json(const Json& json, const std::string& path);

/// Reads the per-stage cost list at `path` ("/stageCosts"): an array of 1 to kMaxStages objects
/// {"forward"?, "backward"?, "weight"?, "overlapped"?}, a field left out taking `costs`' value.
/// The ranges are checked by validate_costs (pipesim/stage_costs.h).
Result<std::vector<StageCost>> stage_costs_from_json(const Json& json, const std::string& path,
                                                     const Costs& costs);
/// [{"forward","backward","weight","overlapped"}, ...]
Json stage_costs_to_json(const std::vector<StageCost>& stages);

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
/// Exactly result_to_json(result).dump(), written without building the timeline's JSON tree: the
/// timeline is most of a large result, and as a tree it costs ~10x its text in memory and time.
/// The stream form writes in blocks of 64 KB, so memory does not grow with the text.
std::string result_json_text(const SimResult& result);
void write_result_json(const SimResult& result, std::ostream& out);
/// {"code","message","path","rule","params"}
Json error_to_json(const Error& error);

}  // namespace pipesim
