// The measurements of a trace (measure() of trace_analysis.h): each stream's busy time, each
// device's communication-computation overlap, each annotation's GPU time, and the order and spans
// of the innermost annotations. All in whole nanoseconds until written out.
//
// Overlap follows Holistic Trace Analysis (facebookresearch/HolisticTraceAnalysis,
// hta/analyzers/communication_analysis.py get_comm_comp_overlap): per device ("rank"), the
// computation kernels' intervals are merged into one union, the communication kernels' into
// another, and the overlap is the time in both over the time in the communication union. Kernels
// are typed one by one (hta/utils/utils.py get_kernel_type): our comm pattern for HTA's
// communication names, memcpy and memset neither, every other kernel computation.
#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

#include "trace_analysis.h"

namespace pipesim::detail {
namespace {

using Interval = std::pair<TraceNs, TraceNs>;

// Appends [start, end) to a union built in order of start: merged with the last interval when
// they overlap or touch (HTA's merge_kernel_intervals), else added.
void merge_into(std::vector<Interval>& merged, TraceNs start, TraceNs end) {
  if (!merged.empty() && start <= merged.back().second)
    merged.back().second = std::max(merged.back().second, end);
  else
    merged.emplace_back(start, end);
}

TraceNs total(const std::vector<Interval>& merged) {
  TraceNs sum = 0;
  for (const Interval& i : merged) sum += i.second - i.first;
  return sum;
}

// Time in both of two unions.
TraceNs intersection(const std::vector<Interval>& a, const std::vector<Interval>& b) {
  TraceNs both = 0;
  for (std::size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    both += std::max<TraceNs>(0, std::min(a[i].second, b[j].second) - std::max(a[i].first, b[j].first));
    if (a[i].second < b[j].second) ++i;
    else ++j;
  }
  return both;
}

class Measurer {
 public:
  Measurer(const TraceRecords& records, const Attribution& attribution, TraceReport& report)
      : gpu_(records.gpu), names_(records.names), att_(attribution), report_(report) {}

  void run() {
    streams();
    devices();
    annotations();
    innermost_spans();
  }

 private:
  // GPU event indices sorted by `key`.
  template <typename Key>
  std::vector<std::uint32_t> sorted_by(Key key) const {
    std::vector<std::uint32_t> order(gpu_.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::uint32_t>(i);
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return key(a) < key(b); });
    return order;
  }

  void streams() {
    const auto order = sorted_by([&](std::uint32_t i) {
      return std::make_tuple(gpu_[i].device, gpu_[i].stream, gpu_[i].start, gpu_[i].end, i);
    });
    stream_of_.assign(gpu_.size(), 0);
    for (std::size_t k = 0; k < order.size();) {
      const GpuRecord& first = gpu_[order[k]];
      TraceStream s;
      s.device = first.device;
      s.stream = first.stream;
      std::vector<Interval> busy;
      double kernel_ns = 0, comm_ns = 0;
      for (; k < order.size() && gpu_[order[k]].device == s.device && gpu_[order[k]].stream == s.stream; ++k) {
        const GpuRecord& g = gpu_[order[k]];
        stream_of_[order[k]] = static_cast<std::uint32_t>(report_.streams.size());
        merge_into(busy, g.start, g.end);
        if (g.kind == GpuKind::Memory) {
          ++s.memory_events;
          continue;
        }
        ++s.kernels;
        kernel_ns += static_cast<double>(g.end - g.start);
        if (g.kind == GpuKind::Comm) {
          ++s.comm_kernels;
          comm_ns += static_cast<double>(g.end - g.start);
        }
      }
      // Communication when most of its kernel time is (most of its kernels, if none lasted).
      s.kind = (kernel_ns > 0 ? 2 * comm_ns > kernel_ns : 2 * s.comm_kernels > s.kernels) ? StreamKind::Comm
                                                                                          : StreamKind::Compute;
      s.busy_ms = trace_ms(static_cast<double>(total(busy)));
      report_.streams.push_back(s);
    }
  }

  void devices() {
    const auto order = sorted_by([&](std::uint32_t i) { return std::make_tuple(gpu_[i].device, gpu_[i].start, gpu_[i].end, i); });
    double overlap_ns = 0, comm_ns = 0;
    for (std::size_t k = 0; k < order.size();) {
      TraceDevice d;
      d.device = gpu_[order[k]].device;
      std::vector<Interval> compute, comm;
      for (; k < order.size() && gpu_[order[k]].device == d.device; ++k) {
        const GpuRecord& g = gpu_[order[k]];
        if (g.kind != GpuKind::Memory) merge_into(g.kind == GpuKind::Comm ? comm : compute, g.start, g.end);
      }
      const TraceNs both = intersection(compute, comm), comm_total = total(comm);
      d.compute_ms = trace_ms(static_cast<double>(total(compute)));
      d.comm_ms = trace_ms(static_cast<double>(comm_total));
      d.overlap_ms = trace_ms(static_cast<double>(both));
      if (comm_total > 0) d.overlap = static_cast<double>(both) / static_cast<double>(comm_total);
      overlap_ns += static_cast<double>(both);
      comm_ns += static_cast<double>(comm_total);
      report_.devices.push_back(d);
    }
    if (comm_ns > 0) report_.overlap = overlap_ns / comm_ns;
  }

