// DeepSeek's bubble table as code, with the region in which each entry is exact.
#include "pipesim/formulas.h"

#include <algorithm>
#include <cmath>

namespace pipesim {
namespace {

constexpr const char* kDeepSeekTable = "deepseek-ai/DualPipe README; DeepSeek-V3 report, Table 2";

bool nearly_equal(double a, double b) {
  return std::fabs(a - b) <= 1e-9 * std::max({1.0, std::fabs(a), std::fabs(b)});
}
bool at_most(double a, double b) { return a <= b || nearly_equal(a, b); }

}  // namespace

ReferenceBubble reference_bubble(const std::string& schedule, int stages, int microbatches,
                                 const Costs& c) {
  ReferenceBubble ref;
  ref.source = kDeepSeekTable;
  const double pp = stages;
  const bool no_latency = c.p2p_latency == 0;
  if (schedule == "gpipe" || schedule == "1f1b") {
    ref.formula = "(PP-1)(F+B)";
    ref.bubble_max = (pp - 1) * (c.forward + c.backward);
    ref.condition = "p2pLatency = 0";
    ref.applies = no_latency;
  } else if (schedule == "zb-h1") {
    ref.formula = "(PP-1)(F+B-2W)";
    ref.bubble_max = (pp - 1) * (c.forward + c.backward - 2 * c.weight);
    ref.condition = "M >= PP, W <= F, W <= B-W, p2pLatency = 0";
    ref.applies = no_latency && microbatches >= stages && at_most(c.weight, c.forward) &&
                  at_most(c.weight, c.backward - c.weight);
  } else if (schedule == "dualpipe" || schedule == "dualpipev") {
    ref.formula = "(PP/2-1)(F&B+B-3W)";
    ref.bubble_max = (pp / 2 - 1) * (c.overlapped + c.backward - 3 * c.weight);
    ref.condition = "PP = 2, or B-W = F, W <= F, max(F,B) <= F&B <= F+B; p2pLatency = 0";
    const bool in_cost_region = nearly_equal(c.backward - c.weight, c.forward) &&
                                at_most(c.weight, c.forward) &&
                                at_most(std::max(c.forward, c.backward), c.overlapped) &&
                                at_most(c.overlapped, c.forward + c.backward);
    ref.applies = no_latency && (stages == 2 || in_cost_region);
  } else {
    ref.source = "";
  }
  return ref;
}

}  // namespace pipesim
