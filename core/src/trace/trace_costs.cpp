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

#include "../format.h"
#include "pipesim/comm.h"
#include "trace_analysis.h"

namespace pipesim::detail {
namespace {

// In ChunkComponents order (pipesim/config.h): the comm model's explicit form, field by field.
constexpr std::array<const char*, 10> kPartNames = {"attn(F)", "dispatch(F)", "mlp(F)",      "combine(F)",
                                                    "attn(B)", "attn(W)",     "dispatch(B)", "mlp(B)",
                                                    "mlp(W)",  "combine(B)"};
enum Part { kFAttn, kFDispatch, kFMlp, kFCombine, kBAttn, kBAttnW, kBDispatch, kBMlp, kBMlpW, kBCombine, kParts };

std::string ms_text(TraceNs ns) { return format_number(trace_ms(static_cast<double>(ns))) + " ms"; }

Derived derived_ms(TraceNs ns, std::string derivation) { return Derived{trace_ms(static_cast<double>(ns)), std::move(derivation)}; }

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

  std::optional<TraceCosts> run(std::string& missing) {
    collect();
    if (pairs_.empty()) {
      missing = "no GPU work was launched inside annotations named as DeepSeek's parts (attn(F), dispatch(F), "
                "mlp(F), combine(F), attn(B), attn(W), dispatch(B), mlp(B), mlp(W), combine(B))";
      return std::nullopt;
    }
    for (const auto& [key, t] : pairs_)
      for (int p = 0; p < kParts; ++p)
        if (t.count[p] == 0) {
          missing = std::string(kPartNames[p]) + " launched no GPU work in " + pair_name(key) +
                    ", which other parts did: the costs need all ten parts of the pair";
          return std::nullopt;
        }
    const std::int64_t layers = pairs_.begin()->second.count[kFAttn];
    for (const auto& [key, t] : pairs_)
      for (int p = 0; p < kParts; ++p)
        if (t.count[p] != layers) {
          missing = std::string(kPartNames[p]) + " launched GPU work " + std::to_string(t.count[p]) + " times in " +
                    pair_name(key) + ", attn(F) " + std::to_string(layers) + " times in " +
                    pair_name(pairs_.begin()->first) + ": every part must occur once per layer of every pair";
          return std::nullopt;
        }
    if (layers > kMaxCommLayers) {
      missing = "each part occurs " + std::to_string(layers) + " times per pair, more than the " +
                std::to_string(kMaxCommLayers) + " layers a chunk may have (costs.comm.layers)";
      return std::nullopt;
    }
    return costs(layers, missing);
  }

