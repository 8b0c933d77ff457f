// pipesim recover | params | trace: flags -> JSON request -> calculator -> text or JSON.
#include "exercise_commands.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "args.h"
#include "cli_errors.h"
#include "flag_json.h"
#include "pipesim/boundary.h"
#include "pipesim/exercises.h"
#include "pipesim/json.h"
#include "text_format.h"

namespace pipesim::cli {

const char* const kExerciseUsage =
    R"(  recover    --ranks R --microbatches M --from 1f1b --to dualpipe [--gpu-hours-per-million 0.18]
             [--training-tokens 14.8e12] [costs] [--format text|json]
             GPU-hours per million tokens the 'to' schedule saves, at M and at other M
  params     --model llama3-70b|deepseek-v3|custom --pp N [--tp N] [--ep N] [--dp N]
             [--recipe mixed-adam|deepseek-v3] [--zero 0..3] [--gpu-memory-gb 80] [--format text|json]
             every schedule's footprint per GPU under the memory model (see memory)
             custom: --layers --hidden --intermediate --vocab --heads [--kv-heads --head-dim
             --tied-embeddings true|false --dense-layers --routed-experts --shared-experts
             --expert-intermediate]
  trace      --schedule NAME --ranks R --microbatches M [--slot-length 1] [costs] [--format text|json]
             the rank x time-slot grid of a hand trace and the first slot with no idle rank
)";

