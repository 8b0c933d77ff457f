// The planner's rules, in the order they are checked (each test in tests/core/planner_test.cpp
// fires one rule and just misses it):
//   1. refusal: under 1B training tokens -> no pipeline plan (data + tensor parallelism)
//   2. reject: the model's training state fits one GPU -> data parallelism only
//   3. reject: a requested P above 64
//   4. schedule: requested, or the decision table (MoE with expert parallelism -> DualPipe;
//      otherwise under 100 GPUs -> 1F1B, under 500 -> ZB-H1, else DualPipeV)
//   5. reject: DualPipe without expert parallelism
//   6. refusals of DualPipe: no custom all-to-all kernel -> ZB-H1; interconnect at or below
//      200 Gbps per GPU -> DualPipeV. The kernel comes first (our choice: without one, the
//      overlap DualPipeV also relies on cannot be built either).
//   7. depth P: the lesson's guide (4 small, 16 frontier MoE, else 8), raised until the training
//      state fits; reject when no P <= 64 fits
//   8. M = 8P unless requested; reject an odd M for a schedule whose shape needs an even M
//      (DualPipe's two directions; DualPipeV runs any M >= 2P, as dualpipev.py does)
//   9. simulate the schedule and 1F1B at (P, M); GPU-hours saved as `recover` defines it
//      (pipesim/exercises.h gpu_hours_saved: the budget is the planned run's cost)
// Spec source: outputs/skill-dualpipe-planner.md (phase 10 lesson 19). Thresholds: planner.h.
#include "pipesim/planner.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "pipesim/comm.h"
#include "pipesim/engine.h"
#include "pipesim/exercises.h"
#include "pipesim/rules.h"
#include "pipesim/schedule.h"
#include "plan_advice.h"
#include "plan_memory.h"

namespace pipesim {
namespace {

using detail::expert_parallel;
using detail::layout_fits;
using detail::memory_at;
using Phrase = PlanTextId;

// What a schedule needs per rank: parameter copies and stages of one copy per rank, read from
// the catalogue's stage layout (and for a schedule that takes chunks, its chunks per rank), so
// new schedules need no entry here.
struct ScheduleShape {
  int copies = 1;
  int stages_per_rank = 1;
};
ScheduleShape shape_of(const std::string& schedule, int chunks) {
  const ScheduleInfo* info = find_schedule_info(schedule);
  PIPESIM_CHECK(info != nullptr, "the planner picks schedules from the catalogue");
  SimConfig config{schedule, 1, 1, Costs{}};
  config.chunks = chunks;
  return ScheduleShape{info->layout.param_copies,
                       effective_chunks(*info, config) / info->layout.directions};
}

Result<SimResult> simulate_at(const std::string& schedule, int ranks, int microbatches,
                              const Costs& costs = Costs{}, int chunks = 0) {
  SimConfig config{schedule, ranks, microbatches, costs};
  config.chunks = chunks;
  auto r = simulate(config);
  if (r.ok()) return r;
  Error e = r.error();  // point at the requested field the simulator objected to
  if (e.path == "/ranks" || e.path == "/microbatches" || e.path == "/chunks")
    e.path = "/requested" + e.path;
  return e;
}

class Planner {
 public:
  explicit Planner(const PlanSpec& spec) : s_(spec), m_(spec.model), c_(spec.cluster) {
    p_.spec = spec;
  }

