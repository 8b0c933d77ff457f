// The simulator's costs from a trace (derive_costs() of trace_analysis.h). DeepSeek names the ten
// parts of an overlapped chunk pair with record_function ranges (deepseek-ai/profile-data
// train.json: attn(F), dispatch(F), mlp(F), combine(F) for the forward chunk; combine(B), mlp(B),
// mlp(W), dispatch(B), attn(B), attn(W) for the backward one, DeepSeek-V3 report Fig. 4's labels).
// A part's time is the GPU busy time of the events launched inside it: the union of their
// intervals over every stream, so a part whose kernels run on two streams at once counts its
// wall time once. Parts are summed per chunk pair, a pair being one device within one
// ProfilerStep (or the whole trace, without ProfilerStep annotations), and the pairs averaged.
#include <algorithm>
#include <array>
#include <map>
#include <tuple>

#include "pipesim/comm.h"
#include "pipesim/rules.h"
#include "trace_analysis.h"

namespace pipesim::detail {
namespace {

// In ChunkComponents order (pipesim/config.h): the comm model's explicit form, field by field.
constexpr std::array<const char*, 10> kPartNames = {"attn(F)", "dispatch(F)", "mlp(F)",      "combine(F)",
                                                    "attn(B)", "attn(W)",     "dispatch(B)", "mlp(B)",
                                                    "mlp(W)",  "combine(B)"};
enum Part { kFAttn, kFDispatch, kFMlp, kFCombine, kBAttn, kBAttnW, kBDispatch, kBMlp, kBMlpW, kBCombine, kParts };

double ms(TraceNs ns) { return trace_ms(static_cast<double>(ns)); }

Derived derived(double value, PlanText said) {
  std::string english = said.english();
  return Derived{value, std::move(english), std::move(said)};
}
Derived derived_ms(TraceNs ns, PlanText said) { return derived(ms(ns), std::move(said)); }

// A pair: one device within one profiler step.
using PairKey = std::pair<std::int64_t, std::uint32_t>;  // (device, ProfilerStep occurrence or kTraceNone)

struct PairTotals {
  std::array<double, kParts> busy{};  // exact to 2^53 ns (104 days); a sum of many spans cannot overflow
  std::array<std::int64_t, kParts> count{};
  TraceNs first = 0, last = 0;
  bool seen = false;
};

class CostDeriver {
 public:
  CostDeriver(const TraceRecords& records, const Attribution& att) : records_(records), att_(att) {}

  std::optional<TraceCosts> run(std::optional<Error>& missing) {
    collect();
    if (pairs_.empty()) {
      missing = make_error(Rule::ProfileNoParts, "");
      return std::nullopt;
    }
    for (const auto& [key, t] : pairs_)
      for (int p = 0; p < kParts; ++p)
        if (t.count[p] == 0) {
          missing = key.second == kTraceNone
                        ? make_error(Rule::ProfilePartMissingOutsideSteps, "",
                                     {{"part", kPartNames[p]}, {"device", key.first}})
                        : make_error(Rule::ProfilePartMissing, "",
                                     {{"part", kPartNames[p]}, {"device", key.first}, {"step", step_name(key)}});
          return std::nullopt;
        }
    const std::int64_t layers = pairs_.begin()->second.count[kFAttn];
    for (const auto& [key, t] : pairs_)
      for (int p = 0; p < kParts; ++p)
        if (t.count[p] != layers) {
          missing = key.second == kTraceNone
                        ? make_error(Rule::ProfilePartCountOutsideSteps, "",
                                     {{"part", kPartNames[p]}, {"device", key.first}, {"count", t.count[p]},
                                      {"layers", layers}})
                        : make_error(Rule::ProfilePartCount, "",
                                     {{"part", kPartNames[p]}, {"device", key.first}, {"step", step_name(key)},
                                      {"count", t.count[p]}, {"layers", layers}});
          return std::nullopt;
        }
    if (layers > kMaxCommLayers) {
      missing = make_error(Rule::ProfileTooManyLayers, "", {{"count", layers}, {"max", kMaxCommLayers}});
      return std::nullopt;
    }
    return costs(layers, missing);
  }

 private:
  /// The ProfilerStep annotation of a pair that has one.
  const std::string& step_name(const PairKey& key) const {
    return records_.names[att_.occurrences[key.second].name];
  }

