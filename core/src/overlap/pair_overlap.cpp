// What hides each all-to-all: for one op kind's parts, the computation running under every
// communication part; and one overlapped forward-backward pair on its own (lesson exercise 3,
// `pipesim overlap`), whose all-to-alls run under the other chunk's computation.
#include <algorithm>

#include "comm_json.h"
#include "comm_ticks.h"
#include "pipesim/rules.h"

namespace pipesim {

namespace detail {

std::vector<PartHiding> part_hiding(const KindTicks& kind) {
  std::vector<PartHiding> out;
  // Compute parts share one stream, so they never overlap each other: the time a comm part is
  // covered is the plain sum of its overlaps.
  for (std::size_t i = 0; i < kind.parts.size(); ++i) {
    const TickPart& c = kind.parts[i];
    if (c.stream != Stream::Comm) continue;
    PartHiding h;
    h.comm_part = i;
    CommTick covered = 0;
    for (std::size_t j = 0; j < kind.parts.size(); ++j) {
      const TickPart& k = kind.parts[j];
      if (k.stream != Stream::Compute) continue;
      const CommTick overlap = std::min(c.end, k.end) - std::max(c.start, k.start);
      if (overlap <= 0) continue;
      covered += overlap;
      h.hidden_by.push_back(PartHiding::By{j, comm_units(overlap)});
    }
    std::sort(h.hidden_by.begin(), h.hidden_by.end(),
              [&](const PartHiding::By& a, const PartHiding::By& b) {
                return kind.parts[a.compute_part].start < kind.parts[b.compute_part].start;
              });
    h.exposed = comm_units(c.end - c.start - covered);
    out.push_back(std::move(h));
  }
  return out;
}

}  // namespace detail

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
  out.hiding = detail::part_hiding(pair);
  return out;
}

Json pair_overlap_to_json(const PairOverlap& p, const Costs& costs) {
  Json parts = Json::array();
  for (const OpPart& part : p.timing.parts) parts.push_back(detail::op_part_to_json(part));
  return Json{{"costs", costs_to_json(costs)},   {"order", part_order_name(p.order)},
              {"duration", p.timing.duration}, {"compute", p.timing.compute},
              {"comm", p.timing.comm},         {"exposed", p.timing.exposed},
              {"hidden", p.hidden},            {"sequential", p.sequential},
              {"parts", std::move(parts)},     {"hiding", detail::hiding_to_json(p.hiding, p.timing.parts)}};
}

}  // namespace pipesim
