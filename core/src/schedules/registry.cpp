// The schedule catalogue: names, sources, shape rules and stage layouts as data, and dispatch to
// the generators. Everything else reads a schedule's rules from here: validate() checks them,
// the size caps estimate ops from the layout, the CLI and the page show them (pipesim/catalogue.h).
// A new schedule is one row below plus its generator.
#include <cstdint>
#include <string>
#include <vector>

#include "../fields.h"
#include "generators.h"
#include "pipesim/rules.h"
#include "registry.h"

namespace pipesim {
namespace detail {
namespace {

// "even ranks >= 2, even microbatches >= 2 * ranks": the rules in words, for `pipesim schedules`.
std::string describe_shape(const ShapeRules& s, const StageLayout& l, const ChunkOption& c) {
  std::string ranks = s.even_ranks ? "even ranks >= " : "ranks >= ";
  ranks += std::to_string(s.even_ranks ? std::max(2, s.min_ranks) : s.min_ranks);
  if (c.taken())
    ranks += " (chunks * ranks stages, chunks " + std::to_string(c.min) + ".." +
             std::to_string(c.max) + ", default " + std::to_string(c.default_chunks) + ")";
  else if (l.directions == 1 && l.stages_per_rank > 1)
    ranks += " (" + std::to_string(l.stages_per_rank) + " * ranks stages)";
  std::string mbs;
  if (s.microbatches_multiple_of_ranks) {
    mbs = "microbatches a multiple of ranks";
  } else {
    mbs = std::string(s.even_microbatches ? "even " : "") + "microbatches >= ";
    mbs += s.min_microbatches_per_rank > 0 ? std::to_string(s.min_microbatches_per_rank) + " * ranks" : "1";
  }
  return ranks + ", " + mbs;
}

ScheduleEntry entry(const char* name, const char* title, const char* source, ShapeRules shape,
                    StageLayout layout, void (*generate)(const SimConfig&, OpPlan&),
                    ChunkOption chunks = {}) {
  ScheduleEntry e{{name, title, source, shape, layout, chunks, "", false, "", false}, generate};
  e.info.constraints = describe_shape(shape, layout, chunks);
  return e;
}

// A schedule whose op order is DeepSeek's step(), so timing "runtime" applies to it.
ScheduleEntry with_runtime_timing(ScheduleEntry e) {
  e.info.runtime_timing = true;
  return e;
}

// A schedule of the 1F1B family that runs as Megatron-Core's combined 1F1B when asked
// (SimConfig::a2a_overlap; its generator pairs the steady state).
ScheduleEntry with_a2a_overlap(ScheduleEntry e) {
  e.info.a2a_overlap = true;
  return e;
}

// The planner's rollback from `e` (ScheduleInfo::fallback): a schedule named in this table.
ScheduleEntry falls_back_to(const char* fallback, ScheduleEntry e) {
  e.info.fallback = fallback;
  return e;
}

const std::vector<ScheduleEntry>& entries() {
  // ShapeRules{min_ranks, even_ranks, even_microbatches, min_microbatches_per_rank, multiple}
  // StageLayout{directions, stages_per_rank, param_copies, ops_per_chunk}
  static const std::vector<ScheduleEntry> kEntries = {
      entry("gpipe", "GPipe", "Huang et al., GPipe (NeurIPS 2019)", {}, {1, 1, 1, 2}, generate_gpipe),
      with_a2a_overlap(entry("1f1b", "1F1B", "Narayanan et al., PipeDream-flush (ICML 2021)", {},
                             {1, 1, 1, 2}, generate_1f1b)),
      // Zero-bubble B's split off a W: three ops per chunk.
      falls_back_to("1f1b", entry("zb-h1", "ZB-H1",
                                  "Qi et al., Zero Bubble Pipeline Parallelism (ICLR 2024), ZB-H1",
                                  {}, {1, 1, 1, 3}, generate_zb_h1)),
      // DualPipe reference asserts: even ranks; even M (split over two directions); M >= 2R.
      falls_back_to("zb-h1", with_runtime_timing(entry(
                                 "dualpipe", "DualPipe",
                                 "DeepSeek-V3 technical report §3.2.1; deepseek-ai/DualPipe",
                                 {2, true, true, 2, false}, {2, 2, 2, 3}, generate_dualpipe))),
      // DualPipeV reference asserts M >= 2R (R ranks, 2R stages of one copy); M need not be even.
      falls_back_to("zb-h1", with_runtime_timing(entry(
                                 "dualpipev", "DualPipeV",
                                 "Sea AI Lab cut-in-half; deepseek-ai/DualPipe dualpipev.py",
                                 {1, false, false, 2, false}, {1, 2, 1, 3}, generate_dualpipev))),
      // Chimera (Li & Hoefler, SC'21, §3.1): D even, so the two directions never collide; M a
      // multiple of D, since the basic unit holds D micro-batches and longer runs concatenate
      // whole units (§3.4).
      falls_back_to("1f1b", entry("chimera", "Chimera",
                                  "Li & Hoefler, Chimera (SC'21) §3.1 Fig. 3, direct concatenation §3.4",
                                  {2, true, false, 0, true}, {2, 2, 2, 2}, generate_chimera)),
      // Megatron's virtual pipeline: rank r holds stages r, r+R, ..., r+(V-1)R. Megatron-LM refuses
      // M that is not a multiple of R with its default group of R micro-batches per virtual stage
      // (forward_backward_pipelining_with_interleaving); V = 1 is its plain 1F1B.
      falls_back_to("1f1b", with_a2a_overlap(entry(
                                "interleaved-1f1b", "Interleaved 1F1B",
                                "Narayanan et al., Megatron-LM (SC'21) §2.2; NVIDIA/Megatron-LM schedules.py",
                                {1, false, false, 0, true}, {1, 2, 1, 2}, generate_interleaved_1f1b,
                                {1, kMaxChunks, 2}))),
      falls_back_to("zb-h1", entry("zb-h2", "ZB-H2",
                                   "Qi et al., Zero Bubble Pipeline Parallelism (ICLR 2024), ZB-H2; "
                                   "sail-sg/zero-bubble-pipeline-parallelism efficiency.py",
                                   {}, {1, 1, 1, 3}, generate_zb_h2)),
      // ZB-V keeps DualPipeV's V: rank r holds stages r and 2R-1-r of one copy.
      falls_back_to("zb-h1", entry("zb-v", "ZB-V",
                                   "Qi et al., Zero Bubble Pipeline Parallelism (arXiv 2401.10241) "
                                   "§6; PyTorch ScheduleZBVZeroBubble",
                                   {}, {1, 2, 1, 3}, generate_zb_v)),
  };
  return kEntries;
}

// The chunks option: only where the schedule takes it, in its range, and within kMaxStages.
Status check_chunks(const ScheduleInfo& info, const SimConfig& c) {
  const ChunkOption& o = info.chunks;
  if (!o.taken()) {
    if (c.chunks == 0) return Ok{};
    std::string names;
    for (const auto& e : entries())
      if (e.info.chunks.taken()) names += (names.empty() ? "" : ", ") + e.info.name;
    return make_error(Rule::ChunksUnsupported, "/chunks",
                      {{"allowed", names}, {"schedule", info.name}, {"got", c.chunks}});
  }
  if (c.chunks != 0)
    if (Status st = int_in_range(c.chunks, o.min, o.max, "chunks", "/chunks"); !st.ok()) return st;
  const std::int64_t stages = static_cast<std::int64_t>(c.ranks) * effective_chunks(info, c);
  if (stages > kMaxStages)
    return make_error(Rule::ChunksStages, "/chunks",
                      {{"max", kMaxStages}, {"schedule", info.name}, {"got", stages}});
  return Ok{};
}

}  // namespace

const ScheduleEntry* find_schedule(const std::string& name) {
  for (const auto& e : entries())
    if (e.info.name == name) return &e;
  return nullptr;
}

const std::vector<ScheduleEntry>& schedule_entries() { return entries(); }

Status check_shape(const ScheduleInfo& info, const SimConfig& c) {
  const ShapeRules& s = info.shape;
  const char* name = info.name.c_str();
  if (Status st = check_chunks(info, c); !st.ok()) return st;
  if (s.even_ranks && (c.ranks < s.min_ranks || c.ranks % 2 != 0))
    return make_error(Rule::RanksEven, "/ranks", {{"min", s.min_ranks}, {"schedule", name}, {"got", c.ranks}});
  if (c.ranks < s.min_ranks)
    return make_error(Rule::RanksMin, "/ranks", {{"min", s.min_ranks}, {"schedule", name}, {"got", c.ranks}});
  if (s.even_microbatches && c.microbatches % 2 != 0)
    return make_error(Rule::MicrobatchesEven, "/microbatches", {{"schedule", name}, {"got", c.microbatches}});
  const std::int64_t k = s.min_microbatches_per_rank;
  if (k > 0 && c.microbatches < k * c.ranks)
    return make_error(Rule::MicrobatchesMinMultipleOfRanks, "/microbatches",
                      {{"k", k}, {"min", k * c.ranks}, {"schedule", name}, {"got", c.microbatches}});
  if (s.microbatches_multiple_of_ranks && c.microbatches % c.ranks != 0)
    return make_error(Rule::MicrobatchesMultipleOfRanks, "/microbatches",
                      {{"ranks", c.ranks}, {"schedule", name}, {"got", c.microbatches}});
  return Ok{};
}

}  // namespace detail

const std::vector<ScheduleInfo>& list_schedules() {
  static const std::vector<ScheduleInfo> kInfos = [] {
    std::vector<ScheduleInfo> infos;
    for (const auto& e : detail::schedule_entries()) infos.push_back(e.info);
    return infos;
  }();
  return kInfos;
}

const ScheduleInfo* find_schedule_info(const std::string& name) {
  const detail::ScheduleEntry* e = detail::find_schedule(name);
  return e == nullptr ? nullptr : &e->info;
}

Status check_schedule_name(const std::string& name, const std::string& path) {
  if (find_schedule_info(name) != nullptr) return Ok{};
  std::string names;
  for (const auto& info : list_schedules()) names += (names.empty() ? "" : ", ") + info.name;
  std::string field = path.substr(1);
  for (char& ch : field)
    if (ch == '/') ch = '.';
  return make_error(Rule::ScheduleUnknown, path, {{"field", field}, {"allowed", names}, {"got", summary(name)}});
}

std::string runtime_timing_schedules() {
  std::string names;
  for (const auto& info : list_schedules())
    if (info.runtime_timing) names += (names.empty() ? "" : ", ") + info.name;
  return names;
}

std::string a2a_overlap_schedules() {
  std::string names;
  for (const auto& info : list_schedules())
    if (info.a2a_overlap) names += (names.empty() ? "" : ", ") + info.name;
  return names;
}

int effective_chunks(const ScheduleInfo& info, const SimConfig& config) {
  if (!info.chunks.taken()) return info.layout.stages_per_rank;
  return config.chunks != 0 ? config.chunks : info.chunks.default_chunks;
}

std::int64_t estimate_ops(const ScheduleInfo& info, int ranks, std::int64_t microbatches,
                          int chunks) {
  const StageLayout& l = info.layout;
  const std::int64_t stages =
      chunks == 0 ? l.stages(ranks) : static_cast<std::int64_t>(ranks) * chunks / l.directions;
  return microbatches * stages * l.ops_per_chunk;
}

Result<Schedule> generate_schedule(const SimConfig& config) {
  if (Status st = validate(config); !st.ok()) return st.error();
  detail::OpPlan plan;
  detail::find_schedule(config.schedule)->generate(config, plan);
  return plan.schedule();
}

}  // namespace pipesim
