// pipesim plan | overlap: read the input, call the core, render Markdown, text or JSON.
#include "plan_commands.h"

#include <cstdio>

#include "args.h"
#include "cli_errors.h"
#include "pipesim/boundary.h"
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
  const Args args = unwrap(Args::parse(argv, {"input", "format"}));
  if (!args.has("input")) return cli_error(CliRule::InputMissing);
  const std::string format = unwrap(args.format({"md", "json"}));
  const Plan plan = unwrap(make_plan(unwrap(plan_spec_from_json(unwrap(parse_json(unwrap(args.read_input())))))));
  if (format == "json") return plan_to_json(plan).dump() + "\n";
  return plan_to_markdown(plan);
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
  const Args args = unwrap(Args::parse(argv, allowed));
  const std::string format = unwrap(args.format({"text", "json"}));
  Costs costs;
  if (args.has("input")) {
    unwrap(args.reject_with_input(cost_flags()));
    costs = unwrap(costs_from_json(unwrap(parse_json(unwrap(args.read_input()))), ""));
  } else {
    if (!args.has("comm-ratio")) return cli_error(CliRule::CommRatioMissing);
    costs = unwrap(args.get_costs());
  }
  const PairOverlap pair = unwrap(analyse_pair(costs));
  if (format == "json") return pair_overlap_to_json(pair, costs).dump() + "\n";
  return overlap_text(pair);
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
