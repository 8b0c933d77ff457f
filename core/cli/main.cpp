// pipesim: the native CLI over the core library. It parses flags, calls the same functions the
// WASM module exports and prints text, CSV or JSON. Exit status: 0 success, 1 bad input (one
// line on stderr, nothing on stdout), 2 internal error, 3 the output could not be written (one
// line on stderr, output_failed, with the OS's reason; output.h).
#include <cctype>
#include <iostream>
#include <string>
#include <vector>

#include "args.h"
#include "cli_errors.h"
#include "exercise_commands.h"
#include "memory_commands.h"
#include "plan_commands.h"
#include "split_command.h"
#include "pipesim/boundary.h"
#include "pipesim/catalogue.h"
#include "pipesim/custom_schedule.h"
#include "pipesim/engine.h"
#include "pipesim/json.h"
#include "pipesim/lesson_report.h"
#include "pipesim/pytorch_csv.h"
#include "pipesim/rules.h"
#include "pipesim/sweep.h"
#include "output.h"
#include "text_output.h"
#include "trace_import_command.h"
#include "trace_output.h"

namespace pipesim::cli {
namespace {

constexpr const char* kUsage = R"(usage: pipesim <command> [options]

commands:
  simulate   --schedule NAME --ranks R --microbatches M [--chunks V] [costs] [--format text|json|chrome]
             (--chunks: model chunks per rank, where the catalogue's schedule takes them)
             [--a2a-overlap [--delay-wgrad]]  (1f1b, interleaved-1f1b: Megatron-Core's combined
             1F1B, the steady state's F and B as overlapped pairs; --delay-wgrad-compute too)
             [--timing dependency|runtime]  (runtime: DualPipe(V) ops also wait at the sends
             and receives DeepSeek's step() posts and waits for in batches)
             (chrome: a trace-event file for Perfetto or chrome://tracing)
             [--memory peak|steps]  (steps: each rank's activations over time, JSON activationSteps)
             [--model NAME | --params N, with pipesim memory's flags but --pp, --gpus,
             --schedule, --microbatches, --chunks]  (memory per GPU in bytes too: JSON memory)
             --input FILE|-   read {schedule, ranks, microbatches, costs} as JSON instead, or a
                              hand-written schedule {"schedule":"custom","stages","directions",
                              "microbatches","rankOps":[["F0.0@0","B0.0@0",...],...]}, or a
                              torch.distributed.pipelining CSV (0F0,1F0,...; costs from flags)
  export     --schedule NAME --ranks R --microbatches M [--chunks V] [costs] [--timing ...] [--a2a-overlap ...]
             | --input FILE|-  [--format pytorch-csv]
             the schedule's per-rank actions as torch.distributed.pipelining's CSV: torch's
             step grid (column = time step, empty cells idle) when every op of the run lasts
             the same time (e.g. --backward 2 --weight 1 with a zero-bubble split, or
             --backward 1 with full backwards); otherwise, where no exact grid exists, each
             rank's actions one after another
  sweep      --schedules a,b|all --ranks 4:16:2 --microbatches 8,16,2R [--chunks V] [costs] [--format text|csv|json]
  lesson     the lesson script's four tables, simulated, beside its closed forms [--format text|json]
  schedules  list the built-in schedules [--format text|json]
  catalogue  everything a client needs to know: schedules and their shape rules, limits,
             defaults, timeline columns, error codes and rules (JSON)

costs: --forward 1 --backward 2 --weight 1 --overlapped 3 --p2p-latency 0
       communication model: --comm-ratio 1 [--attn-share 0.5] [--comm-layers 1]
every command: [--output FILE]  write to FILE (renamed into place once complete) instead of stdout
       per-stage (simulate, export, sweep): --stage-costs 0.75/1.5,1x14,1.5/3 | FILE.json
)";

// Output waits in a buffer until the command has succeeded, so that on error nothing reaches
// stdout (output.h). A simulation's result can be 100 MB or more; once it exists nothing can fail
// but the write, so it is streamed instead (committed_stdout) and memory stays flat.
std::ostream& committed_stdout() { return commit_output(); }

// The config's flags that take no value (SimConfig::a2a_overlap, delay_wgrad).
const std::vector<std::string> kConfigSwitches = {"a2a-overlap", "delay-wgrad"};

std::vector<std::string> with_costs(std::vector<std::string> flags) {
  flags.insert(flags.end(), cost_flags().begin(), cost_flags().end());
  return flags;
}

// A JSON request starts with '{' (or is not one at all); a torch CSV starts with an action's
// stage number, an overlapped pair's '(' or an idle cell's ','.
bool looks_like_csv(const std::string& text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string::npos &&
         (std::isdigit(static_cast<unsigned char>(text[first])) || text[first] == '(' || text[first] == ',');
}

// --schedule --ranks --microbatches [--chunks] [--a2a-overlap] [--delay-wgrad] and the cost flags
// (those not allowed are absent).
SimConfig config_from_flags(const Args& args) {
  unwrap(args.require({"schedule", "ranks", "microbatches"}));
  SimConfig config;
  config.schedule = args.get("schedule", "");
  config.ranks = unwrap(args.get_int("ranks", "ranks", 0));
  config.microbatches = unwrap(args.get_int("microbatches", "microbatches", 0));
  config.chunks = unwrap(args.get_int("chunks", "chunks", 0));
  config.costs = unwrap(args.get_costs());
  const std::string timing = args.get("timing", timing_name(config.timing));
  if (timing != timing_name(Timing::Dependency) && timing != timing_name(Timing::Runtime))
    throw Failure{make_error(Rule::FieldOneOf, "/timing",
                             {{"field", "timing"}, {"allowed", "dependency, runtime"}, {"got", timing}})};
  config.timing = timing == timing_name(Timing::Runtime) ? Timing::Runtime : Timing::Dependency;
  config.a2a_overlap = args.has("a2a-overlap");
  config.delay_wgrad = args.has("delay-wgrad");
  if (auto memory = memory_model_from_flags(args))
    config.memory_model = std::make_shared<const MemoryRequest>(unwrap(memory_request_from_json(*memory, true)));
  unwrap(apply_stage_flags(args, config));  // --layer-split (--stage-costs came with the costs)
  return config;
}

void print_result(const SimResult& result, const std::string& format) {
  std::ostream& out = committed_stdout();
  if (format == "json") {
    write_result_json(result, out);
    out << "\n";
  } else if (format == "chrome") {
    print_chrome_trace(result, out);
  } else {
    print_simulation_text(result, out);
  }
}

int cmd_simulate(const std::vector<std::string>& argv) {
  std::vector<std::string> flags = with_costs(
      {"schedule", "ranks", "microbatches", "chunks", "format", "input", "timing", "memory",
       "stage-costs", "layer-split"});
  flags.insert(flags.end(), memory_model_flags().begin(), memory_model_flags().end());
  const Args args = unwrap(Args::parse(argv, flags, kConfigSwitches));
  const std::string format = unwrap(args.format({"text", "json", "chrome"}));
  // --memory steps: each rank's activations over time as well (JSON: activationSteps).
  SimOptions options;
  const std::string memory = args.get("memory", "peak");
  if (memory != "peak" && memory != "steps")
    throw Failure{cli_error(CliRule::FlagChoice,
                            {{"flag", "memory"}, {"allowed", "peak|steps"}, {"got", memory}})};
  options.activation_steps = memory == "steps";
  std::vector<std::string> config_flags = {"schedule", "ranks", "microbatches", "chunks", "timing", "layer-split",
                                           "a2a-overlap", "delay-wgrad"};
  config_flags.insert(config_flags.end(), memory_model_flags().begin(), memory_model_flags().end());
  if (args.has("input")) {
    const std::string text = unwrap(args.read_input());
    if (looks_like_csv(text)) {  // a CSV carries only the op order: the costs come from flags
      unwrap(args.reject_with_input(config_flags));
      print_result(unwrap(simulate_pytorch_csv(text, unwrap(args.get_costs()), options)), format);
      return 0;
    }
    std::vector<std::string> json_flags = with_costs(config_flags);
    json_flags.push_back("stage-costs");  // a JSON request carries its own stageCosts
    unwrap(args.reject_with_input(json_flags));
    print_result(unwrap(simulate_request(unwrap(parse_json(text)), options)), format);
    return 0;
  }
  print_result(unwrap(simulate(config_from_flags(args), options)), format);
  return 0;
}

int cmd_export(const std::vector<std::string>& argv) {
  // The costs and timing decide the form: a run whose ops all last the same time is written as
  // torch's step grid, any other compactly (pipesim/pytorch_csv.h).
  const std::vector<std::string> config_flags = {"schedule", "ranks",       "microbatches", "chunks",
                                                 "timing",   "layer-split", "a2a-overlap",  "delay-wgrad"};
  std::vector<std::string> flags = with_costs(config_flags);
  flags.insert(flags.end(), {"format", "input", "stage-costs"});
  const Args args = unwrap(Args::parse(argv, flags, kConfigSwitches));
  unwrap(args.format({"pytorch-csv"}));
  std::string csv;
  if (args.has("input")) {  // any JSON request simulate --input reads, hand-written ones too
    std::vector<std::string> json_flags = with_costs(config_flags);
    json_flags.push_back("stage-costs");
    unwrap(args.reject_with_input(json_flags));
    csv = unwrap(pytorch_csv_from_request(unwrap(parse_json(unwrap(args.read_input())))));
  } else {
    csv = unwrap(pytorch_csv_from_config(config_from_flags(args)));
  }
  committed_stdout() << csv;  // nothing can fail any more
  return 0;
}

int cmd_sweep(const std::vector<std::string>& argv) {
  const Args args =
      unwrap(Args::parse(argv, with_costs({"schedules", "ranks", "microbatches", "chunks", "format",
                                           "stage-costs"})));
  const std::string format = unwrap(args.format({"text", "csv", "json"}));
  SweepRequest req;
  req.schedules = unwrap(args.get_list("schedules", "schedules", "all"));
  if (req.schedules.size() == 1 && req.schedules[0] == "all") {
    req.schedules.clear();
    for (const auto& info : list_schedules()) req.schedules.push_back(info.name);
  }
  req.ranks = unwrap(parse_int_list(args.get("ranks", "8"), "ranks"));
  req.microbatches = unwrap(parse_microbatch_list(args.get("microbatches", "2R,4R,8R")));
  req.chunks = unwrap(args.get_int("chunks", "chunks", 0));
  req.costs = unwrap(args.get_costs());
  const auto rows = unwrap(run_sweep(req));  // validates once, then runs
  if (format == "json")
    std::cout << sweep_to_json(rows).dump() << "\n";
  else if (format == "csv")
    print_sweep_csv(rows, std::cout);
  else
    print_sweep_text(rows, std::cout);
  return 0;
}

int cmd_lesson(const std::vector<std::string>& argv) {
  const Args args = unwrap(Args::parse(argv, with_costs({"format"})));
  const std::string format = unwrap(args.format({"text", "json"}));
  const LessonReport report = lesson_report(unwrap(args.get_costs()));
  if (format == "json")
    std::cout << lesson_report_to_json(report).dump() << "\n";
  else
    print_lesson_text(report, std::cout);
  return 0;
}

int cmd_schedules(const std::vector<std::string>& argv) {
  const Args args = unwrap(Args::parse(argv, {"format"}));
  const std::string format = unwrap(args.format({"text", "json"}));
  if (format == "json") {
    std::cout << schedules_to_json().dump() << "\n";
    return 0;
  }
  for (const auto& info : list_schedules())
    std::cout << info.name << "\t" << info.title << "\t" << info.constraints << "\t" << info.source << "\n";
  return 0;
}

// Everything a client needs to know about the simulator, as JSON (pipesim/catalogue.h).
int cmd_catalogue(const std::vector<std::string>& argv) {
  const Args args = unwrap(Args::parse(argv, {"format"}));
  unwrap(args.format({"json"}));
  std::cout << catalogue_to_json().dump() << "\n";
  return 0;
}

int run(std::vector<std::string> all) {
  // --output applies to every command, so it is taken out before the command reads its flags.
  if (auto output = unwrap(take_flag(all, "output", kConfigSwitches))) set_output_file(*output);
  if (all.empty() || all[0] == "help" || all[0] == "--help" || all[0] == "-h") {
    std::cout << kUsage << "\nexercise calculators:\n" << kExerciseUsage << "\nmemory model:\n"
              << kMemoryUsage << "\nplanner and overlap:\n" << kPlanUsage << "\nprofiler traces:\n"
              << kTraceImportUsage << "\nper-stage costs:\n" << kSplitUsage;
    return 0;
  }
  const std::string command = all[0];
  const std::vector<std::string> rest(all.begin() + 1, all.end());
  if (command == "simulate") return cmd_simulate(rest);
  if (command == "sweep") return cmd_sweep(rest);
  if (command == "export") return cmd_export(rest);
  if (command == "lesson") return cmd_lesson(rest);
  if (command == "schedules") return cmd_schedules(rest);
  if (command == "catalogue") return cmd_catalogue(rest);
  if (is_memory_command(command)) {
    std::cout << unwrap(run_memory_command(rest));
    return 0;
  }
  if (is_plan_command(command)) {
    std::cout << unwrap(run_plan_command(command, rest));
    return 0;
  }
  if (command == "trace-import") {
    std::cout << unwrap(run_trace_import(rest));
    return 0;
  }
  if (command == "split") {
    std::cout << unwrap(cmd_split(rest));
    return 0;
  }
  if (is_exercise_command(command)) {
    std::cout << unwrap(run_exercise_command(command, rest));
    return 0;
  }
  throw Failure{cli_error(CliRule::UnknownCommand, {{"command", command}})};
}

}  // namespace
}  // namespace pipesim::cli

namespace {

int report(const pipesim::Error& error) {
  pipesim::cli::abandon_output();
  std::cerr << "pipesim: " << pipesim::error_code_name(error.code) << ": " << error.message << "\n";
  return error.code == pipesim::ErrorCode::OutputFailed ? 3 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  namespace cli = pipesim::cli;
  std::ios::sync_with_stdio(false);  // iostreams only: large outputs in big writes
  cli::begin_output();  // buffer everything: on error nothing may reach stdout
  try {
    const int status = cli::run(std::vector<std::string>(argv + 1, argv + argc));
    cli::finish_output();
    return status;
  } catch (const pipesim::Failure& e) {
    return report(e.error);
  } catch (const std::ios_base::failure& e) {  // a write through std::cout failed (output.h)
    if (const pipesim::Error* failure = cli::output_failure()) return report(*failure);
    cli::abandon_output();
    std::cerr << "pipesim: internal: " << pipesim::summary(e.what(), pipesim::kMaxParamBytes) << "\n";
    return 2;
  } catch (const std::exception& e) {
    cli::abandon_output();
    // As one line of at most kMaxParamBytes, like every message (e.what() may quote anything).
    std::cerr << "pipesim: internal: " << pipesim::summary(e.what(), pipesim::kMaxParamBytes) << "\n";
    return 2;
  }
}
