// Real traces in (issue 28): reads a PyTorch Profiler (Kineto) trace, or any Chrome trace-event
// JSON, in one streaming pass and reports what the lab needs from it: the GPU streams and how
// busy each was, the communication-computation overlap as Holistic Trace Analysis defines it,
// the GPU time of every user annotation (record_function ranges such as DeepSeek's `attn(F)`),
// the order the annotated parts ran in, and the costs the simulator's communication model
// (pipesim/comm.h) takes, each number with how it was derived. docs/schema.md "Traces" is the
// reference for the JSON in and out; docs/traces.md says how to get DeepSeek's profile.
//
// What counts as what (Kineto's categories, libkineto/src/output_json.cpp):
//   - a GPU event is a complete ("X") event of category kernel, gpu_memcpy or gpu_memset (older
//     Kineto: Kernel, Memcpy, Memset), on device args.device (else pid) and stream args.stream
//     (else tid);
//   - a kernel is communication when its name contains one of the comm pattern's alternatives,
//     else computation; memcpy and memset are neither (HTA's MEMORY kind);
//   - a launch is any other "X" event carrying args.correlation (cudaLaunchKernel and friends);
//     a GPU event belongs to the launch with its args.correlation, or else to the one its ac2g
//     flow (Kineto's "s" at the launch, "f" at the kernel, same id) starts from;
//   - an annotation is an "X" event of category user_annotation; a GPU event is attributed to the
//     innermost annotation around its launch on the launching thread, or, when that thread has
//     none around it (the autograd engine launches backward kernels from its own thread), on the
//     launching process's most annotated thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pipesim/config.h"
#include "pipesim/error.h"
#include "pipesim/json.h"
#include "pipesim/plan_texts.h"

