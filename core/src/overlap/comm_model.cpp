// The compute-communication model: resolves component times, lays each op kind's parts out on
// the two streams of a rank, and reports lengths and exposed communication. Everything is done
// in integer ticks (as in the engine), so a model whose communication is zero reproduces the
// plain cost model tick for tick.
//
// Layout rule: parts are listed in issue order; each starts when its stream is free and its
// inputs are done (a stream runs its parts in list order, like a CUDA stream). A lone op chains
// all its parts, so nothing overlaps (its compute waits for its own all-to-alls). A pair uses the
// order of DeepSeek-V3 Fig. 4 / profile-data train.json, one layer of each chunk per cycle:
//   ATTN(F) | COMBINE(B) | MLP(B) | DISPATCH(F) | MLP(W) | DISPATCH(B) | MLP(F) | COMBINE(F) |
//   ATTN(B) | ATTN(W)
// with the data dependencies of one MoE layer: dispatch needs attention, the MLP needs dispatch,
// combine needs the MLP; backward runs combine -> MLP -> dispatch -> attention, and a weight part
// needs the gradient its input part received. The next layer's ATTN(F) needs this COMBINE(F);
// the next COMBINE(B) needs this ATTN(B).
#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>
#include <utility>

#include "../stage_ticks.h"
#include "comm_ticks.h"
#include "pipesim/rules.h"
#include "pipesim/stage_costs.h"

