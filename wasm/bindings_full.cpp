// Embind boundary of pipesim, part 2: the entry points only the full build (pipesim.mjs) has, for
// the lab's own page and the Node tests: the JSON and CSV forms of a run, validation, the lesson
// report, the exercise calculators, the memory model, the layer split, the overlap pair, the
// planner and the profiler-trace reader. The figures' build leaves this file out
// (wasm/CMakeLists.txt); the envelope and its rules are envelope.h's, as in bindings.cpp.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <malloc.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "envelope.h"
#include "pipesim/boundary.h"
#include "pipesim/catalogue.h"
#include "pipesim/comm.h"
#include "pipesim/custom_schedule.h"
#include "pipesim/engine.h"
#include "pipesim/exercises.h"
#include "pipesim/json.h"
#include "pipesim/layer_split.h"
#include "pipesim/lesson_report.h"
#include "pipesim/memory.h"
#include "pipesim/planner.h"
#include "pipesim/pytorch_csv.h"
#include "pipesim/trace.h"

namespace pipesim::wasm {
namespace {

using emscripten::val;

// Exactly what `pipesim simulate --input - --format json` prints, without the newline; written
// straight to text (result_json_text), never as a JSON tree.
val simulate_json(const std::string& request_json) {
  return guarded([&] {
    return ok_envelope(result_json_text(unwrap(simulate_request(unwrap(parse_json(request_json)), SimOptions{TimelineForm::Ops}))));
  });
}

// A profiler trace (pipesim/trace.h), as `pipesim trace-import --format json` reports it. `bytes`
// is a Uint8Array (pipesim.js encodes text with TextEncoder), copied once, straight into one
// allocation of the module's memory: Embind's std::string would copy a 100 MB trace twice.
val trace_import(const val& bytes, const std::string& options_json) {
  return guarded([&] {
    const TraceOptions options = unwrap(trace_options_from_json(unwrap(parse_json(options_json))));
    const auto length = bytes["length"].as<std::size_t>();
    if (static_cast<std::int64_t>(length) > kMaxTraceBytes)
      throw Failure{make_error(Rule::InputTooLarge, "", {{"limit", kMaxTraceBytes}})};
    const std::unique_ptr<char[]> text(new char[length == 0 ? 1 : length]);
    val(emscripten::typed_memory_view(length, reinterpret_cast<unsigned char*>(text.get()))).call<void>("set", bytes);
    return ok_envelope(trace_report_to_json(unwrap(import_trace(std::string_view(text.get(), length), options))).dump());
  });
}

// Everything below up to heap_in_use is called once per user action, never in a loop, and inlines
// whole JSON readers and writers: compiled for size (clang's minsize, what -Oz gives a function).
// simulateJson() and traceImport() above stay at -O3.
#pragma clang attribute push(__attribute__((minsize)), apply_to = function)

// The torch.distributed.pipelining CSV of any request simulate takes (a built-in config, a
// hand-written or a CSV schedule), as `pipesim export --input - ` writes it: the result is the
// CSV text itself, not JSON.
val export_csv(const std::string& request_json) {
  return guarded([&] { return ok_envelope(unwrap(pytorch_csv_from_request(unwrap(parse_json(request_json))))); });
}

// The config as simulate would run it: defaults filled in, every rule checked.
val validate_config(const std::string& config_json) {
  return guarded([&] {
    const SimConfig c = unwrap(config_from_json_text(config_json));
    const Json j{{"schedule", c.schedule},
                 {"ranks", c.ranks},
                 {"microbatches", c.microbatches},
                 {"costs", costs_to_json(c.costs)}};
    Json out = j;
    if (!c.costs.stages.empty()) out["stageCosts"] = stage_costs_to_json(c.costs.stages);
    return ok_envelope(out.dump());
  });
}

// Same list as `pipesim schedules --format json`.
val schedules() {
  return guarded([] { return ok_envelope(schedules_to_json().dump()); });
}

// Same as `pipesim lesson --format json` under the given costs ({} for DeepSeek's defaults).
// Error paths read "/costs/<field>", as for the costs of a config, so the page can reuse them.
val lesson_report_json(const std::string& costs_json) {
  return guarded([&] {
    const Costs costs = unwrap(costs_from_json(unwrap(parse_json(costs_json)), "/costs"));
    unwrap(validate_costs(costs));
    return ok_envelope(lesson_report_to_json(lesson_report(costs)).dump());
  });
}

// The lesson's exercise calculators: the same requests and results as `pipesim recover | params |
// trace --format json` (docs/schema.md "Exercise calculators").
val recover_json(const std::string& request_json) {
  return guarded([&] {
    return ok_envelope(recover_result_to_json(unwrap(recover_request(unwrap(parse_json(request_json))))).dump());
  });
}

val params_json(const std::string& request_json) {
  return guarded([&] {
    return ok_envelope(params_result_to_json(unwrap(params_request(unwrap(parse_json(request_json))))).dump());
  });
}

// The memory model: `pipesim memory --input - --format json`, a single request or a comparison.
val memory_json_api(const std::string& request_json) {
  return guarded([&] { return ok_envelope(unwrap(memory_json(unwrap(parse_json(request_json)))).dump()); });
}

val trace_grid_json(const std::string& request_json) {
  return guarded([&] {
    return ok_envelope(trace_grid_to_json(unwrap(trace_request(unwrap(parse_json(request_json))))).dump());
  });
}

// Per-stage costs from a model's layer split: the same request and result as `pipesim split
// --format json` (pipesim/layer_split.h).
val layer_split_json(const std::string& request_json) {
  return guarded([&] {
    return ok_envelope(layer_split_to_json(unwrap(layer_split_request(unwrap(parse_json(request_json))))).dump());
  });
}

// One overlapped FB pair under `costs` (which must carry a comm model), as
// `pipesim overlap --format json`. Error paths read "/costs/<field>", as in lessonReport.
val overlap_pair_json(const std::string& costs_json) {
  return guarded([&] {
    const Costs costs = unwrap(costs_from_json(unwrap(parse_json(costs_json)), "/costs"));
    return ok_envelope(pair_overlap_to_json(unwrap(analyse_pair(costs)), costs).dump());
  });
}

// The planner: `pipesim plan --format json`, and the one-page plan as Markdown (result is the
// Markdown text itself, not JSON).
Plan run_plan(const std::string& spec_json) {
  return unwrap(make_plan(unwrap(plan_spec_from_json(unwrap(parse_json(spec_json))))));
}

val plan_json(const std::string& spec_json) {
  return guarded([&] { return ok_envelope(plan_to_json(run_plan(spec_json)).dump()); });
}

val plan_markdown(const std::string& spec_json) {
  return guarded([&] { return ok_envelope(plan_to_markdown(run_plan(spec_json))); });
}

#pragma clang attribute pop

// Bytes the module's allocator has handed out and not taken back: not part of the JS API
// (METHODS), for tests/wasm/hostile.test.mjs to check that failed calls free what they took.
double heap_in_use() { return static_cast<double>(mallinfo().uordblks); }

}  // namespace
}  // namespace pipesim::wasm

// The full build's entry points beside bindings.cpp's.
EMSCRIPTEN_BINDINGS(pipesim_full) {
  using namespace pipesim::wasm;
  emscripten::function("simulateJson", &simulate_json);
  emscripten::function("exportCsv", &export_csv);
  emscripten::function("validate", &validate_config);
  emscripten::function("schedules", &schedules);
  emscripten::function("lessonReport", &lesson_report_json);
  emscripten::function("recover", &recover_json);
  emscripten::function("params", &params_json);
  emscripten::function("memory", &memory_json_api);
  emscripten::function("traceGrid", &trace_grid_json);
  emscripten::function("overlapPair", &overlap_pair_json);
  emscripten::function("layerSplit", &layer_split_json);
  emscripten::function("plan", &plan_json);
  emscripten::function("planMarkdown", &plan_markdown);
  emscripten::function("traceImport", &trace_import);
  emscripten::function("heapInUse", &heap_in_use);
}
