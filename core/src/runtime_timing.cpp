// Timing "runtime": DeepSeek's step() (deepseek-ai/DualPipe dualpipe.py, dualpipev.py) does not
// start an op when its input exists. Each _forward_chunk / _backward_chunk / _weight_chunk first
// queues its receives, then _commit_and_wait_comm posts every queued receive and send together
// (dist.batch_isend_irecv) and waits for all of them; its own sends are queued after its compute,
// so they leave at the rank's next commit. Some receives are queued early (step 2's F0, step 3's
// F1 before the W), so a commit can wait for a peer that has not reached its own.
//
// Model: a transfer completes p2pLatency after both ends have posted it (a send needs its receive
// posted, as for NCCL's large messages); a commit completes when all its transfers have; an op
// starts when the commit before it completes. Transfers between stages on one rank (DualPipeV's
// turn) and past the pipeline's ends do not exist, as in the reference's _send_* / _recv_* guards.
#include "runtime_timing.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "activation_steps.h"
#include "pipesim/rules.h"
#include "pipesim/schedule.h"
#include "pipesim/stage_costs.h"
#include "schedules/dualpipe_steps.h"
#include "stage_ticks.h"

namespace pipesim::detail {
namespace {

using Tick = std::int64_t;
Tick ticks(double units) { return static_cast<Tick>(std::llround(units * kTicksPerUnit)); }
double units(Tick t) { return static_cast<double>(t) / kTicksPerUnit; }

// One rank's step as the reference runs it: compute ops (the next of the rank's op list),
// commits, and the transfers queued for the next commit.
struct Event {
  enum Kind : std::uint8_t { Compute, Commit, Queue } kind = Compute;
  std::int64_t transfer = 0;  // Queue only: which transfer (Transfers::id)
};

// Transfers are named by what moves: the output of F (or input-gradient of B) of one chunk.
struct Transfers {
  int ranks = 0, stages = 0, microbatches = 0;  // stages and micro-batches per direction
  std::vector<int> stage_rank;                  // [dir][stage] -> rank
  int rank_of(int dir, int stage) const { return stage_rank[static_cast<std::size_t>(dir * stages + stage)]; }
  std::int64_t id(int backward, int dir, int mb, int stage) const {
    return ((static_cast<std::int64_t>(backward) * 2 + dir) * microbatches + mb) * stages + stage;
  }
  std::int64_t count() const { return 4 * static_cast<std::int64_t>(microbatches) * stages; }
};

// The reference's step() for one rank, with its _recv_* / _send_* / _commit_and_wait_comm calls.
class StepProgram {
 public:
  StepProgram(const DualPipeRankPlan& plan, const Transfers& t, std::vector<Event>& out)
      : plan_(plan), t_(t), out_(out) {}

  void run() {
    const int n = plan_.half_ranks, h = plan_.half_rank;
    const bool mid = plan_.middle;
    for (int i = 0; i < (n - h - 1) * 2; ++i) forward_chunk(0);                     // step 1
    recv_f(0);                                                                      // step 2
    for (int i = 0; i < h + 1; ++i) {
      forward_chunk(0, false, mid);
      recv_f(0);
      forward_chunk(1, true, !mid || i < h);
      if (!mid) send_f(0);
    }
    for (int i = 0; i < n - h - 1; ++i) {                                           // step 3
      backward_chunk(1);
      recv_f(1);
      weight_chunk();
      forward_chunk(1, false);
    }
    for (int i = 0; i < plan_.chunks_per_phase - 2 * n + h + 1; ++i) {              // step 4
      if (i == 0 && mid) {
        forward_chunk(0, false, false);
        send_f(1);
        backward_chunk(1, true, false);
        send_f(0);
        send_b(1);
      } else {
        forward_backward_chunk(0, 1, i != 0);
      }
      forward_backward_chunk(1, 0);
    }
    for (int i = 0; i < n - h - 1; ++i) {                                           // step 5
      backward_chunk(1);
      forward_backward_chunk(1, 0);
    }
    for (int i = 0; i < h + 1; ++i) {                                               // step 6
      backward_chunk(1);
      backward_chunk(0);
    }
    for (int i = 0; i < n - h - 1; ++i) {                                           // step 7
      weight_chunk();
      backward_chunk(0);
    }
    for (int i = 0; i < h + 1; ++i) weight_chunk();                                 // step 8
    commit();
  }