  Result<Plan> run() {
    if (s_.training_tokens < kPlanMinTokens) return refuse_tokens();
    note("tokens", plan_text(Phrase::StepTokens, {{"tokens", s_.training_tokens}, {"min", kPlanMinTokens}}));
    const PlanMemory whole = memory_at(s_, 1, "1f1b", 0, false);
    if (whole.fits)
      return reject("fits-one-gpu",
                    plan_text(Phrase::RejectFitsOneGpu,
                              {{"perGpu", whole.total_gb}, {"usable", whole.usable_gb}}),
                    plan_text(Phrase::RecommendDataParallel));
    note("memory", plan_text(Phrase::StepMemorySplit, {{"perGpu", whole.total_gb},
                                                  {"usable", whole.usable_gb},
                                                  {"usablePercent", 100 * kPlanUsableMemoryFraction},
                                                  {"memory", c_.memory_per_gpu_gb}}));
    if (s_.requested.ranks > kPlanMaxDepth)
      return reject("depth-over-64",
                    plan_text(Phrase::RejectDepthRequested,
                              {{"ranks", s_.requested.ranks}, {"max", kPlanMaxDepth}}),
                    plan_text(Phrase::RecommendShallower, {{"max", kPlanMaxDepth}}));
    choose_schedule();
    if (s_.requested.chunks > 0 && !find_schedule_info(schedule_)->chunks.taken()) {
      // The simulator's own rule and message (which schedules take chunks), at the spec's field.
      SimConfig probe{schedule_, 2, 8, Costs{}};
      probe.chunks = s_.requested.chunks;
      Error e = validate(probe).error();
      e.path = "/requested/chunks";
      return e;
    }
    if (schedule_ == "dualpipe" && !expert_parallel(m_))
      return reject("dualpipe-without-ep", plan_text(Phrase::RejectDualPipeWithoutEp),
                    plan_text(Phrase::RecommendOneCopy));
    if (schedule_ == "dualpipe") refuse_dualpipe_if_needed();
    if (auto st = choose_depth(); !st.ok()) return st.error();
    if (p_.reject) return p_;
    const int m = s_.requested.microbatches > 0 ? s_.requested.microbatches
                                                : kPlanMicrobatchesPerRank * ranks_;
    // The catalogue's shape rule, not a list of names: DualPipe halves M over its two directions;
    // DualPipeV (one copy, one direction) runs any M >= 2P, as dualpipev.py does.
    if (find_schedule_info(schedule_)->shape.even_microbatches && m % 2 != 0)
      return reject("odd-microbatches",
                    plan_text(Phrase::RejectOddMicrobatches, {{"microbatches", m}, {"schedule", schedule_}}),
                    plan_text(Phrase::RecommendEvenMicrobatches));
    if (auto st = simulate_plan(m); !st.ok()) return st.error();
    advise();
    return p_;
  }

 private:
  // Topics and rules are literals: a const char* costs a call site a pointer, a std::string its
  // construction and cleanup.
  void note(const char* topic, PlanText said) {
    std::string text = said.english();
    p_.reasoning.push_back({topic, std::move(said), std::move(text)});
  }

  Plan reject(const char* rule, PlanText message, PlanText recommend) {
    p_.rule = rule;
    p_.reject = PlanReject{rule, message, recommend};
    p_.schedule.reset();  // no pipeline plan: nothing of one is reported
    p_.ranks = p_.stages = p_.microbatches = 0;
    p_.memory.reset();
    note("reject", plan_text(Phrase::StepReject, {{"reject", std::move(message)},
                                             {"recommend", std::move(recommend)}}));
    p_.all_to_all = p_.rollback = plan_text(Phrase::NoPlan);
    return p_;
  }

  Plan refuse_tokens() {
    p_.rule = "under-1b-tokens";
    PlanText message =
        plan_text(Phrase::RefusalTokens, {{"tokens", s_.training_tokens}, {"min", kPlanMinTokens}});
    p_.refusal = PlanRefusal{p_.rule, "pipeline parallelism", "data + tensor parallelism", message};
    note("tokens", plan_text(Phrase::StepTokensRefused, {{"refusal", std::move(message)}}));
    p_.all_to_all = p_.rollback = plan_text(Phrase::NoPlan);
    return p_;
  }

