// Embind boundary of pipesim, part 1: the entry points every build of the module has, which are
// all that the figures (the embeds and the course's figure system) call. The figures' build
// (pipesim-figures.mjs, wasm/CMakeLists.txt) is this file alone, so the linker leaves out the
// trace reader, the planner, the exercise calculators, the memory model's requests and the
// writers only those need; the full build adds bindings_full.cpp. This file is the one list of
// the figures' entry points: wasm/pipesim.js reads what a module exports and answers a call to
// anything else with a SimError.
//
// A few stateless functions, JSON strings in, one envelope out (envelope.h). simulate() hands the
// timeline over as one block of typed columns besides, because 200k ops as JSON cost 300-900 ms
// to parse. Only wasm/ includes <emscripten/...>.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstddef>
#include <string>
#include <vector>

#include "envelope.h"
#include "pipesim/boundary.h"
#include "pipesim/catalogue.h"
#include "pipesim/custom_schedule.h"
#include "pipesim/engine.h"
#include "pipesim/json.h"
#include "pipesim/sweep.h"
#include "pipesim/timeline_columns.h"

namespace pipesim::wasm {
namespace {

using emscripten::val;

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

// The result without its timeline as JSON, plus envelope.timeline as one block of columns that
// the engine wrote directly (no TimedOp list in between), and envelope.activationSteps.
val simulate_arrays(const std::string& request_json) {
  return guarded([&] {
    const SimResult result = unwrap(simulate_request(unwrap(parse_json(request_json)),
                                                    SimOptions{TimelineForm::Columns, true}));
    val out = ok_envelope(result_to_json(result, false).dump());
    out.set("timeline", timeline_block(result.columns));
    out.set("activationSteps", activation_steps_block(result.activation_steps));
    return out;
  });
}

// The rest is called once per user action, never in a loop, and inlines whole JSON readers and
// writers: compiled for size (clang's minsize, what -Oz gives a function), which keeps the module
// smaller by about a fifth. simulate() above stays at -O3.
#pragma clang attribute push(__attribute__((minsize)), apply_to = function)

val sweep(const std::string& sweep_json) {
  return guarded([&] {
    return ok_envelope(sweep_to_json(unwrap(sweep_request(unwrap(parse_json(sweep_json))))).dump());
  });
}

// Same as `pipesim catalogue`: schedules, limits, defaults, timeline columns, rules.
val catalogue() {
  return guarded([] { return ok_envelope(catalogue_to_json().dump()); });
}

#pragma clang attribute pop

}  // namespace
}  // namespace pipesim::wasm

// The figures' entry points: every build has them.
EMSCRIPTEN_BINDINGS(pipesim_figures) {
  using namespace pipesim::wasm;
  emscripten::function("simulate", &simulate_arrays);
  emscripten::function("sweep", &sweep);
  emscripten::function("catalogue", &catalogue);
}
