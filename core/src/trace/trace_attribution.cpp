// Which annotation launched each GPU event (attribute() of trace_analysis.h). A GPU event's launch
// is the host event with its args.correlation (Kineto writes the CUPTI correlation id on both the
// cudaLaunchKernel-like runtime event and the kernel), or else where its ac2g flow starts (the
// "f" end at the kernel's pid, tid and ts, the "s" end at the launch). The launch's thread and
// time then select the innermost annotation around it on that thread; a thread with none around
// it (PyTorch's autograd engine launches backward kernels from its own thread, while the
// annotation is on the thread that called backward()) defers to its process's most annotated
// thread. An id that two launches (or two flow starts) share selects nothing: such GPU events
// stay unattributed rather than guessed.
#include <algorithm>
#include <tuple>
#include <utility>

#include "../fields.h"
#include "pipesim/rules.h"
#include "trace_analysis.h"

namespace pipesim::detail {
namespace {

// Sorted (key, value) pairs; a key given twice maps to kTraceNone.
template <typename Key>
class UniqueIndex {
 public:
  void add(Key key, std::uint32_t value) { entries_.emplace_back(key, value); }
  void build() {
    std::sort(entries_.begin(), entries_.end());
    std::vector<std::pair<Key, std::uint32_t>> unique;
    for (std::size_t i = 0; i < entries_.size();) {
      std::size_t j = i;
      while (j < entries_.size() && entries_[j].first == entries_[i].first) ++j;
      unique.emplace_back(entries_[i].first, j - i == 1 ? entries_[i].second : kTraceNone);
      i = j;
    }
    entries_ = std::move(unique);
  }
  std::uint32_t find(const Key& key) const {
    const auto it = std::lower_bound(entries_.begin(), entries_.end(), std::make_pair(key, std::uint32_t{0}));
    return it != entries_.end() && it->first == key ? it->second : kTraceNone;
  }

 private:
  std::vector<std::pair<Key, std::uint32_t>> entries_;
};

struct LaunchPoint {
  std::uint32_t thread = kTraceNone;
  TraceNs ts = 0;
};

class Attributor {
 public:
  Attributor(const TraceRecords& records, Attribution& out) : records_(records), out_(out) {}

  Status run() {
    if (Status st = nest(); !st.ok()) return st;
    index_launches();
    out_.owner.assign(records_.gpu.size(), kTraceNone);
    for (std::size_t i = 0; i < records_.gpu.size(); ++i) {
      const LaunchPoint at = launch_of(records_.gpu[i]);
      if (at.thread == kTraceNone) continue;
      std::uint32_t owner = innermost(at.thread, at.ts);
      if (owner == kTraceNone) {
        const std::uint32_t main = main_thread_[records_.thread_process[at.thread]];
        if (main != kTraceNone && main != at.thread) owner = innermost(main, at.ts);
      }
      out_.owner[i] = owner;
    }
    return Ok{};
  }

