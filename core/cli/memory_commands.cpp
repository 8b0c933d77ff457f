// pipesim memory: flags (or --input) -> the memory model's JSON request -> text or JSON. A request
// with "sides" (from --input) is a comparison under one accounting.
#include "memory_commands.h"

#include <sstream>

#include "cli_errors.h"
#include "flag_json.h"
#include "pipesim/boundary.h"
#include "pipesim/schedule.h"
#include "text_format.h"

namespace pipesim::cli {

const char* const kMemoryUsage =
    R"(  memory     (--model llama3-70b|deepseek-v3|custom [custom flags as params] | --params N
             [--routed-params N] [--layers L --hidden H --heads A])
             [--recipe mixed-adam|deepseek-v3] [--zero 0..3]
             [--tp 1] [--pp 1] [--ep 1] [--dp 1 | --gpus G] [--sequence-parallel true|false]
             [--schedule 1f1b] [--microbatches M] [--chunks V]
             [--seq-length S [--micro-batch-size 1] [--recompute none|selective|full]]
             [--gpu-memory-gb 80] [--format text|json]  | --input FILE|- (also {"sides":[..]})
             what one GPU holds: weights, gradients, master weights and optimizer state under a
             precision recipe and ZeRO stage, the schedule's parameter copies, activations at
             its simulated peak (Korthikanti et al.), and every assumption with its source
)";

namespace {

// Flag -> JSON name, by the object it lands in.
const FlagKeys kTop = {
    {"params", "params"}, {"routed-params", "routedParams"}, {"recipe", "recipe"},
    {"zero", "zero"},     {"gpu-memory-gb", "gpuMemoryGb"}};
const FlagKeys kShape = {
    {"layers", "layers"}, {"hidden", "hidden"}, {"heads", "heads"}};
const FlagKeys& kCustom = custom_model_flags();
const FlagKeys kLayout = {
    {"tp", "tp"}, {"ep", "ep"}, {"dp", "dp"}, {"sequence-parallel", "sequenceParallel"}};
const FlagKeys kActivations = {
    {"seq-length", "seqLength"}, {"micro-batch-size", "microBatchSize"}, {"recompute", "recompute"}};

std::vector<std::string> flag_names(bool in_config) {
  std::vector<std::string> out = {"model"};
  for (const auto* names : {&kTop, &kCustom, &kLayout, &kActivations})
    for (const auto& [flag, key] : *names) out.push_back(flag);
  if (!in_config)
    for (const char* flag : {"pp", "gpus", "schedule", "microbatches", "chunks"}) out.push_back(flag);
  return out;
}

// The request those flags give: a bare count's --layers/--hidden/--heads are its shape, a custom
// model's are its configuration.
Json request_from_flags(const Args& a, bool in_config) {
  Json request = Json::object();
  if (a.has("model")) request["model"] = a.get("model", "");
  copy_flags(a, request, kTop);
  if (a.has("params")) {
    Json shape = Json::object();
    copy_flags(a, shape, kShape);
    if (!shape.empty()) request["shape"] = shape;
    Json extra = Json::object();  // custom flags beside a bare count: the reader rejects them
    copy_flags(a, extra, kCustom);
    for (const auto& [flag, key] : kShape) extra.erase(key);
    if (!extra.empty()) request["custom"] = extra;
  } else {
    Json custom = Json::object();
    copy_flags(a, custom, kCustom);
    if (!custom.empty() || request.value("model", "") == "custom") request["custom"] = custom;
  }
  Json layout = Json::object();
  copy_flags(a, layout, kLayout);
  if (!in_config) copy_flags(a, layout, {{"pp", "pp"}, {"gpus", "gpus"}});
  if (!layout.empty()) request["layout"] = layout;
  Json activations = Json::object();
  copy_flags(a, activations, kActivations);
  if (!activations.empty()) request["activations"] = activations;
  if (!in_config)
    copy_flags(a, request, {{"schedule", "schedule"}, {"microbatches", "microbatches"}, {"chunks", "chunks"}});
  return request;
}

std::string gb(double bytes) {  // 31406250000 -> "31.4 GB": three significant digits
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g GB", bytes / 1e9);
  return buf;
}

std::string sharded_over(const MemoryRequest& q, int from_stage) {
  if (q.zero < from_stage) return "not sharded";
  std::string text = "/ DP " + std::to_string(q.layout.dp);
  if (q.model.routed_params > 0) text += ", experts / " + std::to_string(q.layout.expert_dp());
  return text;
}

void print_comparison(const MemoryComparison& c, std::ostream& out) {
  for (std::size_t i = 0; i < c.sides.size(); ++i) {
    out << "== side " << i + 1 << " ==\n";
    print_memory_text(c.sides[i], out);
    out << "\n";
  }
  out << "accounting: " << c.accounting << "\n";
}

}  // namespace