  void choose_schedule() {
    if (!s_.requested.schedule.empty()) {
      schedule_ = s_.requested.schedule;
      p_.rule = "requested";
      note("schedule", plan_text(Phrase::StepScheduleRequested, {{"schedule", schedule_}}));
    } else if (expert_parallel(m_)) {
      schedule_ = "dualpipe";
      p_.rule = "moe-expert-parallel";
      note("schedule", plan_text(Phrase::StepScheduleMoe, {{"ep", m_.expert_parallel}}));
    } else if (c_.gpus < kPlanSmallRunGpus) {
      schedule_ = "1f1b";
      p_.rule = "small-run";
      note("schedule",
           plan_text(Phrase::StepScheduleSmallRun, {{"gpus", c_.gpus}, {"limit", kPlanSmallRunGpus}}));
    } else if (c_.gpus < kPlanLargeDenseGpus) {
      schedule_ = "zb-h1";
      p_.rule = "dense-under-500";
      note("schedule", plan_text(Phrase::StepScheduleDenseUnder500, {{"gpus", c_.gpus},
                                                                {"from", kPlanSmallRunGpus},
                                                                {"to", kPlanLargeDenseGpus - 1}}));
    } else {
      schedule_ = "dualpipev";
      p_.rule = "dense-500-plus";
      note("schedule", plan_text(Phrase::StepScheduleDense500Plus,
                                 {{"gpus", c_.gpus}, {"from", kPlanLargeDenseGpus}}));
    }
  }

  void refuse_dualpipe_if_needed() {
    if (!s_.custom_all_to_all_kernel) {
      // DualPipe's own fallback in the catalogue, the schedule its rollback would also take.
      const std::string fallback = find_schedule_info(schedule_)->fallback;
      refuse("no-custom-all-to-all", fallback,
             plan_text(Phrase::RefusalNoKernel, {{"fallback", fallback}}));
    } else if (c_.interconnect_gbps_per_gpu <= kPlanSlowInterconnectGbps) {
      refuse("interconnect-200gbps", "dualpipev",
             plan_text(Phrase::RefusalInterconnect, {{"gbps", c_.interconnect_gbps_per_gpu},
                                                {"limit", kPlanSlowInterconnectGbps}}));
    }
  }

  void refuse(const char* rule, const std::string& instead, const PlanText& message) {
    p_.rule = rule;
    p_.refusal = PlanRefusal{rule, "dualpipe", instead, message};
    schedule_ = instead;
    note("refusal", message);
  }

