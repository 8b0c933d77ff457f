// The op model: a schedule is, for every rank, the ordered list of ops that rank executes.
// Generators build these lists (one file per schedule under src/schedules/); the engine runs any
// list that passes check_schedule, so hand-written schedules work the same way as ours.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pipesim/config.h"
#include "pipesim/error.h"

namespace pipesim {

enum class OpKind : std::uint8_t {
  Forward,     ///< F
  Backward,    ///< B: full, or input-gradient only when zero_bubble is set
  Weight,      ///< W: the deferred weight-gradient of an earlier zero-bubble B
  ForwardBackward,  ///< FB: one forward and one full backward executed as an overlapped pair
};

/// "F", "B", "W" or "FB".
const char* op_kind_name(OpKind kind);

/// One chunk of work: a micro-batch of one direction passing through one stage.
/// `mb` counts from 0 within its direction; stages count from 0 along the direction's data flow.
struct Chunk {
  int dir = 0;
  int mb = 0;
  int stage = 0;
};

/// One op of a rank's list. For F, B and W only `chunk` is used; for FB, `chunk` is the forward
/// part and `backward_chunk` the backward part.
struct Op {
  OpKind kind = OpKind::Forward;
  bool zero_bubble = false;  ///< B only: input-gradient only; its W must appear later on the rank
  Chunk chunk;
  Chunk backward_chunk;
};

/// A complete schedule: the shape it was built for and every rank's op list.
struct Schedule {
  std::string name;
  int ranks = 0;
  int stages = 0;                      ///< pipeline stages per direction
  int directions = 1;                  ///< 2 for bidirectional schedules (DualPipe, Chimera)
  int microbatches_per_direction = 0;
  int stages_per_rank = 1;             ///< stages one rank holds (2 for DualPipe, DualPipeV, Chimera)
  int param_copies = 1;                ///< copies of the full model's parameters across the pipeline
  std::vector<std::vector<Op>> rank_ops;
};

/// The shape rules validate() enforces for one schedule, as data: validate() checks them in this
/// order and the page builds its hints and sweep grids from them.
struct ShapeRules {
  int min_ranks = 1;                  ///< ranks >= min_ranks (besides kMaxRanks)
  bool even_ranks = false;            ///< ranks must be even
  bool even_microbatches = false;     ///< M must be even (one half per direction)
  int min_microbatches_per_rank = 0;  ///< M >= k * ranks; 0 when there is no such rule
  bool microbatches_multiple_of_ranks = false;  ///< M must be a multiple of ranks
};

/// How a schedule lays its stages on ranks.
struct StageLayout {
  int directions = 1;       ///< 2 when micro-batches flow both ways (DualPipe, Chimera)
  int stages_per_rank = 1;  ///< pipeline stages one rank holds
  int param_copies = 1;     ///< copies of the model's parameters across the pipeline
  int ops_per_chunk = 2;    ///< most ops one micro-batch makes on one stage (F, B and maybe W)
  /// Stages per direction on `ranks` ranks (DualPipeV: 2 x ranks).
  int stages(int ranks) const { return ranks * stages_per_rank / directions; }
};

/// The `chunks` option of a schedule whose chunks per rank the user picks (SimConfig::chunks).
/// A schedule with a fixed layout has max == 0 and accepts only chunks = 0.
struct ChunkOption {
  int min = 0;
  int max = 0;
  int default_chunks = 0;  ///< used when SimConfig::chunks is 0
  bool taken() const { return max > 0; }
};

/// What the catalogue says about a schedule; the page lists these.
struct ScheduleInfo {
  std::string name;         ///< id used in configs, e.g. "dualpipe"
  std::string title;        ///< display name, e.g. "DualPipe"
  std::string source;       ///< where its rules come from
  ShapeRules shape;
  StageLayout layout;        ///< with a ChunkOption, stages_per_rank is the default chunks
  ChunkOption chunks;
  std::string constraints;  ///< the shape rules in words, made from `shape` and `layout`
  /// timing "runtime" applies: the op order is DeepSeek's step() (dualpipe.py, dualpipev.py),
  /// whose batched sends and receives runtime_timing.cpp models. Catalogue: "timings".
  bool runtime_timing = false;
  /// The simpler schedule a plan falls back to when its measured utilisation says this one is
  /// not paying for its complexity (the planner's rollback); "" when nothing is simpler. Each
  /// chain ends at "" (tests/core/planner_test.cpp). Catalogue: "fallback" (null for none).
  std::string fallback;
  /// SimConfig::a2a_overlap applies: Megatron-Core's combined 1F1B, whose steady state runs as
  /// overlapped pairs (the 1F1B family; DualPipe's pairs are its own). Catalogue: "a2aOverlap".
  bool a2a_overlap = false;
};

/// The schedules that take timing "runtime", as messages list them ("dualpipe, dualpipev").
std::string runtime_timing_schedules();

/// The schedules that take a2aOverlap, as messages list them ("1f1b, interleaved-1f1b").
std::string a2a_overlap_schedules();

/// Every built-in schedule, in a stable order.
const std::vector<ScheduleInfo>& list_schedules();

/// The schedule called `name`, or nullptr.
const ScheduleInfo* find_schedule_info(const std::string& name);

/// unknown_schedule (rule schedule.unknown) at `path` unless `name` is a built-in schedule; the
/// message names the field as the dotted `path` ("/requested/schedule" -> requested.schedule).
Status check_schedule_name(const std::string& name, const std::string& path);

/// The chunks per rank `config` runs with: its own `chunks`, or the schedule's default, or for a
/// fixed layout its stages per rank.
int effective_chunks(const ScheduleInfo& info, const SimConfig& config);

/// Upper bound on the ops `config` makes (M x stages x ops per chunk), for the size caps;
/// `chunks` as effective_chunks returns it (0: the layout's own stages per rank).
std::int64_t estimate_ops(const ScheduleInfo& info, int ranks, std::int64_t microbatches,
                          int chunks = 0);

/// Builds the op lists for a validated config (callers run validate() first; generate checks
/// again and returns the same errors if they did not).
Result<Schedule> generate_schedule(const SimConfig& config);

/// Checks that `schedule` is runnable in principle: every forward and backward of every chunk
/// appears exactly once, a chunk's F, B and W share a rank, each zero-bubble B has exactly one
/// later W and no other B does. Errors: invalid_schedule with path /rankOps/<rank>/<index>.
Status check_schedule(const Schedule& schedule);

/// Compact op label used by the CLI and error messages: "F0.3@2" (direction 0, micro-batch 3,
/// stage 2), "Bz1.0@5" for a zero-bubble B, "FB(F0.4@1,B1.0@1)" for a pair.
std::string op_label(const Op& op);

}  // namespace pipesim
