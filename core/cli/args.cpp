// Flag parsing and value conversion for the CLI.
#include "args.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "cli_errors.h"
#include "pipesim/json.h"
#include "pipesim/rules.h"

namespace pipesim::cli {
namespace {

// A flag's number is read as JSON reads it (parse_json_number: the JSON grammar, nothing else),
// so "--ranks 0x10", "--ranks ' 4'" and "--forward inf" fail as they would in a config.
bool parse_int(const std::string& text, long long& out) {
  const auto json = parse_json_number(text);
  if (!json) return false;
  const auto v = int_from_json(*json, "", "");
  if (!v.ok()) return false;
  out = v.value();
  return true;
}

// Every piece between separators, empty ones included: "4,,8" -> 4, "", 8; "" -> one empty piece.
std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::size_t from = 0;
  for (std::size_t at; (at = text.find(sep, from)) != std::string::npos; from = at + 1)
    parts.push_back(text.substr(from, at - from));
  parts.push_back(text.substr(from));
  return parts;
}

// The entries of a comma list; an empty one ("4,,8", ",", "4,", ",4", "") is an error naming
// the list, since it is a typo rather than a value.
Result<std::vector<std::string>> list_entries(const std::string& text, const std::string& field) {
  std::vector<std::string> parts = split(text, ',');
  for (const std::string& part : parts)
    if (part.empty()) return cli_error(CliRule::ListEmptyEntry, {{"field", field}, {"got", text}}, "/" + field);
  return parts;
}

}  // namespace

const std::vector<std::string>& cost_flags() {
  static const std::vector<std::string> kFlags = {"forward", "backward", "weight", "overlapped",
                                                  "p2p-latency", "comm-ratio", "attn-share",
                                                  "comm-layers"};
  return kFlags;
}

Result<Args> Args::parse(const std::vector<std::string>& argv, const std::vector<std::string>& allowed,
                         const std::vector<std::string>& switches) {
  Args args;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a.rfind("--", 0) != 0) return cli_error(CliRule::UnexpectedArgument, {{"arg", a}});
    std::string name = a.substr(2), value;
    const auto eq = name.find('=');
    const bool is_switch =
        std::find(switches.begin(), switches.end(), name.substr(0, eq)) != switches.end();
    if (is_switch) {
      if (eq != std::string::npos)
        return cli_error(CliRule::SwitchValue,
                         {{"flag", name.substr(0, eq)}, {"got", summary(name.substr(eq + 1))}});
      if (args.values_.count(name)) return cli_error(CliRule::FlagTwice, {{"flag", name}});
      args.values_[name] = "true";
      continue;
    }
    if (eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    } else {
      if (i + 1 >= argv.size()) return cli_error(CliRule::FlagNeedsValue, {{"flag", name}});
      value = argv[++i];
    }
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end())
      return cli_error(CliRule::UnknownOption, {{"flag", name}});
    if (args.values_.count(name)) return cli_error(CliRule::FlagTwice, {{"flag", name}});
    args.values_[name] = value;
  }
  return args;
}

Result<std::optional<std::string>> take_flag(std::vector<std::string>& argv, const std::string& name,
                                             const std::vector<std::string>& switches) {
  std::optional<std::string> value;
  std::vector<std::string> rest;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    const auto eq = a.find('=');
    const bool is_flag = a.rfind("--", 0) == 0;
    const std::string flag = is_flag ? a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2) : "";
    const bool is_switch = std::find(switches.begin(), switches.end(), flag) != switches.end();
    const bool takes_next = is_flag && eq == std::string::npos && i + 1 < argv.size() && !is_switch;
    if (is_flag && flag == name) {
      if (value) return cli_error(CliRule::FlagTwice, {{"flag", name}});
      if (eq == std::string::npos && !takes_next) return cli_error(CliRule::FlagNeedsValue, {{"flag", name}});
      value = eq != std::string::npos ? a.substr(eq + 1) : argv[++i];
      continue;
    }
    rest.push_back(a);
    if (takes_next) rest.push_back(argv[++i]);  // a value, even one that starts with "--"
  }
  argv = std::move(rest);
  return value;
}