  Status choose_depth() {
    const ScheduleShape shape = shape_of(schedule_, s_.requested.chunks);
    const int per_rank = shape.stages_per_rank;
    if (s_.requested.ranks > 0) {
      ranks_ = s_.requested.ranks;
      if (c_.gpus % ranks_ != 0)
        return make_error(Rule::FieldDivides, "/requested/ranks",
                          {{"field", "requested.ranks"}, {"target", "cluster.gpus"},
                           {"value", c_.gpus}, {"got", ranks_}});
      if (ranks_ * per_rank > m_.layers)
        return make_error(Rule::PlanStagesFitLayers, "/requested/ranks",
                          {{"perRank", per_rank}, {"layers", m_.layers}, {"got", ranks_}});
      if (!layout_fits(s_, ranks_))  // expert parallelism is carved out of the data-parallel group
        return make_error(Rule::FieldDivides, "/requested/ranks",
                          {{"field", "model.expertParallel"}, {"target", "cluster.gpus / requested.ranks"},
                           {"value", c_.gpus / ranks_}, {"got", m_.expert_parallel}});
      note("depth", plan_text(Phrase::StepDepthRequested, {{"ranks", ranks_}}));
    } else {
      const bool frontier = m_.type == ModelType::Moe && m_.total_params >= kPlanFrontierMoeParams;
      const int guide = c_.gpus < kPlanSmallRunGpus ? kPlanSmallClusterDepth
                        : frontier                  ? kPlanFrontierMoeDepth
                                                    : kPlanDefaultDepth;
      // The smallest P whose layout the memory model can count (whole pipelines, whole EP
      // groups) that fits; memory falls as P grows, so a P the depth search below would take is
      // never skipped.
      int fit = 0, deepest = 0;
      for (int p = 1; p <= kPlanMaxDepth; ++p) {
        if (!layout_fits(s_, p)) continue;
        deepest = p;
        if (fit == 0 && memory_at(s_, p, schedule_, s_.requested.chunks, true).fits) fit = p;
      }
      if (fit == 0 && deepest > 0) {
        const PlanMemory at = memory_at(s_, deepest, schedule_, s_.requested.chunks, true);
        reject("depth-over-64",
               plan_text(Phrase::RejectDepthToFit, {{"max", deepest},
                                               {"perGpu", at.total_gb},
                                               {"usable", at.usable_gb}}),
               plan_text(Phrase::RecommendMoreMemory));
        return Ok{};
      }
      const int from = std::max(guide, fit);
      for (int p = from; p <= kPlanMaxDepth && ranks_ == 0; ++p) {
        const bool divides = c_.gpus % p == 0 && p * per_rank <= m_.layers;
        const bool ep_fits = !expert_parallel(m_) || (c_.gpus / p) % m_.expert_parallel == 0;
        // The schedule's rules on P alone (DualPipe: even); a requested M is checked later.
        SimConfig probe{schedule_, p, kPlanMicrobatchesPerRank * p, Costs{}};
        probe.chunks = s_.requested.chunks;
        const bool shape_ok = validate(probe).ok();
        if (divides && ep_fits && shape_ok) ranks_ = p;
      }
      if (ranks_ == 0)
        return make_error(expert_parallel(m_) ? Rule::PlanNoDepthEp : Rule::PlanNoDepth, "/cluster/gpus",
                          {{"from", from}, {"max", kPlanMaxDepth}, {"gpus", c_.gpus}, {"layers", m_.layers}});
      // One sentence per guide (the lesson's default, a small cluster's, frontier MoE's), each
      // with and without whole EP groups.
      const bool small = c_.gpus < kPlanSmallRunGpus;
      if (expert_parallel(m_))
        note("depth", plan_text(small      ? Phrase::StepDepthSmallEp
                                : frontier ? Phrase::StepDepthFrontierEp
                                           : Phrase::StepDepthEp,
                                {{"ranks", ranks_},
                                 {"guide", guide},
                                 {"fit", fit},
                                 {"gpus", c_.gpus},
                                 {"ep", m_.expert_parallel}}));
      else
        note("depth", plan_text(small      ? Phrase::StepDepthSmall
                                : frontier ? Phrase::StepDepthFrontier
                                           : Phrase::StepDepth,
                                {{"ranks", ranks_}, {"guide", guide}, {"fit", fit}, {"gpus", c_.gpus}}));
    }
    p_.ranks = ranks_;
    p_.stages = ranks_ * per_rank;
    if (find_schedule_info(schedule_)->chunks.taken()) {
      p_.chunks = per_rank;
      note("chunks", plan_text(s_.requested.chunks > 0 ? Phrase::StepChunksRequested : Phrase::StepChunksDefault,
                               {{"chunks", per_rank}}));
    }
    p_.memory = memory_at(s_, ranks_, schedule_, s_.requested.chunks, true);
    note("layers", plan_text(Phrase::StepLayers,
                             {{"layers", m_.layers},
                              {"stages", p_.stages},
                              {"perStage", static_cast<double>(m_.layers) / p_.stages}}));
    return Ok{};
  }

