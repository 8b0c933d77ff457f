// The memory model's calculation (pipesim/memory.h): parameters per GPU from the layout and the
// schedule's stage layout, model states from the precision recipe and the ZeRO stage, activations
// from Korthikanti et al.'s Table 2 and the simulated peak, and the assumptions, in words with
// their sources, that every result carries.
#include <string>

#include "memory_text.h"
#include "pipesim/engine.h"
#include "pipesim/memory.h"
#include "pipesim/schedule.h"

namespace pipesim {
namespace {

// The stage layout `request.schedule` has at P = layout.pp (the catalogue's StageLayout, with the
// chunks a schedule that takes them runs).
struct Layout {
  int stages = 1, stages_per_rank = 1, param_copies = 1;
};

Layout stage_layout(const MemoryRequest& q) {
  const ScheduleInfo& info = *find_schedule_info(q.schedule);
  SimConfig config;
  config.schedule = q.schedule;
  config.ranks = q.layout.pp;
  config.chunks = q.chunks;
  Layout l;
  l.stages_per_rank = info.chunks.taken() ? effective_chunks(info, config) : info.layout.stages_per_rank;
  l.stages = q.layout.pp * l.stages_per_rank / info.layout.directions;
  l.param_copies = info.layout.param_copies;
  return l;
}

// Model states of `p` parameters: each kind at its recipe's bytes, divided over its data-parallel
// group where the ZeRO stage shards it (§5: stage 1 the optimizer states, the master weights
// among them; 2 also the gradients; 3 also the parameters).
StateBytes state_bytes(const PrecisionRecipe& r, const ParamsHeld& p, const MemoryRequest& q) {
  const auto bytes = [&](double per_param, int from_stage) {
    const bool sharded = q.zero >= from_stage;
    return per_param * (p.non_routed / (sharded ? q.layout.dp : 1) +
                        p.routed / (sharded ? q.layout.expert_dp() : 1));
  };
  return {bytes(r.weight_bytes, 3), bytes(r.gradient_bytes, 2), bytes(r.master_bytes, 1),
          bytes(r.optimizer_bytes, 1)};
}

// Korthikanti et al., "Reducing Activation Recomputation in Large Transformer Models" (arXiv
// 2205.05198), §4, Table 2: activation bytes of one transformer layer for one micro-batch, with
// 16-bit activations and 1-byte dropout masks, per tensor-parallel GPU. Full recomputation keeps
// only the layer's input, 2sbh, which sequence parallelism splits over t as it splits the rest.
ActivationMemory activation_memory(const MemoryRequest& q, double peak_units) {
  const ActivationSpec& a = *q.activations;
  const double s = a.seq_length, b = a.micro_batch_size, h = q.model.hidden,
               heads = q.model.heads, t = q.layout.tp;
  const double sbh = s * b * h;
  const bool sp = q.layout.sequence_parallel;
  ActivationMemory m;
  switch (a.recompute) {
    case Recompute::None:
      m.formula = sp ? "sbh/t (34 + 5as/h)" : "sbh (10 + 24/t + 5as/(ht))";
      m.bytes_per_layer = sp ? sbh / t * (34 + 5 * heads * s / h)
                             : sbh * (10 + 24 / t + 5 * heads * s / (h * t));
      break;
    case Recompute::Selective:
      m.formula = sp ? "sbh 34/t" : "sbh (10 + 24/t)";
      m.bytes_per_layer = sp ? sbh * 34 / t : sbh * (10 + 24 / t);
      break;
    case Recompute::Full:
      m.formula = sp ? "2sbh/t" : "2sbh";
      m.bytes_per_layer = sp ? 2 * sbh / t : 2 * sbh;
      break;
  }
  m.layers_per_unit = static_cast<double>(q.model.layers) / q.layout.pp;
  m.bytes_per_unit = m.bytes_per_layer * m.layers_per_unit;
  m.microbatches = q.microbatches;
  m.peak_units = peak_units;
  m.peak_bytes = peak_units * m.bytes_per_unit;
  return m;
}

}  // namespace

MemoryResult memory_of(const MemoryRequest& request, double peak_units) {
  MemoryResult r;
  r.request = request;
  if (r.request.microbatches == 0) r.request.microbatches = default_microbatches(r.request);
  const MemoryRequest& q = r.request;
  r.recipe = find_recipe(q.recipe).value();
  const Layout l = stage_layout(q);
  r.stages = l.stages;
  r.stages_per_rank = l.stages_per_rank;
  r.param_copies = l.param_copies;
  // A rank holds stages_per_rank of `stages` stages, param_copies copies' worth: one copy is
  // 1/P of the model, split over TP, its routed experts over EP too.
  const double copy_fraction = static_cast<double>(l.stages_per_rank) / l.stages / l.param_copies;
  r.per_copy.non_routed = (q.model.params - q.model.routed_params) * copy_fraction / q.layout.tp;
  r.per_copy.routed =
      q.model.routed_params * copy_fraction / (static_cast<double>(q.layout.tp) * q.layout.ep);
  r.per_copy_bytes = state_bytes(r.recipe, r.per_copy, q);
  r.per_copy_routed_bytes = state_bytes(r.recipe, {0, r.per_copy.routed}, q);
  r.held = {r.per_copy.non_routed * l.param_copies, r.per_copy.routed * l.param_copies};
  r.states = state_bytes(r.recipe, r.held, q);
  r.extra_copy_bytes = r.states.total() - r.per_copy_bytes.total();
  r.total_bytes = r.states.total();
  if (q.activations) {
    r.activations = activation_memory(q, peak_units);
    r.total_bytes += r.activations->peak_bytes;
  }
  r.share_of_gpu_memory = r.total_bytes / (q.gpu_memory_gb * 1e9);
  r.assumptions = detail::memory_assumptions(r);
  return r;
}

Result<MemoryResult> memory(const MemoryRequest& request) {
  if (Status st = validate_memory(request); !st.ok()) return st.error();
  MemoryRequest q = request;
  if (q.microbatches == 0) q.microbatches = default_microbatches(q);
  double peak_units = 0;
  if (q.activations) {
    // The peak of in-flight micro-batches does not depend on the model: the schedule at P ranks
    // and M micro-batches, DeepSeek's default costs.
    SimConfig config;
    config.schedule = q.schedule;
    config.ranks = q.layout.pp;
    config.microbatches = q.microbatches;
    config.chunks = q.chunks;
    auto run = simulate(config);
    if (!run.ok()) return run.error();
    peak_units = run.value().max_peak_activation_memory;
  }
  return memory_of(q, peak_units);
}

}  // namespace pipesim
