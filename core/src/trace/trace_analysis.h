// Private: from the kept events (trace_records.h) to the report. attribute() ties every GPU event
// to the innermost annotation around its launch; measure() fills the streams, the overlap, the
// annotations, the order and the spans; derive_costs() (trace_costs.cpp) the simulator's costs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pipesim/error.h"
#include "pipesim/trace.h"
#include "trace_records.h"

namespace pipesim::detail {

struct Attribution {
  /// Every annotation occurrence, sorted by thread, then start (outer before inner).
  std::vector<AnnotationRecord> occurrences;
  /// Each occurrence's enclosing occurrence on its thread, or kTraceNone.
  std::vector<std::uint32_t> parent;
  /// Whether some occurrence has it as parent.
  std::vector<bool> has_child;
  /// Per GPU event (TraceRecords::gpu order): the innermost occurrence around its launch, or kTraceNone.
  std::vector<std::uint32_t> owner;
};

/// Errors: trace.annotation_depth.
Result<Attribution> attribute(const TraceRecords& records);

/// Everything but `costs`.
void measure(const TraceRecords& records, const Attribution& attribution, TraceReport& report);

/// The costs of the chunk pairs the part annotations hold, or nothing with `missing` saying why.
std::optional<TraceCosts> derive_costs(const TraceRecords& records, const Attribution& attribution,
                                       std::optional<Error>& missing);

/// Nanoseconds as milliseconds.
inline double trace_ms(double nanos) { return nanos / 1e6; }

}  // namespace pipesim::detail
