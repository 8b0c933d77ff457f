// The compute-communication model's public face (pipesim/comm.h): names, validation of
// costs.comm, the part orders, and each op kind's timing in cost units, read off the tick layout
// of part_layout.cpp so engine, JSON and exercises can never disagree.
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

namespace {

using detail::comm_to_ticks;
using detail::CommTick;

OpTiming to_timing(const detail::KindTicks& k) {
  OpTiming t;
  t.duration = detail::comm_units(k.duration);
  t.compute = detail::comm_units(k.compute);
  t.comm = detail::comm_units(k.comm);
  t.exposed = detail::comm_units(k.duration - k.compute);
  t.parts.reserve(k.parts.size());
  for (const detail::TickPart& p : k.parts)
    t.parts.push_back(OpPart{p.stream, p.part, p.pass, p.layer, detail::comm_units(p.start), detail::comm_units(p.end)});
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
                    {{"parts", parts}, {"cost", cost}, {"expected", expected}, {"got", detail::comm_units(sum)}});
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

namespace {

constexpr std::pair<PartOrder, const char*> kPartOrders[] = {
    {PartOrder::DeepSeek, "deepseek"},
    {PartOrder::Megatron, "megatron"},
    {PartOrder::MegatronDelayWgrad, "megatron-delay-wgrad"}};

}  // namespace

const char* part_order_name(PartOrder order) {
  for (const auto& [o, name] : kPartOrders)
    if (o == order) return name;
  return "";
}

Result<PartOrder> part_order_from_name(const std::string& name, const std::string& field,
                                       const std::string& path) {
  std::string allowed;
  for (const auto& [o, known] : kPartOrders) {
    if (name == known) return o;
    allowed += (allowed.empty() ? "" : ", ") + std::string(known);
  }
  return make_error(Rule::FieldOneOf, path, {{"field", field}, {"allowed", allowed}, {"got", name}});
}

PartOrder part_order(const SimConfig& config) {
  if (!config.a2a_overlap) return PartOrder::DeepSeek;
  return config.delay_wgrad ? PartOrder::MegatronDelayWgrad : PartOrder::Megatron;
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
  const detail::CommTicks t = detail::comm_ticks(costs, PartOrder::DeepSeek);
  for (const detail::TickPart& p : t.forward.parts) {
    const double d = detail::comm_units(p.end - p.start);
    (p.part == PartKind::Attn       ? x.forward_attn
     : p.part == PartKind::Mlp      ? x.forward_mlp
     : p.part == PartKind::Dispatch ? x.forward_dispatch
                                    : x.forward_combine) += d;
  }
  for (const detail::TickPart& p : t.backward.parts) {
    const double d = detail::comm_units(p.end - p.start);
    const bool w = p.pass == Pass::Weight;
    (p.part == PartKind::Attn       ? (w ? x.backward_attn_weight : x.backward_attn)
     : p.part == PartKind::Mlp      ? (w ? x.backward_mlp_weight : x.backward_mlp)
     : p.part == PartKind::Dispatch ? x.backward_dispatch
                                    : x.backward_combine) += d;
  }
  return x;
}

OpTiming op_timing(const Op& op, const Costs& costs, PartOrder order) {
  if (!costs.stages.empty()) {
    PIPESIM_CHECK(op.chunk.stage >= 0 && static_cast<std::size_t>(op.chunk.stage) < costs.stages.size() &&
                      (op.kind != OpKind::ForwardBackward ||
                       static_cast<std::size_t>(op.backward_chunk.stage) < costs.stages.size()),
                  "an op's stage has a stage cost");
    if (costs.comm) return to_timing(detail::staged_comm_ticks(op, costs, order));
    OpTiming t;
    t.duration = op.kind == OpKind::ForwardBackward
                     ? stage_pair_cost(stage_cost(costs, op.chunk.stage),
                                       stage_cost(costs, op.backward_chunk.stage))
                     : op_timing(op, single_stage_costs(costs, op.chunk.stage), order).duration;
    t.compute = t.duration;
    return t;
  }
  if (costs.comm) return to_timing(detail::comm_ticks(costs, order).of(op));
  OpTiming t;
  switch (op.kind) {
    case OpKind::Forward:
      t.duration = costs.forward;
      break;
    case OpKind::Backward:
      t.duration = op.zero_bubble
                       ? detail::comm_units(comm_to_ticks(costs.backward) - comm_to_ticks(costs.weight))
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

std::vector<OpPart> op_parts(const TimedOp& op, const Costs& costs, PartOrder order) {
  std::vector<OpPart> parts = op_timing(op.op, costs, order).parts;
  for (OpPart& p : parts) {
    p.start += op.start;
    p.end += op.start;
  }
  return parts;
}

Costs effective_costs(const Costs& costs, PartOrder order) {
  if (!costs.comm) return costs;
  const auto lone = [&](const Costs& c) {
    const detail::CommTicks t = detail::comm_ticks(c, order);
    return Costs{detail::comm_units(t.forward.duration), detail::comm_units(t.backward.duration),
                 detail::comm_units(t.weight.duration), detail::comm_units(t.pair.duration), c.p2p_latency};
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
