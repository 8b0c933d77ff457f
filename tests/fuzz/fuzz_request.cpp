// libFuzzer harness: JSON text as `pipesim simulate --input` and the JS API's simulate read it,
// configs and hand-written schedules alike (parse_json, config_from_json, custom_schedule_from_json,
// the engine), plus the sweep, exercise and memory requests' readers. Properties: no crash or sanitizer
// report; every error is one short clean line (check_error); every result's streamed text is its
// JSON tree's dump. Runs the fuzzer can afford only: above 20,000 ops the input is read, not run.
#include <cstddef>
#include <cstdint>

#include "fuzz_checks.h"
#include "pipesim/custom_schedule.h"
#include "pipesim/engine.h"
#include "pipesim/exercises.h"
#include "pipesim/memory.h"
#include "pipesim/sweep.h"

using namespace pipesim;

namespace {

constexpr std::int64_t kMaxFuzzOps = 20'000;

void check_result(const Result<SimResult>& r) {
  if (!r.ok()) {
    fuzz::check_error(r.error());
    return;
  }
  PIPESIM_FUZZ_REQUIRE(result_json_text(r.value()) == result_to_json(r.value()).dump());
}

void run_request(const Json& json) {
  if (json.is_object() && json.contains("schedule") && json.at("schedule") == "custom") {
    auto req = custom_schedule_from_json(json);
    if (!req.ok()) return fuzz::check_error(req.error());
    const Schedule& s = req.value().schedule;
    std::int64_t ops = 0;
    for (const auto& list : s.rank_ops) ops += static_cast<std::int64_t>(list.size());
    if (ops <= kMaxFuzzOps && static_cast<std::int64_t>(s.stages) * s.directions * s.microbatches_per_direction <= kMaxFuzzOps)
      check_result(simulate_schedule(s, req.value().costs));
    return;
  }
  auto config = config_from_json(json);
  if (!config.ok()) return fuzz::check_error(config.error());
  const SimConfig& c = config.value();
  if (estimate_ops(*find_schedule_info(c.schedule), c.ranks, c.microbatches) <= kMaxFuzzOps)
    check_result(simulate(c));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto json = parse_json(text);
  if (!json.ok()) {
    fuzz::check_error(json.error());
    return 0;
  }
  run_request(json.value());
  // The other request readers on the same document: errors only matter here, not the runs.
  if (auto sweep = sweep_from_json(json.value()); !sweep.ok()) fuzz::check_error(sweep.error());
  if (auto recover = recover_request_from_json(json.value()); !recover.ok()) fuzz::check_error(recover.error());
  if (auto params = params_request(json.value()); !params.ok()) fuzz::check_error(params.error());
  if (auto memory = memory_request_from_json(json.value()); !memory.ok()) fuzz::check_error(memory.error());
  if (auto trace = trace_request_from_json(json.value()); !trace.ok()) fuzz::check_error(trace.error());
  return 0;
}
