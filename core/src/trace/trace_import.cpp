// import_trace() and its options (pipesim/trace.h): the pass over the text, the attribution of
// GPU events to annotations, the measurements and the costs, in that order.
#include "../fields.h"
#include "pipesim/trace.h"
#include "trace_analysis.h"

namespace pipesim {

const char* stream_kind_name(StreamKind kind) { return kind == StreamKind::Comm ? "comm" : "compute"; }

Result<TraceReport> import_trace(std::string_view text, const TraceOptions& options) {
  if (Status st = validate_comm_pattern(options.comm_pattern, "/commPattern"); !st.ok()) return st.error();
  const detail::CommPattern pattern(options.comm_pattern);
  auto records = detail::read_trace_events(text, pattern);
  if (!records.ok()) return records.error();
  auto attribution = detail::attribute(records.value());
  if (!attribution.ok()) return attribution.error();
  TraceReport report;
  report.bytes = static_cast<std::int64_t>(text.size());
  report.comm_pattern = options.comm_pattern;
  detail::measure(records.value(), attribution.value(), report);
  report.costs = detail::derive_costs(records.value(), attribution.value(), report.costs_missing);
  return report;
}

Result<TraceOptions> trace_options_from_json(const Json& json) {
  auto reader = detail::FieldReader::open(json, "", "options", {"commPattern"});
  if (!reader.ok()) return reader.error();
  TraceOptions options;
  if (Status st = reader.value().read("commPattern", options.comm_pattern); !st.ok()) return st.error();
  if (Status st = validate_comm_pattern(options.comm_pattern, "/commPattern"); !st.ok()) return st.error();
  return options;
}

}  // namespace pipesim
