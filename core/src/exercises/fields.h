// Private: reading the exercise calculators' JSON requests field by field, so every message names
// the field (in its JSON spelling), the rule and the value, with a JSON pointer to it.
#pragma once

#include <set>
#include <string>

#include "pipesim/error.h"
#include "pipesim/json.h"

namespace pipesim::detail {

/// invalid_config unless `json` is an object with no keys outside `known`.
Status check_object(const Json& json, const std::string& path, const std::string& name,
                    const std::set<std::string>& known);

/// Reads `key` of `object` into `out` when present; errors name `prefix + key` (e.g.
/// "custom.hidden") at `path + "/" + key`. Absent keys leave `out` unchanged.
Status read_int(const Json& object, const std::string& key, const std::string& path,
                const std::string& prefix, int& out);
Status read_number(const Json& object, const std::string& key, const std::string& path,
                   const std::string& prefix, double& out);
Status read_bool(const Json& object, const std::string& key, const std::string& path,
                 const std::string& prefix, bool& out);
Status read_string(const Json& object, const std::string& key, const std::string& path,
                   const std::string& prefix, std::string& out);

/// "name must be an integer in [lo, hi] (got v)" at `path` unless lo <= v <= hi.
Status int_in_range(int v, int lo, int hi, const std::string& name, const std::string& path);
/// "name must be a finite number > 0 (got v)" / "... <= max" at `path`.
Status positive_number(double v, double max, const std::string& name, const std::string& path);

/// Prefixes an error's path, e.g. "/costs/forward" -> "/config/costs/forward".
Error with_path_prefix(Error error, const std::string& prefix);

}  // namespace pipesim::detail
