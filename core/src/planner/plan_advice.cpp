// The all-to-all kernel recommendation of a plan. DeepSeek's figures: report §3.2.2 (20 of the
// H800's 132 SMs drive IB and NVLink; node-limited routing; IB-to-NVLink forwarding), and their
// open-source kernel library DeepEP.
#include "plan_advice.h"

#include "plan_memory.h"

namespace pipesim::detail {

PlanText all_to_all_advice(const PlanSpec& spec) {
  const ModelSpec& m = spec.model;
  if (!expert_parallel(m)) return plan_text(PlanTextId::KernelNone);
  const int per_node = spec.cluster.gpus_per_node;
  const int nodes = (m.expert_parallel + per_node - 1) / per_node;
  return plan_text(spec.custom_all_to_all_kernel ? PlanTextId::KernelCustom : PlanTextId::KernelStock,
                   {{"ep", m.expert_parallel}, {"n", nodes}});
}

}  // namespace pipesim::detail