  // Per name: occurrences, and the GPU events launched inside any of them (nested ones too).
  void annotations() {
    std::vector<TraceAnnotation> by_name(names_.size());
    std::vector<std::pair<TraceNs, std::uint32_t>> first_seen(names_.size(), {0, kTraceNone});
    for (const AnnotationRecord& a : att_.occurrences) {
      TraceAnnotation& n = by_name[a.name];
      ++n.count;
      if (first_seen[a.name].second == kTraceNone || std::make_pair(a.start, a.event) < first_seen[a.name])
        first_seen[a.name] = {a.start, a.event};
    }
    std::map<std::pair<std::uint32_t, std::uint32_t>, AnnotationStream> per_stream;  // (name, stream)
    std::vector<std::uint32_t> chain_names;
    double unattributed_ns = 0;
    for (std::size_t i = 0; i < gpu_.size(); ++i) {
      const double ns = static_cast<double>(gpu_[i].end - gpu_[i].start);
      if (att_.owner[i] == kTraceNone) {
        ++report_.unattributed_events;
        unattributed_ns += ns;
        continue;
      }
      chain_names.clear();  // each name once, however often it nests in itself
      for (std::uint32_t o = att_.owner[i]; o != kTraceNone; o = att_.parent[o]) {
        const std::uint32_t name = att_.occurrences[o].name;
        if (std::find(chain_names.begin(), chain_names.end(), name) != chain_names.end()) continue;
        chain_names.push_back(name);
        ++by_name[name].kernels;
        by_name[name].gpu_ms += ns;  // nanoseconds until the end: sums of whole numbers stay exact
        AnnotationStream& s = per_stream[{name, stream_of_[i]}];
        ++s.kernels;
        s.gpu_ms += ns;
      }
    }
    report_.unattributed_ms = trace_ms(unattributed_ns);
    for (auto& [key, s] : per_stream) {
      s.gpu_ms = trace_ms(s.gpu_ms);
      s.device = report_.streams[key.second].device;
      s.stream = report_.streams[key.second].stream;
      by_name[key.first].streams.push_back(s);
    }
    std::vector<std::uint32_t> order;
    for (std::uint32_t n = 0; n < names_.size(); ++n)
      if (by_name[n].count > 0) order.push_back(n);
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return first_seen[a] < first_seen[b]; });
    report_.annotations_total = static_cast<std::int64_t>(order.size());
    if (order.size() > static_cast<std::size_t>(kMaxTraceListed)) order.resize(kMaxTraceListed);
    for (std::uint32_t n : order) {
      by_name[n].name = names_[n];
      by_name[n].gpu_ms = trace_ms(by_name[n].gpu_ms);
      report_.annotations.push_back(std::move(by_name[n]));
    }
  }

  // The innermost occurrences that launched GPU work, by their first GPU event, and where each
  // ran on every stream.
  void innermost_spans() {
    if (gpu_.empty()) return;
    TraceNs origin = gpu_[0].start;
    for (const GpuRecord& g : gpu_) origin = std::min(origin, g.start);
    report_.origin_us = static_cast<double>(origin) / 1e3;
    const auto order = sorted_by([&](std::uint32_t i) {
      return std::make_tuple(att_.owner[i], stream_of_[i], gpu_[i].start, gpu_[i].end, i);
    });
    struct Leaf {
      TraceNs first = 0;
      std::uint32_t occurrence = 0;
      std::vector<TraceSpan> spans;
    };
    std::vector<Leaf> leaves;
    for (std::size_t k = 0; k < order.size();) {
      const std::uint32_t o = att_.owner[order[k]];
      if (o == kTraceNone || att_.has_child[o]) {
        while (k < order.size() && att_.owner[order[k]] == o) ++k;
        continue;
      }
      Leaf leaf{gpu_[order[k]].start, o, {}};
      while (k < order.size() && att_.owner[order[k]] == o) {
        const std::uint32_t s = stream_of_[order[k]];
        std::vector<Interval> busy;
        TraceSpan span;
        span.name = names_[att_.occurrences[o].name];
        span.device = report_.streams[s].device;
        span.stream = report_.streams[s].stream;
        TraceNs end = gpu_[order[k]].end;
        span.start_ms = trace_ms(static_cast<double>(gpu_[order[k]].start - origin));
        for (; k < order.size() && att_.owner[order[k]] == o && stream_of_[order[k]] == s; ++k) {
          merge_into(busy, gpu_[order[k]].start, gpu_[order[k]].end);
          end = std::max(end, gpu_[order[k]].end);
          leaf.first = std::min(leaf.first, gpu_[order[k]].start);
        }
        span.end_ms = trace_ms(static_cast<double>(end - origin));
        span.busy_ms = trace_ms(static_cast<double>(total(busy)));
        leaf.spans.push_back(std::move(span));
      }
      leaves.push_back(std::move(leaf));
    }
    std::sort(leaves.begin(), leaves.end(), [&](const Leaf& a, const Leaf& b) {
      const AnnotationRecord &x = att_.occurrences[a.occurrence], &y = att_.occurrences[b.occurrence];
      return std::make_tuple(a.first, x.start, x.event) < std::make_tuple(b.first, y.start, y.event);
    });
    report_.order_total = static_cast<std::int64_t>(leaves.size());
    if (leaves.size() > static_cast<std::size_t>(kMaxTraceListed)) leaves.resize(kMaxTraceListed);
    for (Leaf& leaf : leaves) {
      report_.order.push_back(names_[att_.occurrences[leaf.occurrence].name]);
      for (TraceSpan& s : leaf.spans) report_.spans.push_back(std::move(s));
    }
  }

  const std::vector<GpuRecord>& gpu_;
  const std::vector<std::string>& names_;
  const Attribution& att_;
  TraceReport& report_;
  std::vector<std::uint32_t> stream_of_;  // per GPU event: its index in report_.streams
};

}  // namespace

void measure(const TraceRecords& records, const Attribution& attribution, TraceReport& report) {
  report.events = records.events;
  report.gpu_events = static_cast<std::int64_t>(records.gpu.size());
  report.launches = static_cast<std::int64_t>(records.launches.size());
  Measurer(records, attribution, report).run();
}

}  // namespace pipesim::detail