namespace pipesim {
namespace detail {
namespace {

using Tick = CommTick;

struct TickComponents {
  Tick f_attn = 0, f_dispatch = 0, f_mlp = 0, f_combine = 0;
  Tick b_attn = 0, b_attn_w = 0, b_dispatch = 0, b_mlp = 0, b_mlp_w = 0, b_combine = 0;
};

TickComponents tick_components(const Costs& c) {
  const CommCosts& m = *c.comm;
  TickComponents t;
  if (m.explicit_components) {
    const ChunkComponents& x = m.components;
    t = TickComponents{comm_to_ticks(x.forward_attn),        comm_to_ticks(x.forward_dispatch),
                       comm_to_ticks(x.forward_mlp),         comm_to_ticks(x.forward_combine),
                       comm_to_ticks(x.backward_attn),       comm_to_ticks(x.backward_attn_weight),
                       comm_to_ticks(x.backward_dispatch),   comm_to_ticks(x.backward_mlp),
                       comm_to_ticks(x.backward_mlp_weight), comm_to_ticks(x.backward_combine)};
    return t;
  }
  const Tick f = comm_to_ticks(c.forward), b = comm_to_ticks(c.backward),
             w = comm_to_ticks(c.weight);
  auto share = [&](Tick total) {
    return static_cast<Tick>(std::llround(m.attn_share * static_cast<double>(total)));
  };
  t.f_attn = share(f);
  t.f_mlp = f - t.f_attn;
  t.b_attn = share(b - w);
  t.b_mlp = (b - w) - t.b_attn;
  t.b_attn_w = share(w);
  t.b_mlp_w = w - t.b_attn_w;
  // A backward chunk's all-to-alls move the same tokens as its forward's (the gradients have the
  // activations' shape; DeepSeek-V3 report §3.3.2 sends dispatch in FP8 and combine in BF16 both
  // ways), so they take as long as the forward's: ratio x F each way, not ratio x B. It is also
  // what lets a Fig. 4 pair hide all of its all-to-all at 1:1, as §3.2.1 reports.
  const Tick comm = static_cast<Tick>(std::llround(m.ratio * static_cast<double>(f)));
  t.f_dispatch = t.b_dispatch = comm / 2;
  t.f_combine = t.b_combine = comm - comm / 2;
  return t;
}

// Layer k's share of a component split evenly over `layers` (shares add up exactly).
Tick layer_share(Tick total, int layers, int k) {
  return total * (k + 1) / layers - total * k / layers;
}

struct PartSpec {
  Stream stream;
  PartKind part;
  Pass pass;
  int layer;
  Tick duration;
  int dep1 = -1, dep2 = -1;  // indices of parts that must finish first
};

KindTicks lay_out(const std::vector<PartSpec>& specs) {
  KindTicks k;
  Tick free_at[2] = {0, 0};
  k.parts.reserve(specs.size());
  for (const PartSpec& s : specs) {
    const auto si = static_cast<std::size_t>(s.stream);
    Tick start = free_at[si];
    for (int dep : {s.dep1, s.dep2})
      if (dep >= 0) start = std::max(start, k.parts[static_cast<std::size_t>(dep)].end);
    const Tick end = start + s.duration;
    free_at[si] = end;
    k.parts.push_back(TickPart{s.stream, s.part, s.pass, s.layer, start, end});
    k.duration = std::max(k.duration, end);
    (s.stream == Stream::Compute ? k.compute : k.comm) += s.duration;
  }
  return k;
}

// A lone op: every part waits for the one before it.
KindTicks chain(std::vector<PartSpec> specs) {
  for (std::size_t i = 1; i < specs.size(); ++i) specs[i].dep1 = static_cast<int>(i) - 1;
  return lay_out(specs);
}

constexpr Stream kCompute = Stream::Compute, kComm = Stream::Comm;

KindTicks lone_forward(const TickComponents& t, int layers) {
  std::vector<PartSpec> s;
  for (int k = 0; k < layers; ++k) {
    s.push_back({kCompute, PartKind::Attn, Pass::Forward, k, layer_share(t.f_attn, layers, k)});
    s.push_back(
        {kComm, PartKind::Dispatch, Pass::Forward, k, layer_share(t.f_dispatch, layers, k)});
    s.push_back({kCompute, PartKind::Mlp, Pass::Forward, k, layer_share(t.f_mlp, layers, k)});
    s.push_back({kComm, PartKind::Combine, Pass::Forward, k, layer_share(t.f_combine, layers, k)});
  }
  return chain(std::move(s));
}

// A full backward computes each layer's weight gradient right after its input gradient; a
// zero-bubble backward leaves the weight parts to a later W.
KindTicks lone_backward(const TickComponents& t, int layers, bool with_weights) {
  std::vector<PartSpec> s;
  for (int k = 0; k < layers; ++k) {
    s.push_back({kComm, PartKind::Combine, Pass::Backward, k, layer_share(t.b_combine, layers, k)});
    s.push_back({kCompute, PartKind::Mlp, Pass::Backward, k, layer_share(t.b_mlp, layers, k)});
    if (with_weights)
      s.push_back({kCompute, PartKind::Mlp, Pass::Weight, k, layer_share(t.b_mlp_w, layers, k)});
    s.push_back(
        {kComm, PartKind::Dispatch, Pass::Backward, k, layer_share(t.b_dispatch, layers, k)});
    s.push_back({kCompute, PartKind::Attn, Pass::Backward, k, layer_share(t.b_attn, layers, k)});
    if (with_weights)
      s.push_back({kCompute, PartKind::Attn, Pass::Weight, k, layer_share(t.b_attn_w, layers, k)});
  }
  return chain(std::move(s));
}

KindTicks lone_weight(const TickComponents& t, int layers) {
  std::vector<PartSpec> s;
  for (int k = 0; k < layers; ++k) {
    s.push_back({kCompute, PartKind::Mlp, Pass::Weight, k, layer_share(t.b_mlp_w, layers, k)});
    s.push_back({kCompute, PartKind::Attn, Pass::Weight, k, layer_share(t.b_attn_w, layers, k)});
  }
  return chain(std::move(s));
}

// The pair's compute is F&B, not F + B (DeepSeek's table gives the pair its own cost): its six
// compute components are scaled by F&B / (F + B) with cumulative rounding, so they add up to F&B
// exactly and a pair without communication lasts F&B, as before.
void scale_pair_compute(TickComponents& t, Tick overlapped) {
  Tick* parts[] = {&t.f_attn, &t.f_mlp, &t.b_mlp, &t.b_mlp_w, &t.b_attn, &t.b_attn_w};
  Tick total = 0;
  for (Tick* p : parts) total += *p;
  if (total == overlapped || total == 0) return;
  const double ratio = static_cast<double>(overlapped) / static_cast<double>(total);
  Tick cumulative = 0, scaled_before = 0;
  for (std::size_t i = 0; i < std::size(parts); ++i) {
    cumulative += *parts[i];
    const Tick scaled =
        i + 1 == std::size(parts)
            ? overlapped
            : static_cast<Tick>(std::llround(static_cast<double>(cumulative) * ratio));
    *parts[i] = scaled - scaled_before;
    scaled_before = scaled;
  }
}

KindTicks pair(TickComponents t, Tick overlapped, int layers) {
  scale_pair_compute(t, overlapped);
  std::vector<PartSpec> s;
  for (int k = 0; k < layers; ++k) {
    const int base = 10 * k;
    const int prev = base - 10;  // the previous cycle, or none
    auto at = [&](int offset) { return base + offset; };
    s.push_back({kCompute, PartKind::Attn, Pass::Forward, k, layer_share(t.f_attn, layers, k),
                 k > 0 ? prev + 7 : -1});  // 0 after COMBINE(F) k-1
    s.push_back({kComm, PartKind::Combine, Pass::Backward, k, layer_share(t.b_combine, layers, k),
                 k > 0 ? prev + 8 : -1});  // 1 after ATTN(B) k-1
    s.push_back(
        {kCompute, PartKind::Mlp, Pass::Backward, k, layer_share(t.b_mlp, layers, k), at(1)});
    s.push_back(
        {kComm, PartKind::Dispatch, Pass::Forward, k, layer_share(t.f_dispatch, layers, k), at(0)});
    s.push_back(
        {kCompute, PartKind::Mlp, Pass::Weight, k, layer_share(t.b_mlp_w, layers, k), at(1)});
    s.push_back({kComm, PartKind::Dispatch, Pass::Backward, k, layer_share(t.b_dispatch, layers, k),
                 at(2)});
    s.push_back(
        {kCompute, PartKind::Mlp, Pass::Forward, k, layer_share(t.f_mlp, layers, k), at(3)});
    s.push_back(
        {kComm, PartKind::Combine, Pass::Forward, k, layer_share(t.f_combine, layers, k), at(6)});
    s.push_back(
        {kCompute, PartKind::Attn, Pass::Backward, k, layer_share(t.b_attn, layers, k), at(5)});
    s.push_back(
        {kCompute, PartKind::Attn, Pass::Weight, k, layer_share(t.b_attn_w, layers, k), at(5)});
  }
  return lay_out(s);
}

}  // namespace

CommTick comm_to_ticks(double units) { return std::llround(units * kTicksPerUnit); }

const KindTicks& CommTicks::of(const Op& op) const {
  switch (op.kind) {
    case OpKind::Forward:
      return forward;
    case OpKind::Backward:
      return op.zero_bubble ? backward_zb : backward;
    case OpKind::Weight:
      return weight;
    case OpKind::ForwardBackward:
      return pair;
  }
  return forward;
}

CommTicks comm_ticks(const Costs& costs) {
  PIPESIM_CHECK(costs.comm.has_value(), "comm_ticks needs a communication model");
  const TickComponents t = tick_components(costs);
  const int layers = costs.comm->layers;
  return CommTicks{lone_forward(t, layers), lone_backward(t, layers, true),
                   lone_backward(t, layers, false), lone_weight(t, layers),
                   pair(t, comm_to_ticks(costs.overlapped), layers)};
}

KindTicks comm_pair_ticks(const Costs& forward_stage, const Costs& backward_stage,
                          CommTick overlapped) {
  PIPESIM_CHECK(forward_stage.comm.has_value(), "comm_pair_ticks needs a communication model");
  const TickComponents f = tick_components(forward_stage);
  TickComponents t = tick_components(backward_stage);
  t.f_attn = f.f_attn;
  t.f_dispatch = f.f_dispatch;
  t.f_mlp = f.f_mlp;
  t.f_combine = f.f_combine;
  return pair(t, overlapped, forward_stage.comm->layers);
}

KindTicks staged_comm_ticks(const Op& op, const Costs& costs) {
  const Costs own = single_stage_costs(costs, op.chunk.stage);
  if (op.kind != OpKind::ForwardBackward) return comm_ticks(own).of(op);
  const Costs other = single_stage_costs(costs, op.backward_chunk.stage);
  return comm_pair_ticks(own, other,
                         pair_ticks(stage_ticks_of(stage_cost(costs, op.chunk.stage)),
                                    stage_ticks_of(stage_cost(costs, op.backward_chunk.stage))));
}

}  // namespace detail

namespace {

using detail::comm_to_ticks;
using detail::CommTick;

double units(CommTick ticks) { return static_cast<double>(ticks) / kTicksPerUnit; }

OpTiming to_timing(const detail::KindTicks& k) {
  OpTiming t;
  t.duration = units(k.duration);
  t.compute = units(k.compute);
  t.comm = units(k.comm);
  t.exposed = units(k.duration - k.compute);
  t.parts.reserve(k.parts.size());
  for (const detail::TickPart& p : k.parts)
    t.parts.push_back(OpPart{p.stream, p.part, p.pass, p.layer, units(p.start), units(p.end)});
  return t;
}

Status check_range(const std::string& path, const std::string& name, double v, double max) {
  if (!std::isfinite(v) || v < 0 || v > max)
    return make_error(Rule::RangeNumber, "/costs/comm" + path,
                      {{"field", "costs.comm." + name}, {"min", 0}, {"max", max}, {"got", v}});
  return Ok{};
}

Status check_sum(const std::string& path, const std::string& parts, CommTick sum, const char* cost,
                 double expected) {
  if (sum == comm_to_ticks(expected)) return Ok{};
  return make_error(Rule::CommSum, "/costs/comm" + path,
                    {{"parts", parts}, {"cost", cost}, {"expected", expected}, {"got", units(sum)}});
}

}  // namespace

const char* stream_name(Stream s) { return s == Stream::Compute ? "compute" : "comm"; }

const char* part_name(PartKind p) {
  switch (p) {
    case PartKind::Attn:
      return "attn";
    case PartKind::Dispatch:
      return "dispatch";
    case PartKind::Mlp:
      return "mlp";
    case PartKind::Combine:
      return "combine";
  }
  return "";
}

const char* pass_name(Pass p) {
  switch (p) {
    case Pass::Forward:
      return "F";
    case Pass::Backward:
      return "B";
    case Pass::Weight:
      return "W";
  }
  return "";
}

Status validate_comm(const Costs& c) {
  if (!c.comm) return Ok{};
  const CommCosts& m = *c.comm;
  if (m.layers < 1 || m.layers > kMaxCommLayers)
    return make_error(Rule::RangeInteger, "/costs/comm/layers",
                      {{"field", "costs.comm.layers"}, {"min", 1}, {"max", kMaxCommLayers}, {"got", m.layers}});
  if (!m.explicit_components) {
    // The all-to-all time of one chunk is bounded like a cost (config.h, kMaxCommLayers).
    const double max_ratio = kMaxCost / std::max(c.forward, c.backward);
    if (Status st = check_range("/ratio", "ratio", m.ratio, max_ratio); !st.ok()) return st;
    return check_range("/attnShare", "attnShare", m.attn_share, 1.0);
  }
  const ChunkComponents& x = m.components;
  const std::pair<const char*, double> fields[] = {{"forward/attn", x.forward_attn},
                                                   {"forward/dispatch", x.forward_dispatch},
                                                   {"forward/mlp", x.forward_mlp},
                                                   {"forward/combine", x.forward_combine},
                                                   {"backward/attn", x.backward_attn},
                                                   {"backward/attnWeight", x.backward_attn_weight},
                                                   {"backward/dispatch", x.backward_dispatch},
                                                   {"backward/mlp", x.backward_mlp},
                                                   {"backward/mlpWeight", x.backward_mlp_weight},
                                                   {"backward/combine", x.backward_combine}};
  for (const auto& [field, v] : fields) {
    std::string name = field;
    name[name.find('/')] = '.';
    if (Status st = check_range(std::string("/") + field, name, v, kMaxCost); !st.ok()) return st;
  }
  if (x.forward_dispatch + x.forward_combine > kMaxCost)
    return make_error(Rule::CommTransferMax, "/costs/comm/forward", {{"pass", "forward"}, {"max", kMaxCost}});
  if (x.backward_dispatch + x.backward_combine > kMaxCost)
    return make_error(Rule::CommTransferMax, "/costs/comm/backward", {{"pass", "backward"}, {"max", kMaxCost}});
  const CommTick f = comm_to_ticks(x.forward_attn) + comm_to_ticks(x.forward_mlp);
  const CommTick w = comm_to_ticks(x.backward_attn_weight) + comm_to_ticks(x.backward_mlp_weight);
  const CommTick b = comm_to_ticks(x.backward_attn) + comm_to_ticks(x.backward_mlp) + w;
  if (Status st = check_sum("/forward", "costs.comm.forward.attn + mlp", f, "forward", c.forward);
      !st.ok())
    return st;
  if (Status st = check_sum("/backward", "costs.comm.backward.attn + attnWeight + mlp + mlpWeight",
                            b, "backward", c.backward);
      !st.ok())
    return st;
  return check_sum("/backward", "costs.comm.backward.attnWeight + mlpWeight", w, "weight",
                   c.weight);
}

ChunkComponents resolve_components(const Costs& costs) {
  PIPESIM_CHECK(costs.comm.has_value(), "resolve_components needs a communication model");
  if (costs.comm->explicit_components) return costs.comm->components;
  // The derived components, read back from the tick layout of a lone F, B (layers summed).
  ChunkComponents x;
  const detail::CommTicks t = detail::comm_ticks(costs);
  for (const detail::TickPart& p : t.forward.parts) {
    const double d = units(p.end - p.start);
    (p.part == PartKind::Attn       ? x.forward_attn
     : p.part == PartKind::Mlp      ? x.forward_mlp
     : p.part == PartKind::Dispatch ? x.forward_dispatch
                                    : x.forward_combine) += d;
  }
  for (const detail::TickPart& p : t.backward.parts) {
    const double d = units(p.end - p.start);
    const bool w = p.pass == Pass::Weight;
    (p.part == PartKind::Attn       ? (w ? x.backward_attn_weight : x.backward_attn)
     : p.part == PartKind::Mlp      ? (w ? x.backward_mlp_weight : x.backward_mlp)
     : p.part == PartKind::Dispatch ? x.backward_dispatch
                                    : x.backward_combine) += d;
  }
  return x;
}

OpTiming op_timing(const Op& op, const Costs& costs) {
  if (!costs.stages.empty()) {
    PIPESIM_CHECK(op.chunk.stage >= 0 && static_cast<std::size_t>(op.chunk.stage) < costs.stages.size() &&
                      (op.kind != OpKind::ForwardBackward ||
                       static_cast<std::size_t>(op.backward_chunk.stage) < costs.stages.size()),
                  "an op's stage has a stage cost");
    if (costs.comm) return to_timing(detail::staged_comm_ticks(op, costs));
    OpTiming t;
    t.duration = op.kind == OpKind::ForwardBackward
                     ? stage_pair_cost(stage_cost(costs, op.chunk.stage),
                                       stage_cost(costs, op.backward_chunk.stage))
                     : op_timing(op, single_stage_costs(costs, op.chunk.stage)).duration;
    t.compute = t.duration;
    return t;
  }
  if (costs.comm) return to_timing(detail::comm_ticks(costs).of(op));
  OpTiming t;
  switch (op.kind) {
    case OpKind::Forward:
      t.duration = costs.forward;
      break;
    case OpKind::Backward:
      t.duration = op.zero_bubble
                       ? units(comm_to_ticks(costs.backward) - comm_to_ticks(costs.weight))
                       : costs.backward;
      break;
    case OpKind::Weight:
      t.duration = costs.weight;
      break;
    case OpKind::ForwardBackward:
      t.duration = costs.overlapped;
      break;
  }
  t.compute = t.duration;
  return t;
}

std::vector<OpPart> op_parts(const TimedOp& op, const Costs& costs) {
  std::vector<OpPart> parts = op_timing(op.op, costs).parts;
  for (OpPart& p : parts) {
    p.start += op.start;
    p.end += op.start;
  }
  return parts;
}

Costs effective_costs(const Costs& costs) {
  if (!costs.comm) return costs;
  const auto lone = [&](const Costs& c) {
    const detail::CommTicks t = detail::comm_ticks(c);
    return Costs{units(t.forward.duration), units(t.backward.duration), units(t.weight.duration),
                 units(t.pair.duration), c.p2p_latency};
  };
  if (costs.stages.empty()) return lone(costs);
  Costs base = costs;
  base.stages.clear();
  Costs out = lone(base);
  // Each stage's ops as they run, its pair being one of its own forward and backward.
  for (int s = 0; s < static_cast<int>(costs.stages.size()); ++s) {
    const Costs c = lone(single_stage_costs(costs, s));
    out.stages.push_back(StageCost{c.forward, c.backward, c.weight, c.overlapped});
  }
  return out;
}

}  // namespace pipesim
