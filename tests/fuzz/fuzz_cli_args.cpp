// libFuzzer harness: the CLI's argument parser over argv (core/cli/args.h). The input is argv
// after the program's name, its arguments separated by NUL bytes: a command, then flags. It goes through what every command does with its flags:
// take --output out, parse the flags (every flag any command takes), then read every value the
// commands read: numbers, costs, --format, the sweep's lists and ranges. Properties: no crash
// (`sweep --ranks 4,,8` read out of bounds, issue 30); every refusal is a CLI or core rule's
// template filled with its params, one clean line of at most 300 bytes as the CLI prints it,
// never internal; a list that parses has no more entries than its ranges allow.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "../../core/cli/args.h"
#include "../../core/cli/cli_errors.h"
#include "fuzz_checks.h"
#include "pipesim/boundary.h"

using namespace pipesim;

namespace {

// Every flag of every command (pipesim help), so Args::parse accepts what any command would.
const std::vector<std::string> kFlags = {
    "attn-share", "backward", "chunks", "comm-layers", "comm-pattern", "comm-ratio",
    "dense-layers", "dp", "embedding", "ep", "expert-intermediate", "format", "forward", "from",
    "gpu-hours-per-million", "gpu-memory-gb", "gpus", "head", "head-dim", "heads", "hidden",
    "input", "intermediate", "kv-heads", "layer-split", "layers", "layers-per-stage", "memory",
    "micro-batch-size", "microbatches", "model", "mtp", "order", "overlapped", "p2p-latency",
    "params", "pp", "ranks", "recipe", "recompute", "routed-experts", "routed-params", "schedule",
    "schedules", "seq-length", "sequence-parallel", "shared-experts", "slot-length", "stage-costs",
    "stages", "tied-embeddings", "timing", "to", "tp", "training-tokens", "vocab", "weight",
    "zero"};
// Flags without a value (Args::parse's switches).
const std::vector<std::string> kSwitches = {"a2a-overlap", "delay-wgrad"};

// A CLI rule's or a core rule's error, checked like fuzz::check_error (which knows core's only).
void check_any_error(const Error& e) {
  struct CliRow {
    const char* id;
    const char* text;
  };
  static const CliRow kCliRows[] = {
#define PIPESIM_FUZZ_CLI_ROW(name, id, code, text) {id, text},
      PIPESIM_CLI_RULES(PIPESIM_FUZZ_CLI_ROW)
#undef PIPESIM_FUZZ_CLI_ROW
  };
  for (const CliRow& row : kCliRows) {
    if (e.rule != row.id) continue;
    const std::string line = std::string("pipesim: ") + error_code_name(e.code) + ": " + e.message;
    PIPESIM_FUZZ_REQUIRE(fuzz::one_clean_line(line) && line.size() <= 300);
    PIPESIM_FUZZ_REQUIRE(e.code != ErrorCode::Internal);
    std::string rebuilt = row.text;
    for (const ErrorParam& p : e.params) {
      const std::string key = "{" + p.name + "}";
      for (auto at = rebuilt.find(key); at != std::string::npos; at = rebuilt.find(key, at + p.text().size()))
        rebuilt.replace(at, key.size(), p.text());
    }
    PIPESIM_FUZZ_REQUIRE(rebuilt == e.message);
    return;
  }
  fuzz::check_error(e);
}

template <typename T>
void check(const Result<T>& r) {
  if (!r.ok()) check_any_error(r.error());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> argv(1);
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == 0) argv.emplace_back();
    else argv.back() += static_cast<char>(data[i]);
  }
  argv.erase(argv.begin());  // the command's name, as main() takes it before the flags
  auto output = cli::take_flag(argv, "output", kSwitches);
  check(output);
  if (!output.ok()) return 0;
  auto parsed = cli::Args::parse(argv, kFlags, kSwitches);
  check(parsed);
  if (!parsed.ok()) return 0;
  const cli::Args& args = parsed.value();
  for (const char* flag : {"ranks", "microbatches", "chunks", "comm-layers", "pp", "layers"})
    check(args.get_int(flag, flag, 0));
  for (const char* flag : {"forward", "training-tokens", "slot-length", "gpu-memory-gb"})
    check(args.get_number(flag, flag, 1));
  check(args.get_costs());
  check(args.format({"text", "json", "csv"}));
  check(args.get_list("schedules", "schedules", "all"));
  auto ranks = cli::parse_int_list(args.get("ranks", "8"), "ranks");
  check(ranks);
  // Each entry is a number or a range of at most 100,000 values (cli.range_too_long beyond), and
  // a list of n entries has at least 2n - 1 characters.
  if (ranks.ok()) PIPESIM_FUZZ_REQUIRE(ranks.value().size() <= 100000 * ((args.get("ranks", "8").size() + 1) / 2));
  check(cli::parse_microbatch_list(args.get("microbatches", "2R,4R,8R")));
  return 0;
}
