// The memory model's assumptions in words: what each result assumed about the model, the
// precision recipe, sharding, layout, parameter copies and activations, each with its source.
// English for the CLI; the page says the same from the structured JSON fields in its own language.
#include "memory_text.h"

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "format.h"
#include "pipesim/schedule.h"

namespace pipesim::detail {


std::string grouped_number(double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0f", std::round(value));
  const std::string digits = buf;
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0 && digits[i - 1] != '-') out += ',';
    out += digits[i];
  }
  return out;
}

namespace {

std::string num(double v) { return format_number(v); }

// An assumption whose source is a phrase (its English is the source) or, without one, a name.
MemoryAssumption said(const char* topic, std::string text, std::optional<PlanText> source,
                      std::string name = "") {
  std::string english = source ? source->english() : std::move(name);
  return {topic, std::move(text), std::move(english), std::move(source)};
}

std::optional<PlanText> phrase(std::optional<PlanTextId> id) {
  if (!id) return std::nullopt;
  return plan_text(*id);
}

std::string bytes_of(double per_param, const std::string& format) {
  return num(per_param) + " B (" + format + ")";
}

MemoryAssumption model_text(const MemoryResult& r) {
  const MemoryModel& m = r.request.model;
  std::string text = (m.label.empty() ? std::string("the model") : m.label) + ": " +
                     grouped_number(m.params) + " parameters";
  if (m.routed_params > 0) text += ", " + grouped_number(m.routed_params) + " of them in routed experts";
  return said("model", text, phrase(m.source_text), m.source);
}

MemoryAssumption recipe_text(const MemoryResult& r) {
  const PrecisionRecipe& p = r.recipe;
  std::string text = p.label + ": weights " + bytes_of(p.weight_bytes, p.weight_format) +
                     ", gradients " + bytes_of(p.gradient_bytes, p.gradient_format) +
                     ", master weights " + bytes_of(p.master_bytes, p.master_format) +
                     ", optimizer state " + bytes_of(p.optimizer_bytes, p.optimizer_format) +
                     " per parameter";
  if (!p.reading.empty()) text += "; our reading: " + p.reading;
  return said("recipe", text, phrase(p.source_text), p.source);
}

MemoryAssumption sharding_text(const MemoryResult& r) {
  const MemoryRequest& q = r.request;
  static const char* const kSharded[] = {
      "", "master weights and optimizer state", "gradients, master weights and optimizer state",
      "weights, gradients, master weights and optimizer state"};
  std::string text = "ZeRO-" + std::to_string(q.zero) + ": ";
  if (q.zero == 0) {
    text += "nothing sharded: every data-parallel replica holds all of its model states";
  } else {
    text += std::string(kSharded[q.zero]) + " sharded over the " + std::to_string(q.layout.dp) +
            " data-parallel GPUs";
    if (q.model.routed_params > 0)
      text += ", the routed experts' over their " + std::to_string(q.layout.expert_dp()) +
              " expert-data-parallel GPUs";
    if (r.param_copies > 1) text += "; each parameter copy is sharded the same way";
  }
  return said("sharding", text, plan_text(PlanTextId::MemorySourceSharding));
}

MemoryAssumption layout_text(const MemoryResult& r) {
  const ParallelLayout& l = r.request.layout;
  std::string text = "TP " + std::to_string(l.tp) + " x PP " + std::to_string(l.pp) + " x DP " +
                     std::to_string(l.dp) + " = " + grouped_number(static_cast<double>(l.gpus())) +
                     " GPUs";
  if (r.request.dp_from_gpus) text += " (DP = GPUs / (TP x PP))";
  if (l.ep > 1)
    text += "; EP " + std::to_string(l.ep) + " within DP, expert DP " + std::to_string(l.expert_dp());
  if (l.sequence_parallel) text += "; sequence parallelism";
  text += "; every stage holds an even share of the parameters, split evenly over TP";
  return said("layout", text, plan_text(PlanTextId::MemorySourceEvenSplit));
}

MemoryAssumption copies_text(const MemoryResult& r) {
  const ScheduleInfo& info = *find_schedule_info(r.request.schedule);
  std::string text = info.title + ": " + std::to_string(r.stages) + (r.stages == 1 ? " stage, " : " stages, ") +
                     std::to_string(r.stages_per_rank) + " per rank, " +
                     std::to_string(r.param_copies) + (r.param_copies == 1 ? " copy" : " copies") +
                     " of the parameters (each GPU holds " + std::to_string(r.param_copies) +
                     "/P of the model)";
  return said("copies", text,
              plan_text(PlanTextId::MemorySourceStageLayout, {{"citation", info.source}}));
}

MemoryAssumption activations_text(const MemoryResult& r) {
  const ActivationMemory& a = *r.activations;
  const MemoryRequest& q = r.request;
  const ActivationSpec& s = *q.activations;
  std::string text = std::string("recompute ") + recompute_name(s.recompute) +
                     (q.layout.sequence_parallel ? ", sequence parallel" : "") + ": " + a.formula +
                     " bytes per layer at s = " + std::to_string(s.seq_length) +
                     ", b = " + std::to_string(s.micro_batch_size) +
                     ", h = " + std::to_string(q.model.hidden) + ", a = " +
                     std::to_string(q.model.heads) + ", t = " + std::to_string(q.layout.tp) + "; " +
                     num(a.layers_per_unit) + " layers (L/P) per micro-batch unit; peak " +
                     num(a.peak_units) + " units, simulated for " + q.schedule + " at P = " +
                     std::to_string(q.layout.pp) + ", M = " + std::to_string(a.microbatches) +
                     ". Table 2 counts a GPT layer (attention and a 4h MLP with dropout, 16-bit "
                     "activations): grouped-query or latent attention, SwiGLU and experts differ, "
                     "and the first stage's embedding and the last stage's head are not counted";
  return said("activations", text, plan_text(PlanTextId::MemorySourceActivations));
}

}  // namespace

std::vector<MemoryAssumption> memory_assumptions(const MemoryResult& r) {
  std::vector<MemoryAssumption> out = {model_text(r), recipe_text(r), sharding_text(r),
                                       layout_text(r), copies_text(r)};
  if (r.activations) out.push_back(activations_text(r));
  return out;
}

}  // namespace pipesim::detail
