// The planner's memory model (16 bytes of training state per parameter, the optimizer's 12
// sharded ZeRO-1 style; constants and sources in planner.h) and its table of GPU speeds.
#include "plan_memory.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>

#include "pipesim/exercises.h"

namespace pipesim {
namespace detail {

bool expert_parallel(const ModelSpec& m) {
  return m.type == ModelType::Moe && m.expert_parallel > 1;
}

PlanMemory memory_at(const PlanSpec& spec, int ranks, int copies, bool shard_experts) {
  const ModelSpec& m = spec.model;
  const double dp = static_cast<double>(spec.cluster.gpus) / ranks;
  double non_routed = m.total_params, routed = 0, expert_dp = dp;
  int ep = 1;
  if (shard_experts && expert_parallel(m)) {
    // Routed experts are spread over the EP group; the rest (attention, dense and shared layers,
    // router, embeddings) is replicated by every copy, as in `pipesim params`. Without
    // model.routedParams the active parameters stand in for the replicated part (an overestimate:
    // they include the routed experts a token picks).
    routed = m.routed_params > 0 ? m.routed_params : m.total_params - m.active_params;
    non_routed = m.total_params - routed;
    ep = m.expert_parallel;
    expert_dp = std::max(1.0, dp / m.expert_parallel);
  }
  const double replicated = params_per_gpu(ranks, 1, non_routed, 0, 1);
  const double experts = params_per_gpu(ranks, 1, 0, routed, ep);
  const double one_copy_bytes = kPlanWeightGradBytes * (replicated + experts) +
                                kPlanOptimizerBytes * (replicated / dp + experts / expert_dp);
  PlanMemory mem;
  mem.param_copies = copies;
  mem.params_per_gpu = copies * (replicated + experts);
  mem.total_gb = copies * one_copy_bytes / 1e9;
  mem.replication_gb = (copies - 1) * one_copy_bytes / 1e9;
  mem.usable_gb = spec.cluster.memory_per_gpu_gb * kPlanUsableMemoryFraction;
  mem.fits = mem.total_gb <= mem.usable_gb;
  return mem;
}

}  // namespace detail

std::optional<double> relative_gpu_speed(const std::string& gpu_model) {
  // Dense BF16 tensor peaks from NVIDIA's datasheets (TFLOPS, without sparsity). The H800 is an
  // H100 SXM with reduced NVLink and FP64; its BF16 peak is the H100's. A name matches when it
  // starts with the entry and no digit follows ("A100-80GB" is an A100, "H200" is not an H20).
  static const std::pair<std::string, double> kPeaks[] = {
      {"H800", 989}, {"H100", 989}, {"H200", 989}, {"H20", 148}, {"A100", 312}, {"A800", 312}};
  std::string upper = gpu_model;
  for (char& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  for (const auto& [name, peak] : kPeaks) {
    if (upper.rfind(name, 0) != 0) continue;
    if (upper.size() == name.size() ||
        !std::isdigit(static_cast<unsigned char>(upper[name.size()])))
      return peak / 989;
  }
  return std::nullopt;
}

PlanMemory plan_memory(const PlanSpec& spec, int ranks, int copies) {
  return detail::memory_at(spec, ranks, copies, true);
}

}  // namespace pipesim
