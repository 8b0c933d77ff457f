// The shared invariant checker every simulated trace must pass (tests assert real behaviour): ops on one rank
// never overlap and run in list order; every op starts after its dependencies finish (plus p2p
// latency across ranks); every F and B appears exactly once and every zero-bubble B has its W;
// activations never go negative, return to zero, and the reported peaks match a recount; the
// metrics agree with their definitions; under a communication model, op lengths and the
// compute/comm/exposed metrics agree with the model's bounds. Also the small helpers several
// test files share (one definition each).
#pragma once

#include <string>
#include <vector>

#include "pipesim/comm.h"
#include "pipesim/engine.h"

namespace pipesim::testing {

/// Returns "" when `result` is consistent, else a description of the first violation.
std::string check_invariants(const Schedule& schedule, const SimResult& result);

/// Generates, simulates and checks `config`; fails the current Catch2 test on any violation.
SimResult simulate_checked(const SimConfig& config);

/// The labels of rank `rank`'s ops in the order `config`'s schedule lists them ("F0", "B3"...);
/// fails the current test when the schedule cannot be generated.
std::vector<std::string> rank_op_labels(const SimConfig& config, int rank);

/// The whole text of the file at `path` ("" when it cannot be read).
std::string read_text_file(const std::string& path);

/// `costs` with the communication model's ratio form: `ratio`, attention share 1/2, `layers`
/// layers per chunk.
Costs with_comm_ratio(double ratio, int layers = 1, Costs costs = Costs{});

/// A part's label as the JSON writes it: "DISPATCH(F)".
std::string part_label(const OpPart& part);

/// One part as a test expects it: label, start and end relative to its op.
struct PartSpan {
  std::string label;
  double start, end;
};

/// Checks `timing`'s parts against `expected`, in order (Catch2 checks).
void check_part_spans(const OpTiming& timing, const std::vector<PartSpan>& expected);

}  // namespace pipesim::testing