 private:
  std::string pair_name(const PairKey& key) const {
    std::string name = "device " + std::to_string(key.first);
    if (key.second != kTraceNone) name += ", " + records_.names[att_.occurrences[key.second].name];
    return name;
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

  std::optional<TraceCosts> costs(std::int64_t layers, std::string& missing) const {
    TraceCosts c;
    const std::string per_pair = pairs_.size() == 1 ? "" : ", mean of " + std::to_string(pairs_.size()) + " pairs";
    std::string listed;
    int shown = 0;
    for (const auto& entry : pairs_)
      if (shown++ < 3) listed += (listed.empty() ? "" : "; ") + pair_name(entry.first);
    if (pairs_.size() > 3) listed += "; ...";
    c.pairs = Derived{static_cast<double>(pairs_.size()),
                      "one chunk pair per device and ProfilerStep whose part annotations launched GPU work (" +
                          listed + ")"};
    c.layers = Derived{static_cast<double>(layers),
                       "each of the ten parts launched GPU work " + std::to_string(layers) + " times per pair"};
    std::array<TraceNs, kParts> ns{};
    for (int p = 0; p < kParts; ++p) {
      if (mean_part(p) > kMaxCost * 1e6) {  // kMaxCost ms in ns; also keeps llround and the sums in range
        missing = std::string(kPartNames[p]) + " took " + format_number(trace_ms(mean_part(p))) +
                  " ms per pair, more than the simulator's largest cost (" + format_number(kMaxCost) + ")";
        return std::nullopt;
      }
      ns[p] = static_cast<TraceNs>(std::llround(mean_part(p)));
      c.components.push_back(derived_ms(ns[p], std::string(kPartNames[p]) +
                                                   ": GPU busy time of the kernels launched inside it (union over "
                                                   "streams), summed over its " + std::to_string(layers) +
                                                   " layers" + per_pair));
    }
    const auto name = [](int p) { return std::string(kPartNames[p]); };
    const auto sum_text = [&](std::initializer_list<int> parts) {
      std::string names, values;
      for (int p : parts) {
        names += (names.empty() ? "" : " + ") + name(p);
        values += (values.empty() ? "" : " + ") + ms_text(ns[p]);
      }
      return names + " = " + values;
    };
    const TraceNs f = ns[kFAttn] + ns[kFMlp], w = ns[kBAttnW] + ns[kBMlpW];
    const TraceNs b = ns[kBAttn] + ns[kBMlp] + w;
    const TraceNs fwd_comm = ns[kFDispatch] + ns[kFCombine], bwd_comm = ns[kBDispatch] + ns[kBCombine];
    c.forward = derived_ms(f, sum_text({kFAttn, kFMlp}));
    c.backward = derived_ms(b, sum_text({kBAttn, kBAttnW, kBMlp, kBMlpW}));
    c.weight = derived_ms(w, sum_text({kBAttnW, kBMlpW}));
    c.overlapped = derived_ms(f + b, "forward + backward = " + ms_text(f) + " + " + ms_text(b) +
                                         ": the pair's computation, measured inside the pair; the communication "
                                         "model adds what its all-to-alls expose (modelPairMs)");
    if (f > 0) {
      c.comm_ratio = Derived{static_cast<double>(fwd_comm) / static_cast<double>(f),
                             "(dispatch(F) + combine(F)) / forward = " + ms_text(fwd_comm) + " / " + ms_text(f) +
                                 " (the ratio form's all-to-all time per unit of forward; the backward's, " +
                                 ms_text(bwd_comm) + ", is in the explicit components)"};
      c.attn_share = Derived{static_cast<double>(ns[kFAttn]) / static_cast<double>(f),
                             "attn(F) / forward = " + ms_text(ns[kFAttn]) + " / " + ms_text(f)};
    }
    c.forward_alone = derived_ms(f + fwd_comm, "forward + dispatch(F) + combine(F): a lone F waits for its own "
                                               "all-to-alls (pipesim/comm.h)");
    c.backward_alone = derived_ms(b + bwd_comm, "backward + dispatch(B) + combine(B): a lone full B waits for its "
                                                "own all-to-alls");
    double span_sum = 0;
    for (const auto& entry : pairs_) span_sum += static_cast<double>(entry.second.last - entry.second.first);
    if (span_sum / static_cast<double>(pairs_.size()) > kMaxCost * 1e6) {
      missing = "the pair took " + format_number(trace_ms(span_sum / static_cast<double>(pairs_.size()))) +
                " ms, more than the simulator's largest cost (" + format_number(kMaxCost) + ")";
      return std::nullopt;
    }
    const auto span = static_cast<TraceNs>(std::llround(span_sum / static_cast<double>(pairs_.size())));
    c.pair_ms = derived_ms(span, "from the first part kernel's start to the last one's end" + per_pair);
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
        missing = "the measured costs are not valid simulator costs: " + st.error().message;
        return std::nullopt;
      }
    const auto pair = analyse_pair(costs);
    if (!pair.ok()) {
      missing = "the measured costs are not valid simulator costs: " + pair.error().message;
      return std::nullopt;
    }
    c.model_pair_ms = Derived{pair.value().timing.duration,
                              "the communication model's pair on these costs (pipesim overlap: DeepSeek-V3 Fig. 4 "
                              "order, " + std::to_string(layers) + " layers); the measured pair took pairMs"};
    return c;
  }

  const TraceRecords& records_;
  const Attribution& att_;
  std::map<PairKey, PairTotals> pairs_;
};

}  // namespace

std::optional<TraceCosts> derive_costs(const TraceRecords& records, const Attribution& attribution,
                                       std::string& missing) {
  return CostDeriver(records, attribution).run(missing);
}

}  // namespace pipesim::detail
