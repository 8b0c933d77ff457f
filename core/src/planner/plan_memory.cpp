// The planner's view of the memory model (pipesim/memory.h): its model as a bare parameter count
// with its routed experts, the spec's recipe and ZeRO stage, DP = gpus / P, experts over EP; and
// its table of GPU speeds.
#include "plan_memory.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>

#include "pipesim/memory.h"

namespace pipesim {
namespace detail {

bool expert_parallel(const ModelSpec& m) {
  return m.type == ModelType::Moe && m.expert_parallel > 1;
}

bool layout_fits(const PlanSpec& spec, int ranks) {
  if (spec.cluster.gpus % ranks != 0) return false;
  return !expert_parallel(spec.model) || (spec.cluster.gpus / ranks) % spec.model.expert_parallel == 0;
}

PlanMemory memory_at(const PlanSpec& spec, int ranks, const std::string& schedule, int chunks,
                     bool shard_experts) {
  const ModelSpec& m = spec.model;
  MemoryRequest q;
  q.model.label = spec.title.empty() ? "the model" : spec.title;
  q.model.source = "the planner spec (model.totalParams, model.routedParams)";
  q.model.params = m.total_params;
  q.recipe = spec.recipe;
  q.zero = spec.zero;
  q.layout.pp = ranks;
  q.layout.dp = spec.cluster.gpus / ranks;
  q.schedule = schedule;
  q.chunks = chunks;
  q.gpu_memory_gb = spec.cluster.memory_per_gpu_gb;
  if (shard_experts && expert_parallel(m)) {
    // Routed experts are spread over the EP group; the rest (attention, dense and shared layers,
    // router, embeddings) is replicated by every copy. Without model.routedParams the active
    // parameters stand in for the replicated part (an overestimate: they include the routed
    // experts a token picks).
    q.model.routed_params = m.routed_params > 0 ? m.routed_params : m.total_params - m.active_params;
    q.layout.ep = m.expert_parallel;
  }
  const MemoryResult r = memory_of(q, 0);
  PlanMemory mem;
  mem.param_copies = r.param_copies;
  mem.params_per_gpu = r.held.total();
  mem.total_gb = r.states.total() / 1e9;
  mem.replication_gb = r.extra_copy_bytes / 1e9;
  mem.usable_gb = spec.cluster.memory_per_gpu_gb * kPlanUsableMemoryFraction;
  mem.fits = mem.total_gb <= mem.usable_gb;
  mem.model = r;
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

}  // namespace pipesim