  Status simulate_plan(int m) {
    auto r = simulate_at(schedule_, ranks_, m, Costs{}, s_.requested.chunks);
    if (!r.ok()) return r.error();
    auto base = simulate_at("1f1b", ranks_, m);
    if (!base.ok()) return base.error();
    p_.schedule = schedule_;
    p_.microbatches = m;
    const double ratio = static_cast<double>(m) / ranks_;
    note("microbatches",
         plan_text(s_.requested.microbatches > 0 ? Phrase::StepMicrobatchesRequested : Phrase::StepMicrobatches,
                   {{"microbatches", m},
                    {"perRank", ratio},
                    {"low", kPlanMicrobatchesPerRank},
                    {"high", kPlanMaxMicrobatchesPerRank}}));
    p_.bubble_fraction = r.value().bubble_fraction;
    p_.bubble_fraction_1f1b = base.value().bubble_fraction;
    p_.peak_activation_memory = r.value().max_peak_activation_memory;
    p_.peak_activation_memory_1f1b = base.value().max_peak_activation_memory;
    const auto speed = relative_gpu_speed(c_.gpu_model);
    if (s_.gpu_hours) {
      p_.gpu_hours = *s_.gpu_hours;
      p_.gpu_hours_source = "given";
    } else {
      p_.gpu_hours = kPlanCalibrationGpuHoursPerTrillion * (s_.training_tokens / 1e12) *
                     (m_.active_params / kPlanCalibrationActiveParams) / speed.value_or(1.0);
      p_.gpu_hours_source = "estimated";
      if (speed)
        note("budget", plan_text(Phrase::StepBudget,
                                 {{"gpuHours", *p_.gpu_hours},
                                  {"reference", kPlanCalibrationGpuHoursPerTrillion},
                                  {"referenceActive", kPlanCalibrationActiveParams}}));
      else
        note("budget", plan_text(Phrase::StepBudgetUnknownGpu,
                                 {{"gpuHours", *p_.gpu_hours},
                                  {"reference", kPlanCalibrationGpuHoursPerTrillion},
                                  {"referenceActive", kPlanCalibrationActiveParams},
                                  {"gpu", c_.gpu_model}}));
    }
    p_.gpu_hours_saved_vs_1f1b =
        gpu_hours_saved(*p_.gpu_hours, 1 - *p_.bubble_fraction_1f1b, 1 - *p_.bubble_fraction);
    const Costs costs{};  // the plan's: core's defaults
    note("bubble", plan_text(Phrase::StepBubble, {{"bubble", *p_.bubble_fraction},
                                             {"bubble1f1b", *p_.bubble_fraction_1f1b},
                                             {"p", ranks_},
                                             {"microbatches", m},
                                             {"f", costs.forward},
                                             {"b", costs.backward},
                                             {"w", costs.weight},
                                             {"fb", costs.overlapped},
                                             {"saved", *p_.gpu_hours_saved_vs_1f1b}}));
    if (expert_parallel(m_))
      if (auto st = simulate_comm(m); !st.ok()) return st;
    const PlanMemory& mem = *p_.memory;
    // The catalogue's layouts hold one parameter copy or two (DualPipe's and Chimera's two
    // directions); the sentences say which.
    PIPESIM_CHECK(mem.param_copies == 1 || mem.param_copies == 2, "a schedule holds one or two parameter copies");
    if (mem.param_copies == 1)
      note("memory", plan_text(mem.fits ? Phrase::StepMemoryFits : Phrase::StepMemoryTooBig,
                               {{"params", mem.params_per_gpu}, {"total", mem.total_gb}, {"usable", mem.usable_gb}}));
    else
      note("memory", plan_text(mem.fits ? Phrase::StepMemoryFitsTwoCopies : Phrase::StepMemoryTooBigTwoCopies,
                               {{"params", mem.params_per_gpu},
                                {"replication", mem.replication_gb},
                                {"total", mem.total_gb},
                                {"usable", mem.usable_gb}}));
    if (expert_parallel(m_) && m_.routed_params == 0) note("memory", plan_text(Phrase::StepRoutedUnknown));
    note("activations", plan_text(Phrase::StepActivations,
                                  {{"schedule", schedule_},
                                   {"peak", *p_.peak_activation_memory},
                                   {"peak1f1b", *p_.peak_activation_memory_1f1b}}));
    return consider_alternatives(m);
  }

