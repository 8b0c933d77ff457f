// The plan as JSON (for the page and `pipesim plan --format json`) and as the one-page Markdown
// plan the lesson's spec asks for. Fields that do not apply (a rejected plan has no P) are null
// in JSON, so the page sees the same shape every time.
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "pipesim/planner.h"
#include "pipesim/schedule.h"
#include "plan_text.h"

namespace pipesim {
namespace {

using detail::fixed;
using detail::percent;
using detail::scaled;

template <typename T>
Json or_null(const std::optional<T>& v) {
  return v ? Json(*v) : Json(nullptr);
}
Json positive_or_null(int v) { return v > 0 ? Json(v) : Json(nullptr); }

Json params_json(const std::vector<PlanParam>& params) {
  return plan_text_to_json(PlanText{"", params}).at("params");
}

/// {"id", "params"}: what a client says in its own language (docs/schema.md "Planner").
Json phrase_json(const PlanText& text) { return plan_text_to_json(text); }

std::string schedule_title(const std::string& name) {
  for (const auto& info : list_schedules())
    if (info.name == name) return info.title;
  return name;
}

std::string describe_cluster(const PlanSpec& s) {
  const ClusterSpec& c = s.cluster;
  const ModelSpec& m = s.model;
  std::string model = m.type == ModelType::Moe
                          ? scaled(m.total_params) + " MoE (" + scaled(m.active_params) +
                                " active, " + std::to_string(m.experts) + " experts, EP " +
                                std::to_string(m.expert_parallel) + ")"
                          : scaled(m.total_params) + " dense";
  return std::to_string(c.gpus) + " x " + c.gpu_model + " (" + fixed(c.memory_per_gpu_gb, 0) +
         " GB; " + std::to_string(c.nodes) + (c.nodes == 1 ? " node x " : " nodes x ") +
         std::to_string(c.gpus_per_node) + "; " + fixed(c.interconnect_gbps_per_gpu, 0) +
         " Gbps per GPU) - " + model + ", " + std::to_string(m.layers) + " layers - " +
         scaled(s.training_tokens) +
         " tokens - custom all-to-all kernel: " + (s.custom_all_to_all_kernel ? "yes" : "no");
}

}  // namespace

Json plan_to_json(const Plan& p) {
  Json j;
  j["title"] = p.spec.title.empty() ? Json(nullptr) : Json(p.spec.title);
  j["schedule"] = or_null(p.schedule);
  j["scheduleTitle"] = p.schedule ? Json(schedule_title(*p.schedule)) : Json(nullptr);
  j["ranks"] = positive_or_null(p.ranks);
  j["stages"] = positive_or_null(p.stages);
  j["microbatches"] = positive_or_null(p.microbatches);
  j["chunks"] = positive_or_null(p.chunks);
  j["bubbleFraction"] = or_null(p.bubble_fraction);
  j["bubbleFraction1f1b"] = or_null(p.bubble_fraction_1f1b);
  j["gpuHours"] = or_null(p.gpu_hours);
  j["gpuHoursSource"] = p.gpu_hours ? Json(p.gpu_hours_source) : Json(nullptr);
  j["gpuHoursSavedVs1f1b"] = or_null(p.gpu_hours_saved_vs_1f1b);
  j["peakActivationMemory"] = or_null(p.peak_activation_memory);
  j["peakActivationMemory1f1b"] = or_null(p.peak_activation_memory_1f1b);
  const std::optional<PlanMemory>& mem = p.memory;
  j["paramsPerGpu"] = mem ? Json(mem->params_per_gpu) : Json(nullptr);
  j["paramCopies"] = mem ? Json(mem->param_copies) : Json(nullptr);
  j["memoryPerGpuGb"] = mem ? Json(mem->total_gb) : Json(nullptr);
  j["usableMemoryGb"] = mem ? Json(mem->usable_gb) : Json(nullptr);
  j["replicationGb"] = mem ? Json(mem->replication_gb) : Json(nullptr);
  j["fits"] = mem ? Json(mem->fits) : Json(nullptr);
  // What the memory numbers assume (recipe, sharding, layout, copies), each with its source.
  j["memoryAssumptions"] = mem ? memory_result_to_json(mem->model).at("assumptions") : Json(nullptr);
  j["comm"] = p.comm ? Json{{"ratio", p.comm->ratio},
                            {"layers", p.comm->layers},
                            {"computeUtilization", p.comm->compute_utilization},
                            {"computeUtilization1f1b", p.comm->compute_utilization_1f1b},
                            {"hiddenFraction", p.comm->hidden_fraction},
                            {"gpuHoursSavedVs1f1b", p.comm->gpu_hours_saved_vs_1f1b}}
                     : Json(nullptr);
  j["rule"] = p.rule;
  j["refusal"] = p.refusal ? Json{{"rule", p.refusal->rule},
                                  {"refused", p.refusal->refused},
                                  {"instead", p.refusal->instead},
                                  {"message", p.refusal->message.english()},
                                  {"messagePhrase", phrase_json(p.refusal->message)}}
                           : Json(nullptr);
  j["reject"] = p.reject ? Json{{"rule", p.reject->rule},
                                {"message", p.reject->message.english()},
                                {"messagePhrase", phrase_json(p.reject->message)},
                                {"recommend", p.reject->recommend.english()},
                                {"recommendPhrase", phrase_json(p.reject->recommend)}}
                         : Json(nullptr);
  j["allToAll"] = p.all_to_all.english();
  j["allToAllPhrase"] = phrase_json(p.all_to_all);
  j["rollback"] =
      Json{{"metric", "aggregate GPU utilization"},
           {"steps", kPlanRollbackSteps},
           {"threshold", or_null(p.rollback_threshold)},
           {"fallback", p.rollback_fallback.empty() ? Json(nullptr) : Json(p.rollback_fallback)},
           {"text", p.rollback.english()},
           {"textPhrase", phrase_json(p.rollback)}};
  Json alternatives = Json::array();
  for (const PlanAlternative& a : p.alternatives)
    alternatives.push_back(Json{{"schedule", a.schedule},
                                {"scheduleTitle", schedule_title(a.schedule)},
                                {"chunks", positive_or_null(a.chunks)},
                                {"bubbleFraction", a.bubble_fraction},
                                {"computeUtilization", or_null(a.compute_utilization)},
                                {"peakActivationMemory", a.peak_activation_memory}});
  j["alternatives"] = p.bubble_fraction ? std::move(alternatives) : Json(nullptr);
  Json steps = Json::array();
  for (const PlanStep& s : p.reasoning)
    steps.push_back(Json{{"topic", s.topic},
                         {"id", s.said.id},
                         {"params", params_json(s.said.params)},
                         {"text", s.text}});
  j["reasoning"] = std::move(steps);
  return j;
}

std::string plan_to_markdown(const Plan& p) {
  std::string md =
      "# Pipeline plan" + (p.spec.title.empty() ? std::string() : ": " + p.spec.title) + "\n\n";
  md += describe_cluster(p.spec) + "\n\n";
  if (p.reject) {
    md += "> **Rejected** (rule `" + p.reject->rule + "`): " + p.reject->message.english() +
          "\n>\n> **Recommendation:** " + p.reject->recommend.english() + ".\n\n";
  } else if (!p.schedule && p.refusal) {
    md += "> **Refused** (rule `" + p.refusal->rule + "`): " + p.refusal->message.english() +
          "\n>\n> **Recommendation:** " + p.refusal->instead + ".\n\n";
  } else if (p.schedule) {
    const PlanMemory& mem = *p.memory;
    md += "| | |\n|---|---|\n";
    md += "| Schedule | **" + schedule_title(*p.schedule) + "** (rule `" + p.rule + "`) |\n";
    md += "| Pipeline depth P | " + std::to_string(p.ranks) + " ranks, " +
          std::to_string(p.stages) + " stages" +
          (p.chunks > 0 ? " (V = " + std::to_string(p.chunks) + " chunks per rank)" : "") + " |\n";
    md += "| Micro-batches M | " + std::to_string(p.microbatches) +
          " (M/P = " + fixed(static_cast<double>(p.microbatches) / p.ranks, 1) + ") |\n";
    md += "| Bubble fraction (simulated) | " + percent(*p.bubble_fraction) +
          " (1F1B: " + percent(*p.bubble_fraction_1f1b) + ") |\n";
    md += "| GPU-hours saved vs 1F1B | " + fixed(*p.gpu_hours_saved_vs_1f1b / 1e3, 1) + "K of " +
          fixed(*p.gpu_hours / 1e3, 0) + "K (" + p.gpu_hours_source + ") |\n";
    md += "| Parameters per GPU | " + scaled(mem.params_per_gpu) + " (" +
          std::to_string(mem.param_copies) + (mem.param_copies == 1 ? " copy" : " copies") +
          ") |\n";
    if (p.comm)
      md += "| With all-to-all (1:" + fixed(p.comm->ratio, 2) + ") | computes " +
            percent(p.comm->compute_utilization) + " of the time, hides " +
            percent(p.comm->hidden_fraction) + " of the all-to-all (1F1B: computes " +
            percent(p.comm->compute_utilization_1f1b) + ") |\n";
    if (mem.param_copies > 1)
      md += "| Parameter replication cost | " + fixed(mem.replication_gb, 1) + " GB per GPU |\n";
    md += "| Training state per GPU | " + fixed(mem.total_gb, 1) + " GB of " +
          fixed(mem.usable_gb, 1) + " GB usable: " + (mem.fits ? "fits" : "**does not fit**") +
          " |\n\n";
    md += "Memory counted under these assumptions (`pipesim memory` shows the same model):\n\n";
    for (const MemoryAssumption& a : mem.model.assumptions)
      md += "- **" + a.topic + "**: " + a.text + " (" + a.source + ")\n";
    md += "\n";
    if (p.refusal)
      md += "> **Refusal** (rule `" + p.refusal->rule + "`): " + p.refusal->message.english() +
            "\n\n";
  }
  md += "## Reasoning\n\n";
  int n = 0;
  for (const PlanStep& s : p.reasoning)
    md += std::to_string(++n) + ". **" + s.topic + "**: " + s.text + "\n";
  md += "\n## All-to-all kernel\n\n" + p.all_to_all.english() + "\n\n## Rollback trigger\n\n" +
        p.rollback.english() + "\n";
  return md;
}

}  // namespace pipesim
