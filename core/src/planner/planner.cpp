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
#include "plan_text.h"

namespace pipesim {
namespace {

using detail::expert_parallel;
using detail::fixed;
using detail::memory_at;
using detail::percent;
using detail::scaled;

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

std::string title_of(const std::string& schedule) {
  const ScheduleInfo* info = find_schedule_info(schedule);
  return info != nullptr ? info->title : schedule;
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
    note("tokens", scaled(s_.training_tokens) +
                       " training tokens: at least the 1B below which the spec "
                       "refuses to plan pipeline parallelism.");
    const PlanMemory whole = memory_at(s_, 1, 1, false);
    if (whole.fits)
      return reject("fits-one-gpu",
                    "The model's training state (" + fixed(whole.total_gb, 1) +
                        " GB per GPU under data "
                        "parallelism with ZeRO-1) fits in the usable " +
                        fixed(whole.usable_gb, 1) +
                        " GB of one GPU, so pipeline parallelism would only add bubbles.",
                    "data parallelism only");
    note("memory", "Under plain data parallelism each GPU would hold " + fixed(whole.total_gb, 1) +
                       " GB of weights, gradients and optimizer shard, more than the usable " +
                       fixed(whole.usable_gb, 1) + " GB (" +
                       fixed(100 * kPlanUsableMemoryFraction, 0) + "% of " +
                       fixed(c_.memory_per_gpu_gb, 0) + " GB): the model must be split.");
    if (s_.requested.ranks > kPlanMaxDepth)
      return reject("depth-over-64",
                    "Requested P = " + std::to_string(s_.requested.ranks) +
                        " is above 64; the bubble "
                        "grows with P whatever the schedule.",
                    "P <= 64, with more data parallelism");
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
      return reject(
          "dualpipe-without-ep",
          "DualPipe keeps two copies of the parameters; without expert parallelism there is "
          "no all-to-all to hide that would justify them.",
          "DualPipeV (one copy) or Zero Bubble");
    if (schedule_ == "dualpipe") refuse_dualpipe_if_needed();
    if (auto st = choose_depth(); !st.ok()) return st.error();
    if (p_.reject) return p_;
    const int m = s_.requested.microbatches > 0 ? s_.requested.microbatches
                                                : kPlanMicrobatchesPerRank * ranks_;
    // The catalogue's shape rule, not a list of names: DualPipe halves M over its two directions;
    // DualPipeV (one copy, one direction) runs any M >= 2P, as dualpipev.py does.
    if (find_schedule_info(schedule_)->shape.even_microbatches && m % 2 != 0)
      return reject("odd-microbatches",
                    "M = " + std::to_string(m) + " is odd; " + title_of(schedule_) +
                        " splits the micro-batches over two directions, so the schedule will "
                        "not close.",
                    "an even M");
    if (auto st = simulate_plan(m); !st.ok()) return st.error();
    advise();
    return p_;
  }

 private:
  void note(const std::string& topic, const std::string& text) {
    p_.reasoning.push_back({topic, text});
  }

  Plan reject(const std::string& rule, const std::string& message, const std::string& recommend) {
    p_.rule = rule;
    p_.reject = PlanReject{rule, message, recommend};
    p_.schedule.reset();  // no pipeline plan: nothing of one is reported
    p_.ranks = p_.stages = p_.microbatches = 0;
    p_.memory.reset();
    note("reject", message + " Recommendation: " + recommend + ".");
    p_.all_to_all = "Not applicable: no pipeline plan.";
    p_.rollback = "Not applicable: no pipeline plan.";
    return p_;
  }

  Plan refuse_tokens() {
    p_.rule = "under-1b-tokens";
    const std::string msg = "Only " + scaled(s_.training_tokens) +
                            " training tokens (under 1B): the run is "
                            "too short for a pipeline plan to pay for its engineering.";
    p_.refusal = PlanRefusal{p_.rule, "pipeline parallelism", "data + tensor parallelism", msg};
    note("tokens", msg + " Recommendation: data parallelism plus tensor parallelism.");
    p_.all_to_all = "Not applicable: no pipeline plan.";
    p_.rollback = "Not applicable: no pipeline plan.";
    return p_;
  }

  void choose_schedule() {
    const std::string gpus = std::to_string(c_.gpus) + " GPUs";
    if (!s_.requested.schedule.empty()) {
      schedule_ = s_.requested.schedule;
      p_.rule = "requested";
      note("schedule",
           title_of(schedule_) + ": requested in the spec; checked against the hard rejects.");
    } else if (expert_parallel(m_)) {
      schedule_ = "dualpipe";
      p_.rule = "moe-expert-parallel";
      note("schedule",
           "MoE with expert parallelism (EP = " + std::to_string(m_.expert_parallel) +
               ") -> DualPipe: its overlapped forward-backward pairs hide the all-to-all.");
    } else if (c_.gpus < kPlanSmallRunGpus) {
      schedule_ = "1f1b";
      p_.rule = "small-run";
      note("schedule",
           gpus + ", under 100 -> 1F1B is fine: the bubble costs little at this scale.");
    } else if (c_.gpus < kPlanLargeDenseGpus) {
      schedule_ = "zb-h1";
      p_.rule = "dense-under-500";
      note("schedule", "No heavy all-to-all on " + gpus + " (100 to 499) -> Zero Bubble (ZB-H1).");
    } else {
      schedule_ = "dualpipev";
      p_.rule = "dense-500-plus";
      note("schedule", "No heavy all-to-all on " + gpus +
                           " (500 or more) -> DualPipeV: DualPipe's "
                           "bubble with one parameter copy.");
    }
  }

