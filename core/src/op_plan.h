// The engine's input: every rank's op list in a compact form, written by the generators as they
// build a schedule (and by simulate_schedule from a user's Schedule). An Op is 28 bytes and the
// engine would turn its chunk into a dense key each time it tried the op (a rank retries its head
// op after every wait); a PlanOp is 12 bytes with the keys and the stage-boundary tests done once.
// Generators never build Ops: the few callers that need them (the timeline, generate_schedule)
// decode them from the keys. So a sweep cell never materialises a Schedule, and a plan reused
// across cells keeps its buffers instead of handing them back to the allocator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "chunk_index.h"
#include "pipesim/error.h"
#include "pipesim/schedule.h"

namespace pipesim::detail {

/// One op of the plan. `code` holds the op's slot (kind, plus 4 for a zero-bubble B) and two
/// data-flow flags; `key` is the dense key of the op's chunk (an FB's forward part) and
/// `backward_key` that of an FB's backward part. No member defaults: the plan's buffer is left
/// uninitialised until each op is written. `code` takes the padding a byte would leave anyway: as a
/// byte (a character type, which may alias anything) each op's store made the compiler reload the
/// plan's own write pointer after it, so generators' pushes chained through memory.
struct PlanOp {
  std::uint32_t key;
  std::uint32_t backward_key;
  std::uint32_t code;
};
static_assert(sizeof(PlanOp) == 12, "a plan op stays 12 bytes");

/// Slots: the low three bits of PlanOp::code.
inline constexpr std::uint8_t kSlotForward = static_cast<std::uint8_t>(OpKind::Forward);
inline constexpr std::uint8_t kSlotBackward = static_cast<std::uint8_t>(OpKind::Backward);
inline constexpr std::uint8_t kSlotWeight = static_cast<std::uint8_t>(OpKind::Weight);
inline constexpr std::uint8_t kSlotPair = static_cast<std::uint8_t>(OpKind::ForwardBackward);
inline constexpr std::uint8_t kSlotBackwardZb = kSlotBackward | 4;
inline constexpr std::uint8_t kSlotMask = 7;
inline constexpr int kSlots = 8;
/// The forward part is not on stage 0, so it needs the previous stage's F (key - stage stride).
inline constexpr std::uint8_t kAfterPrevious = 8;
/// The backward part is not on the last stage, so it needs the next stage's B (key + stride).
inline constexpr std::uint8_t kBeforeNext = 16;

inline int op_slot(OpKind kind, bool zero_bubble) {
  return static_cast<int>(kind) | (zero_bubble ? 4 : 0);
}

/// The Op a plan op stands for.
inline Op plan_op_to_op(const PlanOp& p, const ChunkIndex& index) {
  const int slot = p.code & kSlotMask;
  Op op{static_cast<OpKind>(slot & 3), (slot & 4) != 0, index.chunk(p.key), {}};
  if (op.kind == OpKind::ForwardBackward) op.backward_chunk = index.chunk(p.backward_key);
  return op;
}

class OpPlan {
 public:
  OpPlan() = default;
  OpPlan(const OpPlan&) = delete;  // it points into its own buffer
  OpPlan& operator=(const OpPlan&) = delete;

  /// Starts the plan of `shape` (its rank_ops are ignored), reusing the buffers' capacity.
  /// Generators then open each rank in order and push its ops. `max_ops` bounds the ops of all
  /// ranks together (pushing more is an internal error).
  void begin(Schedule shape, std::size_t max_ops);
  /// The next pushes belong to the next rank (rank 0 after begin); every rank is opened in turn.
  void open_rank() { rank_begin_.push_back(size()); }
  /// Every rank was opened.
  bool complete() const { return rank_begin_.size() == static_cast<std::size_t>(shape_.ranks); }

  /// One stage of one direction, as generators name it when they push ops: its chunks' keys
  /// are base + micro-batch, and whether its F and B wait on neighbouring stages is fixed.
  struct Lane {
    std::uint32_t base = 0;
    std::uint8_t forward_flag = 0;   ///< kAfterPrevious unless stage 0
    std::uint8_t backward_flag = 0;  ///< kBeforeNext unless the last stage
  };
  Lane lane(int dir, int stage) const {
    Lane l;
    l.base = static_cast<std::uint32_t>(index_(Chunk{dir, 0, stage}));
    l.forward_flag = stage != 0 ? kAfterPrevious : 0;
    l.backward_flag = stage != index_.last_stage() ? kBeforeNext : 0;
    return l;
  }

