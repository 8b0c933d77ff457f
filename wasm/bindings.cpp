// Embind boundary of pipesim: a few stateless functions, JSON strings in, one envelope out.
// Every export returns {ok: true, result} or {ok: false, error: {code, message, path}} and never
// lets a C++ exception cross into JS (it would arrive as a bare number). `result` is a JSON string
// in the CLI's schema (docs/schema.md), so CLI, golden files and page agree byte for byte;
// wasm/pipesim.js parses it and turns errors into thrown SimErrors. simulate() additionally hands
// the timeline over as typed arrays, because 200k ops as JSON cost 300-900 ms to parse.
// This is the only file that includes <emscripten/...>.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "pipesim/comm.h"
#include "pipesim/engine.h"
#include "pipesim/exercises.h"
#include "pipesim/json.h"
#include "pipesim/lesson_report.h"
#include "pipesim/planner.h"
#include "pipesim/sweep.h"

namespace pipesim::wasm {
namespace {

using emscripten::val;

// Thrown inside this file only: a user-facing Error that ends the current call.
struct Failure {
  Error error;
};

template <typename T>
T unwrap(Result<T> r) {
  if (!r.ok()) throw Failure{r.error()};
  return std::move(r).value();
}

val error_envelope(const Error& error) {
  const Json j = error_to_json(error);
  val e = val::object();
  e.set("code", j.at("code").get<std::string>());
  e.set("message", j.at("message").get<std::string>());
  e.set("path", j.at("path").get<std::string>());
  val out = val::object();
  out.set("ok", false);
  out.set("error", e);
  return out;
}

val ok_envelope(const std::string& result_json) {
  val out = val::object();
  out.set("ok", true);
  out.set("result", result_json);
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
    return error_envelope(Error{ErrorCode::Internal, e.what(), ""});
  } catch (const std::exception& e) {
    return error_envelope(Error{ErrorCode::Internal, std::string("internal error: ") + e.what(), ""});
  } catch (...) {
    return error_envelope(Error{ErrorCode::Internal, "internal error: unknown exception", ""});
  }
}

// A copy of `data` as a JS typed array. slice() copies out of the wasm heap, so the array stays
// valid when memory grows (an uncopied typed_memory_view would detach).
template <typename T>
val typed_copy(const std::vector<T>& data) {
  return val(emscripten::typed_memory_view(data.size(), data.data())).call<val>("slice");
}

// The timeline as struct-of-arrays, ordered by rank then execution order. op: 0=F 1=B 2=W 3=FB.
// dir/mb/stage hold the forward part of an FB; bdir/bmb/bstage are -1 unless the op is an FB.
val timeline_arrays(const SimResult& result) {
  std::size_t count = 0;
  for (const auto& ops : result.timeline) count += ops.size();
  // Sized up front and filled by index: this file compiles at -Oz, where eleven push_backs per op
  // stay out-of-line calls with capacity checks.
  std::vector<std::int32_t> rank(count), dir(count), mb(count), stage(count), bdir(count),
      bmb(count), bstage(count);
  std::vector<std::uint8_t> op(count), zb(count);
  std::vector<double> start(count), end(count);
  std::size_t i = 0;
  for (std::size_t r = 0; r < result.timeline.size(); ++r) {
    for (const TimedOp& t : result.timeline[r]) {
      const bool pair = t.op.kind == OpKind::ForwardBackward;
      rank[i] = static_cast<std::int32_t>(r);
      op[i] = static_cast<std::uint8_t>(t.op.kind);
      zb[i] = t.op.zero_bubble ? 1 : 0;
      dir[i] = t.op.chunk.dir;
      mb[i] = t.op.chunk.mb;
      stage[i] = t.op.chunk.stage;
      bdir[i] = pair ? t.op.backward_chunk.dir : -1;
      bmb[i] = pair ? t.op.backward_chunk.mb : -1;
      bstage[i] = pair ? t.op.backward_chunk.stage : -1;
      start[i] = t.start;
      end[i] = t.end;
      ++i;
    }
  }
  val out = val::object();
  out.set("count", static_cast<double>(count));
  out.set("rank", typed_copy(rank));
  out.set("op", typed_copy(op));
  out.set("zb", typed_copy(zb));
  out.set("dir", typed_copy(dir));
  out.set("mb", typed_copy(mb));
  out.set("stage", typed_copy(stage));
  out.set("bdir", typed_copy(bdir));
  out.set("bmb", typed_copy(bmb));
  out.set("bstage", typed_copy(bstage));
  out.set("start", typed_copy(start));
  out.set("end", typed_copy(end));
  return out;
}

SimResult run_simulation(const std::string& config_json) {
  return unwrap(simulate(unwrap(config_from_json_text(config_json))));
}

// Exactly what `pipesim simulate --input - --format json` prints, without the newline.
val simulate_json(const std::string& config_json) {
  return guarded([&] { return ok_envelope(result_to_json(run_simulation(config_json)).dump()); });
}

// The result without its timeline as JSON, plus envelope.timeline as typed arrays.
val simulate_arrays(const std::string& config_json) {
  return guarded([&] {
    const SimResult result = run_simulation(config_json);
    val out = ok_envelope(result_to_json(result, false).dump());
    out.set("timeline", timeline_arrays(result));
    return out;
  });
}

// The config as simulate would run it: defaults filled in, every rule checked.
val validate_config(const std::string& config_json) {
  return guarded([&] {
    const SimConfig c = unwrap(config_from_json_text(config_json));
    const Json j{{"schedule", c.schedule},
                 {"ranks", c.ranks},
                 {"microbatches", c.microbatches},
                 {"costs", costs_to_json(c.costs)}};
    return ok_envelope(j.dump());
  });
}

val sweep(const std::string& sweep_json) {
  return guarded([&] {
    const SweepRequest request = unwrap(sweep_from_json(unwrap(parse_json(sweep_json))));
    return ok_envelope(sweep_to_json(unwrap(run_sweep(request))).dump());
  });
}

// Same list as `pipesim schedules --format json`.
val schedules() {
  return guarded([] {
    Json list = Json::array();
    for (const auto& info : list_schedules())
      list.push_back(Json{{"name", info.name},
                          {"title", info.title},
                          {"constraints", info.constraints},
                          {"source", info.source}});
    return ok_envelope(list.dump());
  });
}

// Same as `pipesim lesson --format json` under the given costs ({} for DeepSeek's defaults).
// Error paths read "/costs/<field>", as for the costs of a config, so the page can reuse them.
val lesson_report_json(const std::string& costs_json) {
  return guarded([&] {
    const Costs costs = unwrap(costs_from_json(unwrap(parse_json(costs_json)), "/costs"));
    if (Status st = validate_costs(costs); !st.ok()) throw Failure{st.error()};
    return ok_envelope(lesson_report_to_json(lesson_report(costs)).dump());
  });
}

// The lesson's exercise calculators: the same requests and results as `pipesim recover | params |
// trace --format json` (docs/schema.md "Exercise calculators").
val recover_json(const std::string& request_json) {
  return guarded([&] {
    const RecoverRequest request =
        unwrap(recover_request_from_json(unwrap(parse_json(request_json))));
    return ok_envelope(recover_result_to_json(unwrap(recover(request))).dump());
  });
}

val params_json(const std::string& request_json) {
  return guarded([&] {
    const ParamsRequest request =
        unwrap(params_request_from_json(unwrap(parse_json(request_json))));
    return ok_envelope(params_result_to_json(unwrap(params(request))).dump());
  });
}

val trace_grid_json(const std::string& request_json) {
  return guarded([&] {
    const TraceRequest request = unwrap(trace_request_from_json(unwrap(parse_json(request_json))));
    return ok_envelope(trace_grid_to_json(unwrap(trace_grid(request))).dump());
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

}  // namespace
}  // namespace pipesim::wasm

EMSCRIPTEN_BINDINGS(pipesim) {
  using namespace pipesim::wasm;
  emscripten::function("simulateJson", &simulate_json);
  emscripten::function("simulate", &simulate_arrays);
  emscripten::function("validate", &validate_config);
  emscripten::function("sweep", &sweep);
  emscripten::function("schedules", &schedules);
  emscripten::function("lessonReport", &lesson_report_json);
  emscripten::function("recover", &recover_json);
  emscripten::function("params", &params_json);
  emscripten::function("traceGrid", &trace_grid_json);
  emscripten::function("overlapPair", &overlap_pair_json);
  emscripten::function("plan", &plan_json);
  emscripten::function("planMarkdown", &plan_markdown);
}
