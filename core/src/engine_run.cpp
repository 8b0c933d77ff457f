// The engine. Each rank executes its list in order, so an op's start time is a pure function of
// its rank's previous op and its data dependencies: start = max(rank free, every dependency's end
// + p2p latency if it ran elsewhere). We therefore resolve ops with a worklist of ranks instead
// of a time-ordered event queue: a rank advances until its head op waits on an unfinished chunk,
// parks on that chunk, and is woken when the chunk finishes. Every op is resolved once, so the
// work is O(ops) and the result does not depend on the order ranks are visited. When the worklist
// empties with ops left, no order of execution could finish them: that is a deadlock.
#include "engine_run.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <type_traits>

#include "activation_steps.h"
#include "overlap/comm_ticks.h"
#include "plan_columns.h"
#include "stage_lengths.h"

namespace pipesim::detail {
namespace {

Tick to_ticks(double units) { return std::llround(units * kTicksPerUnit); }

// What every slot of op costs: its length, and the compute and communication time inside it
// (communication model only; without it compute = length and comm = 0).
struct SlotCost {
  Tick duration = 0, compute = 0, comm = 0;
};

// A zero-bubble B computes only the input gradient; its W carries the rest of the full B. Under
// the communication model an op lasts its compute plus whatever communication it cannot hide.
struct TickCosts {
  TickCosts(const Costs& c, PartOrder order)
      : p2p_latency(to_ticks(c.p2p_latency)), has_comm(c.comm.has_value()) {
    std::optional<CommTicks> comm;
    if (c.comm) comm = comm_ticks(c, order);
    const Op kinds[] = {Op{OpKind::Forward, false, {}, {}}, Op{OpKind::Backward, false, {}, {}},
                        Op{OpKind::Backward, true, {}, {}}, Op{OpKind::Weight, false, {}, {}},
                        Op{OpKind::ForwardBackward, false, {}, {}}};
    for (const Op& op : kinds) {
      SlotCost& slot = slots[op_slot(op.kind, op.zero_bubble)];
      if (comm) {
        const KindTicks& k = comm->of(op);
        slot = SlotCost{k.duration, k.compute, k.comm};
        continue;
      }
      switch (op.kind) {
        case OpKind::Forward:
          slot.duration = to_ticks(c.forward);
          break;
        case OpKind::Backward:
          slot.duration =
              op.zero_bubble ? to_ticks(c.backward) - to_ticks(c.weight) : to_ticks(c.backward);
          break;
        case OpKind::Weight:
          slot.duration = to_ticks(c.weight);
          break;
        case OpKind::ForwardBackward:
          slot.duration = to_ticks(c.overlapped);
          break;
      }
      slot.compute = slot.duration;
    }
    // validate_costs keeps every cost >= 0 and W <= B; the engine marks unfinished ends with
    // negative times, so it relies on that.
    for (const SlotCost& slot : slots)
      PIPESIM_CHECK(slot.duration >= 0, "op durations must not be negative");
  }
  const SlotCost& of(const PlanOp& op) const { return slots[op.code & kSlotMask]; }
  Tick p2p_latency;
  bool has_comm;
  SlotCost slots[kSlots];
};

enum class Need { Forward, Backward };

class Engine {
 public:
  Engine(const OpPlan& plan, const Costs& costs, PartOrder order, const SimOptions& options,
         EngineBuffers& b)
      : plan_(plan),
        ranks_count_(plan.shape().ranks),
        costs_(costs, order),
        form_(options.timeline),
        activation_steps_(options.activation_steps),
        record_timeline_(options.timeline != TimelineForm::None || options.activation_steps),
        b_(b) {
    PIPESIM_CHECK(plan.complete(), "the plan must hold every rank's list");
    const auto ranks = static_cast<std::size_t>(ranks_count_);
    // Every end starts as kNotDone (-1, every byte 0xff): one memset, which glibc runs several
    // times faster than assign's element-by-element fill of a table of megabytes.
    static_assert(kNotDone == -1 && std::is_trivially_copyable<ChunkState>::value,
                  "an unfinished chunk's bytes are all ones");
    b_.chunks.resize(plan.index().size());
    std::memset(static_cast<void*>(b_.chunks.data()), 0xff, b_.chunks.size() * sizeof(ChunkState));
    // Read only by the kLatency drains, which per-stage costs take whatever the latency.
    if (costs_.p2p_latency != 0 || !costs.stages.empty())
      b_.chunk_ranks.assign(plan.index().size(), kNobody);
    b_.ranks.assign(ranks, RankState{});
    b_.work.resize(std::max(b_.work.size(), ranks));
    if (record_timeline_ && b_.starts_capacity < plan.size()) {
      b_.starts.reset(new Tick[plan.size()]);
      b_.starts_capacity = plan.size();
    }
    for (int r = 0; r < ranks_count_; ++r) {
      RankState& rank = b_.ranks[static_cast<std::size_t>(r)];
      rank.next = plan.begin(r);
      rank.end = plan.end(r);
      if (record_timeline_) rank.start_out = b_.starts.get() + (plan.begin(r) - plan.begin(0));
    }
    for (int slot = 0; slot < kSlots; ++slot) lengths_.slot[slot] = costs_.slots[slot].duration;
    if (!costs.stages.empty()) {  // each op's own length (stage_lengths.h)
      staged_ = stage_lengths(plan, costs, order);
      lengths_.per_op = staged_.ticks.data();
    }
  }