 private:
  void commit() { out_.push_back({Event::Commit, 0}); }
  void compute() { out_.push_back({Event::Compute, 0}); }
  // Queues the transfer unless its other end is past the pipeline or on this rank.
  void queue(int backward, int phase, int sender_stage, int receiver_stage, int mb) {
    const int dir = plan_.phase_dir[static_cast<std::size_t>(phase)];
    if (receiver_stage < 0 || receiver_stage >= t_.stages || sender_stage < 0 || sender_stage >= t_.stages)
      return;
    if (t_.rank_of(dir, sender_stage) == t_.rank_of(dir, receiver_stage)) return;
    out_.push_back({Event::Queue, t_.id(backward, dir, mb, sender_stage)});
  }
  int stage(int phase) const { return plan_.phase_stage[static_cast<std::size_t>(phase)]; }
  void recv_f(int p) { queue(0, p, stage(p) - 1, stage(p), recv_f_[p]++); }
  void send_f(int p) { queue(0, p, stage(p), stage(p) + 1, send_f_[p]++); }
  void recv_b(int p) { queue(1, p, stage(p) + 1, stage(p), recv_b_[p]++); }
  void send_b(int p) { queue(1, p, stage(p), stage(p) - 1, send_b_[p]++); }

  void forward_chunk(int p, bool recv = true, bool send = true) {
    if (recv) recv_f(p);
    commit();
    compute();
    if (send) send_f(p);
  }
  void backward_chunk(int p, bool recv = true, bool send = true) {
    if (recv) recv_b(p);
    commit();
    compute();
    if (send) send_b(p);
  }
  void forward_backward_chunk(int p0, int p1, bool recv0 = true) {
    if (recv0) recv_f(p0);
    recv_b(p1);
    commit();
    compute();
    send_f(p0);
    send_b(p1);
  }
  void weight_chunk() {
    commit();
    compute();
  }

