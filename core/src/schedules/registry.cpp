// The schedule catalogue: names, sources, the shape rules validate() enforces, a cheap op-count
// estimate for the size cap, and dispatch to the generators.
#include <cstdint>
#include <string>
#include <vector>

#include "generators.h"
#include "registry.h"

namespace pipesim {
namespace detail {
namespace {

std::string got(int v) { return " (got " + std::to_string(v) + ")"; }

Status ranks_error(const std::string& rule, int ranks) {
  return Error{ErrorCode::InvalidConfig, "ranks must be " + rule + got(ranks), "/ranks"};
}
Status microbatches_error(const std::string& rule, int m) {
  return Error{ErrorCode::InvalidConfig, "microbatches must be " + rule + got(m), "/microbatches"};
}

Status any_shape(const SimConfig&) { return Ok{}; }

// DualPipe reference asserts: even ranks; even M (split over two directions); M >= 2R.
Status dualpipe_shape(const SimConfig& c) {
  if (c.ranks < 2 || c.ranks % 2 != 0) return ranks_error("an even integer >= 2 for dualpipe", c.ranks);
  if (c.microbatches % 2 != 0) return microbatches_error("even for dualpipe", c.microbatches);
  if (c.microbatches < 2 * c.ranks)
    return microbatches_error(">= 2 * ranks = " + std::to_string(2 * c.ranks) + " for dualpipe",
                              c.microbatches);
  return Ok{};
}

// DualPipeV reference asserts M >= 2R (R ranks, 2R stages); M need not be even.
Status dualpipev_shape(const SimConfig& c) {
  if (c.microbatches < 2 * c.ranks)
    return microbatches_error(">= 2 * ranks = " + std::to_string(2 * c.ranks) + " for dualpipev",
                              c.microbatches);
  return Ok{};
}

// Chimera (Li & Hoefler, SC'21, §3.1): D even, so the two directions never collide; M a multiple
// of D, since the basic unit holds D micro-batches and longer runs concatenate whole units (§3.4).
Status chimera_shape(const SimConfig& c) {
  if (c.ranks < 2 || c.ranks % 2 != 0) return ranks_error("an even integer >= 2 for chimera", c.ranks);
  if (c.microbatches % c.ranks != 0)
    return microbatches_error("a multiple of ranks = " + std::to_string(c.ranks) + " for chimera",
                              c.microbatches);
  return Ok{};
}

std::int64_t ops_per_chunk_pass(const SimConfig& c, int per_microbatch) {
  return static_cast<std::int64_t>(c.ranks) * c.microbatches * per_microbatch;
}

const std::vector<ScheduleEntry>& entries() {
  static const std::vector<ScheduleEntry> kEntries = {
      {{"gpipe", "GPipe", "Huang et al., GPipe (NeurIPS 2019)", "ranks >= 1, microbatches >= 1"},
       any_shape, [](const SimConfig& c) { return ops_per_chunk_pass(c, 2); }, generate_gpipe},
      {{"1f1b", "1F1B", "Narayanan et al., PipeDream-flush (ICML 2021)",
        "ranks >= 1, microbatches >= 1"},
       any_shape, [](const SimConfig& c) { return ops_per_chunk_pass(c, 2); }, generate_1f1b},
      {{"zb-h1", "ZB-H1", "Qi et al., Zero Bubble Pipeline Parallelism (ICLR 2024), ZB-H1",
        "ranks >= 1, microbatches >= 1"},
       any_shape, [](const SimConfig& c) { return ops_per_chunk_pass(c, 3); }, generate_zb_h1},
      {{"dualpipe", "DualPipe", "DeepSeek-V3 technical report §3.2.1; deepseek-ai/DualPipe",
        "even ranks >= 2, even microbatches >= 2 * ranks"},
       dualpipe_shape, [](const SimConfig& c) { return ops_per_chunk_pass(c, 3); },
       generate_dualpipe},
      {{"dualpipev", "DualPipeV", "Sea AI Lab cut-in-half; deepseek-ai/DualPipe dualpipev.py",
        "ranks >= 1 (2 * ranks stages), microbatches >= 2 * ranks"},
       dualpipev_shape, [](const SimConfig& c) { return ops_per_chunk_pass(c, 6); },
       generate_dualpipev},
      {{"chimera", "Chimera",
        "Li & Hoefler, Chimera (SC'21) §3.1 Fig. 3, direct concatenation §3.4",
        "even ranks >= 2, microbatches a multiple of ranks"},
       chimera_shape, [](const SimConfig& c) { return ops_per_chunk_pass(c, 2); },
       generate_chimera},
  };
  return kEntries;
}

}  // namespace

const ScheduleEntry* find_schedule(const std::string& name) {
  for (const auto& e : entries())
    if (e.info.name == name) return &e;
  return nullptr;
}

const std::vector<ScheduleEntry>& schedule_entries() { return entries(); }

}  // namespace detail

const std::vector<ScheduleInfo>& list_schedules() {
  static const std::vector<ScheduleInfo> kInfos = [] {
    std::vector<ScheduleInfo> infos;
    for (const auto& e : detail::schedule_entries()) infos.push_back(e.info);
    return infos;
  }();
  return kInfos;
}

Result<Schedule> generate_schedule(const SimConfig& config) {
  if (Status st = validate(config); !st.ok()) return st.error();
  detail::OpPlan plan;
  detail::find_schedule(config.schedule)->generate(config, plan);
  return plan.schedule();
}

}  // namespace pipesim