  Result<EngineRun> run(const std::vector<std::vector<Op>>* ops) {
    const bool latency = costs_.p2p_latency != 0;
    if (lengths_.per_op != nullptr)
      record_timeline_ ? drain<true, true, true>() : drain<false, true, true>();
    else if (record_timeline_)
      latency ? drain<true, true, false>() : drain<true, false, false>();
    else
      latency ? drain<false, true, false>() : drain<false, false, false>();
    for (int r = 0; r < ranks_count_; ++r)
      if (!finished(r)) return deadlock_error(plan_, b_);
    EngineRun out;
    // Without Ops every rank's list is there and empty, as callers have always seen it.
    out.timeline = form_ == TimelineForm::Ops
                       ? (lengths_.per_op != nullptr ? build_timeline<true>(ops) : build_timeline<false>(ops))
                       : std::vector<RankTimeline>(static_cast<std::size_t>(ranks_count_));
    if (form_ == TimelineForm::Columns)
      out.columns = plan_columns(plan_, b_.starts.get(), lengths_);
    if (activation_steps_)
      out.activation_steps = plan_activation_steps(
          plan_, b_.starts.get(), lengths_,
          activation_memory_unit(plan_.shape().ranks, plan_.shape().stages));
    out.ranks.reserve(static_cast<std::size_t>(ranks_count_));
    for (int r = 0; r < ranks_count_; ++r) out.ranks.push_back(tally(r));
    for (const RankState& rank : b_.ranks) out.makespan = std::max(out.makespan, rank.free_at);
    return out;
  }

 private:
  // Compute and communication time are sums over a rank's list that do not depend on timing, so
  // they are added here rather than in the hot loop: without the communication model compute is
  // all of busy and there is no communication.
  RankTally tally(int r) const {
    const RankState& rank = b_.ranks[static_cast<std::size_t>(r)];
    RankTally t;
    t.busy = rank.busy;
    t.in_flight = rank.in_flight;
    t.peak_activations = rank.peak_activations;
    if (!costs_.has_comm) {
      t.compute = t.busy;
      return t;
    }
    if (lengths_.per_op != nullptr) {
      t.compute = staged_.compute[static_cast<std::size_t>(r)];
      t.comm = staged_.comm[static_cast<std::size_t>(r)];
      return t;
    }
    for (const PlanOp* op = plan_.begin(r); op != plan_.end(r); ++op) {
      t.compute += costs_.of(*op).compute;
      t.comm += costs_.of(*op).comm;
    }
    return t;
  }