  void refuse_dualpipe_if_needed() {
    if (!s_.custom_all_to_all_kernel) {
      // DualPipe's own fallback in the catalogue, the schedule its rollback would also take.
      const std::string fallback = find_schedule_info(schedule_)->fallback;
      refuse("no-custom-all-to-all", fallback,
             "No custom all-to-all kernel for this topology: DualPipe's overlap depends on one, so "
             "the plan falls back to " + title_of(fallback) + ".");
    } else if (c_.interconnect_gbps_per_gpu <= kPlanSlowInterconnectGbps) {
      refuse("interconnect-200gbps", "dualpipev",
             "Interconnect " + fixed(c_.interconnect_gbps_per_gpu, 0) +
                 " Gbps per GPU (at or below 200): "
                 "the all-to-all overlap window is too narrow to justify DualPipe's second "
                 "parameter copy; "
                 "DualPipeV keeps one.");
    }
  }

  void refuse(const std::string& rule, const std::string& instead, const std::string& message) {
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
      note("depth", "P = " + std::to_string(ranks_) + ": requested.");
    } else {
      const bool frontier = m_.type == ModelType::Moe && m_.total_params >= kPlanFrontierMoeParams;
      const int guide = c_.gpus < kPlanSmallRunGpus ? kPlanSmallClusterDepth
                        : frontier                  ? kPlanFrontierMoeDepth
                                                    : kPlanDefaultDepth;
      int fit = 0;
      for (int p = 1; p <= kPlanMaxDepth && fit == 0; ++p)
        if (memory_at(s_, p, shape.copies, true).fits) fit = p;
      if (fit == 0) {
        const PlanMemory at64 = memory_at(s_, kPlanMaxDepth, shape.copies, true);
        reject("depth-over-64",
               "Even at P = 64 each GPU would need " + fixed(at64.total_gb, 1) +
                   " GB, above the usable " + fixed(at64.usable_gb, 1) +
                   " GB: fitting would take P > 64, and the bubble grows with P "
                   "whatever the schedule.",
               "more memory per GPU or more model sharding (tensor or expert parallelism)");
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
      note("depth",
           "P = " + std::to_string(ranks_) + ": the lesson's guide is " + std::to_string(guide) +
               (c_.gpus < kPlanSmallRunGpus ? " for a small cluster"
                : frontier                  ? " for frontier MoE"
                                            : "") +
               "; the training state fits from P = " + std::to_string(fit) + "; P must divide " +
               std::to_string(c_.gpus) + " GPUs" +
               (expert_parallel(m_)
                    ? " and leave a multiple of EP = " + std::to_string(m_.expert_parallel) +
                          " data-parallel ranks"
                    : "") +
               ".");
    }
    p_.ranks = ranks_;
    p_.stages = ranks_ * per_rank;
    if (find_schedule_info(schedule_)->chunks.taken()) {
      p_.chunks = per_rank;
      note("chunks", "V = " + std::to_string(per_rank) + " model chunks per rank" +
                         (s_.requested.chunks > 0 ? " (requested)" : " (the schedule's default)") +
                         ": each rank holds " + std::to_string(per_rank) +
                         " non-adjacent stages, which divides the warm-up bubble by V and "
                         "multiplies the point-to-point transfers by V.");
    }
    p_.memory = memory_at(s_, ranks_, shape.copies, true);
    note("layers", std::to_string(m_.layers) + " layers over " + std::to_string(p_.stages) +
                       " stages: about " + fixed(static_cast<double>(m_.layers) / p_.stages, 1) +
                       " layers per stage.");
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
    note("microbatches", "M = " + std::to_string(m) + " (M/P = " + fixed(ratio, 1) +
                             "; the lesson's typical range is " +
                             std::to_string(kPlanMicrobatchesPerRank) + "-" +
                             std::to_string(kPlanMaxMicrobatchesPerRank) +
                             (s_.requested.microbatches > 0
                                  ? "; requested)."
                                  : "; we take the low end to keep the global batch small)."));
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
      note("budget", "About " + fixed(*p_.gpu_hours / 1e3, 0) +
                         "K GPU-hours, scaled from DeepSeek-V3's 180K H800 "
                         "GPU-hours per trillion tokens at 37B active parameters" +
                         (speed ? ""
                                : " (GPU model \"" + c_.gpu_model +
                                      "\" not in our table: assumed as fast as an H800)") +
                         "; give gpuHours to use your own figure.");
    }
    p_.gpu_hours_saved_vs_1f1b =
        gpu_hours_saved(*p_.gpu_hours, 1 - *p_.bubble_fraction_1f1b, 1 - *p_.bubble_fraction);
    note("bubble", "Simulated bubble fraction " + percent(*p_.bubble_fraction) +
                       " against 1F1B's " + percent(*p_.bubble_fraction_1f1b) +
                       " at the same P and M (chunk costs F=1, B=2, W=1, "
                       "F&B=3; no communication): " +
                       fixed(*p_.gpu_hours_saved_vs_1f1b / 1e3, 1) +
                       "K GPU-hours saved over the run.");
    if (expert_parallel(m_))
      if (auto st = simulate_comm(m); !st.ok()) return st;
    const PlanMemory& mem = *p_.memory;
    note("memory",
         scaled(mem.params_per_gpu) + " parameters per GPU" +
             (mem.param_copies > 1 ? " (" + std::to_string(mem.param_copies) + " copies, " +
                                         fixed(mem.replication_gb, 1) + " GB for the extra copy)"
                                   : "") +
             ": about " + fixed(mem.total_gb, 1) + " GB of training state against " +
             fixed(mem.usable_gb, 1) + " GB usable, so it " +
             (mem.fits ? "fits." : "does NOT fit: raise P.") +
             (expert_parallel(m_) && m_.routed_params == 0
                  ? " Without model.routedParams the active parameters are counted as replicated, "
                    "which overstates memory."
                  : ""));
    note("activations",
         title_of(schedule_) + " holds at most " + fixed(*p_.peak_activation_memory, 1) +
             " micro-batches' activations per GPU at once (one unit: a micro-batch through 1/P of "
             "the model), against 1F1B's " + fixed(*p_.peak_activation_memory_1f1b, 1) +
             " at the same P and M; activation memory is not in the training state above.");
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
      note("alternatives", "No other schedule with at most " + std::to_string(own.copies) +
                               (own.copies == 1 ? " parameter copy" : " parameter copies") +
                               " does better at the same P and M" +
                               (p_.comm ? " with the all-to-all counted." : "."));
      return Ok{};
    }
    std::string list;
    for (const PlanAlternative& a : p_.alternatives) {
      list += (list.empty() ? "" : "; ") + title_of(a.schedule) +
              (a.chunks > 0 ? " (V = " + std::to_string(a.chunks) + ")" : "") + " " +
              (p_.comm ? "computes " + percent(*a.compute_utilization) + " of the time"
                       : "idles " + percent(a.bubble_fraction)) +
              " and holds " + fixed(a.peak_activation_memory, 1) + " units of activations";
    }
    note("alternatives",
         "At the same P and M, with no more parameter copies, these would do better than " +
             title_of(schedule_) + " (" +
             (p_.comm ? "computes " + percent(p_.comm->compute_utilization)
                      : "idles " + percent(*p_.bubble_fraction)) +
             ", " + fixed(*p_.peak_activation_memory, 1) + " units of activations): " + list +
             ". The spec's decision table does not choose them; weigh their activation memory "
             "before requesting one.");
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
    note("communication",
         "With expert all-to-all at compute:communication 1:" + fixed(pc.ratio, 2) +
             " (DeepSeek-V3's 1:1 at 400 Gbps, scaled to " +
             fixed(c_.interconnect_gbps_per_gpu, 0) + " Gbps) and " + std::to_string(pc.layers) +
             " layers per chunk, " + title_of(schedule_) + " hides " + percent(pc.hidden_fraction) +
             " of it and computes " + percent(pc.compute_utilization) + " of the time, against " +
             percent(pc.compute_utilization_1f1b) +
             " for 1F1B: " + fixed(pc.gpu_hours_saved_vs_1f1b / 1e3, 1) + "K GPU-hours saved.");
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
    const std::string steps = std::to_string(kPlanRollbackSteps);
    if (p_.rollback_fallback.empty())
      p_.rollback = "Measure aggregate GPU utilization over the first " + steps +
                    " steps. If it stays below " + percent(threshold) +
                    " (this schedule's simulated ceiling), no simpler schedule will help: "
                    "look for stragglers, then lower P.";
    else
      p_.rollback = "Measure aggregate GPU utilization over the first " + steps +
                    " steps. If it stays below " + percent(threshold) +
                    ", the simulated ceiling of " + title_of(p_.rollback_fallback) +
                    " at the same P and M" + (p_.comm ? " with its all-to-all exposed" : "") +
                    ", " + title_of(schedule_) + " is not paying for its complexity: switch to " +
                    title_of(p_.rollback_fallback) +
                    ". (Our threshold rule; the spec names the metric but no number.)";
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
