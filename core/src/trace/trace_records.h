// Private: what the trace reader keeps of each event it needs, compactly (a few tens of bytes per
// GPU event, launch, annotation or flow; everything else is checked and dropped), and the one
// pass that fills it (trace_events.cpp). Times are whole nanoseconds: traces give microseconds
// with up to three decimals, so sums and unions are exact.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "comm_pattern.h"
#include "pipesim/error.h"

namespace pipesim::detail {

using TraceNs = std::int64_t;
/// No thread, launch or annotation.
inline constexpr std::uint32_t kTraceNone = 0xFFFFFFFFu;

/// HTA's kinds of GPU event (hta/utils/utils.py get_kernel_type), with our comm pattern.
enum class GpuKind : std::uint8_t { Compute, Comm, Memory };

struct GpuRecord {
  TraceNs start = 0, end = 0;
  std::int64_t device = 0, stream = 0;
  std::int64_t correlation = -1;        ///< args.correlation, -1 when absent
  std::uint32_t thread = kTraceNone;    ///< its own pid/tid, where its ac2g flow ends
  std::uint32_t event = 0;              ///< index in traceEvents
  GpuKind kind = GpuKind::Compute;
};

/// A host event carrying args.correlation: where a GPU event was launched from.
struct LaunchRecord {
  std::int64_t correlation = 0;
  std::uint32_t thread = 0;
  TraceNs ts = 0;
};

struct AnnotationRecord {
  std::uint32_t name = 0;  ///< index in TraceRecords::names
  std::uint32_t thread = 0;
  TraceNs start = 0, end = 0;
  std::uint32_t event = 0;
};

/// One end of an ac2g flow: "s" at the launch, "f" at the GPU event.
struct FlowRecord {
  std::uint32_t id = 0;  ///< interned flow id
  std::uint32_t thread = 0;
  TraceNs ts = 0;
};

struct TraceRecords {
  std::int64_t events = 0;
  std::vector<GpuRecord> gpu;
  std::vector<LaunchRecord> launches;
  std::vector<AnnotationRecord> annotations;
  std::vector<FlowRecord> flow_starts, flow_ends;
  std::vector<std::string> names;               ///< annotation names
  std::vector<std::uint32_t> thread_process;    ///< each thread's process (interned pid)
  std::string events_pointer;                   ///< "/traceEvents", or "" for a bare array
};

/// One pass over `text`: the events of a trace-event file (an array, or an object whose
/// traceEvents is one), every value checked, the ones the analysis needs kept.
Result<TraceRecords> read_trace_events(std::string_view text, const CommPattern& pattern);

/// The pointer and dotted name of event `index` (and `key` in it, when given).
std::string trace_event_pointer(const std::string& events_pointer, std::size_t index, std::string_view key = {});

}  // namespace pipesim::detail