  const DualPipeRankPlan& plan_;
  const Transfers& t_;
  std::vector<Event>& out_;
  int recv_f_[2] = {0, 0}, send_f_[2] = {0, 0}, recv_b_[2] = {0, 0}, send_b_[2] = {0, 0};
};

// An op's length: its chunk's stage's costs (pipesim/stage_costs.h; costs' own without stages),
// an FB pair by the pair rule over its two stages.
Tick op_ticks(const Op& op, const Costs& c) {
  const StageTicks s = stage_ticks_of(stage_cost(c, op.chunk.stage));
  switch (op.kind) {
    case OpKind::Forward: return s.forward;
    case OpKind::Backward: return op.zero_bubble ? s.backward - s.weight : s.backward;
    case OpKind::Weight: return s.weight;
    case OpKind::ForwardBackward:
      return pair_ticks(s, stage_ticks_of(stage_cost(c, op.backward_chunk.stage)));
  }
  return 0;
}

}  // namespace

Result<SimResult> simulate_runtime(const SimConfig& config) {
  auto generated = generate_schedule(config);
  if (!generated.ok()) return generated.error();
  const Schedule& s = generated.value();
  const bool v_shape = config.schedule == "dualpipev";
  Transfers t;
  t.ranks = s.ranks;
  t.stages = s.stages;
  t.microbatches = s.microbatches_per_direction;
  t.stage_rank.assign(static_cast<std::size_t>(s.directions * s.stages), 0);
  for (int r = 0; r < s.ranks; ++r)
    for (const Op& op : s.rank_ops[static_cast<std::size_t>(r)])
      t.stage_rank[static_cast<std::size_t>(op.chunk.dir * s.stages + op.chunk.stage)] = r;

  // Every rank's events, and for each transfer the (rank, commit) at which each end posts it.
  const std::size_t ranks = static_cast<std::size_t>(s.ranks);
  std::vector<std::vector<Event>> events(ranks);
  std::vector<std::int64_t> sender_commit(static_cast<std::size_t>(t.count()), -1);
  std::vector<std::int64_t> receiver_commit(static_cast<std::size_t>(t.count()), -1);
  std::vector<std::vector<std::vector<std::int64_t>>> batches(ranks);  // [rank][commit] transfers
  for (std::size_t r = 0; r < ranks; ++r) {
    const int rank = static_cast<int>(r);
    StepProgram(v_shape ? dualpipev_rank_plan(s.ranks, config.microbatches, rank)
                        : dualpipe_rank_plan(s.ranks, config.microbatches, rank),
                t, events[r])
        .run();
    std::vector<std::int64_t> pending;
    for (const Event& e : events[r]) {
      if (e.kind == Event::Queue) pending.push_back(e.transfer);
      if (e.kind != Event::Commit) continue;
      const std::int64_t commit = static_cast<std::int64_t>(batches[r].size());
      for (std::int64_t id : pending) {
        // A transfer's sender is the rank of the stage named in its id.
        const int sender_stage = static_cast<int>(id % t.stages);
        const int dir = static_cast<int>(id / t.stages / t.microbatches % 2);
        const bool sending = t.rank_of(dir, sender_stage) == rank;
        (sending ? sender_commit : receiver_commit)[static_cast<std::size_t>(id)] =
            (static_cast<std::int64_t>(r) << 32) | commit;
      }
      batches[r].push_back(std::move(pending));
      pending.clear();
    }
  }

  // Run every rank as far as its commits allow; a rank reaching a commit may unblock its peers.
  std::vector<std::vector<Tick>> arrived(ranks);  // [rank][commit] when the rank reached it
  std::vector<std::size_t> cursor(ranks, 0), op_index(ranks, 0), commits_passed(ranks, 0);
  std::vector<Tick> now(ranks, 0);
  std::vector<RankTimeline> timeline(ranks);
  const Tick latency = ticks(config.costs.p2p_latency);
  auto partner_arrival = [&](std::size_t r, std::int64_t id, Tick& at) {
    const std::int64_t other =
        (sender_commit[static_cast<std::size_t>(id)] >> 32) == static_cast<std::int64_t>(r)
            ? receiver_commit[static_cast<std::size_t>(id)]
            : sender_commit[static_cast<std::size_t>(id)];
    PIPESIM_CHECK(other >= 0, "every transfer DualPipe's step queues has both ends");
    const std::vector<Tick>& seen = arrived[static_cast<std::size_t>(other >> 32)];
    const std::size_t commit = static_cast<std::size_t>(other & 0xffffffff);
    if (commit >= seen.size()) return false;
    at = seen[commit];
    return true;
  };
  bool progress = true;
  while (progress) {
    progress = false;
    for (std::size_t r = 0; r < ranks; ++r) {
      while (cursor[r] < events[r].size()) {
        const Event& e = events[r][cursor[r]];
        if (e.kind == Event::Compute) {
          PIPESIM_CHECK(op_index[r] < s.rank_ops[r].size(), "the step program computes each op once");
          const Op& op = s.rank_ops[r][op_index[r]++];
          const Tick end = now[r] + op_ticks(op, config.costs);
          timeline[r].push_back(TimedOp{op, units(now[r]), units(end)});
          now[r] = end;
        } else if (e.kind == Event::Commit) {
          // A commit's index is the number of commits before it; a blocked rank retries it.
          std::vector<Tick>& mine = arrived[r];
          const std::size_t commit = commits_passed[r];
          if (mine.size() == commit) mine.push_back(now[r]);
          Tick done = now[r];
          bool ready = true;
          for (std::int64_t id : batches[r][commit]) {
            Tick at = 0;
            if (!partner_arrival(r, id, at)) {
              ready = false;
              break;
            }
            done = std::max(done, std::max(at, mine[commit]) + latency);
          }
          if (!ready) break;
          now[r] = done;
          ++commits_passed[r];
        }
        ++cursor[r];
        progress = true;
      }
    }
  }
  for (std::size_t r = 0; r < ranks; ++r)
    PIPESIM_CHECK(cursor[r] < events[r].size() || op_index[r] == s.rank_ops[r].size(),
                  "the step program computes every op of its rank");
  for (std::size_t r = 0; r < ranks; ++r)
    if (cursor[r] < events[r].size())
      return make_error(Rule::Internal, "", {{"detail", "runtime timing could not make progress"}});
  // Metrics as the engine computes them: busy, idle against the makespan, in-flight activations.
  SimResult res;
  res.config = config;
  res.stages = s.stages;
  res.stages_per_rank = s.stages_per_rank;
  res.param_copies = s.param_copies;
  Tick makespan = 0;
  for (std::size_t r = 0; r < ranks; ++r) makespan = std::max(makespan, now[r]);
  Tick total_idle = 0, max_idle = 0;
  for (std::size_t r = 0; r < ranks; ++r) {
    RankStats st;
    st.rank = static_cast<int>(r);
    Tick busy = 0;
    int in_flight = 0;
    for (const TimedOp& op : timeline[r]) {
      busy += op_ticks(op.op, config.costs);
      in_flight += activation_delta(op.op.kind);
      st.peak_activations = std::max(st.peak_activations, in_flight);
    }
    st.busy = units(busy);
    st.idle = units(makespan - busy);
    total_idle += makespan - busy;
    max_idle = std::max(max_idle, makespan - busy);
    st.peak_activation_memory = st.peak_activations * activation_memory_unit(s.ranks, s.stages);
    res.max_peak_activations = std::max(res.max_peak_activations, st.peak_activations);
    res.max_peak_activation_memory = std::max(res.max_peak_activation_memory, st.peak_activation_memory);
    res.per_rank.push_back(st);
  }
  res.makespan = units(makespan);
  res.bubble_max = units(max_idle);
  res.bubble_total = units(total_idle);
  res.bubble_fraction = makespan > 0 ? static_cast<double>(total_idle) /
                                           (static_cast<double>(ranks) * static_cast<double>(makespan))
                                     : 0.0;
  res.utilization = 1.0 - res.bubble_fraction;
  res.timeline = std::move(timeline);
  return res;
}

}  // namespace pipesim::detail
