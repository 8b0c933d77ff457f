// pipesim plan | overlap: read the input, call the core, render Markdown, text or JSON.
#include "plan_commands.h"

#include <cstdio>

#include "args.h"
#include "cli_errors.h"
#include "pipesim/boundary.h"
#include "pipesim/comm.h"
#include "pipesim/json.h"
#include "pipesim/planner.h"
#include "text_format.h"

namespace pipesim::cli {

const char* const kPlanUsage =
    R"(  plan       --input FILE|- [--format md|json]   the DualPipe planner on a cluster/model spec
  overlap    [costs] --comm-ratio R [--attn-share A] [--comm-layers L] [--format text|json]
             --input FILE|-   a costs object with "comm" instead (explicit components)
             [--order deepseek|megatron|megatron-delay-wgrad]  (what waits for the weight-
             gradient parts: DeepSeek's Fig. 4, as DualPipe runs it (the default), or
             Megatron-Core's combined 1F1B, without or with --delay-wgrad-compute)
             one overlapped FB pair: both streams' parts and what hides each all-to-all
)";

namespace {

Result<std::string> cmd_plan(const std::vector<std::string>& argv) {
  const Args args = unwrap(Args::parse(argv, {"input", "format"}));
  if (!args.has("input")) return cli_error(CliRule::InputMissing);
  const std::string format = unwrap(args.format({"md", "json"}));
  const Plan plan = unwrap(make_plan(unwrap(plan_spec_from_json(unwrap(parse_json(unwrap(args.read_input())))))));
  if (format == "json") return plan_to_json(plan).dump() + "\n";
  return plan_to_markdown(plan);
}

std::string overlap_text(const PairOverlap& p) {
  std::string out = std::string("pair, ") + part_order_name(p.order) + " order: " +
                    shortest(p.timing.duration) + " (compute " + shortest(p.timing.compute) +
                    ", comm " + shortest(p.timing.comm) + ", exposed " + shortest(p.timing.exposed) +
                    ", hidden " + shortest(p.hidden) + "; run apart " + shortest(p.sequential) +
                    ")\n\n";
  out += "stream   part          layer  start       end\n";
  auto label = [](const OpPart& part) {
    std::string s = part_name(part.part);
    for (char& ch : s) ch = static_cast<char>(ch - 'a' + 'A');
    return s + "(" + pass_name(part.pass) + ")";
  };
  for (const OpPart& part : p.timing.parts)
    out += pad_right(stream_name(part.stream), 9) + pad_right(label(part), 14) +
           pad_right(std::to_string(part.layer), 7) + pad_right(shortest(part.start), 12) + shortest(part.end) +
           "\n";
  out += "\n";
  for (const PartHiding& h : p.hiding) {
    const OpPart& c = p.timing.parts[h.comm_part];
    out += pad_right(label(c) + " layer " + std::to_string(c.layer), 22) + "under ";
    if (h.hidden_by.empty()) out += "nothing";
    for (std::size_t i = 0; i < h.hidden_by.size(); ++i)
      out += (i ? ", " : "") + label(p.timing.parts[h.hidden_by[i].compute_part]) + " " +
             shortest(h.hidden_by[i].overlap);
    out += "; exposed " + shortest(h.exposed) + "\n";
  }
  return out;
}

Result<std::string> cmd_overlap(const std::vector<std::string>& argv) {
  std::vector<std::string> allowed = {"format", "input", "order"};
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
  const PartOrder order = unwrap(part_order_from_name(
      args.get("order", part_order_name(PartOrder::DeepSeek)), "order", "/order"));
  const PairOverlap pair = unwrap(analyse_pair(costs, order));
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