namespace {

std::string costs_text(const Costs& c) {
  return "F=" + shortest(c.forward) + " B=" + shortest(c.backward) + " W=" + shortest(c.weight) +
         " F&B=" + shortest(c.overlapped) + " p2p=" + shortest(c.p2p_latency);
}

Result<std::string> cmd_recover(const std::vector<std::string>& argv) {
  std::vector<std::string> allowed = {"ranks", "microbatches",          "from",           "to",
                                      "gpu-hours-per-million", "training-tokens", "format"};
  allowed.insert(allowed.end(), cost_flags().begin(), cost_flags().end());
  const Args args = unwrap(Args::parse(argv, allowed));
  const std::string format = unwrap(args.format({"text", "json"}));
  const Costs costs = unwrap(args.get_costs());
  const RecoverRequest defaults;
  Json request{{"from", defaults.from}, {"to", defaults.to}};
  copy_flags(args, request,
             {{"ranks", "ranks"},
              {"microbatches", "microbatches"},
              {"from", "from"},
              {"to", "to"},
              {"gpu-hours-per-million", "gpuHoursPerMillionTokens"},
              {"training-tokens", "trainingTokens"}});
  request["costs"] = costs_to_json(costs);
  const RecoverResult r = unwrap(recover_request(request));
  if (format == "json") return recover_result_to_json(r).dump() + "\n";
  const RecoverRequest& q = r.request;
  std::ostringstream out;
  out << q.from << " -> " << q.to << ": " << q.ranks << " ranks, " << q.microbatches
      << " micro-batches (" << costs_text(q.costs) << ")\n";
  out << "utilization  " << q.from << " " << fixed(r.utilization_from, 6) << " (makespan "
      << shortest(r.makespan_from) << ")   " << q.to << " " << fixed(r.utilization_to, 6)
      << " (makespan " << shortest(r.makespan_to) << ")\n";
  out << "gain         " << fixed(r.utilization_gain, 6) << " ("
      << fixed(r.utilization_gain * 100, 2) << " percentage points)\n";
  out << "baseline     " << shortest(q.gpu_hours_per_million_tokens)
      << " GPU-hours per million tokens (the " << q.to << " run)\n";
  out << "under " << q.from << "   " << shortest(r.gpu_hours_per_million_tokens_from)
      << " GPU-hours per million tokens = baseline x u_to / u_from\n";
  out << "recovered    " << shortest(r.recovered_gpu_hours_per_million_tokens)
      << " GPU-hours per million tokens = baseline x (u_to / u_from - 1)\n";
  if (r.recovered_gpu_hours_for_run)
    out << "over the run " << grouped(*r.recovered_gpu_hours_for_run) << " GPU-hours for "
        << shortest(*q.training_tokens) << " tokens, at M = " << q.microbatches
        << " and these costs\n";
  out << "\nrecovered against M (same ranks, costs and baseline):\n";
  const std::string u_from = "u " + q.from, u_to = "u " + q.to;
  const std::size_t w_from = std::max<std::size_t>(u_from.size(), 6),
                    w_to = std::max<std::size_t>(u_to.size(), 6);
  out << "  " << pad_right("M", 6) << "  " << pad_right(u_from, w_from) << "  "
      << pad_right(u_to, w_to) << "  per million tokens" << (q.training_tokens ? "  over the run" : "")
      << "\n";
  for (const RecoverPoint& p : r.by_microbatches) {
    out << "  " << pad_right(std::to_string(p.microbatches), 6) << "  "
        << pad_right(fixed(p.utilization_from, 4), w_from) << "  "
        << pad_right(fixed(p.utilization_to, 4), w_to) << "  ";
    std::string row = pad_right(shortest(p.recovered_gpu_hours_per_million_tokens), 18);
    if (p.recovered_gpu_hours_for_run) row += "  " + pad_right(grouped(*p.recovered_gpu_hours_for_run), 12);
    if (p.microbatches == q.microbatches) row += "  <- this run";
    row.erase(row.find_last_not_of(' ') + 1);
    out << row << "\n";
  }
  return out.str();
}

Result<std::string> cmd_params(const std::vector<std::string>& argv) {
  const FlagKeys top = {
      {"pp", "pp"},         {"tp", "tp"},     {"ep", "ep"}, {"dp", "dp"},
      {"recipe", "recipe"}, {"zero", "zero"}, {"gpu-memory-gb", "gpuMemoryGb"}};
  const FlagKeys& custom = custom_model_flags();
  std::vector<std::string> allowed = {"model", "format"};
  for (const auto& names : {top, custom})
    for (const auto& [flag, key] : names) allowed.push_back(flag);
  const Args a = unwrap(Args::parse(argv, allowed));
  const std::string format = unwrap(a.format({"text", "json"}));
  unwrap(a.require({"model"}));
  Json request;
  request["model"] = a.get("model", "");
  copy_flags(a, request, top);
  Json custom_json = Json::object();
  copy_flags(a, custom_json, custom);
  if (!custom_json.empty() || request["model"] == "custom") request["custom"] = custom_json;
  const ParamsResult r = unwrap(params_request(request));
  if (format == "json") return params_result_to_json(r).dump() + "\n";
  const ParamsRequest& q = r.request;
  std::ostringstream out;
  out << q.model.label << ": " << grouped(static_cast<double>(r.count.total)) << " parameters ("
      << q.model.source << ")\n";
  for (const ParamPart& p : r.count.breakdown)
    out << "  " << p.part << std::string(16 - std::min<std::size_t>(p.part.size(), 15), ' ')
        << pad_left(grouped(static_cast<double>(p.params)), 17) << "  " << p.formula << "\n";
  for (const ParamPart& p : r.count.excluded)
    out << "  excluded: " << p.part << " " << grouped(static_cast<double>(p.params)) << "  "
        << p.formula << "\n";
  out << "\nWhat one GPU holds (weights, gradients, master weights and optimizer state), every "
         "schedule under the same accounting:\n";
  out << "schedule          stages  stages/rank  copies        params/GPU   weights GB  states GB  of GPU\n";
  for (const ScheduleFootprint& f : r.schedules) {
    const MemoryResult& m = f.memory;
    out << pad_right(f.schedule, 16) << pad_left(std::to_string(m.stages), 8)
        << pad_left(std::to_string(m.stages_per_rank), 13) << pad_left(std::to_string(m.param_copies), 8)
        << pad_left(grouped(m.held.total()), 18) << pad_left(fixed(m.states.weights / 1e9, 2), 13)
        << pad_left(fixed(m.states.total() / 1e9, 2), 11)
        << pad_left(fixed(m.share_of_gpu_memory * 100, 1) + "%", 8) << "\n";
  }
  out << "DualPipe over 1F1B: +" << grouped(r.overhead_params_per_gpu) << " parameters (+"
      << fixed(r.overhead_bytes_per_gpu / 1e9, 2)
      << " GB) per GPU = " << fixed(r.overhead_share_of_model * 100, 2) << "% of the model, "
      << fixed(r.overhead_share_of_gpu_memory * 100, 1) << "% of " << shortest(q.gpu_memory_gb)
      << " GB of GPU memory\n";
  out << "assumptions (every row; each schedule's own stage layout sets its copies)\n";
  for (const MemoryAssumption& as : r.schedules.front().memory.assumptions) {
    if (as.topic == "copies") continue;
    out << "  " << pad_right(as.topic, 12) << as.text << "\n  " << std::string(12, ' ')
        << "source: " << as.source << "\n";
  }
  return out.str();
}

std::string cell_text(const TimedOp& t) {
  auto chunk = [](const Chunk& c) { return std::to_string(c.mb) + (c.dir == 0 ? ">" : "<"); };
  switch (t.op.kind) {
    case OpKind::Forward:
      return "F" + chunk(t.op.chunk);
    case OpKind::Backward:
      return (t.op.zero_bubble ? "b" : "B") + chunk(t.op.chunk);
    case OpKind::Weight:
      return "W" + chunk(t.op.chunk);
    case OpKind::ForwardBackward:
      return chunk(t.op.chunk) + chunk(t.op.backward_chunk);
  }
  return "?";
}

Result<std::string> cmd_trace(const std::vector<std::string>& argv) {
  std::vector<std::string> allowed = {"schedule", "ranks", "microbatches", "slot-length", "format"};
  allowed.insert(allowed.end(), cost_flags().begin(), cost_flags().end());
  const Args args = unwrap(Args::parse(argv, allowed));
  const std::string format = unwrap(args.format({"text", "json"}));
  const Costs costs = unwrap(args.get_costs());
  unwrap(args.require({"schedule", "ranks", "microbatches"}));
  Json config;
  copy_flags(args, config,
             {{"schedule", "schedule"}, {"ranks", "ranks"}, {"microbatches", "microbatches"}});
  config["costs"] = costs_to_json(costs);
  Json request{{"config", config}};
  copy_flags(args, request, {{"slot-length", "slotLength"}});
  const TraceGrid g = unwrap(trace_request(request));
  if (format == "json") return trace_grid_to_json(g).dump() + "\n";
  std::ostringstream out;
  out << g.result.config.schedule << ": " << g.result.config.ranks << " ranks, "
      << g.result.config.microbatches << " micro-batches (" << costs_text(g.result.config.costs)
      << "), slots of " << shortest(g.slot_length)
      << "; > direction 0, < direction 1, b = input-gradient-only B, FB pairs as F-chunk B-chunk\n";
  out << "first slot with no idle rank: "
      << (g.first_all_busy_slot ? std::to_string(*g.first_all_busy_slot) : std::string("none"))
      << "\n";
  out << "slot";
  for (int t = 0; t < g.slots; ++t) out << pad_left(std::to_string(t), 7);
  out << "\n";
  for (std::size_t rank = 0; rank < g.cells.size(); ++rank) {
    out << pad_left(std::to_string(rank), 4);
    for (const int i : g.cells[rank])
      out << pad_left(i < 0 ? "." : cell_text(g.result.timeline[rank][static_cast<std::size_t>(i)]), 7);
    out << "\n";
  }
  return out.str();
}

}  // namespace

bool is_exercise_command(const std::string& command) {
  return command == "recover" || command == "params" || command == "trace";
}

Result<std::string> run_exercise_command(const std::string& command,
                                         const std::vector<std::string>& argv) {
  if (command == "recover") return cmd_recover(argv);
  if (command == "params") return cmd_params(argv);
  return cmd_trace(argv);
}

}  // namespace pipesim::cli
