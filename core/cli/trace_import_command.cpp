// pipesim trace-import: reads a PyTorch Profiler (Kineto) or Chrome trace-event file, prints
// what core's trace reader measured (pipesim/trace.h) as text or JSON.
#include "trace_import_command.h"

#include "args.h"
#include "cli_errors.h"
#include "pipesim/boundary.h"
#include "pipesim/trace.h"
#include "text_format.h"

namespace pipesim::cli {

const char* const kTraceImportUsage =
    R"(  trace-import FILE | --input FILE|-  [--comm-pattern "nccl|deep_ep::"] [--format text|json]
             a PyTorch profiler (Kineto) or Chrome trace-event file: its GPU streams and their
             busy time, the communication-computation overlap (HTA's definition), every
             annotation's GPU time, the order of the innermost ones, and the simulator's costs
             of the chunk pair DeepSeek-style annotations (attn(F), dispatch(B), ...) mark
             (--comm-pattern: kernel-name substrings that make a kernel communication)
)";

namespace {

std::string percent(const std::optional<double>& fraction) {
  return fraction ? fixed(100 * *fraction, 1) + "%" : "-";
}

std::string ms(double v) { return fixed(v, 3); }

void streams_text(const TraceReport& r, std::string& out) {
  out += "\ndevice  stream  kind     kernels  comm  memory  busy ms\n";
  for (const TraceStream& s : r.streams)
    out += pad_right(std::to_string(s.device), 8) + pad_right(std::to_string(s.stream), 8) +
           pad_right(stream_kind_name(s.kind), 9) + pad_right(std::to_string(s.kernels), 9) +
           pad_right(std::to_string(s.comm_kernels), 6) + pad_right(std::to_string(s.memory_events), 8) +
           ms(s.busy_ms) + "\n";
  out += "\noverlap: " + percent(r.overlap) +
         " of communication-kernel time has a computation kernel running (HTA's definition)\n";
  out += "device  compute ms  comm ms     overlap ms  overlap\n";
  for (const TraceDevice& d : r.devices)
    out += pad_right(std::to_string(d.device), 8) + pad_right(ms(d.compute_ms), 12) + pad_right(ms(d.comm_ms), 12) +
           pad_right(ms(d.overlap_ms), 12) + percent(d.overlap) + "\n";
}

void annotations_text(const TraceReport& r, std::string& out) {
  if (r.annotations.empty()) {
    out += "\nannotations: none\n";
  } else {
    std::size_t width = 6;
    for (const TraceAnnotation& a : r.annotations) width = std::max(width, a.name.size() + 2);
    width = std::min<std::size_t>(width, 40);
    out += "\nannotations (GPU events launched inside each, nested ones included):\n" + pad_right("name", width) +
           "count  kernels  gpu ms\n";
    for (const TraceAnnotation& a : r.annotations)
      out += pad_right(a.name, width) + pad_right(std::to_string(a.count), 7) + pad_right(std::to_string(a.kernels), 9) +
             ms(a.gpu_ms) + "\n";
  }
  out += "unattributed: " + std::to_string(r.unattributed_events) + " GPU events, " + ms(r.unattributed_ms) + " ms\n";
  constexpr std::size_t kShown = 40;
  out += "\norder (innermost annotations by first GPU start):";
  for (std::size_t i = 0; i < r.order.size() && i < kShown; ++i) out += " " + r.order[i];
  if (r.order.size() > kShown) out += " ... (" + std::to_string(r.order.size()) + " in all; --format json lists every one)";
  out += r.order.empty() ? " none\n" : "\n";
}

void costs_text(const TraceReport& r, std::string& out) {
  if (!r.costs) {
    out += "\ncosts: none: " + (r.costs_missing ? r.costs_missing->message : std::string()) + "\n";
    return;
  }
  const TraceCosts& c = *r.costs;
  out += "\ncosts of one chunk pair (ms; --format json gives them as simulator costs):\n";
  const auto line = [&](const char* name, const Derived& d) {
    out += "  " + pad_right(name, 15) + pad_right(shortest(d.value), 13) + " " + d.derivation + "\n";
  };
  line("pairs", c.pairs);
  line("layers", c.layers);
  line("F", c.forward);
  line("B", c.backward);
  line("W", c.weight);
  line("F&B", c.overlapped);
  line("comm ratio", c.comm_ratio);
  line("attn share", c.attn_share);
  line("lone F", c.forward_alone);
  line("lone B", c.backward_alone);
  line("pair measured", c.pair_ms);
  line("pair modelled", c.model_pair_ms);
  out += "components:\n";
  static const char* const kLabels[] = {"attn(F)", "dispatch(F)", "mlp(F)", "combine(F)", "attn(B)",
                                        "attn(W)", "dispatch(B)", "mlp(B)", "mlp(W)",    "combine(B)"};
  for (std::size_t i = 0; i < c.components.size(); ++i)
    out += "  " + pad_right(kLabels[i], 15) + shortest(c.components[i].value) + "\n";
}

std::string report_text(const TraceReport& r) {
  std::string out = "trace: " + std::to_string(r.bytes) + " bytes, " + std::to_string(r.events) + " events, " +
                    std::to_string(r.gpu_events) + " GPU events, " + std::to_string(r.launches) + " launches\n";
  out += "communication kernels: names containing " + r.comm_pattern + "\n";
  streams_text(r, out);
  annotations_text(r, out);
  costs_text(r, out);
  return out;
}

}  // namespace

Result<std::string> run_trace_import(std::vector<std::string> argv) {
  // The file may come first, as a plain argument: pipesim trace-import train.json.
  std::string file;
  if (!argv.empty() && argv[0].rfind("--", 0) != 0) {
    file = argv[0];
    argv.erase(argv.begin());
  }
  const Args args = unwrap(Args::parse(argv, {"input", "format", "comm-pattern"}));
  const std::string format = unwrap(args.format({"text", "json"}));
  if (!file.empty() && args.has("input")) return cli_error(CliRule::TraceTwice);
  if (file.empty() && !args.has("input")) return cli_error(CliRule::TraceMissing);
  TraceOptions options;
  options.comm_pattern = args.get("comm-pattern", options.comm_pattern);
  unwrap(validate_comm_pattern(options.comm_pattern, "/commPattern"));
  Args source = args;
  if (!file.empty()) source = unwrap(Args::parse({"--input", file}, {"input"}));
  const std::string text = unwrap(source.read_input(kMaxTraceBytes));
  const TraceReport report = unwrap(import_trace(text, options));
  if (format == "json") return trace_report_to_json(report).dump() + "\n";
  return report_text(report);
}

}  // namespace pipesim::cli