 private:
  // Sorts the occurrences and links each to the one it starts inside, on its thread.
  Status nest() {
    auto& occ = out_.occurrences;
    occ = records_.annotations;
    std::sort(occ.begin(), occ.end(), [](const AnnotationRecord& a, const AnnotationRecord& b) {
      return std::make_tuple(a.thread, a.start, -a.end, a.event) < std::make_tuple(b.thread, b.start, -b.end, b.event);
    });
    out_.parent.assign(occ.size(), kTraceNone);
    out_.has_child.assign(occ.size(), false);
    const std::size_t threads = records_.thread_process.size();
    first_.assign(threads + 1, 0);
    std::vector<std::uint32_t> open;
    for (std::size_t i = 0; i < occ.size(); ++i) {
      if (i == 0 || occ[i].thread != occ[i - 1].thread) open.clear();
      // Half-open intervals: an annotation that starts where another ends is its sibling.
      while (!open.empty() && occ[open.back()].end <= occ[i].start) open.pop_back();
      if (open.size() >= static_cast<std::size_t>(kMaxAnnotationDepth))
        return make_error(Rule::ProfileAnnotationDepth, trace_event_pointer(records_.events_pointer, occ[i].event),
                          {{"limit", kMaxAnnotationDepth},
                           {"field", dotted(trace_event_pointer(records_.events_pointer, occ[i].event))}});
      if (!open.empty()) {
        out_.parent[i] = open.back();
        out_.has_child[open.back()] = true;
      }
      open.push_back(static_cast<std::uint32_t>(i));
      ++first_[occ[i].thread + 1];
    }
    for (std::size_t t = 0; t < threads; ++t) first_[t + 1] += first_[t];  // thread t: [first_[t], first_[t+1])
    // Each process's most annotated thread (the lowest on a tie).
    std::size_t processes = 0;
    for (std::uint32_t p : records_.thread_process) processes = std::max<std::size_t>(processes, p + 1);
    main_thread_.assign(processes, kTraceNone);
    for (std::uint32_t t = 0; t < threads; ++t) {
      const std::uint32_t p = records_.thread_process[t];
      const std::uint32_t m = main_thread_[p];
      if (first_[t + 1] > first_[t] && (m == kTraceNone || first_[t + 1] - first_[t] > first_[m + 1] - first_[m]))
        main_thread_[p] = t;
    }
    return Ok{};
  }

  void index_launches() {
    for (std::size_t i = 0; i < records_.launches.size(); ++i)
      launches_.add(records_.launches[i].correlation, static_cast<std::uint32_t>(i));
    launches_.build();
    for (std::size_t i = 0; i < records_.flow_starts.size(); ++i)
      flow_starts_.add(records_.flow_starts[i].id, static_cast<std::uint32_t>(i));
    flow_starts_.build();
    for (const FlowRecord& f : records_.flow_ends) flow_ends_.add({f.thread, f.ts}, f.id);
    flow_ends_.build();
  }

  LaunchPoint launch_of(const GpuRecord& g) const {
    if (g.correlation >= 0) {
      const std::uint32_t l = launches_.find(g.correlation);
      if (l != kTraceNone) return {records_.launches[l].thread, records_.launches[l].ts};
    }
    if (g.thread == kTraceNone) return {};
    const std::uint32_t id = flow_ends_.find({g.thread, g.start});
    const std::uint32_t s = id == kTraceNone ? kTraceNone : flow_starts_.find(id);
    if (s == kTraceNone) return {};
    return {records_.flow_starts[s].thread, records_.flow_starts[s].ts};
  }

  // The innermost occurrence on `thread` with start <= t < end: the last one starting at or
  // before t, or the nearest of its ancestors that is still open at t.
  std::uint32_t innermost(std::uint32_t thread, TraceNs t) const {
    const auto& occ = out_.occurrences;
    const auto begin = occ.begin() + first_[thread], end = occ.begin() + first_[thread + 1];
    auto it = std::upper_bound(begin, end, t, [](TraceNs v, const AnnotationRecord& a) { return v < a.start; });
    if (it == begin) return kTraceNone;
    for (auto i = static_cast<std::uint32_t>(it - occ.begin() - 1); i != kTraceNone; i = out_.parent[i])
      if (t < occ[i].end) return i;
    return kTraceNone;
  }

  const TraceRecords& records_;
  Attribution& out_;
  std::vector<std::uint32_t> first_;        // per thread: where its occurrences start
  std::vector<std::uint32_t> main_thread_;  // per process
  UniqueIndex<std::int64_t> launches_;
  UniqueIndex<std::uint32_t> flow_starts_;
  UniqueIndex<std::pair<std::uint32_t, TraceNs>> flow_ends_;
};

}  // namespace

Result<Attribution> attribute(const TraceRecords& records) {
  Attribution out;
  Attributor attributor(records, out);
  if (Status st = attributor.run(); !st.ok()) return st.error();
  return out;
}

}  // namespace pipesim::detail
