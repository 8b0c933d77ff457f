// Private: the one reader of JSON requests. Every parser (configs, costs and their comm model,
// sweeps, hand-written schedules, the exercise calculators, planner specs) reads its objects
// through FieldReader, so unknown fields, missing fields, types and ranges are reported the same
// way everywhere: a rule of pipesim/rules.h, the field's dotted name ("costs.forward", relative to
// the parsed input) and its JSON pointer.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "pipesim/error.h"
#include "pipesim/json.h"

namespace pipesim::detail {

/// "/costs/comm/forward" -> "costs.comm.forward".
std::string dotted(const std::string& path);

/// A JSON value as messages quote it, in at most kSummaryBytes on one line: strings in quotes
/// (their summary()), numbers as format_number prints them, anything else as compact JSON, an
/// array or object cut to its start and its length ("[1,2,3,... (1000000 items)") when longer.
/// The only way a message quotes a JSON value.
std::string describe(const Json& value);

/// The fields of one JSON object at `path` ("" for the input itself). Absent optional fields
/// leave their target unchanged, so targets carry the defaults.
class FieldReader {
 public:
  /// Checks that `json` is an object with no keys outside `known`. At the root `name` names it
  /// ("config must be a JSON object (got 3)"); below, its dotted path does.
  static Result<FieldReader> open(const Json& json, const std::string& path, const std::string& name,
                                  const std::vector<const char*>& known);

  bool has(const char* key) const { return json_->contains(key); }
  const Json& at(const char* key) const { return json_->at(key); }
  std::string path(const char* key) const { return path_ + "/" + key; }
  std::string name(const char* key) const { return dotted(path(key)); }

  /// field.missing for the first of `keys` that is absent.
  Status require(std::initializer_list<const char*> keys) const;
  Status read(const char* key, int& out) const;          ///< an integer (field.integer...)
  Status read(const char* key, double& out) const;       ///< a number (field.number)
  Status read(const char* key, bool& out) const;         ///< true or false (field.boolean)
  Status read(const char* key, std::string& out) const;  ///< a string (field.string)
  /// An integer in [lo, hi] (range.integer).
  Status read_in(const char* key, int lo, int hi, int& out) const;

 private:
  FieldReader(const Json& json, std::string path) : json_(&json), path_(std::move(path)) {}
  const Json* json_;
  std::string path_;
};

/// range.integer at `path` unless lo <= v <= hi.
Status int_in_range(int v, int lo, int hi, const std::string& name, const std::string& path);
/// range.positive / range.at_most at `path` unless 0 < v <= max.
Status positive_number(double v, double max, const std::string& name, const std::string& path);

/// A cost value: range.positive (or range.non_negative when `may_be_zero`), range.resolution
/// below one tick, range.at_most above kMaxCost, naming `name` at `path`.
Status cost_in_range(double v, bool may_be_zero, const std::string& name, const std::string& path);

/// Prefixes an error's path, e.g. "/costs/forward" -> "/config/costs/forward".
Error with_path_prefix(Error error, const std::string& prefix);

}  // namespace pipesim::detail