  // Every other catalogue schedule that runs at (P, M), fits the layers and holds no more
  // parameter copies than the plan's (so the memory check stands), simulated at the plan's costs:
  // those that beat the plan (a lower bubble; with expert parallelism a higher compute
  // utilisation with the all-to-all, which is what DualPipe is for) are listed, best first, with
  // their activation memory, the price most of them pay.
  Status consider_alternatives(int m) {
    const ScheduleShape own = shape_of(schedule_, s_.requested.chunks);
    for (const ScheduleInfo& info : list_schedules()) {
      if (info.name == schedule_) continue;
      const ScheduleShape shape = shape_of(info.name, 0);
      if (shape.copies > own.copies || ranks_ * shape.stages_per_rank > m_.layers) continue;
      if (!validate(SimConfig{info.name, ranks_, m, Costs{}}).ok()) continue;
      auto r = simulate_at(info.name, ranks_, m);
      if (!r.ok()) continue;
      PlanAlternative alt{info.name, info.chunks.taken() ? shape.stages_per_rank : 0,
                          r.value().bubble_fraction, std::nullopt,
                          r.value().max_peak_activation_memory};
      bool better = alt.bubble_fraction < *p_.bubble_fraction - 1e-12;
      if (p_.comm) {
        auto rc = simulate_at(info.name, ranks_, m, comm_costs());
        if (!rc.ok()) continue;
        alt.compute_utilization = rc.value().comm->compute_utilization;
        better = *alt.compute_utilization > p_.comm->compute_utilization + 1e-12;
      }
      if (better) p_.alternatives.push_back(alt);
    }
    std::stable_sort(p_.alternatives.begin(), p_.alternatives.end(),
                     [&](const PlanAlternative& a, const PlanAlternative& b) {
                       return p_.comm ? *a.compute_utilization > *b.compute_utilization
                                      : a.bubble_fraction < b.bubble_fraction;
                     });
    if (p_.alternatives.empty()) {
      note("alternatives", plan_text(p_.comm ? Phrase::StepNoAlternativeComm : Phrase::StepNoAlternative,
                                     {{"n", own.copies}}));
      return Ok{};
    }
    // A sentence that introduces them, then one per alternative, best first.
    if (p_.comm)
      note("alternatives", plan_text(Phrase::StepAlternativesComm,
                                     {{"schedule", schedule_},
                                      {"utilization", p_.comm->compute_utilization},
                                      {"peak", *p_.peak_activation_memory}}));
    else
      note("alternatives", plan_text(Phrase::StepAlternatives, {{"schedule", schedule_},
                                                               {"bubble", *p_.bubble_fraction},
                                                               {"peak", *p_.peak_activation_memory}}));
    for (const PlanAlternative& a : p_.alternatives) {
      if (p_.comm && a.chunks > 0)
        note("alternatives", plan_text(Phrase::StepAlternativeChunksComm,
                                       {{"schedule", a.schedule},
                                        {"chunks", a.chunks},
                                        {"utilization", *a.compute_utilization},
                                        {"peak", a.peak_activation_memory}}));
      else if (p_.comm)
        note("alternatives", plan_text(Phrase::StepAlternativeComm,
                                       {{"schedule", a.schedule},
                                        {"utilization", *a.compute_utilization},
                                        {"peak", a.peak_activation_memory}}));
      else if (a.chunks > 0)
        note("alternatives", plan_text(Phrase::StepAlternativeChunks, {{"schedule", a.schedule},
                                                                      {"chunks", a.chunks},
                                                                      {"bubble", a.bubble_fraction},
                                                                      {"peak", a.peak_activation_memory}}));
      else
        note("alternatives", plan_text(Phrase::StepAlternative, {{"schedule", a.schedule},
                                                                {"bubble", a.bubble_fraction},
                                                                {"peak", a.peak_activation_memory}}));
    }
    return Ok{};
  }