  // Advances ranks from the work stack until it is empty: each runs its ops until one must wait
  // and parks on the chunk it waits for. kLatency: p2p latency is not zero (without it the rank
  // check drops out of every dependency). kRecord: keep each op's start. kStaged: per-stage
  // costs, each op's length read from lengths_.per_op (only the kLatency form: the engine
  // takes this path for it whatever the latency, to keep the fast paths few).
  //
  // Written for instruction count, which bounds large sweeps. The shape and costs are locals set
  // once per run, a visit loads and stores one RankState, each kind of op has its own branch with
  // its cost and activation change as constants, and the plan already holds every chunk key and
  // whether the op has a neighbouring stage to wait for, so a retried op costs no arithmetic.
  template <bool kRecord, bool kLatency, bool kStaged>
  void drain() {
    ChunkState* const chunks = b_.chunks.data();
    RankId* const chunk_ranks = b_.chunk_ranks.data();  // p2p latency only
    // The ranks ready to advance. A rank is on it at most once (it is either running, parked on
    // one chunk or pushed by the one wake that unparks it), so it needs no capacity checks.
    int* const work = b_.work.data();
    int* top = work;
    for (int r = ranks_count_ - 1; r >= 0; --r) *top++ = r;  // a stack: see the file comment
    const std::size_t stride = plan_.index().stage_stride();
    const Tick latency = costs_.p2p_latency;
    const Tick forward = costs_.slots[kSlotForward].duration;
    const Tick backward = costs_.slots[kSlotBackward].duration;
    const Tick backward_zb = costs_.slots[kSlotBackwardZb].duration;
    const Tick weight = costs_.slots[kSlotWeight].duration;
    const Tick pair = costs_.slots[kSlotPair].duration;
    const PlanOp* const first_op = plan_.begin(0);
    const Tick* const per_op = lengths_.per_op;
    // The length of `op`: its slot's (`uniform`), or its own under per-stage costs.
    const auto length = [&](Tick uniform, const PlanOp& op) {
      if constexpr (kStaged)
        return per_op[static_cast<std::size_t>(&op - first_op)];
      else
        return uniform;
    };
    // The visited rank and its state, and the op being tried.
    int r = 0;
    Tick free_at = 0, busy = 0, ready = 0;
    int in_flight = 0, peak = 0;
    Tick* start_out = nullptr;
    Tick* parked_on = nullptr;  // the unfinished end the head op waits for

    // Raises `ready` to cover one dependency, or notes the end to park on.
    const auto need = [&](Need what, std::size_t k) {
      ChunkState& c = chunks[k];
      Tick& end = what == Need::Forward ? c.forward_end : c.backward_end;
      if (end < 0) {
        parked_on = &end;
        return false;
      }
      if constexpr (kLatency)
        ready = std::max(ready, chunk_ranks[k] == r ? end : end + latency);
      else
        ready = std::max(ready, end);
      return true;
    };
    // The op runs from `ready` for `duration`. Recording keeps only its start (8 bytes, not a
    // 48-byte TimedOp): the ranks interleave, so these writes are scattered over every rank's
    // list, and at 64 ranks the full records made simulate() memory-bound (2x slower in wasm).
    const auto run_for = [&](Tick duration) {
      const Tick end = ready + duration;
      if constexpr (kRecord) *start_out++ = ready;
      busy += duration;
      free_at = end;
      return end;
    };
    // Records an end and wakes the rank parked on it, if any.
    const auto finish = [&](Tick& slot, Tick end) {
      const Tick before = slot;
      slot = end;
      if (before != kNotDone) *top++ = parked_rank(before);
    };
    // check_schedule guarantees a chunk's F, B and W share a rank, so the rank that finishes its
    // F is the one every later dependency check compares with (only latency reads it).
    const auto forward_done = [&](std::size_t k, Tick end) {
      if constexpr (kLatency) chunk_ranks[k] = static_cast<RankId>(r);
      finish(chunks[k].forward_end, end);
    };
    const auto backward_done = [&](std::size_t k, Tick end) {
      finish(chunks[k].backward_end, end);
    };
    // The data-flow rules (issue #2): F(s) needs F(s-1); B(s) needs its own F and B(s+1); W
    // needs its B. Whether an op has the neighbouring stage is a compile-time argument (kYes or
    // No), so each case of the switch below tests only the dependencies it has.
    // Activations: a chunk is in flight from the end of its F to the end of its B; an FB pair
    // releases the backward's as the forward's appear (net 0).
    const auto run_forward = [&](auto after_previous, const PlanOp& op) {
      const std::size_t key = op.key;
      if constexpr (decltype(after_previous)::value)
        if (!need(Need::Forward, key - stride)) return false;
      forward_done(key, run_for(length(forward, op)));
      peak = std::max(peak, ++in_flight);
      return true;
    };
    const auto backward_ready = [&](auto before_next, std::size_t key) {
      if constexpr (decltype(before_next)::value)
        return need(Need::Forward, key) && need(Need::Backward, key + stride);
      else
        return need(Need::Forward, key);
    };
    const auto run_backward = [&](auto before_next, Tick duration, const PlanOp& op) {
      const std::size_t key = op.key;
      if (!backward_ready(before_next, key)) return false;
      backward_done(key, run_for(length(duration, op)));
      --in_flight;
      return true;
    };
    const auto run_pair = [&](auto after_previous, auto before_next, const PlanOp& op) {
      const std::size_t key = op.key, backward_key = op.backward_key;
      if constexpr (decltype(after_previous)::value)
        if (!need(Need::Forward, key - stride)) return false;
      if (!backward_ready(before_next, backward_key)) return false;
      const Tick end = run_for(length(pair, op));
      forward_done(key, end);
      backward_done(backward_key, end);
      return true;
    };
    // Runs one op if its inputs are ready.
    const auto try_run = [&](const PlanOp& op) {
      ready = free_at;
      constexpr std::true_type kYes{};
      constexpr std::false_type kNo{};
      switch (op.code) {
        case kSlotForward:
          return run_forward(kNo, op);
        case kSlotForward | kAfterPrevious:
          return run_forward(kYes, op);
        case kSlotBackward:
          return run_backward(kNo, backward, op);
        case kSlotBackward | kBeforeNext:
          return run_backward(kYes, backward, op);
        case kSlotBackwardZb:
          return run_backward(kNo, backward_zb, op);
        case kSlotBackwardZb | kBeforeNext:
          return run_backward(kYes, backward_zb, op);
        case kSlotWeight:
          if (!need(Need::Backward, op.key)) return false;
          run_for(length(weight, op));  // nothing waits on a W
          return true;
        case kSlotPair:
          return run_pair(kNo, kNo, op);
        case kSlotPair | kAfterPrevious:
          return run_pair(kYes, kNo, op);
        case kSlotPair | kBeforeNext:
          return run_pair(kNo, kYes, op);
        case kSlotPair | kAfterPrevious | kBeforeNext:
          return run_pair(kYes, kYes, op);
        default:  // OpPlan writes only the codes above
          return false;
      }
    };

    while (top != work) {
      r = *--top;
      RankState& rank = b_.ranks[static_cast<std::size_t>(r)];
      free_at = rank.free_at;
      busy = rank.busy;
      in_flight = rank.in_flight;
      peak = rank.peak_activations;
      start_out = rank.start_out;
      const PlanOp* op = rank.next;
      const PlanOp* const end = rank.end;
      // A rank runs only a few ops a visit, and 64 ranks read their lists as 64 streams, more
      // than the hardware prefetcher follows: the first op of a new cache line missed on most
      // visits (1F1B at 64 x 1024: 30% faster with this). A prefetch never faults, so reading
      // past the list's end is harmless; the address is formed as an integer so that no
      // pointer leaves the buffer.
      const auto ahead = reinterpret_cast<std::uintptr_t>(op);
      __builtin_prefetch(reinterpret_cast<const void*>(ahead + 8 * sizeof(PlanOp)));
      __builtin_prefetch(reinterpret_cast<const void*>(ahead + 16 * sizeof(PlanOp)));
      while (op != end && try_run(*op)) ++op;
      if (op != end) *parked_on = parked(r);  // park on what the head op waits for
      rank.next = op;
      rank.free_at = free_at;
      rank.busy = busy;
      rank.in_flight = in_flight;
      rank.peak_activations = peak;
      rank.start_out = start_out;
    }
  }