bool is_memory_command(const std::string& command) { return command == "memory"; }

const std::vector<std::string>& memory_model_flags() {
  static const std::vector<std::string> kFlags = flag_names(true);
  return kFlags;
}

std::optional<Json> memory_model_from_flags(const Args& args) {
  for (const std::string& flag : memory_model_flags())
    if (args.has(flag)) return request_from_flags(args, true);
  return std::nullopt;
}

void print_memory_text(const MemoryResult& r, std::ostream& out) {
  const MemoryRequest& q = r.request;
  const PrecisionRecipe& p = r.recipe;
  out << "Memory per GPU: " << q.model.label << ", " << find_schedule_info(q.schedule)->title
      << " at P = " << q.layout.pp << " (" << r.param_copies
      << (r.param_copies == 1 ? " parameter copy" : " parameter copies") << "), recipe " << p.label
      << ", ZeRO-" << q.zero << "\n";
  out << "parameters       " << grouped(r.held.total()) << " per GPU";
  if (q.model.routed_params > 0)
    out << " (" << grouped(r.held.non_routed) << " non-expert + " << grouped(r.held.routed)
        << " routed-expert)";
  out << "\n";
  const auto row = [&](const char* what, double per_param, double bytes, const std::string& sharding) {
    out << pad_right(what, 17) << pad_left(shortest(per_param) + " B/param", 12) << "  "
        << pad_right(sharding, 24) << pad_left(gb(bytes), 12) << "\n";
  };
  row("weights", p.weight_bytes, r.states.weights, sharded_over(q, 3));
  row("gradients", p.gradient_bytes, r.states.gradients, sharded_over(q, 2));
  row("master weights", p.master_bytes, r.states.master_weights, sharded_over(q, 1));
  row("optimizer state", p.optimizer_bytes, r.states.optimizer_states, sharded_over(q, 1));
  out << "model states     " << gb(r.states.total()) << " per GPU\n";
  if (r.param_copies > 1)
    out << "extra copies     " << gb(r.extra_copy_bytes) << " of it for the copies beyond the first\n";
  if (r.activations) {
    const ActivationMemory& a = *r.activations;
    out << "activations      " << gb(a.peak_bytes) << " at the peak: " << shortest(a.peak_units)
        << " units of " << gb(a.bytes_per_unit) << " (" << a.formula << " per layer, "
        << shortest(a.layers_per_unit) << " layers)\n";
  }
  out << "total            " << gb(r.total_bytes) << " = " << fixed(r.share_of_gpu_memory * 100, 1)
      << "% of " << shortest(q.gpu_memory_gb) << " GB\n";
  out << "assumptions\n";
  for (const MemoryAssumption& a : r.assumptions)
    out << "  " << pad_right(a.topic, 12) << a.text << "\n  " << std::string(12, ' ')
        << "source: " << a.source << "\n";
}

Result<std::string> run_memory_command(const std::vector<std::string>& argv) {
  std::vector<std::string> allowed = flag_names(false);
  allowed.push_back("format");
  allowed.push_back("input");
  const Args a = unwrap(Args::parse(argv, allowed));
  const std::string format = unwrap(a.format({"text", "json"}));
  Json request;
  if (a.has("input")) {
    unwrap(a.reject_with_input(flag_names(false)));
    request = unwrap(parse_json(unwrap(a.read_input())));
  } else {
    request = request_from_flags(a, false);
  }
  if (format == "json") return unwrap(memory_json(request)).dump() + "\n";
  std::ostringstream out;
  if (request.is_object() && request.contains("sides")) {
    print_comparison(unwrap(memory_comparison(request)), out);
  } else {
    print_memory_text(unwrap(memory(unwrap(memory_request_from_json(request)))), out);
  }
  return out.str();
}

}  // namespace pipesim::cli
