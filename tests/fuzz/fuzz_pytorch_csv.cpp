// libFuzzer harness: torch.distributed.pipelining CSV as `pipesim simulate --input x.csv` reads it
// (schedule_from_pytorch_csv, check_schedule, the engine with activation steps). Properties: no
// crash or sanitizer report; every error is one short clean line (check_error); a result's
// streamed text is its JSON tree's dump; a CSV that reads and passes the structural checks exports
// to a CSV that reads back as the same schedule (shape and every rank's op labels). Runs the
// fuzzer can afford only: above 20,000 ops or chunks the file is read, not run.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_checks.h"
#include "pipesim/engine.h"
#include "pipesim/pytorch_csv.h"
#include "pipesim/schedule.h"

using namespace pipesim;

namespace {

constexpr std::int64_t kMaxFuzzOps = 20'000;

bool same_schedule(const Schedule& a, const Schedule& b) {
  if (a.ranks != b.ranks || a.stages != b.stages || a.directions != b.directions ||
      a.microbatches_per_direction != b.microbatches_per_direction || a.rank_ops.size() != b.rank_ops.size())
    return false;
  for (std::size_t r = 0; r < a.rank_ops.size(); ++r) {
    if (a.rank_ops[r].size() != b.rank_ops[r].size()) return false;
    for (std::size_t i = 0; i < a.rank_ops[r].size(); ++i)
      if (op_label(a.rank_ops[r][i]) != op_label(b.rank_ops[r][i])) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto schedule = schedule_from_pytorch_csv(text);
  if (!schedule.ok()) {
    fuzz::check_error(schedule.error());
    return 0;
  }
  const Schedule& s = schedule.value();
  std::int64_t ops = 0;
  for (const auto& list : s.rank_ops) ops += static_cast<std::int64_t>(list.size());
  if (ops > kMaxFuzzOps ||
      static_cast<std::int64_t>(s.stages) * s.directions * s.microbatches_per_direction > kMaxFuzzOps)
    return 0;
  // Uneven costs with latency and a zero-length input-gradient B (W = B), the engine's edge cases.
  for (const Costs& costs : {Costs{1.3, 2.1, 0.4, 2.9, 0.25}, Costs{1, 2, 2, 3, 0}}) {
    auto result = simulate_pytorch_csv(text, costs, SimOptions{TimelineForm::Ops, true});
    if (!result.ok()) {
      fuzz::check_error(result.error());
      return 0;
    }
    PIPESIM_FUZZ_REQUIRE(result_json_text(result.value()) == result_to_json(result.value()).dump());
  }
  // It ran, so it passed check_schedule: export and read back.
  auto again = schedule_from_pytorch_csv(schedule_to_pytorch_csv(s));
  PIPESIM_FUZZ_REQUIRE(again.ok());
  PIPESIM_FUZZ_REQUIRE(same_schedule(s, again.value()));
  return 0;
}
