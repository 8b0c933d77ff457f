// The compute-communication overlap model (issue 4). With Costs::comm set, every rank has two
// streams, compute and communication, and every chunk is cut into the parts of DeepSeek-V3
// report §3.2.1: attention, all-to-all dispatch, MLP and all-to-all combine (the backward adds
// weight-gradient parts). A lone F, B or W exposes its communication: its compute waits for its
// own dispatch and combine. An overlapped FB pair runs, one layer of each chunk per cycle:
//
//   compute: ATTN(F)     MLP(B)      MLP(W) MLP(F)   ATTN(B) ATTN(W)
//   comm:    COMBINE(B)  DISPATCH(F) DISPATCH(B)     COMBINE(F)
//
// which is Fig. 4 of the report, the kernel order of deepseek-ai/profile-data train.json, and
// the order of Megatron-Core's combined 1F1B (TransformerLayerSchedulePlan.run in
// megatron/core/models/common/model_chunk_schedule_plan.py), so each all-to-all of one chunk
// runs under computation of the other. The orders differ only in what waits for the
// weight-gradient parts (PartOrder). Ops stay atomic on their rank (nothing overlaps across op
// boundaries), so the engine only needs each op kind's length.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "pipesim/config.h"
#include "pipesim/engine.h"
#include "pipesim/error.h"
#include "pipesim/json.h"
#include "pipesim/schedule.h"

