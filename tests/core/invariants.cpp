// Independent re-derivation of every rule the engine must honour. It deliberately shares no code
// with the engine beyond the public types, so a bug in one is not hidden by the other.
#include "invariants.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

#include <catch2/catch.hpp>

namespace pipesim::testing {
namespace {

using Key = std::tuple<int, int, int>;  // dir, mb, stage
Key key(const Chunk& c) { return {c.dir, c.mb, c.stage}; }

struct Done {
  double end = -1;
  int rank = -1;
};

// Costs are resolved to 1e-6 units (kTicksPerUnit), so a duration may differ from the raw cost by
// half a tick; sums of exact ticks agree to double rounding.
bool close(double a, double b) { return std::fabs(a - b) <= 0.5 / kTicksPerUnit + 1e-9 * std::max(1.0, std::fabs(a)); }

// What a stage costs, re-derived from the config alone: stageCosts[stage], or costs' own.
StageCost stage_of(const Costs& c, int stage) {
  return c.stages.empty() ? StageCost{c.forward, c.backward, c.weight, c.overlapped}
                          : c.stages.at(static_cast<std::size_t>(stage));
}

// The communication model (pipesim/comm.h), re-derived from the config alone: a lone op lasts
// its compute plus all of its all-to-alls; a pair lasts at least as long as each of its streams
// (F&B of compute, both chunks' all-to-alls) and at most their sum, and so does a lone full B
// whose weight gradient is delayed (Megatron's --delay-wgrad-compute: its DISPATCH(B) runs
// under MLP(W)). Ratio-form volumes are rounded to ticks separately, hence the wider tolerance.
// Under per-stage costs each chunk costs its stage's, and a pair of a forward on stage a and a
// backward on stage b F_a + B_b - min(F_a + B_a - F&B_a, F_b + B_b - F&B_b) (pipesim/stage_costs.h).
double op_compute(const Op& op, const Costs& c) {
  const StageCost s = stage_of(c, op.chunk.stage);
  switch (op.kind) {
    case OpKind::Forward: return s.forward;
    case OpKind::Backward: return op.zero_bubble ? s.backward - s.weight : s.backward;
    case OpKind::Weight: return s.weight;
    case OpKind::ForwardBackward: {
      const StageCost b = stage_of(c, op.backward_chunk.stage);
      return s.forward + b.backward -
             std::min(s.forward + s.backward - s.overlapped, b.forward + b.backward - b.overlapped);
    }
  }
  return 0;
}
double op_comm(const Op& op, const Costs& c) {
  const CommCosts& m = *c.comm;
  const ChunkComponents& x = m.components;
  const double f = m.explicit_components ? x.forward_dispatch + x.forward_combine
                                         : m.ratio * stage_of(c, op.chunk.stage).forward;
  // The ratio form charges a backward's all-to-alls like the forward's: same tokens (comm.h).
  const int b_stage = op.kind == OpKind::ForwardBackward ? op.backward_chunk.stage : op.chunk.stage;
  const double b = m.explicit_components ? x.backward_dispatch + x.backward_combine
                                         : m.ratio * stage_of(c, b_stage).forward;
  switch (op.kind) {
    case OpKind::Forward: return f;
    case OpKind::Backward: return b;
    case OpKind::Weight: return 0;
    case OpKind::ForwardBackward: return f + b;
  }
  return 0;
}
bool comm_close(double a, double b, const Costs& c) {
  const double ratio = c.comm->explicit_components ? 0 : c.comm->ratio;
  return std::fabs(a - b) <= (2 + ratio) / kTicksPerUnit + 1e-9 * std::max(1.0, std::fabs(a));
}
bool comm_duration_ok(const Op& op, double duration, const Costs& c, bool delayed_weights) {
  const double compute = op_compute(op, c), comm = op_comm(op, c);
  const bool overlaps = op.kind == OpKind::ForwardBackward ||
                        (delayed_weights && op.kind == OpKind::Backward && !op.zero_bubble);
  if (!overlaps) return comm_close(duration, compute + comm, c);
  return (duration >= std::max(compute, comm) || comm_close(duration, std::max(compute, comm), c)) &&
         (duration <= compute + comm || comm_close(duration, compute + comm, c));
}
std::string check_comm_metrics(const SimResult& r) {
  const Costs& c = r.config.costs;
  if (!c.comm) return r.comm ? "comm metrics without a communication model" : "";
  if (!r.comm) return "no comm metrics under a communication model";
  double compute_total = 0, comm_total = 0, exposed_total = 0;
  for (std::size_t rank = 0; rank < r.timeline.size(); ++rank) {
    double compute = 0, comm = 0;
    for (const TimedOp& t : r.timeline[rank]) {
      compute += op_compute(t.op, c);
      comm += op_comm(t.op, c);
    }
    const RankStats& st = r.per_rank[rank];
    if (!comm_close(st.compute, compute, c) || !comm_close(st.comm, comm, c))
      return "compute/comm mismatch on rank " + std::to_string(rank);
    if (!close(st.busy, st.compute + st.exposed_comm)) return "busy != compute + exposed on rank " + std::to_string(rank);
    if (st.exposed_comm < -1e-9 || st.exposed_comm > st.comm + 1e-9) return "exposed comm outside [0, comm]";
    compute_total += st.compute;
    comm_total += st.comm;
    exposed_total += st.exposed_comm;
  }
  const CommSummary& s = *r.comm;
  if (!close(s.total, comm_total) || !close(s.exposed, exposed_total) || !close(s.hidden, comm_total - exposed_total))
    return "comm totals mismatch";
  if (!close(s.hidden_fraction, comm_total > 0 ? (comm_total - exposed_total) / comm_total : 0))
    return "hidden fraction mismatch";
  if (!close(s.compute_utilization, compute_total / (static_cast<double>(r.timeline.size()) * r.makespan)))
    return "compute utilization mismatch";
  return "";
}

}  // namespace

std::string check_invariants(const Schedule& s, const SimResult& r) {
  const Costs& c = r.config.costs;
  if (r.timeline.size() != static_cast<std::size_t>(s.ranks)) return "timeline has the wrong rank count";
  std::map<Key, Done> f_done, b_done, w_done;
  std::map<Key, bool> zb;
  for (int rank = 0; rank < s.ranks; ++rank) {
    const auto& ops = r.timeline[static_cast<std::size_t>(rank)];
    const auto& listed = s.rank_ops[static_cast<std::size_t>(rank)];
    if (ops.size() != listed.size()) return "rank " + std::to_string(rank) + " ran a different number of ops";
    for (std::size_t i = 0; i < ops.size(); ++i) {
      const TimedOp& t = ops[i];
      if (op_label(t.op) != op_label(listed[i])) return "rank " + std::to_string(rank) + " ran ops out of order";
      if (i > 0 && t.start < ops[i - 1].end - 1e-12) return "ops overlap on rank " + std::to_string(rank);
      if (t.start < 0) return "an op starts before time 0";
      // A pair's four stage costs are each rounded to a tick, so it may be off by two.
      const double cost = op_compute(t.op, c);
      const bool length_ok = t.op.kind == OpKind::ForwardBackward && !c.stages.empty()
                                 ? std::fabs(t.end - t.start - cost) <= 2.5 / kTicksPerUnit + 1e-9 * cost
                                 : close(t.end - t.start, cost);
      if (c.comm ? !comm_duration_ok(t.op, t.end - t.start, c, r.config.delay_wgrad) : !length_ok)
        return "op " + op_label(t.op) + " has the wrong duration";
      auto record = [&](std::map<Key, Done>& m, const Chunk& ch) -> bool {
        if (m.count(key(ch))) return false;
        m[key(ch)] = Done{t.end, rank};
        return true;
      };
      bool fresh = true;
      if (t.op.kind == OpKind::Forward) fresh = record(f_done, t.op.chunk);
      if (t.op.kind == OpKind::Backward) {
        fresh = record(b_done, t.op.chunk);
        zb[key(t.op.chunk)] = t.op.zero_bubble;
      }
      if (t.op.kind == OpKind::Weight) fresh = record(w_done, t.op.chunk);
      if (t.op.kind == OpKind::ForwardBackward)
        fresh = record(f_done, t.op.chunk) && record(b_done, t.op.backward_chunk);
      if (!fresh) return "op " + op_label(t.op) + " ran twice";
    }
  }
  // Dependencies, checked after all ends are known.
  auto after = [&](const std::map<Key, Done>& m, const Key& k, int rank, double start) {
    const auto it = m.find(k);
    if (it == m.end()) return false;
    const double ready = it->second.end + (it->second.rank == rank ? 0 : c.p2p_latency);
    return start >= ready - 1e-9;
  };
  const int last = s.stages - 1;
  for (int rank = 0; rank < s.ranks; ++rank)
    for (const TimedOp& t : r.timeline[static_cast<std::size_t>(rank)]) {
      auto check_f = [&](const Chunk& ch) {
        return ch.stage == 0 || after(f_done, {ch.dir, ch.mb, ch.stage - 1}, rank, t.start);
      };
      auto check_b = [&](const Chunk& ch) {
        return after(f_done, key(ch), rank, t.start) &&
               (ch.stage == last || after(b_done, {ch.dir, ch.mb, ch.stage + 1}, rank, t.start));
      };
      bool ok = true;
      if (t.op.kind == OpKind::Forward) ok = check_f(t.op.chunk);
      if (t.op.kind == OpKind::Backward) ok = check_b(t.op.chunk);
      if (t.op.kind == OpKind::Weight) ok = after(b_done, key(t.op.chunk), rank, t.start) && zb[key(t.op.chunk)];
      if (t.op.kind == OpKind::ForwardBackward) ok = check_f(t.op.chunk) && check_b(t.op.backward_chunk);
      if (!ok) return "op " + op_label(t.op) + " on rank " + std::to_string(rank) + " starts before a dependency";
    }
  const std::size_t chunks = static_cast<std::size_t>(s.directions) * s.microbatches_per_direction * s.stages;
  if (f_done.size() != chunks || b_done.size() != chunks) return "some chunk's F or B never ran";
  for (const auto& [k, is_zb] : zb)
    if (is_zb != (w_done.count(k) == 1)) return "a zero-bubble B without exactly one W";

  // Metrics against their definitions; activations recounted from the trace in time order.
  double makespan = 0;
  for (const auto& ops : r.timeline)
    for (const TimedOp& t : ops) makespan = std::max(makespan, t.end);
  if (!close(makespan, r.makespan)) return "makespan is not the last op's end";
  double total_idle = 0, max_idle = 0;
  int max_peak = 0;
  for (int rank = 0; rank < s.ranks; ++rank) {
    double busy = 0;
    int live = 0, peak = 0;
    for (const TimedOp& t : r.timeline[static_cast<std::size_t>(rank)]) {
      busy += t.end - t.start;
      if (t.op.kind == OpKind::Forward) ++live;
      if (t.op.kind == OpKind::Backward) --live;
      if (live < 0) return "activations went negative on rank " + std::to_string(rank);
      peak = std::max(peak, live);
    }
    if (live != 0) return "activations did not return to zero on rank " + std::to_string(rank);
    const RankStats& st = r.per_rank[static_cast<std::size_t>(rank)];
    if (!close(st.busy, busy) || !close(st.idle, makespan - busy)) return "busy/idle mismatch";
    if (st.peak_activations != peak) return "peak activations mismatch on rank " + std::to_string(rank);
    if (!close(st.peak_activation_memory, static_cast<double>(peak) * s.ranks / s.stages))
      return "peak activation memory is not peak x ranks / stages on rank " + std::to_string(rank);
    total_idle += makespan - busy;
    max_idle = std::max(max_idle, makespan - busy);
    max_peak = std::max(max_peak, peak);
  }
  if (!close(r.bubble_total, total_idle) || !close(r.bubble_max, max_idle)) return "bubble mismatch";
  if (!close(r.bubble_fraction, total_idle / (s.ranks * makespan))) return "bubble fraction mismatch";
  if (!close(r.utilization, 1 - r.bubble_fraction)) return "utilization mismatch";
  if (r.max_peak_activations != max_peak) return "max peak activations mismatch";
  if (!close(r.max_peak_activation_memory, static_cast<double>(max_peak) * s.ranks / s.stages))
    return "max peak activation memory mismatch";
  return check_comm_metrics(r);
}

SimResult simulate_checked(const SimConfig& config) {
  auto schedule = generate_schedule(config);
  REQUIRE(schedule.ok());
  // Runtime timing and the part order of a2aOverlap are properties of the config, not of the op
  // lists: such configs go through simulate.
  auto result = config.timing == Timing::Dependency && !config.a2a_overlap
                    ? simulate_schedule(schedule.value(), config.costs)
                    : simulate(config);
  INFO(config.schedule << " R=" << config.ranks << " M=" << config.microbatches);
  REQUIRE(result.ok());
  const std::string problem = check_invariants(schedule.value(), result.value());
  INFO(problem);
  REQUIRE(problem.empty());
  return result.value();
}

std::vector<std::string> rank_op_labels(const SimConfig& config, int rank) {
  auto schedule = generate_schedule(config);
  REQUIRE(schedule.ok());
  std::vector<std::string> out;
  for (const Op& op : schedule.value().rank_ops[static_cast<std::size_t>(rank)]) out.push_back(op_label(op));
  return out;
}

std::string read_text_file(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Costs with_comm_ratio(double ratio, int layers, Costs costs) {
  CommCosts m;
  m.ratio = ratio;
  m.layers = layers;
  costs.comm = m;
  return costs;
}

std::string part_label(const OpPart& part) {
  std::string s = part_name(part.part);
  for (char& ch : s) ch = static_cast<char>(ch - 'a' + 'A');
  return s + "(" + pass_name(part.pass) + ")";
}

void check_part_spans(const OpTiming& timing, const std::vector<PartSpan>& expected) {
  REQUIRE(timing.parts.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    INFO("part " << i << " " << expected[i].label);
    CHECK(part_label(timing.parts[i]) == expected[i].label);
    CHECK(timing.parts[i].start == expected[i].start);
    CHECK(timing.parts[i].end == expected[i].end);
  }
}

}  // namespace pipesim::testing