  // Per GPU event launched inside a part: its pair, part occurrence and interval.
  void collect() {
    std::vector<int> part_of(records_.names.size(), -1);
    std::vector<bool> is_step(records_.names.size(), false);
    for (std::size_t n = 0; n < records_.names.size(); ++n) {
      for (int p = 0; p < kParts; ++p)
        if (records_.names[n] == kPartNames[p]) part_of[n] = p;
      is_step[n] = records_.names[n].rfind("ProfilerStep#", 0) == 0;
    }
    struct Piece {
      PairKey pair;
      std::uint32_t occurrence;
      TraceNs start, end;
    };
    std::vector<Piece> pieces;
    for (std::size_t i = 0; i < records_.gpu.size(); ++i) {
      std::uint32_t part = kTraceNone, step = kTraceNone;
      for (std::uint32_t o = att_.owner[i]; o != kTraceNone; o = att_.parent[o]) {
        const std::uint32_t name = att_.occurrences[o].name;
        if (part == kTraceNone && part_of[name] >= 0) part = o;
        if (is_step[name]) step = o;
      }
      if (part == kTraceNone) continue;
      const GpuRecord& g = records_.gpu[i];
      pieces.push_back(Piece{{g.device, step}, part, g.start, g.end});
    }
    std::sort(pieces.begin(), pieces.end(), [](const Piece& a, const Piece& b) {
      return std::tie(a.pair, a.occurrence, a.start, a.end) < std::tie(b.pair, b.occurrence, b.start, b.end);
    });
    for (std::size_t k = 0; k < pieces.size();) {
      const PairKey key = pieces[k].pair;
      PairTotals& t = pairs_[key];
      const std::uint32_t occurrence = pieces[k].occurrence;
      const int part = part_of[att_.occurrences[occurrence].name];
      ++t.count[part];
      TraceNs open_start = pieces[k].start, open_end = pieces[k].end;
      if (!t.seen) t.first = open_start, t.last = open_end, t.seen = true;
      for (; k < pieces.size() && pieces[k].pair == key && pieces[k].occurrence == occurrence; ++k) {
        t.first = std::min(t.first, pieces[k].start);
        t.last = std::max(t.last, pieces[k].end);
        if (pieces[k].start <= open_end) {
          open_end = std::max(open_end, pieces[k].end);
        } else {
          t.busy[part] += static_cast<double>(open_end - open_start);
          open_start = pieces[k].start;
          open_end = pieces[k].end;
        }
      }
      t.busy[part] += static_cast<double>(open_end - open_start);
    }
  }

  // A part's mean over the pairs in ns (rounded to the nanosecond, the simulator's resolution in ms
  // when it is at most the simulator's largest cost).
  double mean_part(int p) const {
    double sum = 0;
    for (const auto& entry : pairs_) sum += entry.second.busy[p];
    return sum / static_cast<double>(pairs_.size());
  }