  // The timeline from the recorded starts, one rank's list at a time (sequential reads and
  // writes): an op ends its kind's duration after it starts. Each list is reserved to its exact
  // size and each TimedOp made in place at its end, then written field by field: sizing the list
  // first zeroed it in a separate pass over megabytes that the writes then fetched back (perf:
  // a quarter of dualpipev's simulate() in memset), and a TimedOp built whole and copied in went
  // through a stack temporary whose reload stalled on store forwarding. The in-place default
  // stores land on the line the field writes use a moment later, so they cost no extra traffic.
  // kStaged: each op's own length (per-stage costs), else its slot's, decided once per run.
  template <bool kStaged>
  std::vector<RankTimeline> build_timeline(const std::vector<std::vector<Op>>* ops) const {
    std::vector<RankTimeline> timeline(static_cast<std::size_t>(ranks_count_));
    const Tick* start = b_.starts.get();
    const ChunkIndex index = plan_.index();  // a copy the compiler can keep in registers
    Tick slot_length[kSlots];
    for (int slot = 0; slot < kSlots; ++slot) slot_length[slot] = lengths_.slot[slot];
    const Tick* per_op = lengths_.per_op;
    for (int r = 0; r < ranks_count_; ++r) {
      RankTimeline& list = timeline[static_cast<std::size_t>(r)];
      const PlanOp* p = plan_.begin(r);
      const PlanOp* const end = plan_.end(r);
      list.reserve(static_cast<std::size_t>(end - p));
      const Op* op = ops ? (*ops)[static_cast<std::size_t>(r)].data() : nullptr;
      for (; p != end; ++p, ++start) {
        TimedOp& out = list.emplace_back();
        const int slot = p->code & kSlotMask;
        out.start = to_units(*start);
        Tick length = 0;
        if constexpr (kStaged)
          length = *per_op++;
        else
          length = slot_length[slot];
        out.end = to_units(*start + length);
        if (op) {
          out.op = *op++;
          continue;
        }
        out.op.kind = static_cast<OpKind>(slot & 3);
        out.op.zero_bubble = (slot & 4) != 0;
        out.op.chunk = index.chunk(p->key);
        if (slot == kSlotPair) out.op.backward_chunk = index.chunk(p->backward_key);
      }
    }
    return timeline;
  }

  bool finished(int r) const {
    const RankState& rank = b_.ranks[static_cast<std::size_t>(r)];
    return rank.next == rank.end;
  }

  const OpPlan& plan_;
  const int ranks_count_;
  const TickCosts costs_;
  OpLengths lengths_;    // each op's length: by slot, or per op under per-stage costs
  StageLengths staged_;  // per-stage costs only
  const TimelineForm form_;
  const bool activation_steps_;
  const bool record_timeline_;  // in either form, or for the activation steps
  EngineBuffers& b_;
};

}  // namespace

Result<EngineRun> run_engine(const OpPlan& plan, const std::vector<std::vector<Op>>* ops,
                             const Costs& costs, PartOrder order, const SimOptions& options,
                             EngineBuffers& buffers) {
  return Engine(plan, costs, order, options, buffers).run(ops);
}

}  // namespace pipesim::detail
