// The all-to-all kernel recommendation of a plan. DeepSeek's figures: report §3.2.2 (20 of the
// H800's 132 SMs drive IB and NVLink; node-limited routing; IB-to-NVLink forwarding), and their
// open-source kernel library DeepEP.
#include "plan_advice.h"

#include "plan_memory.h"

namespace pipesim::detail {

std::string all_to_all_advice(const PlanSpec& spec) {
  const ModelSpec& m = spec.model;
  if (!expert_parallel(m))
    return "No expert all-to-all: pipeline send/receive and data-parallel gradient reduction are "
           "the only collectives, and the stock collective library handles them.";
  const int per_node = spec.cluster.gpus_per_node;
  const int nodes = (m.expert_parallel + per_node - 1) / per_node;
  const std::string span = "EP = " + std::to_string(m.expert_parallel) + " spans " +
                           std::to_string(nodes) + (nodes == 1 ? " node. " : " nodes. ");
  if (!spec.custom_all_to_all_kernel)
    return span +
           "Without a topology-aware kernel, use the stock all-to-all and keep it off the "
           "critical path with Zero Bubble; revisit DualPipe once a kernel like DeepSeek's DeepEP "
           "(node-limited routing, IB-to-NVLink forwarding) runs on this cluster.";
  return span +
         "Run your topology-aware all-to-all kernel inside the overlapped forward-backward pairs "
         "on a fixed share of SMs (DeepSeek-V3 used 20 of the H800's 132 SMs, report §3.2.2), so "
         "dispatch and combine run under the other chunk's computation.";
}

}  // namespace pipesim::detail
