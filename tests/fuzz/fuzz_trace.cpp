// libFuzzer harness: profiler traces as `pipesim trace-import` reads them (import_trace). Properties:
// no crash or sanitizer report; every error is one short clean line (check_error); a report's JSON
// can be written; overlaps are fractions no larger than either union; derived costs pass the
// simulator's checks; and the hand-written scanner agrees with the one JSON parser on what is
// JSON: text parse_json reads is never refused as not JSON, and text refused by parse_json is only
// read when it repeats a key the trace reader skips (parse_json refuses any repeated key). Text
// holding a byte below 0x20 is left out of that comparison: the trace reader takes raw control
// characters inside strings (pipesim/trace.h), parse_json does not.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_checks.h"
#include "pipesim/json.h"
#include "pipesim/trace.h"

using namespace pipesim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const auto report = import_trace(text);
  bool control = false;
  for (const char c : text) control = control || static_cast<unsigned char>(c) < 0x20;
  if (!control) {
    const auto json = parse_json(text);
    if (json.ok()) PIPESIM_FUZZ_REQUIRE(report.ok() || report.error().rule != "json.invalid");
    if (report.ok()) PIPESIM_FUZZ_REQUIRE(json.ok() || json.error().rule == "json.duplicate_key");
  }
  if (!report.ok()) {
    fuzz::check_error(report.error());
    return 0;
  }
  const TraceReport& r = report.value();
  (void)trace_report_to_json(r).dump();  // throws (and so aborts the run) on invalid UTF-8
  if (r.overlap) PIPESIM_FUZZ_REQUIRE(*r.overlap >= 0 && *r.overlap <= 1);
  for (const TraceDevice& d : r.devices) {
    PIPESIM_FUZZ_REQUIRE(d.overlap_ms <= d.comm_ms && d.overlap_ms <= d.compute_ms);
    PIPESIM_FUZZ_REQUIRE(d.overlap.has_value() == (d.comm_ms > 0));
  }
  for (const TraceStream& s : r.streams) PIPESIM_FUZZ_REQUIRE(s.busy_ms >= 0);
  if (r.costs) {
    PIPESIM_FUZZ_REQUIRE(validate_costs(r.costs->costs).ok());
    PIPESIM_FUZZ_REQUIRE(validate_costs(r.costs->plain_costs).ok());
  }
  return 0;
}
