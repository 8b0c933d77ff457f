// libFuzzer harness: op labels of hand-written schedules (parse_op_label). Properties: no crash;
// a label that parses prints (op_label) as a label that parses to the same op; a label that does
// not parse is an error of one short clean line.
#include <cstddef>
#include <cstdint>

#include "fuzz_checks.h"
#include "pipesim/custom_schedule.h"
#include "pipesim/schedule.h"

using namespace pipesim;

namespace {
bool same_chunk(const Chunk& a, const Chunk& b) { return a.dir == b.dir && a.mb == b.mb && a.stage == b.stage; }
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string label(reinterpret_cast<const char*>(data), size);
  auto op = parse_op_label(label, "/rankOps/0/0");
  if (!op.ok()) {
    fuzz::check_error(op.error());
    return 0;
  }
  const Op& a = op.value();
  auto again = parse_op_label(op_label(a), "/rankOps/0/0");
  PIPESIM_FUZZ_REQUIRE(again.ok());
  const Op& b = again.value();
  PIPESIM_FUZZ_REQUIRE(a.kind == b.kind && a.zero_bubble == b.zero_bubble && same_chunk(a.chunk, b.chunk));
  if (a.kind == OpKind::ForwardBackward) PIPESIM_FUZZ_REQUIRE(same_chunk(a.backward_chunk, b.backward_chunk));
  return 0;
}
