// Embind boundary of pipesim: a few stateless functions, JSON strings in, one envelope out.
// Every export returns {ok: true, result} or {ok: false, error} and never lets a C++ exception
// cross into JS (it would arrive as a bare number). `error` is the JSON text of {code, message,
// path, rule, params} (pipesim/rules.h); `result` is a JSON string
// in the CLI's schema (docs/schema.md), so CLI, golden files and page agree byte for byte;
// wasm/pipesim.js parses it and turns errors into thrown SimErrors. simulate() additionally hands
// the timeline over as one block of typed columns, because 200k ops as JSON cost 300-900 ms to parse.
// This is the only file that includes <emscripten/...>.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <malloc.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <exception>
#include <string>

#include "pipesim/boundary.h"
#include "pipesim/catalogue.h"
#include "pipesim/comm.h"
#include "pipesim/custom_schedule.h"
#include "pipesim/engine.h"
#include "pipesim/exercises.h"
#include "pipesim/memory.h"
#include "pipesim/json.h"
#include "pipesim/layer_split.h"
#include "pipesim/lesson_report.h"
#include "pipesim/planner.h"
#include "pipesim/pytorch_csv.h"
#include "pipesim/rules.h"
#include "pipesim/sweep.h"
#include "pipesim/timeline_columns.h"
#include "pipesim/trace.h"

namespace pipesim::wasm {
namespace {

using emscripten::val;

// `text` as a JS string, decoded by TextDecoder straight from the module's memory. Embind's own
// std::string conversion copies the text once more and first visits every byte in JS: for the
// 5 MB of a 74k-op simulateJson that was most of the call.
val js_string(const std::string& text) {
  static const val decoder = val::global("TextDecoder").new_();
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  return decoder.call<val>("decode", val(emscripten::typed_memory_view(text.size(), bytes)));
}

// {ok: false, error}: the error as JSON text (error_to_json: code, message, path, rule, params),
// parsed by pipesim.js like every result.
val error_envelope(const Error& error) {
  val out = val::object();
  out.set("ok", false);
  // Messages and params are valid UTF-8 by construction (summary()); replace, not throw, if not.
  out.set("error", js_string(error_to_json(error).dump(-1, ' ', false, Json::error_handler_t::replace)));
  return out;
}

val ok_envelope(const std::string& result_json) {
  val out = val::object();
  out.set("ok", true);
  out.set("result", js_string(result_json));
  return out;
}

// Runs `body` (which returns the envelope) and maps every escaping exception to one envelope.
template <typename F>
val guarded(F&& body) {
  try {
    return body();
  } catch (const Failure& f) {
    return error_envelope(f.error);
  } catch (const InternalError& e) {
    return error_envelope(make_error(Rule::Internal, "", {{"detail", e.what()}}));
  } catch (const std::exception& e) {
    return error_envelope(make_error(Rule::Internal, "", {{"detail", std::string("internal error: ") + e.what()}}));
  } catch (...) {
    return error_envelope(make_error(Rule::Internal, "", {{"detail", "internal error: unknown exception"}}));
  }
}

// The timeline's columns (pipesim/timeline_columns.h) as {count, bytes, offsets}: `bytes` a
// Uint8Array copy of the block, one slice that stays valid when memory grows (an uncopied
// typed_memory_view would detach), `offsets` where each column starts in it, in the catalogue's
// order. pipesim.js lays a typed array of the catalogue's type over each column, so names and
// types are core's alone. One copy, where a copy per column cost 11 allocations per call.
val timeline_block(const TimelineTable& table) {
  val out = val::object();
  out.set("count", static_cast<double>(table.count()));
  out.set("bytes", val(emscripten::typed_memory_view(table.size_bytes(), table.data())).call<val>("slice"));
  val offsets = val::array();
  for (const std::size_t offset : table.offsets()) offsets.call<void>("push", static_cast<double>(offset));
  out.set("offsets", offsets);
  return out;
}

// Every rank's activation steps (SimResult::activation_steps) as {offsets, time, level}: two
// Float64Arrays holding all ranks' points one rank after another (rank r's from offsets[r] to
// offsets[r + 1]), each one copied slice. Small beside the timeline: a point per F and B.
val activation_steps_block(const std::vector<ActivationSteps>& steps) {
  std::vector<double> time, level;
  val offsets = val::array();
  offsets.call<void>("push", 0.0);
  for (const ActivationSteps& s : steps) {
    time.insert(time.end(), s.time.begin(), s.time.end());
    level.insert(level.end(), s.level.begin(), s.level.end());
    offsets.call<void>("push", static_cast<double>(time.size()));
  }
  val out = val::object();
  out.set("offsets", offsets);
  out.set("time", val(emscripten::typed_memory_view(time.size(), time.data())).call<val>("slice"));
  out.set("level", val(emscripten::typed_memory_view(level.size(), level.data())).call<val>("slice"));
  return out;
}

// Configs and hand-written schedules, exactly as `pipesim simulate --input` reads them.
SimResult run_simulation(const std::string& request_json, TimelineForm form,
                         bool activation_steps = false) {
  return unwrap(simulate_request(unwrap(parse_json(request_json)), SimOptions{form, activation_steps}));
}

// Exactly what `pipesim simulate --input - --format json` prints, without the newline; written
// straight to text (result_json_text), never as a JSON tree.
val simulate_json(const std::string& request_json) {
  return guarded([&] { return ok_envelope(result_json_text(run_simulation(request_json, TimelineForm::Ops))); });
}

// The result without its timeline as JSON, plus envelope.timeline as one block of columns that
// the engine wrote directly (no TimedOp list in between), and envelope.activationSteps.
val simulate_arrays(const std::string& request_json) {
  return guarded([&] {
    const SimResult result = run_simulation(request_json, TimelineForm::Columns, true);
    val out = ok_envelope(result_to_json(result, false).dump());
    out.set("timeline", timeline_block(result.columns));
    out.set("activationSteps", activation_steps_block(result.activation_steps));
    return out;
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
// whole JSON readers and writers: compiled for size (clang's minsize, what -Oz gives a function),
// which keeps the module smaller by about a fifth. simulate() and simulateJson() above stay at -O3.
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

val sweep(const std::string& sweep_json) {
  return guarded([&] {
    return ok_envelope(sweep_to_json(unwrap(sweep_request(unwrap(parse_json(sweep_json))))).dump());
  });
}

// Same list as `pipesim schedules --format json`.
val schedules() {
  return guarded([] { return ok_envelope(schedules_to_json().dump()); });
}

// Same as `pipesim catalogue`: schedules, limits, defaults, timeline columns, rules.
val catalogue() {
  return guarded([] { return ok_envelope(catalogue_to_json().dump()); });
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

EMSCRIPTEN_BINDINGS(pipesim) {
  using namespace pipesim::wasm;
  emscripten::function("simulateJson", &simulate_json);
  emscripten::function("simulate", &simulate_arrays);
  emscripten::function("exportCsv", &export_csv);
  emscripten::function("validate", &validate_config);
  emscripten::function("sweep", &sweep);
  emscripten::function("schedules", &schedules);
  emscripten::function("catalogue", &catalogue);
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