  // DeepSeek-style costs with the communication model (planner.h, kPlanReferenceCommRatio).
  Costs comm_costs() const {
    Costs c;
    CommCosts m;
    m.ratio =
        kPlanReferenceCommRatio * kPlanReferenceInterconnectGbps / c_.interconnect_gbps_per_gpu;
    m.layers = std::clamp(static_cast<int>(std::lround(static_cast<double>(m_.layers) / p_.stages)),
                          1, kMaxCommLayers);
    c.comm = m;
    return c;
  }

  Status simulate_comm(int m) {
    const Costs costs = comm_costs();
    auto r = simulate_at(schedule_, ranks_, m, costs, s_.requested.chunks);
    if (!r.ok()) return r.error();
    auto base = simulate_at("1f1b", ranks_, m, costs);
    if (!base.ok()) return base.error();
    PlanComm pc;
    pc.ratio = costs.comm->ratio;
    pc.layers = costs.comm->layers;
    pc.compute_utilization = r.value().comm->compute_utilization;
    pc.compute_utilization_1f1b = base.value().comm->compute_utilization;
    pc.hidden_fraction = r.value().comm->hidden_fraction;
    pc.gpu_hours_saved_vs_1f1b =
        gpu_hours_saved(*p_.gpu_hours, pc.compute_utilization_1f1b, pc.compute_utilization);
    p_.comm = pc;
    note("communication", plan_text(Phrase::StepCommunication,
                                    {{"ratio", pc.ratio},
                                     {"referenceRatio", kPlanReferenceCommRatio},
                                     {"referenceGbps", kPlanReferenceInterconnectGbps},
                                     {"gbps", c_.interconnect_gbps_per_gpu},
                                     {"layers", pc.layers},
                                     {"schedule", schedule_},
                                     {"hidden", pc.hidden_fraction},
                                     {"utilization", pc.compute_utilization},
                                     {"utilization1f1b", pc.compute_utilization_1f1b},
                                     {"saved", pc.gpu_hours_saved_vs_1f1b}}));
    return Ok{};
  }

  void advise() {
    p_.all_to_all = detail::all_to_all_advice(s_);
    p_.rollback_fallback = find_schedule_info(schedule_)->fallback;  // catalogue data
    const std::string fallback = p_.rollback_fallback.empty() ? schedule_ : p_.rollback_fallback;
    // With expert parallelism the fallback is judged with its all-to-all exposed, since hiding
    // that is what the more complex schedule is for.
    double threshold = 1 - *p_.bubble_fraction;
    if (p_.comm) {
      threshold = p_.comm->compute_utilization;
      auto fb = simulate_at(fallback, ranks_, p_.microbatches, comm_costs());
      if (fb.ok()) threshold = fb.value().comm->compute_utilization;
    } else if (auto fb = simulate_at(fallback, ranks_, p_.microbatches); fb.ok()) {
      threshold = 1 - fb.value().bubble_fraction;
    }
    p_.rollback_threshold = threshold;
    if (p_.rollback_fallback.empty())
      p_.rollback = plan_text(Phrase::RollbackNoFallback,
                              {{"steps", kPlanRollbackSteps}, {"threshold", threshold}});
    else
      p_.rollback = plan_text(p_.comm ? Phrase::RollbackFallbackExposed : Phrase::RollbackFallback,
                              {{"steps", kPlanRollbackSteps},
                               {"threshold", threshold},
                               {"fallback", p_.rollback_fallback},
                               {"schedule", schedule_}});
  }

  const PlanSpec& s_;
  const ModelSpec& m_;
  const ClusterSpec& c_;
  Plan p_;
  std::string schedule_;
  int ranks_ = 0;
};

}  // namespace

Result<Plan> make_plan(const PlanSpec& spec) { return Planner(spec).run(); }

}  // namespace pipesim
