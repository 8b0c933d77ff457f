// pipesim plan | overlap: read the input, call the core, render Markdown, text or JSON.
#include "plan_commands.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "args.h"
#include "pipesim/comm.h"
#include "pipesim/json.h"
#include "pipesim/planner.h"

namespace pipesim::cli {

const char* const kPlanUsage =
    R"(  plan       --input FILE|- [--format md|json]   the DualPipe planner on a cluster/model spec
  overlap    [costs] --comm-ratio R [--attn-share A] [--comm-layers L] [--format text|json]
             --input FILE|-   a costs object with "comm" instead (explicit components)
             one overlapped FB pair: both streams' parts and what hides each all-to-all
)";

namespace {

Error usage_error(const std::string& message) {
  return Error{ErrorCode::InvalidConfig, message, ""};
}

Result<std::string> read_source(const std::string& source) {
  if (source == "-") return std::string(std::istreambuf_iterator<char>(std::cin), {});
  std::ifstream file(source, std::ios::binary);
  if (!file) return usage_error("cannot read input file " + source);
  std::ostringstream ss;
  ss << file.rdbuf();
  return ss.str();
}

Result<Json> read_json_input(const Args& args) {
  auto text = read_source(args.get("input", "-"));
  if (!text.ok()) return text.error();
  return parse_json(text.value());
}

std::string number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

std::string pad(std::string s, std::size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

Result<std::string> cmd_plan(const std::vector<std::string>& argv) {
  auto args = Args::parse(argv, {"input", "format"});
  if (!args.ok()) return args.error();
  if (!args.value().has("input"))
    return usage_error("missing --input (a spec file, or - for stdin)");
  const std::string format = args.value().get("format", "md");
  if (format != "md" && format != "json")
    return usage_error("format must be md|json (got " + format + ")");
  auto json = read_json_input(args.value());
  if (!json.ok()) return json.error();
  auto spec = plan_spec_from_json(json.value());
  if (!spec.ok()) return spec.error();
  auto plan = make_plan(spec.value());
  if (!plan.ok()) return plan.error();
  if (format == "json") return plan_to_json(plan.value()).dump() + "\n";
  return plan_to_markdown(plan.value());
}

std::string overlap_text(const PairOverlap& p) {
  std::string out = "pair: " + number(p.timing.duration) + " (compute " + number(p.timing.compute) +
                    ", comm " + number(p.timing.comm) + ", exposed " + number(p.timing.exposed) +
                    ", hidden " + number(p.hidden) + "; run apart " + number(p.sequential) +
                    ")\n\n";
  out += "stream   part          layer  start       end\n";
  auto label = [](const OpPart& part) {
    std::string s = part_name(part.part);
    for (char& ch : s) ch = static_cast<char>(ch - 'a' + 'A');
    return s + "(" + pass_name(part.pass) + ")";
  };
  for (const OpPart& part : p.timing.parts)
    out += pad(stream_name(part.stream), 9) + pad(label(part), 14) +
           pad(std::to_string(part.layer), 7) + pad(number(part.start), 12) + number(part.end) +
           "\n";
  out += "\n";
  for (const PartHiding& h : p.hiding) {
    const OpPart& c = p.timing.parts[h.comm_part];
    out += pad(label(c) + " layer " + std::to_string(c.layer), 22) + "under ";
    if (h.hidden_by.empty()) out += "nothing";
    for (std::size_t i = 0; i < h.hidden_by.size(); ++i)
      out += (i ? ", " : "") + label(p.timing.parts[h.hidden_by[i].compute_part]) + " " +
             number(h.hidden_by[i].overlap);
    out += "; exposed " + number(h.exposed) + "\n";
  }
  return out;
}

Result<std::string> cmd_overlap(const std::vector<std::string>& argv) {
  std::vector<std::string> allowed = {"format", "input"};
  allowed.insert(allowed.end(), cost_flags().begin(), cost_flags().end());
  auto args = Args::parse(argv, allowed);
  if (!args.ok()) return args.error();
  const std::string format = args.value().get("format", "text");
  if (format != "text" && format != "json")
    return usage_error("format must be text|json (got " + format + ")");
  Costs costs;
  if (args.value().has("input")) {
    for (const auto& flag : cost_flags())
      if (args.value().has(flag))
        return usage_error("--" + flag + " cannot be combined with --input");
    auto json = read_json_input(args.value());
    if (!json.ok()) return json.error();
    auto parsed = costs_from_json(json.value(), "");
    if (!parsed.ok()) return parsed.error();
    costs = parsed.value();
  } else {
    if (!args.value().has("comm-ratio"))
      return usage_error("missing --comm-ratio (or --input with a comm model)");
    auto parsed = args.value().get_costs();
    if (!parsed.ok()) return parsed.error();
    costs = parsed.value();
  }
  auto pair = analyse_pair(costs);
  if (!pair.ok()) return pair.error();
  if (format == "json") return pair_overlap_to_json(pair.value(), costs).dump() + "\n";
  return overlap_text(pair.value());
}

}  // namespace

bool is_plan_command(const std::string& command) {
  return command == "plan" || command == "overlap";
}

Result<std::string> run_plan_command(const std::string& command,
                                     const std::vector<std::string>& argv) {
  if (command == "plan") return cmd_plan(argv);
  return cmd_overlap(argv);
}

}  // namespace pipesim::cli