  /// The plan ops forward() and backward() push, for generators that order ops before pushing
  /// them with append().
  static PlanOp forward_op(const Lane& l, int mb) {
    return PlanOp{l.base + static_cast<std::uint32_t>(mb), 0,
                  static_cast<std::uint8_t>(kSlotForward | l.forward_flag)};
  }
  static PlanOp backward_op(const Lane& l, int mb, bool zero_bubble = false) {
    const std::uint8_t slot = zero_bubble ? kSlotBackwardZb : kSlotBackward;
    return PlanOp{l.base + static_cast<std::uint32_t>(mb), 0,
                  static_cast<std::uint8_t>(slot | l.backward_flag)};
  }
  void forward(const Lane& l, int mb) { add(forward_op(l, mb)); }
  void backward(const Lane& l, int mb, bool zero_bubble = false) {
    add(backward_op(l, mb, zero_bubble));
  }
  /// A plan op made by forward_op() or backward_op().
  void append(const PlanOp& p) { add(p); }
  void weight(const Lane& l, int mb) {
    add(PlanOp{l.base + static_cast<std::uint32_t>(mb), 0, kSlotWeight});
  }
  /// An FB pair: the forward of `f`'s micro-batch `fmb` with the backward of `b`'s `bmb`.
  void pair(const Lane& f, int fmb, const Lane& b, int bmb) {
    add(PlanOp{f.base + static_cast<std::uint32_t>(fmb), b.base + static_cast<std::uint32_t>(bmb),
               static_cast<std::uint8_t>(kSlotPair | f.forward_flag | b.backward_flag)});
  }
  /// Any op (user schedules, and generators that sort their ops first).
  void push(const Op& op) {
    const auto key = static_cast<std::uint32_t>(index_(op.chunk));
    const int after_previous = op.chunk.stage != 0 ? kAfterPrevious : 0;
    switch (op.kind) {
      case OpKind::Forward:
        add(PlanOp{key, 0, static_cast<std::uint8_t>(kSlotForward | after_previous)});
        break;
      case OpKind::Backward:
        add(PlanOp{key, 0,
                   static_cast<std::uint8_t>((op.zero_bubble ? kSlotBackwardZb : kSlotBackward) |
                                             before_next(op.chunk))});
        break;
      case OpKind::Weight:
        add(PlanOp{key, 0, kSlotWeight});
        break;
      case OpKind::ForwardBackward:
        add(PlanOp{key, static_cast<std::uint32_t>(index_(op.backward_chunk)),
                   static_cast<std::uint8_t>(kSlotPair | after_previous |
                                             before_next(op.backward_chunk))});
        break;
    }
  }

  const Schedule& shape() const { return shape_; }
  const ChunkIndex& index() const { return index_; }
  std::size_t size() const { return static_cast<std::size_t>(next_ - ops_.get()); }
  /// Rank r's ops are [begin(r), end(r)).
  const PlanOp* begin(int r) const { return ops_.get() + rank_begin_[static_cast<std::size_t>(r)]; }
  const PlanOp* end(int r) const {
    const auto next = static_cast<std::size_t>(r) + 1;
    return next < rank_begin_.size() ? ops_.get() + rank_begin_[next] : next_;
  }
  /// The schedule the plan holds, with its Op lists.
  Schedule schedule() const;

 private:
  int before_next(const Chunk& c) const { return c.stage != index_.last_stage() ? kBeforeNext : 0; }
  void add(const PlanOp& p) {
    PIPESIM_CHECK(next_ != limit_, "a generator pushed more ops than it announced");
    *next_++ = p;
  }

  Schedule shape_;  // without op lists
  ChunkIndex index_;
  std::unique_ptr<PlanOp[]> ops_;  // ops [0, size()) are the plan's
  std::size_t capacity_ = 0;
  PlanOp* next_ = nullptr;   // where the next op goes
  PlanOp* limit_ = nullptr;  // the end of the announced room
  std::vector<std::size_t> rank_begin_;
};

}  // namespace pipesim::detail
