// Command-line flag parsing for the pipesim CLI: "--name value" or "--name=value", each flag at
// most once, unknown flags rejected. Values are converted with messages in the same words as
// the JSON errors, so a user sees the same rule whichever way they called us.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "pipesim/config.h"
#include "pipesim/error.h"
#include "pipesim/json.h"
#include "pipesim/sweep.h"

namespace pipesim::cli {

class Args {
 public:
  /// Parses argv[first..]; `allowed` lists flag names without "--", `switches` the flags that
  /// take no value ("--a2a-overlap"), which has() then reports.
  static Result<Args> parse(const std::vector<std::string>& argv, const std::vector<std::string>& allowed,
                            const std::vector<std::string>& switches = {});

  bool has(const std::string& name) const { return values_.count(name) != 0; }
  std::string get(const std::string& name, const std::string& fallback) const;
  Result<int> get_int(const std::string& name, const std::string& field, int fallback) const;
  Result<double> get_number(const std::string& name, const std::string& field, double fallback) const;
  /// --format's value, one of `allowed` (the first is the default).
  Result<std::string> format(const std::vector<std::string>& allowed) const;
  /// The text of --input: a file, or standard input for "-" (the default), of at most `limit`
  /// bytes (input.too_large beyond).
  Result<std::string> read_input(std::int64_t limit = kMaxInputBytes) const;
  /// cli.flag_with_input for the first of `flags` given beside --input.
  Status reject_with_input(const std::vector<std::string>& flags) const;
  /// cli.flag_missing for the first of `flags` not given.
  Status require(const std::vector<std::string>& flags) const;
  /// "a,b,c" split on commas; an empty entry ("a,,b", ",", "") is cli.list_empty_entry for `field`.
  Result<std::vector<std::string>> get_list(const std::string& name, const std::string& field,
                                            const std::string& fallback) const;
  /// Cost flags --forward --backward --weight --overlapped --p2p-latency over the defaults, and
  /// the communication model's ratio form: --comm-ratio [--attn-share] [--comm-layers], and
  /// --stage-costs (parse_stage_costs).
  Result<Costs> get_costs() const;

 private:
  std::map<std::string, std::string> values_;
};

/// Removes `--name value` (or `--name=value`) from `argv`, walking it as Args::parse does (a
/// flag without '=' takes the next argument as its value, unless it is one of `switches`), and
/// returns the value, or nullopt when absent; cli.flag_needs_value or cli.flag_twice as
/// Args::parse would say them.
Result<std::optional<std::string>> take_flag(std::vector<std::string>& argv, const std::string& name,
                                             const std::vector<std::string>& switches = {});

/// The text of a file, or of standard input for "-", up to `limit` bytes.
Result<std::string> read_text_source(const std::string& source, std::int64_t limit = kMaxInputBytes);

/// --stage-costs' value over `costs`: stages separated by commas, each F/B/W/F&B with any field
/// left empty or off the end taking costs' value and an optional xN repeating it N times
/// ("0.75/1.5,1x14,1.5/3"), or a .json file holding the stageCosts array (or a config with one).
/// Ranges are validate_costs' job.
Result<std::vector<StageCost>> parse_stage_costs(const std::string& text, const Costs& costs);

/// The flags every cost-model command accepts.
const std::vector<std::string>& cost_flags();

/// "4,8,16" or "4:64:2" (from:to:step, inclusive) -> integers; errors name `field`. An empty
/// entry ("4,,8") is cli.list_empty_entry, a malformed one ("4:", "a") cli.int_list.
Result<std::vector<int>> parse_int_list(const std::string& text, const std::string& field);

/// "8,16,2R,4R" or "8:64:8" -> micro-batch specs.
Result<std::vector<MicrobatchSpec>> parse_microbatch_list(const std::string& text);

}  // namespace pipesim::cli