namespace pipesim {

/// The most bytes of trace text read (profiles are larger than configs; kMaxInputBytes bounds
/// everything else).
inline constexpr std::int64_t kMaxTraceBytes = 256 * 1024 * 1024;
/// Kernels whose names contain one of these, separated by |, are communication: NCCL's
/// collectives (ncclDevKernel_*, ncclKernel_*), DeepEP's expert-parallel dispatch and combine
/// (deep_ep::), and the same kernels as DeepSeek's profile names them (dpsk::ep::).
inline constexpr const char* kDefaultCommPattern = "nccl|deep_ep::|dpsk::ep::";
/// The longest comm pattern, in bytes, and the most alternatives in it.
inline constexpr int kMaxCommPatternBytes = 1024;
inline constexpr int kMaxCommPatternParts = 32;
/// User annotations may nest this many levels deep on one thread (a profile's ProfilerStep >
/// chunk pair > part is 3).
inline constexpr int kMaxAnnotationDepth = 32;
/// A report lists at most this many annotation names, and this many occurrences in its order and
/// spans (the first ones; the totals are given), so its size stays bounded whatever the trace.
inline constexpr int kMaxTraceListed = 100'000;

/// How a trace is read.
struct TraceOptions {
  /// Substrings of communication kernels' names, separated by |; each must be non-empty.
  std::string comm_pattern = kDefaultCommPattern;
};

/// A number the reader derived and, in words, how: the phrase (a trace.derived.* row of
/// pipesim/plan_texts.h, for a client to say in its own language) and its English.
struct Derived {
  double value = 0;
  std::string derivation;
  PlanText said;
};

/// Compute: most of the stream's kernel time is computation kernels; comm: most is communication.
enum class StreamKind : std::uint8_t { Compute, Comm };
/// "compute" | "comm"
const char* stream_kind_name(StreamKind kind);

/// One GPU stream. busy_ms is the union of its GPU events' intervals (overlapping or touching
/// events count once).
struct TraceStream {
  std::int64_t device = 0;
  std::int64_t stream = 0;
  StreamKind kind = StreamKind::Compute;
  std::int64_t kernels = 0;       ///< kernel events (memcpy and memset not counted)
  std::int64_t comm_kernels = 0;  ///< of which communication kernels
  std::int64_t memory_events = 0; ///< memcpy and memset events
  double busy_ms = 0;
};

/// One device's communication-computation overlap, HTA's definition
/// (hta/analyzers/communication_analysis.py, get_comm_comp_overlap): the union of its
/// communication kernels' intervals, the union of its computation kernels', and the time in both.
struct TraceDevice {
  std::int64_t device = 0;
  double compute_ms = 0;
  double comm_ms = 0;
  double overlap_ms = 0;
  std::optional<double> overlap;  ///< overlap_ms / comm_ms; absent without communication
};

/// An annotation's GPU time on one stream.
struct AnnotationStream {
  std::int64_t device = 0;
  std::int64_t stream = 0;
  std::int64_t kernels = 0;
  double gpu_ms = 0;  ///< sum of its GPU events' durations there
};

/// Every occurrence of one annotation name together. Its GPU events are those launched inside
/// it, nested annotations' included (so ProfilerStep#1 holds everything of its step).
struct TraceAnnotation {
  std::string name;
  std::int64_t count = 0;    ///< occurrences
  std::int64_t kernels = 0;  ///< GPU events attributed to it
  double gpu_ms = 0;         ///< sum of their durations
  std::vector<AnnotationStream> streams;  ///< by device, then stream
};

/// Where one innermost annotation occurrence ran on one stream: from its first GPU event's start
/// to its last one's end, in ms from the trace's first GPU event.
struct TraceSpan {
  std::string name;
  std::int64_t device = 0;
  std::int64_t stream = 0;
  double start_ms = 0;
  double end_ms = 0;
  double busy_ms = 0;  ///< union of its GPU events there
};

/// Where one measured chunk pair ran: its device, its ProfilerStep annotation (empty without one)
/// and its first part kernel's start and last one's end, in ms from the trace's first GPU event.
struct TracePairWindow {
  std::int64_t device = 0;
  std::string step;
  double start_ms = 0;
  double end_ms = 0;
};

/// The costs of one overlapped chunk pair, from annotations named as DeepSeek-V3 Fig. 4 names its
/// parts: attn, dispatch, mlp, combine, each (F) or (B), and attn(W), mlp(W). A part's time is the
/// GPU busy time of the events launched inside it (union over streams), per pair.
struct TraceCosts {
  Derived pairs;   ///< chunk pairs measured: (device, ProfilerStep) groups holding part kernels
  Derived layers;  ///< occurrences of each part per pair
  Derived forward, backward, weight, overlapped;
  Derived comm_ratio, attn_share;
  Derived forward_alone, backward_alone;  ///< a lone F or full B with its all-to-alls exposed
  Derived pair_ms;        ///< the measured pair: first part kernel's start to last one's end
  Derived model_pair_ms;  ///< the same pair under `costs` (analyse_pair)
  /// The first pair (lowest device, its first step): where a client finds a measured pair to draw
  /// beside the modelled one.
  TracePairWindow first_pair;
  /// Components in ChunkComponents order: forward attn, dispatch, mlp, combine; backward attn,
  /// attnWeight, dispatch, mlp, mlpWeight, combine.
  std::vector<Derived> components;
  Costs costs;        ///< the simulator's costs in ms, with explicit comm components
  Costs plain_costs;  ///< without the comm model: lone F, lone B, W, and the measured pair
};

/// What a trace holds (docs/schema.md "Traces").
struct TraceReport {
  std::int64_t bytes = 0;
  std::int64_t events = 0;      ///< entries of traceEvents
  std::int64_t gpu_events = 0;
  std::int64_t launches = 0;    ///< events carrying args.correlation outside the GPU
  std::string comm_pattern;
  double origin_us = 0;         ///< ts of the first GPU event (spans count from it)
  std::vector<TraceStream> streams;  ///< by device, then stream
  std::vector<TraceDevice> devices;
  std::optional<double> overlap;  ///< over all devices: sum of overlap / sum of comm
  std::vector<TraceAnnotation> annotations;  ///< in order of first occurrence, at most kMaxTraceListed
  std::int64_t annotations_total = 0;        ///< annotation names in the trace
  std::int64_t unattributed_events = 0;      ///< GPU events no annotation holds
  double unattributed_ms = 0;
  std::vector<std::string> order;  ///< innermost annotations with GPU events, by first GPU start (at most kMaxTraceListed)
  std::int64_t order_total = 0;    ///< such occurrences in the trace
  std::vector<TraceSpan> spans;    ///< the occurrences of `order`, per stream, in the same order
  std::optional<TraceCosts> costs;
  /// Why costs is absent: a profile.* rule of pipesim/rules.h (profile.no_parts, part_missing,
  /// part_count, too_many_layers, part_too_long, pair_too_long, invalid_costs with its cause).
  std::optional<Error> costs_missing;
};

/// Reads `text` in one pass. Errors: input.too_large above kMaxTraceBytes; json.invalid for text
/// that is not JSON, nested deeper than kMaxJsonDepth or with a key the reader uses twice in one
/// object (its detail gives the byte offset and JSON pointer); profile.not_trace for JSON that is
/// not a trace; field.* and range.* for an event field of the wrong type or out of range (at its
/// pointer, named traceEvents.<i>.<key>); profile.annotation_depth; profile.comm_pattern.
Result<TraceReport> import_trace(std::string_view text, const TraceOptions& options = {});

/// Options from {"commPattern": "..."} (every field optional).
Result<TraceOptions> trace_options_from_json(const Json& json);

/// profile.comm_pattern unless `pattern` is a valid comm pattern.
Status validate_comm_pattern(const std::string& pattern, const std::string& path);

/// The report as JSON (docs/schema.md "Traces").
Json trace_report_to_json(const TraceReport& report);

}  // namespace pipesim
