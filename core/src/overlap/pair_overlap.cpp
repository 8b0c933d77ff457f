// One overlapped forward-backward pair on its own, for lesson exercise 3: the parts on both
// streams and, for every all-to-all, which computation of the other chunk runs underneath it.
#include <algorithm>

#include "comm_json.h"
#include "comm_ticks.h"
#include "pipesim/rules.h"

namespace pipesim {

Result<PairOverlap> analyse_pair(const Costs& costs, PartOrder order) {
  if (!costs.comm)
    return make_error(Rule::CommRequired, "/costs/comm");
  if (Status st = validate_costs(costs); !st.ok()) return st.error();
  const detail::CommTicks ticks = detail::comm_ticks(costs, order);
  const detail::KindTicks& pair = ticks.pair;
  PairOverlap out;
  out.order = order;
  out.timing = op_timing(Op{OpKind::ForwardBackward, false, {}, {}}, costs, order);
  out.hidden = detail::comm_units(pair.comm - (pair.duration - pair.compute));
  out.sequential = detail::comm_units(ticks.forward.duration + ticks.backward.duration);
  // Compute parts share one stream, so they never overlap each other: the time a comm part is
  // covered is the plain sum of its overlaps.
  for (std::size_t i = 0; i < pair.parts.size(); ++i) {
    const detail::TickPart& c = pair.parts[i];
    if (c.stream != Stream::Comm) continue;
    PartHiding h;
    h.comm_part = i;
    detail::CommTick covered = 0;
    for (std::size_t j = 0; j < pair.parts.size(); ++j) {
      const detail::TickPart& k = pair.parts[j];
      if (k.stream != Stream::Compute) continue;
      const detail::CommTick overlap = std::min(c.end, k.end) - std::max(c.start, k.start);
      if (overlap <= 0) continue;
      covered += overlap;
      h.hidden_by.push_back(PartHiding::By{j, detail::comm_units(overlap)});
    }
    std::sort(h.hidden_by.begin(), h.hidden_by.end(),
              [&](const PartHiding::By& a, const PartHiding::By& b) {
                return pair.parts[a.compute_part].start < pair.parts[b.compute_part].start;
              });
    h.exposed = detail::comm_units(c.end - c.start - covered);
    out.hiding.push_back(std::move(h));
  }
  return out;
}

Json pair_overlap_to_json(const PairOverlap& p, const Costs& costs) {
  Json parts = Json::array();
  for (const OpPart& part : p.timing.parts) parts.push_back(detail::op_part_to_json(part));
  auto label = [&](std::size_t i) { return parts.at(i).at("label"); };
  Json hiding = Json::array();
  for (const PartHiding& h : p.hiding) {
    Json by = Json::array();
    for (const PartHiding::By& b : h.hidden_by)
      by.push_back(
          Json{{"part", b.compute_part}, {"label", label(b.compute_part)}, {"overlap", b.overlap}});
    hiding.push_back(Json{{"part", h.comm_part},
                          {"label", label(h.comm_part)},
                          {"layer", p.timing.parts.at(h.comm_part).layer},
                          {"hiddenBy", std::move(by)},
                          {"exposed", h.exposed}});
  }
  return Json{{"costs", costs_to_json(costs)},   {"order", part_order_name(p.order)},
              {"duration", p.timing.duration}, {"compute", p.timing.compute},
              {"comm", p.timing.comm},
              {"exposed", p.timing.exposed},   {"hidden", p.hidden},
              {"sequential", p.sequential},    {"parts", std::move(parts)},
              {"hiding", std::move(hiding)}};
}

}  // namespace pipesim
