// Where each part of each op kind runs on a rank's two streams, in the engine's integer ticks
// (comm_ticks.h). A model whose communication is zero reproduces the plain cost model tick for
// tick, since every compute part is a share of F, B, W or F&B.
//
// Layout rule: parts are listed in issue order; each starts when its stream is free and its
// inputs are done (a stream runs its parts in list order, like a CUDA stream). The inputs are
// the data dependencies of one MoE layer (dispatch needs attention, the MLP needs dispatch,
// combine needs the MLP; backward runs combine -> MLP -> dispatch -> attention; a weight part
// follows the input part of its layer on the compute stream) plus what PartOrder says waits for
// the weight-gradient parts. A pair lists, one layer of each chunk per cycle:
//   ATTN(F) | COMBINE(B) | MLP(B) | DISPATCH(F) | MLP(W) | DISPATCH(B) | MLP(F) | COMBINE(F) |
//   ATTN(B) | ATTN(W)
// which is the issue order of Megatron-Core's TransformerLayerSchedulePlan.run
// (megatron/core/models/common/model_chunk_schedule_plan.py, its default
// ep_overlap_early_attn_memory_release = False) and the stream order of DeepSeek's profile.
// The next layer's ATTN(F) needs this COMBINE(F); the next COMBINE(B) needs this ATTN(B) (and
// ATTN(W) where the weight gradient is part of the node). In Megatron every node of a
// micro-batch waits for that micro-batch's CUDA event, which the node before it recorded
// (ScheduleNode.stream_acquire_context in megatron/core/pipeline_parallel/utils.py): that is the
// chain of data dependencies above. A delayed weight gradient (TransformerLayerNode.backward_dw
// in megatron/core/models/common/utils.py) runs on the compute stream without the event.
#include <algorithm>
#include <cmath>
#include <iterator>
#include <utility>

#include "../stage_ticks.h"
#include "comm_ticks.h"
#include "pipesim/stage_costs.h"

namespace pipesim::detail {
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
// zero-bubble backward leaves the weight parts to a later W. Only a delayed weight gradient
// (Megatron's --delay-wgrad-compute, run(None, b_layer) in TransformerLayerSchedulePlan.run)
// lets the layer's DISPATCH(B) start at the end of MLP(B) and the next layer's COMBINE(B) at
// the end of ATTN(B); otherwise every part waits for the one before it.
KindTicks lone_backward(const TickComponents& t, int layers, bool with_weights, PartOrder order) {
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
  if (!with_weights || order != PartOrder::MegatronDelayWgrad) return chain(std::move(s));
  // Six parts a layer: COMBINE(B) 0, MLP(B) 1, MLP(W) 2, DISPATCH(B) 3, ATTN(B) 4, ATTN(W) 5.
  for (int k = 0; k < layers; ++k) {
    const int base = 6 * k;
    auto at = [&](int offset) { return base + offset; };
    s[static_cast<std::size_t>(at(0))].dep1 = k > 0 ? at(-2) : -1;  // the last layer's ATTN(B)
    for (int i = 1; i < 6; ++i) s[static_cast<std::size_t>(at(i))].dep1 = at(i - 1);
    s[static_cast<std::size_t>(at(3))].dep1 = at(1);  // DISPATCH(B) needs MLP(B), not MLP(W)
  }
  return lay_out(s);
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

KindTicks pair(TickComponents t, Tick overlapped, int layers, PartOrder order) {
  scale_pair_compute(t, overlapped);
  // Megatron without a delayed weight gradient: MLP(W) and ATTN(W) belong to the backward nodes
  // of MLP(B) and ATTN(B), so what follows those nodes waits for them too.
  const bool fused_weights = order == PartOrder::Megatron;
  std::vector<PartSpec> s;
  for (int k = 0; k < layers; ++k) {
    const int base = 10 * k;
    const int prev = base - 10;  // the previous cycle, or none
    auto at = [&](int offset) { return base + offset; };
    s.push_back({kCompute, PartKind::Attn, Pass::Forward, k, layer_share(t.f_attn, layers, k),
                 k > 0 ? prev + 7 : -1});  // 0 after COMBINE(F) k-1
    s.push_back({kComm, PartKind::Combine, Pass::Backward, k, layer_share(t.b_combine, layers, k),
                 k > 0 ? prev + (fused_weights ? 9 : 8) : -1});  // 1 after ATTN(B) (ATTN(W)) k-1
    s.push_back(
        {kCompute, PartKind::Mlp, Pass::Backward, k, layer_share(t.b_mlp, layers, k), at(1)});
    s.push_back(
        {kComm, PartKind::Dispatch, Pass::Forward, k, layer_share(t.f_dispatch, layers, k), at(0)});
    s.push_back(
        {kCompute, PartKind::Mlp, Pass::Weight, k, layer_share(t.b_mlp_w, layers, k), at(2)});
    s.push_back({kComm, PartKind::Dispatch, Pass::Backward, k, layer_share(t.b_dispatch, layers, k),
                 at(fused_weights ? 4 : 2)});  // after MLP(B), or MLP(W) when fused
    s.push_back(
        {kCompute, PartKind::Mlp, Pass::Forward, k, layer_share(t.f_mlp, layers, k), at(3)});
    s.push_back(
        {kComm, PartKind::Combine, Pass::Forward, k, layer_share(t.f_combine, layers, k), at(6)});
    s.push_back(
        {kCompute, PartKind::Attn, Pass::Backward, k, layer_share(t.b_attn, layers, k), at(5)});
    s.push_back(
        {kCompute, PartKind::Attn, Pass::Weight, k, layer_share(t.b_attn_w, layers, k), at(8)});
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

CommTicks comm_ticks(const Costs& costs, PartOrder order) {
  PIPESIM_CHECK(costs.comm.has_value(), "comm_ticks needs a communication model");
  const TickComponents t = tick_components(costs);
  const int layers = costs.comm->layers;
  return CommTicks{lone_forward(t, layers), lone_backward(t, layers, true, order),
                   lone_backward(t, layers, false, order), lone_weight(t, layers),
                   pair(t, comm_to_ticks(costs.overlapped), layers, order)};
}

KindTicks comm_pair_ticks(const Costs& forward_stage, const Costs& backward_stage,
                          CommTick overlapped, PartOrder order) {
  PIPESIM_CHECK(forward_stage.comm.has_value(), "comm_pair_ticks needs a communication model");
  const TickComponents f = tick_components(forward_stage);
  TickComponents t = tick_components(backward_stage);
  t.f_attn = f.f_attn;
  t.f_dispatch = f.f_dispatch;
  t.f_mlp = f.f_mlp;
  t.f_combine = f.f_combine;
  return pair(t, overlapped, forward_stage.comm->layers, order);
}

KindTicks staged_comm_ticks(const Op& op, const Costs& costs, PartOrder order) {
  const Costs own = single_stage_costs(costs, op.chunk.stage);
  if (op.kind != OpKind::ForwardBackward) return comm_ticks(own, order).of(op);
  const Costs other = single_stage_costs(costs, op.backward_chunk.stage);
  return comm_pair_ticks(own, other,
                         pair_ticks(stage_ticks_of(stage_cost(costs, op.chunk.stage)),
                                    stage_ticks_of(stage_cost(costs, op.backward_chunk.stage))),
                         order);
}

}  // namespace pipesim::detail
