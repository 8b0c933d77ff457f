// libFuzzer harness: planner specs as `pipesim plan --input` reads them (parse_json,
// plan_spec_from_json, make_plan, both renderings). Properties: no crash; errors are one short
// clean line; a plan renders as JSON and Markdown. make_plan simulates P x M; a spec asking for
// more than 512 micro-batches is read, not planned (the fuzzer's time, not a limit of the planner).
#include <cstddef>
#include <cstdint>

#include "fuzz_checks.h"
#include "pipesim/planner.h"

using namespace pipesim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto json = parse_json(text);
  if (!json.ok()) {
    fuzz::check_error(json.error());
    return 0;
  }
  auto spec = plan_spec_from_json(json.value());
  if (!spec.ok()) {
    fuzz::check_error(spec.error());
    return 0;
  }
  if (spec.value().requested.microbatches > 512) return 0;
  auto plan = make_plan(spec.value());
  if (!plan.ok()) {
    fuzz::check_error(plan.error());
    return 0;
  }
  (void)plan_to_json(plan.value()).dump();
  (void)plan_to_markdown(plan.value());
  return 0;
}