namespace pipesim {

/// The two streams of a rank: computation and communication (DeepSeek runs them on separate SMs).
enum class Stream : std::uint8_t { Compute, Comm };
/// The four components of a chunk (report §3.2.1); dispatch and combine are all-to-alls.
enum class PartKind : std::uint8_t { Attn, Dispatch, Mlp, Combine };
/// Fig. 4's suffixes: (F) forward, (B) backward for input, (W) backward for weights. A backward
/// chunk's all-to-alls are (B).
enum class Pass : std::uint8_t { Forward, Backward, Weight };

const char* stream_name(Stream stream);  ///< "compute" | "comm"
const char* part_name(PartKind part);    ///< "attn" | "dispatch" | "mlp" | "combine"
const char* pass_name(Pass pass);        ///< "F" | "B" | "W"

/// How an op's parts wait for each other on the two streams. The pair's stream order is the same
/// in all three (above); they differ in the weight-gradient parts W:
enum class PartOrder : std::uint8_t {
  /// DeepSeek's (DualPipe, DualPipeV, hand-written schedules): in a pair the W parts are kernels
  /// of their own, so DISPATCH(B) starts when MLP(B) ends and runs under MLP(W), and the next
  /// layer's COMBINE(B) under ATTN(W), as in profile-data train.json. A lone op runs its parts
  /// one after another.
  DeepSeek,
  /// Megatron-Core's combined 1F1B without --delay-wgrad-compute: a backward node computes its
  /// weight gradient inside its own backward (autograd), so DISPATCH(B) waits for MLP(B) and
  /// MLP(W), and the next layer's COMBINE(B) for ATTN(B) and ATTN(W). A lone op as DeepSeek's.
  Megatron,
  /// With --delay-wgrad-compute: each node's weight gradient runs after it on the compute stream
  /// without recording the micro-batch's event (TransformerLayerNode.backward_dw), so a pair is
  /// DeepSeek's, and a lone full B also runs DISPATCH(B) under MLP(W) and the next layer's
  /// COMBINE(B) under ATTN(W).
  MegatronDelayWgrad,
};

/// "deepseek" | "megatron" | "megatron-delay-wgrad"
const char* part_order_name(PartOrder order);
/// The order called `name`. Errors: invalid_config (rule field.one_of) at `path`, naming `field`.
Result<PartOrder> part_order_from_name(const std::string& name, const std::string& field,
                                       const std::string& path);
/// The order `config` runs its ops in: Megatron's with a2a_overlap (with delay_wgrad, its
/// delayed form), DeepSeek's otherwise.
PartOrder part_order(const SimConfig& config);

/// One piece of an op on one stream. `layer` counts the layers the chunk has processed (a
/// backward chunk walks its layers last to first). Times in cost units.
struct OpPart {
  Stream stream = Stream::Compute;
  PartKind part = PartKind::Attn;
  Pass pass = Pass::Forward;
  int layer = 0;
  double start = 0;
  double end = 0;
};

/// How one kind of op runs. exposed = duration - compute: the time its compute stream waits for
/// communication (0 when compute hides all of it). hidden = comm - exposed.
struct OpTiming {
  double duration = 0;
  double compute = 0;
  double comm = 0;
  double exposed = 0;
  std::vector<OpPart> parts;  ///< start and end relative to the op's start; empty without comm
};

/// The components in use: explicit ones, or those the ratio form derives (docs/schema.md):
/// forward attention a*F and MLP (1-a)*F; backward input parts a*(B-W), (1-a)*(B-W), weight parts
/// a*W, (1-a)*W; all-to-all time ratio*F per chunk, forward and backward alike (a backward moves
/// the same tokens), half dispatch, half combine. Requires costs.comm.
ChunkComponents resolve_components(const Costs& costs);

/// Checks costs.comm (when set) against costs: ranges, and compute components that add up to F,
/// B and W. Errors: invalid_config with a path under /costs/comm. Called by validate_costs.
Status validate_comm(const Costs& costs);

/// The timing of `op`'s kind under `costs` (F, full B, zero-bubble B, W or FB pair) in `order`.
/// Without costs.comm: duration = compute = the op's cost, comm = 0, no parts.
OpTiming op_timing(const Op& op, const Costs& costs, PartOrder order = PartOrder::DeepSeek);

/// The parts of one simulated op at absolute times (its kind's parts shifted by its start).
std::vector<OpPart> op_parts(const TimedOp& op, const Costs& costs,
                             PartOrder order = PartOrder::DeepSeek);

/// A cost model without communication that times every op exactly as `costs` does in `order`:
/// F and B include their exposed all-to-alls, F&B is the pair's duration. Lets DeepSeek's bubble
/// formulas be evaluated under communication. Returns `costs` unchanged when comm is absent.
Costs effective_costs(const Costs& costs, PartOrder order = PartOrder::DeepSeek);

/// For one comm part of a pair: the compute parts running while it runs, and how long each
/// overlaps it; `exposed` is the part's time with no compute underneath.
struct PartHiding {
  std::size_t comm_part = 0;  ///< index into PairOverlap::timing.parts
  struct By {
    std::size_t compute_part = 0;  ///< index into PairOverlap::timing.parts
    double overlap = 0;
  };
  std::vector<By> hidden_by;  ///< in time order
  double exposed = 0;
};

/// One overlapped FB pair in isolation (lesson exercise 3).
struct PairOverlap {
  PartOrder order = PartOrder::DeepSeek;
  OpTiming timing;                 ///< the pair's parts from time 0
  double hidden = 0;               ///< timing.comm - timing.exposed
  double sequential = 0;           ///< a lone F plus a lone full B, in `order`
  std::vector<PartHiding> hiding;  ///< one entry per comm part, in part order
};

/// Runs one FB pair under `costs` in `order`. Errors: invalid_config (/costs/comm) when
/// costs.comm is unset, or whatever validate_costs reports.
Result<PairOverlap> analyse_pair(const Costs& costs, PartOrder order = PartOrder::DeepSeek);

/// {"costs", "order", "duration", "compute", "comm", "exposed", "hidden", "sequential",
///  "parts":[..], "hiding":[{"part", "hiddenBy":[{"part", "overlap"}], "exposed"}]}
/// (docs/schema.md).
Json pair_overlap_to_json(const PairOverlap& pair, const Costs& costs);

}  // namespace pipesim
