// JSON <-> pipesim types. Explicit conversions only (no NLOHMANN_DEFINE_TYPE_*): each field is
// read with its own path so messages can say exactly which input is wrong.
#include "pipesim/json.h"

#include <cmath>

#include "fields.h"
#include "overlap/comm_json.h"
#include "pipesim/memory.h"
#include "pipesim/formulas.h"
#include "pipesim/rules.h"

namespace pipesim {

Result<Costs> costs_from_json(const Json& json, const std::string& path) {
  auto fields = detail::FieldReader::open(
      json, path, "costs", {"forward", "backward", "weight", "overlapped", "p2pLatency", "comm"});
  if (!fields.ok()) return fields.error();
  const detail::FieldReader& f = fields.value();
  Costs c;
  for (Status st : {f.read("forward", c.forward), f.read("backward", c.backward),
                    f.read("weight", c.weight), f.read("overlapped", c.overlapped),
                    f.read("p2pLatency", c.p2p_latency)})
    if (!st.ok()) return st.error();
  if (f.has("comm")) {  // the communication model (overlap/comm_json.cpp)
    auto comm = detail::comm_from_json(f.at("comm"), f.path("comm"));
    if (!comm.ok()) return comm.error();
    c.comm = comm.value();
  }
  return c;
}

Result<std::vector<StageCost>> stage_costs_from_json(const Json& json, const std::string& path,
                                                     const Costs& costs) {
  if (!json.is_array()) return make_error(Rule::FieldArray, path, {{"field", detail::dotted(path)}});
  if (json.empty() || json.size() > static_cast<std::size_t>(kMaxStages))
    return make_error(Rule::StageCostsSize, path, {{"max", kMaxStages}, {"got", json.size()}});
  std::vector<StageCost> stages;
  stages.reserve(json.size());
  for (std::size_t i = 0; i < json.size(); ++i) {
    auto fields = detail::FieldReader::open(json[i], path + "/" + std::to_string(i), "",
                                            {"forward", "backward", "weight", "overlapped"});
    if (!fields.ok()) return fields.error();
    const detail::FieldReader& f = fields.value();
    StageCost c{costs.forward, costs.backward, costs.weight, costs.overlapped};
    for (Status st : {f.read("forward", c.forward), f.read("backward", c.backward),
                      f.read("weight", c.weight), f.read("overlapped", c.overlapped)})
      if (!st.ok()) return st.error();
    stages.push_back(c);
  }
  return stages;
}

Json stage_costs_to_json(const std::vector<StageCost>& stages) {
  Json out = Json::array();
  for (const StageCost& c : stages)
    out.push_back(Json{{"forward", c.forward},
                       {"backward", c.backward},
                       {"weight", c.weight},
                       {"overlapped", c.overlapped}});
  return out;
}

Result<SimConfig> config_from_json(const Json& json) {
  auto fields =
      detail::FieldReader::open(json, "", "config", {"schedule", "ranks", "microbatches", "costs", "stageCosts",
                                                     "chunks", "timing", "a2aOverlap", "delayWgrad",
                                                     "memoryModel"});
  if (!fields.ok()) return fields.error();
  const detail::FieldReader& f = fields.value();
  if (Status st = f.require({"schedule", "ranks", "microbatches"}); !st.ok()) return st.error();
  SimConfig config;
  for (Status st : {f.read("schedule", config.schedule), f.read("ranks", config.ranks),
                    f.read("microbatches", config.microbatches), f.read("chunks", config.chunks),
                    f.read("a2aOverlap", config.a2a_overlap), f.read("delayWgrad", config.delay_wgrad)})
    if (!st.ok()) return st.error();
  if (f.has("costs")) {
    auto costs = costs_from_json(f.at("costs"), f.path("costs"));
    if (!costs.ok()) return costs.error();
    config.costs = costs.value();
  }
  if (f.has("stageCosts")) {
    auto stages = stage_costs_from_json(f.at("stageCosts"), f.path("stageCosts"), config.costs);
    if (!stages.ok()) return stages.error();
    config.costs.stages = std::move(stages).value();
  }
  if (f.has("timing")) {
    std::string timing;
    if (Status st = f.read("timing", timing); !st.ok()) return st.error();
    if (timing != timing_name(Timing::Dependency) && timing != timing_name(Timing::Runtime))
      return make_error(Rule::FieldOneOf, "/timing",
                        {{"field", "timing"}, {"allowed", "dependency, runtime"}, {"got", timing}});
    config.timing = timing == timing_name(Timing::Runtime) ? Timing::Runtime : Timing::Dependency;
  }
  if (f.has("memoryModel")) {
    auto memory = memory_request_from_json(f.at("memoryModel"), true);
    if (!memory.ok()) return detail::with_path_prefix(memory.error(), "/memoryModel");
    config.memory_model = std::make_shared<const MemoryRequest>(std::move(memory.value()));
  }
  if (Status st = validate(config); !st.ok()) return st.error();
  return config;
}

Result<SimConfig> config_from_json_text(const std::string& text) {
  auto json = parse_json(text);
  if (!json.ok()) return json.error();
  return config_from_json(json.value());
}

Json costs_to_json(const Costs& c) {
  Json j{{"forward", c.forward},
         {"backward", c.backward},
         {"weight", c.weight},
         {"overlapped", c.overlapped},
         {"p2pLatency", c.p2p_latency}};
  if (c.comm) j["comm"] = detail::comm_to_json(*c.comm);
  return j;
}

Json op_fields_to_json(const Op& op) {
  Json j;
  j["op"] = op_kind_name(op.kind);
  if (op.kind == OpKind::ForwardBackward) {
    j["fdir"] = op.chunk.dir;
    j["fmb"] = op.chunk.mb;
    j["fstage"] = op.chunk.stage;
    j["bdir"] = op.backward_chunk.dir;
    j["bmb"] = op.backward_chunk.mb;
    j["bstage"] = op.backward_chunk.stage;
  } else {
    j["dir"] = op.chunk.dir;
    j["mb"] = op.chunk.mb;
    j["stage"] = op.chunk.stage;
    if (op.kind == OpKind::Backward) j["zb"] = op.zero_bubble;
  }
  return j;
}

namespace {

Json op_to_json(const TimedOp& t) {
  Json j = op_fields_to_json(t.op);
  j["start"] = t.start;
  j["end"] = t.end;
  return j;
}

}  // namespace

Json result_to_json(const SimResult& r, bool with_timeline) {
  Json j;
  j["schedule"] = r.config.schedule;
  j["ranks"] = r.config.ranks;
  j["stages"] = r.stages;
  j["microbatches"] = r.config.microbatches;
  j["costs"] = costs_to_json(r.config.costs);
  // Only when given, so every result without them (and every golden) reads as before.
  if (!r.config.costs.stages.empty()) j["stageCosts"] = stage_costs_to_json(r.config.costs.stages);
  // Only when not the default, so every dependency-timed result (and golden) reads as before.
  if (r.config.timing != Timing::Dependency) j["timing"] = timing_name(r.config.timing);
  // Likewise Megatron's combined 1F1B, only when asked for.
  if (r.config.a2a_overlap) j["a2aOverlap"] = true;
  if (r.config.delay_wgrad) j["delayWgrad"] = true;
  j["makespan"] = r.makespan;
  Json per_rank = Json::array();
  for (const RankStats& s : r.per_rank) {
    per_rank.push_back(Json{{"rank", s.rank},
                            {"busy", s.busy},
                            {"idle", s.idle},
                            {"peakActivations", s.peak_activations},
                            {"peakActivationMemory", s.peak_activation_memory}});
    if (r.comm) {  // only with a communication model, so other results keep their bytes
      per_rank.back()["compute"] = s.compute;
      per_rank.back()["comm"] = s.comm;
      per_rank.back()["exposedComm"] = s.exposed_comm;
    }
  }
  j["perRank"] = std::move(per_rank);
  j["bubble"] = Json{{"max", r.bubble_max}, {"total", r.bubble_total}, {"fraction", r.bubble_fraction}};
  j["utilization"] = r.utilization;
  j["stagesPerRank"] = r.stages_per_rank;
  j["paramCopies"] = r.param_copies;
  j["maxPeakActivations"] = r.max_peak_activations;
  j["maxPeakActivationMemory"] = r.max_peak_activation_memory;
  // Only with a memory model, so other results keep their bytes.
  if (r.config.memory_model)
    j["memory"] = memory_result_to_json(memory_of(memory_request_for(r.config), r.max_peak_activation_memory));
  if (r.comm) j["comm"] = detail::comm_result_to_json(r);
  const ReferenceBubble ref = result_reference(r);
  j["reference"] = Json{{"formula", ref.formula},
                        {"bubbleMax", ref.bubble_max},
                        {"applies", ref.applies},
                        {"source", ref.source}};
  // Only where a region's own terms cannot say why it misses (unequal stages), so other results
  // keep their bytes.
  if (!ref.reason.empty()) j["reference"]["reason"] = ref.reason;
  if (with_timeline) {
    Json timeline = Json::array();
    for (const auto& ops : r.timeline) {
      Json row = Json::array();
      for (const TimedOp& t : ops) row.push_back(op_to_json(t));
      timeline.push_back(std::move(row));
    }
    j["timeline"] = std::move(timeline);
    // Only when recorded (SimOptions::activation_steps), after the timeline as result_json_text
    // writes it; the JS API hands them over as typed arrays instead.
    if (!r.activation_steps.empty()) {
      Json steps = Json::array();
      for (const ActivationSteps& s : r.activation_steps)
        steps.push_back(Json{{"time", s.time}, {"level", s.level}});
      j["activationSteps"] = std::move(steps);
    }
  }
  return j;
}

namespace {

Json params_to_json(const ErrorParams& ps) {
  Json params = Json::object();
  for (const ErrorParam& p : ps) {
    if (const auto* i = std::get_if<std::int64_t>(&p.value)) params[p.name] = *i;
    else if (const auto* d = std::get_if<double>(&p.value); d && std::isfinite(*d)) params[p.name] = *d;
    else params[p.name] = p.text();  // strings, and NaN or infinities, which JSON cannot hold
  }
  return params;
}

}  // namespace

Json error_to_json(const Error& e) {
  Json out{{"code", error_code_name(e.code)}, {"message", e.message}, {"path", e.path},
           {"rule", e.rule}, {"params", params_to_json(e.params)}};
  if (e.cause)
    out["cause"] = Json{{"rule", e.cause->rule}, {"params", params_to_json(e.cause->params)},
                        {"path", e.cause->path}};
  return out;
}

}  // namespace pipesim