std::string Args::get(const std::string& name, const std::string& fallback) const {
  const auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

Result<int> Args::get_int(const std::string& name, const std::string& field, int fallback) const {
  if (!has(name)) return fallback;
  const auto json = parse_json_number(get(name, ""));
  if (!json)
    return make_error(Rule::FieldInteger, "/" + field, {{"field", field}, {"got", summary(get(name, ""))}});
  return int_from_json(*json, "/" + field, field);  // 2.7 and 1e10 fail as in JSON
}

Result<double> Args::get_number(const std::string& name, const std::string& field, double fallback) const {
  if (!has(name)) return fallback;
  const auto json = parse_json_number(get(name, ""));
  if (!json)
    return make_error(Rule::FieldNumber, "/" + field, {{"field", field}, {"got", summary(get(name, ""))}});
  return number_from_json(*json, "/" + field, field);  // range is validate()'s job
}

Result<std::string> Args::format(const std::vector<std::string>& allowed) const {
  const std::string f = get("format", allowed.front());
  for (const auto& a : allowed)
    if (f == a) return f;
  std::string list;
  for (const auto& a : allowed) list += (list.empty() ? "" : "|") + a;
  return cli_error(CliRule::FlagChoice, {{"flag", "format"}, {"allowed", list}, {"got", f}});
}

Result<std::string> Args::read_input(std::int64_t limit) const {
  return read_text_source(get("input", "-"), limit);
}

Result<std::string> read_text_source(const std::string& source, std::int64_t limit) {
  std::FILE* file = source == "-" ? stdin : std::fopen(source.c_str(), "rb");
  if (file == nullptr) return cli_error(CliRule::InputUnreadable, {{"file", source}});
  // In blocks, and no further than the limit: 100 MB on stdin costs one block past 16 MB. A file
  // whose size is known is read into one allocation of that size (a 100 MB trace would otherwise
  // hold 64 MB and 128 MB buffers at once while the string grows).
  std::string text;
  if (file != stdin && std::fseek(file, 0, SEEK_END) == 0) {
    const long size = std::ftell(file);
    if (size > 0 && size <= limit) text.reserve(static_cast<std::size_t>(size));
    std::rewind(file);
  }
  std::vector<char> block(1 << 16);
  bool too_large = false;
  for (std::size_t n; !too_large && (n = std::fread(block.data(), 1, block.size(), file)) > 0;) {
    too_large = static_cast<std::int64_t>(text.size() + n) > limit;
    if (!too_large) text.append(block.data(), n);
  }
  const bool failed = std::ferror(file) != 0;  // e.g. a directory
  if (file != stdin) std::fclose(file);
  if (too_large) return make_error(Rule::InputTooLarge, "", {{"limit", limit}});
  if (failed) return cli_error(CliRule::InputUnreadable, {{"file", source}});
  return text;
}

Status Args::reject_with_input(const std::vector<std::string>& flags) const {
  for (const auto& flag : flags)
    if (has(flag)) return cli_error(CliRule::FlagWithInput, {{"flag", flag}});
  return Ok{};
}

Status Args::require(const std::vector<std::string>& flags) const {
  for (const auto& flag : flags)
    if (!has(flag)) return cli_error(CliRule::FlagMissing, {{"flag", flag}});
  return Ok{};
}

Result<std::vector<std::string>> Args::get_list(const std::string& name, const std::string& field,
                                                const std::string& fallback) const {
  return list_entries(get(name, fallback), field);
}

Result<Costs> Args::get_costs() const {
  Costs c;
  for (auto [flag, field, target] :
       {std::tuple<const char*, const char*, double*>{"forward", "costs.forward", &c.forward},
        {"backward", "costs.backward", &c.backward},
        {"weight", "costs.weight", &c.weight},
        {"overlapped", "costs.overlapped", &c.overlapped},
        {"p2p-latency", "costs.p2pLatency", &c.p2p_latency}}) {
    auto v = get_number(flag, field, *target);
    if (!v.ok()) return v.error();
    *target = v.value();
  }
  // The communication model's ratio form (pipesim/comm.h); explicit components need --input.
  if (has("comm-ratio")) {
    CommCosts m;
    for (auto [flag, field, target] :
         {std::tuple<const char*, const char*, double*>{"comm-ratio", "costs.comm.ratio", &m.ratio},
          {"attn-share", "costs.comm.attnShare", &m.attn_share}}) {
      auto v = get_number(flag, field, *target);
      if (!v.ok()) return v.error();
      *target = v.value();
    }
    auto layers = get_int("comm-layers", "costs.comm.layers", m.layers);
    if (!layers.ok()) return layers.error();
    m.layers = layers.value();
    c.comm = m;
  } else {
    for (const char* flag : {"attn-share", "comm-layers"})
      if (has(flag)) return cli_error(CliRule::FlagNeedsCommRatio, {{"flag", flag}});
  }
  if (has("stage-costs")) {
    auto stages = parse_stage_costs(get("stage-costs", ""), c);
    if (!stages.ok()) return stages.error();
    c.stages = std::move(stages).value();
  }
  if (Status st = validate_costs(c); !st.ok()) return st.error();
  return c;
}

Result<std::vector<StageCost>> parse_stage_costs(const std::string& text, const Costs& costs) {
  // A JSON file: the "stageCosts" array, or a config holding one.
  if (text.size() > 5 && text.compare(text.size() - 5, 5, ".json") == 0) {
    auto file = read_text_source(text);
    if (!file.ok()) return file.error();
    auto json = parse_json(file.value());
    if (!json.ok()) return json.error();
    const Json& j = json.value();
    if (j.is_object() && j.contains("stageCosts"))
      return stage_costs_from_json(j.at("stageCosts"), "/stageCosts", costs);
    return stage_costs_from_json(j, "/stageCosts", costs);
  }
  const Error bad = cli_error(CliRule::StageCostsList, {{"got", summary(text)}}, "/stageCosts");
  std::vector<StageCost> out;
  for (std::string entry : split(text, ',')) {
    long long repeat = 1;  // "...x14": this stage 14 times
    const auto x = entry.rfind('x');
    if (x != std::string::npos) {
      if (!parse_int(entry.substr(x + 1), repeat) || repeat < 1 || repeat > kMaxStages) return bad;
      entry = entry.substr(0, x);
    }
    const auto fields = split(entry, '/');
    if (fields.empty() || fields.size() > 4) return bad;
    StageCost c{costs.forward, costs.backward, costs.weight, costs.overlapped};
    double* targets[] = {&c.forward, &c.backward, &c.weight, &c.overlapped};
    bool any = false;
    for (std::size_t i = 0; i < fields.size(); ++i) {
      if (fields[i].empty()) continue;  // this field takes the costs' value
      const auto number = parse_json_number(fields[i]);
      if (!number || !number->is_number()) return bad;
      *targets[i] = number->get<double>();
      any = true;
    }
    if (!any && fields.size() == 1) return bad;  // an empty entry is a typo, not a stage
    if (out.size() + static_cast<std::size_t>(repeat) > static_cast<std::size_t>(kMaxStages))
      return make_error(Rule::StageCostsSize, "/stageCosts", {{"max", kMaxStages}, {"got", out.size() + repeat}});
    out.insert(out.end(), static_cast<std::size_t>(repeat), c);
  }
  if (out.empty()) return bad;
  return out;
}

Result<std::vector<int>> parse_int_list(const std::string& text, const std::string& field) {
  std::vector<int> out;
  const Error bad = cli_error(CliRule::IntList, {{"field", field}, {"got", text}}, "/" + field);
  auto parts = list_entries(text, field);
  if (!parts.ok()) return parts.error();
  for (const std::string& part : parts.value()) {
    const auto range = split(part, ':');  // never empty: split gives at least one piece
    long long from = 0, to = 0, step = 1;
    if (range.size() == 1) {
      if (!parse_int(range[0], from)) return bad;
      out.push_back(static_cast<int>(from));
      continue;
    }
    if (range.size() > 3 || !parse_int(range[0], from) || !parse_int(range[1], to) ||
        (range.size() == 3 && !parse_int(range[2], step)) || step < 1 || to < from)
      return bad;
    if ((to - from) / step >= 100000) return cli_error(CliRule::RangeTooLong, {{"field", field}}, "/" + field);
    for (long long v = from; v <= to; v += step) out.push_back(static_cast<int>(v));
  }
  if (out.empty()) return bad;
  return out;
}

Result<std::vector<MicrobatchSpec>> parse_microbatch_list(const std::string& text) {
  std::vector<MicrobatchSpec> out;
  auto parts = list_entries(text, "microbatches");
  if (!parts.ok()) return parts.error();
  for (const std::string& part : parts.value()) {
    if (part.find(':') != std::string::npos) {
      auto range = parse_int_list(part, "microbatches");
      if (!range.ok()) return range.error();
      for (int v : range.value()) out.push_back(MicrobatchSpec{v, false});
      continue;
    }
    auto spec = parse_microbatch_spec(part, "/microbatches");
    if (!spec.ok()) return spec.error();
    out.push_back(spec.value());
  }
  return out;
}

}  // namespace pipesim::cli
