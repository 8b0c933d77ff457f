// The shared invariant checker every simulated trace must pass (STYLE.md §8): ops on one rank
// never overlap and run in list order; every op starts after its dependencies finish (plus p2p
// latency across ranks); every F and B appears exactly once and every zero-bubble B has its W;
// activations never go negative, return to zero, and the reported peaks match a recount; the
// metrics agree with their definitions; under a communication model, op lengths and the
// compute/comm/exposed metrics agree with the model's bounds.
#pragma once

#include <string>

#include "pipesim/engine.h"

namespace pipesim::testing {

/// Returns "" when `result` is consistent, else a description of the first violation.
std::string check_invariants(const Schedule& schedule, const SimResult& result);

/// Generates, simulates and checks `config`; fails the current Catch2 test on any violation.
SimResult simulate_checked(const SimConfig& config);

}  // namespace pipesim::testing