  std::optional<TraceCosts> costs(std::int64_t layers, std::optional<Error>& missing) const {
    TraceCosts c;
    const bool mean = pairs_.size() > 1;
    const PairKey& first = pairs_.begin()->first;
    c.pairs = derived(static_cast<double>(pairs_.size()),
                      first.second == kTraceNone
                          ? plan_text(PlanTextId::TracePairsOutsideSteps, {{"device", first.first}})
                          : plan_text(PlanTextId::TracePairs, {{"device", first.first}, {"step", step_name(first)}}));
    c.layers = derived(static_cast<double>(layers), plan_text(PlanTextId::TraceLayers, {{"n", layers}}));
    std::array<TraceNs, kParts> ns{};
    for (int p = 0; p < kParts; ++p) {
      if (mean_part(p) > kMaxCost * 1e6) {  // kMaxCost ms in ns; also keeps llround and the sums in range
        missing = make_error(Rule::ProfilePartTooLong, "",
                             {{"part", kPartNames[p]}, {"ms", trace_ms(mean_part(p))}, {"max", kMaxCost}});
        return std::nullopt;
      }
      ns[p] = static_cast<TraceNs>(std::llround(mean_part(p)));
      c.components.push_back(derived_ms(
          ns[p], plan_text(mean ? PlanTextId::TraceComponentMean : PlanTextId::TraceComponent, {{"part", kPartNames[p]}})));
    }
    const TraceNs f = ns[kFAttn] + ns[kFMlp], w = ns[kBAttnW] + ns[kBMlpW];
    const TraceNs b = ns[kBAttn] + ns[kBMlp] + w;
    const TraceNs fwd_comm = ns[kFDispatch] + ns[kFCombine], bwd_comm = ns[kBDispatch] + ns[kBCombine];
    c.forward = derived_ms(f, plan_text(PlanTextId::TraceForward, {{"attn", ms(ns[kFAttn])}, {"mlp", ms(ns[kFMlp])}}));
    c.backward = derived_ms(b, plan_text(PlanTextId::TraceBackward, {{"attn", ms(ns[kBAttn])},
                                                                      {"attnWeight", ms(ns[kBAttnW])},
                                                                      {"mlp", ms(ns[kBMlp])},
                                                                      {"mlpWeight", ms(ns[kBMlpW])}}));
    c.weight = derived_ms(
        w, plan_text(PlanTextId::TraceWeight, {{"attnWeight", ms(ns[kBAttnW])}, {"mlpWeight", ms(ns[kBMlpW])}}));
    c.overlapped = derived_ms(f + b, plan_text(PlanTextId::TraceOverlapped, {{"forward", ms(f)}, {"backward", ms(b)}}));
    if (f > 0) {
      c.comm_ratio = derived(static_cast<double>(fwd_comm) / static_cast<double>(f),
                             plan_text(PlanTextId::TraceCommRatio,
                                       {{"comm", ms(fwd_comm)}, {"forward", ms(f)}, {"backwardComm", ms(bwd_comm)}}));
      c.attn_share = derived(static_cast<double>(ns[kFAttn]) / static_cast<double>(f),
                             plan_text(PlanTextId::TraceAttnShare, {{"attn", ms(ns[kFAttn])}, {"forward", ms(f)}}));
    }
    c.forward_alone = derived_ms(f + fwd_comm, plan_text(PlanTextId::TraceForwardAlone));
    c.backward_alone = derived_ms(b + bwd_comm, plan_text(PlanTextId::TraceBackwardAlone));
    double span_sum = 0;
    for (const auto& entry : pairs_) span_sum += static_cast<double>(entry.second.last - entry.second.first);
    if (span_sum / static_cast<double>(pairs_.size()) > kMaxCost * 1e6) {
      missing = make_error(Rule::ProfilePairTooLong, "",
                           {{"ms", trace_ms(span_sum / static_cast<double>(pairs_.size()))}, {"max", kMaxCost}});
      return std::nullopt;
    }
    const auto span = static_cast<TraceNs>(std::llround(span_sum / static_cast<double>(pairs_.size())));
    c.pair_ms = derived_ms(span, plan_text(mean ? PlanTextId::TracePairMsMean : PlanTextId::TracePairMs));
    const auto& [first_key, first_totals] = *pairs_.begin();
    TraceNs origin = records_.gpu.front().start;
    for (const GpuRecord& g : records_.gpu) origin = std::min(origin, g.start);
    c.first_pair.device = first_key.first;
    if (first_key.second != kTraceNone) c.first_pair.step = records_.names[att_.occurrences[first_key.second].name];
    c.first_pair.start_ms = trace_ms(static_cast<double>(first_totals.first - origin));
    c.first_pair.end_ms = trace_ms(static_cast<double>(first_totals.last - origin));

    Costs& costs = c.costs;
    costs.forward = trace_ms(static_cast<double>(f));
    costs.backward = trace_ms(static_cast<double>(b));
    costs.weight = trace_ms(static_cast<double>(w));
    costs.overlapped = trace_ms(static_cast<double>(f + b));
    CommCosts comm;
    comm.explicit_components = true;
    comm.layers = static_cast<int>(layers);
    double* fields[kParts] = {&comm.components.forward_attn,  &comm.components.forward_dispatch,
                              &comm.components.forward_mlp,   &comm.components.forward_combine,
                              &comm.components.backward_attn, &comm.components.backward_attn_weight,
                              &comm.components.backward_dispatch, &comm.components.backward_mlp,
                              &comm.components.backward_mlp_weight, &comm.components.backward_combine};
    for (int p = 0; p < kParts; ++p) *fields[p] = trace_ms(static_cast<double>(ns[p]));
    costs.comm = comm;
    c.plain_costs = Costs(c.forward_alone.value, c.backward_alone.value, c.weight.value, c.pair_ms.value);
    for (const Costs* check : {&c.costs, &c.plain_costs})
      if (Status st = validate_costs(*check); !st.ok()) {
        missing = invalid_costs(st.error());
        return std::nullopt;
      }
    const auto pair = analyse_pair(costs);
    if (!pair.ok()) {
      missing = invalid_costs(pair.error());
      return std::nullopt;
    }
    c.model_pair_ms = derived(pair.value().timing.duration, plan_text(PlanTextId::TraceModelPair, {{"layers", layers}}));
    return c;
  }

  /// profile.invalid_costs quoting `e`, which it carries as its cause for a client to say.
  static Error invalid_costs(const Error& e) {
    Error wrapped = make_error(Rule::ProfileInvalidCosts, "", {{"detail", e.message}});
    wrapped.cause = ErrorCause{e.rule, e.params, e.path};
    return wrapped;
  }

  const TraceRecords& records_;
  const Attribution& att_;
  std::map<PairKey, PairTotals> pairs_;
};

}  // namespace

std::optional<TraceCosts> derive_costs(const TraceRecords& records, const Attribution& attribution,
                                       std::optional<Error>& missing) {
  return CostDeriver(records, attribution).run(missing);
}

}  // namespace pipesim::detail
