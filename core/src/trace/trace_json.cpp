// A trace report as JSON (trace_report_to_json of pipesim/trace.h; docs/schema.md "Traces").
#include "pipesim/trace.h"

namespace pipesim {
namespace {

Json derived_json(const Derived& d) {
  return Json{{"value", d.value}, {"derivation", d.derivation}, {"derivationPhrase", plan_text_to_json(d.said)}};
}

Json optional_number(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }

Json costs_json(const TraceCosts& c) {
  const auto& x = c.components;  // ChunkComponents order
  return Json{{"pairs", derived_json(c.pairs)},
              {"layers", derived_json(c.layers)},
              {"forward", derived_json(c.forward)},
              {"backward", derived_json(c.backward)},
              {"weight", derived_json(c.weight)},
              {"overlapped", derived_json(c.overlapped)},
              {"commRatio", derived_json(c.comm_ratio)},
              {"attnShare", derived_json(c.attn_share)},
              {"forwardAlone", derived_json(c.forward_alone)},
              {"backwardAlone", derived_json(c.backward_alone)},
              {"pairMs", derived_json(c.pair_ms)},
              {"modelPairMs", derived_json(c.model_pair_ms)},
              {"firstPair",
               {{"device", c.first_pair.device},
                {"step", c.first_pair.step.empty() ? Json(nullptr) : Json(c.first_pair.step)},
                {"startMs", c.first_pair.start_ms},
                {"endMs", c.first_pair.end_ms}}},
              {"components",
               {{"forward",
                 {{"attn", derived_json(x[0])},
                  {"dispatch", derived_json(x[1])},
                  {"mlp", derived_json(x[2])},
                  {"combine", derived_json(x[3])}}},
                {"backward",
                 {{"attn", derived_json(x[4])},
                  {"attnWeight", derived_json(x[5])},
                  {"dispatch", derived_json(x[6])},
                  {"mlp", derived_json(x[7])},
                  {"mlpWeight", derived_json(x[8])},
                  {"combine", derived_json(x[9])}}}}},
              {"costs", costs_to_json(c.costs)},
              {"plainCosts", costs_to_json(c.plain_costs)}};
}

}  // namespace

Json trace_report_to_json(const TraceReport& r) {
  Json streams = Json::array();
  for (const TraceStream& s : r.streams)
    streams.push_back(Json{{"device", s.device},
                           {"stream", s.stream},
                           {"kind", stream_kind_name(s.kind)},
                           {"kernels", s.kernels},
                           {"commKernels", s.comm_kernels},
                           {"memoryEvents", s.memory_events},
                           {"busyMs", s.busy_ms}});
  Json devices = Json::array();
  for (const TraceDevice& d : r.devices)
    devices.push_back(Json{{"device", d.device},
                           {"computeMs", d.compute_ms},
                           {"commMs", d.comm_ms},
                           {"overlapMs", d.overlap_ms},
                           {"overlap", optional_number(d.overlap)}});
  Json annotations = Json::array();
  for (const TraceAnnotation& a : r.annotations) {
    Json per_stream = Json::array();
    for (const AnnotationStream& s : a.streams)
      per_stream.push_back(Json{{"device", s.device}, {"stream", s.stream}, {"kernels", s.kernels}, {"gpuMs", s.gpu_ms}});
    annotations.push_back(Json{{"name", a.name},
                               {"count", a.count},
                               {"kernels", a.kernels},
                               {"gpuMs", a.gpu_ms},
                               {"streams", std::move(per_stream)}});
  }
  Json spans = Json::array();
  for (const TraceSpan& s : r.spans)
    spans.push_back(Json{{"name", s.name},
                         {"device", s.device},
                         {"stream", s.stream},
                         {"startMs", s.start_ms},
                         {"endMs", s.end_ms},
                         {"busyMs", s.busy_ms}});
  Json out{{"bytes", r.bytes},
           {"events", r.events},
           {"gpuEvents", r.gpu_events},
           {"launches", r.launches},
           {"commPattern", r.comm_pattern},
           {"originUs", r.origin_us},
           {"streams", std::move(streams)},
           {"devices", std::move(devices)},
           {"overlap", optional_number(r.overlap)},
           {"annotations", std::move(annotations)},
           {"annotationsTotal", r.annotations_total},
           {"unattributed", {{"events", r.unattributed_events}, {"gpuMs", r.unattributed_ms}}},
           {"order", r.order},
           {"orderTotal", r.order_total},
           {"spans", std::move(spans)},
           {"derived", r.costs ? costs_json(*r.costs) : Json(nullptr)}};
  if (r.costs_missing) {
    out["derivedMissing"] = r.costs_missing->message;
    out["derivedMissingReason"] = error_to_json(*r.costs_missing);
  }
  return out;
}

}  // namespace pipesim
