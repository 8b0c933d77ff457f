// pipesim split and --layer-split (split_command.h): flags turned into the same JSON request the
// WASM module's layerSplit receives, so both report the same errors.
#include "split_command.h"

#include <sstream>

#include "cli_errors.h"
#include "pipesim/boundary.h"
#include "pipesim/layer_split.h"
#include "pipesim/schedule.h"
#include "text_format.h"

namespace pipesim::cli {

const char* const kSplitUsage =
    R"(  split      --model deepseek-v3|custom --stages S [--layers-per-stage 3,4,...,2] [costs]
             [--format text|json]   a model's layers (and embedding, head, MTP) on S stages and
             each stage's costs, averaging the given costs; custom: --layers N [--embedding E
             --head H --mtp T, each in layers]
  --stage-costs F/B/W/F&B,...|FILE.json  (simulate, export, sweep) one cost per pipeline stage
  --layer-split deepseek-v3              (simulate, export) the split's stage costs
)";

namespace {

Json split_request_from_flags(const Args& args, int stages, const Costs& costs) {
  Json request{{"model", args.get("model", "")}, {"stages", stages}, {"costs", costs_to_json(costs)}};
  if (args.has("layers-per-stage")) {
    Json list = Json::array();
    for (int v : unwrap(parse_int_list(args.get("layers-per-stage", ""), "layersPerStage"))) list.push_back(v);
    request["layersPerStage"] = list;
  }
  Json custom = Json::object();
  for (const char* flag : {"layers", "embedding", "head", "mtp"})
    if (args.has(flag)) custom[flag] = unwrap(args.get_number(flag, std::string("custom.") + flag, 0));
  if (!custom.empty() || request["model"] == "custom") request["custom"] = custom;
  return request;
}

}  // namespace

Result<std::string> cmd_split(const std::vector<std::string>& argv) {
  std::vector<std::string> allowed = {"model",  "stages",    "layers-per-stage", "layers",
                                      "embedding", "head", "mtp",             "format"};
  allowed.insert(allowed.end(), cost_flags().begin(), cost_flags().end());
  const Args args = unwrap(Args::parse(argv, allowed));
  const std::string format = unwrap(args.format({"text", "json"}));
  unwrap(args.require({"model", "stages"}));
  const LayerSplit s = unwrap(layer_split_request(split_request_from_flags(
      args, unwrap(args.get_int("stages", "stages", 0)), unwrap(args.get_costs()))));
  if (format == "json") return layer_split_to_json(s).dump() + "\n";
  const LayerModel& m = s.request.model;
  std::ostringstream out;
  out << m.label << ": " << m.layers << " layers; embedding " << shortest(m.embedding) << ", head "
      << shortest(m.head) << ", MTP " << shortest(m.mtp) << " layers of work (" << m.source << ")\n";
  out << s.rule << ": " << s.rule_text << "\n";
  out << "stage  layers  modules          weight        F        B        W      F&B\n";
  for (std::size_t i = 0; i < s.stages.size(); ++i) {
    const SplitStage& st = s.stages[i];
    std::string modules = std::string(st.embedding ? "embedding " : "") + (st.head ? "head " : "") +
                          (st.mtp ? "MTP" : "");
    out << pad_left(std::to_string(i), 5) << pad_left(std::to_string(st.layers), 8) << "  "
        << pad_right(modules.empty() ? "-" : modules, 15) << pad_left(fixed(st.weight, 3), 8)
        << pad_left(shortest(st.cost.forward), 9) << pad_left(shortest(st.cost.backward), 9)
        << pad_left(shortest(st.cost.weight), 9) << pad_left(shortest(st.cost.overlapped), 9) << "\n";
  }
  out << "mean weight " << fixed(s.mean_weight, 3) << ", heaviest " << fixed(s.max_weight, 3)
      << " (" << fixed(s.imbalance, 3) << " x the mean); the stages average the given costs\n";
  return out.str();
}

Status apply_stage_flags(const Args& args, SimConfig& config) {
  if (!args.has("layer-split")) return Ok{};
  if (args.has("stage-costs"))
    return cli_error(CliRule::FlagsExclusive, {{"flag", "layer-split"}, {"other", "stage-costs"}});
  const ScheduleInfo* info = find_schedule_info(config.schedule);
  if (info == nullptr) return validate(config);  // the unknown schedule's own error
  if (Status st = validate(config); !st.ok()) return st;  // the shape the split needs
  const int stages = config.ranks * effective_chunks(*info, config) / info->layout.directions;
  Json request{{"model", args.get("layer-split", "")}, {"stages", stages},
               {"costs", costs_to_json(config.costs)}};
  auto split = layer_split_request(request);
  if (!split.ok()) return split.error();
  config.costs.stages.clear();
  for (const SplitStage& st : split.value().stages) config.costs.stages.push_back(st.cost);
  return Ok{};
}

}  // namespace pipesim::cli
