// JSON <-> pipesim types. Explicit conversions only (no NLOHMANN_DEFINE_TYPE_*): each field is
// read with its own path so messages can say exactly which input is wrong.
#include "pipesim/json.h"

#include <cmath>
#include <limits>
#include <set>

#include "format.h"
#include "overlap/comm_json.h"
#include "pipesim/formulas.h"

namespace pipesim {
namespace {

using detail::format_number;

std::string describe(const Json& v) {
  if (v.is_string()) return "\"" + v.get<std::string>() + "\"";
  if (v.is_number()) return format_number(v.get<double>());
  return v.dump();
}

Error type_error(const std::string& path, const std::string& name, const std::string& expected,
                 const Json& got) {
  return Error{ErrorCode::InvalidConfig,
               name + " must be " + expected + " (got " + describe(got) + ")", path};
}

Status reject_unknown_fields(const Json& obj, const std::string& path,
                             const std::set<std::string>& known) {
  for (const auto& item : obj.items())
    if (known.count(item.key()) == 0)
      return Error{ErrorCode::InvalidConfig,
                   "unknown field \"" + item.key() + "\"" +
                       (path.empty() ? "" : " in " + path.substr(1)),
                   path + "/" + item.key()};
  return Ok{};
}

}  // namespace

Result<Json> parse_json(const std::string& text) {
  try {
    return Json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann's message after its "[json.exception.parse_error.101] " tag says where and why.
    std::string what = e.what();
    const auto tag_end = what.find("] ");
    if (tag_end != std::string::npos) what = what.substr(tag_end + 2);
    return Error{ErrorCode::ParseError, "input is not valid JSON: " + what, ""};
  } catch (const nlohmann::json::exception& e) {
    // Valid syntax nlohmann still refuses, e.g. 1e999 (a number out of double's range).
    std::string what = e.what();
    const auto tag_end = what.find("] ");
    if (tag_end != std::string::npos) what = what.substr(tag_end + 2);
    return Error{ErrorCode::ParseError, "input is not valid JSON: " + what, ""};
  }
}

Result<int> int_from_json(const Json& json, const std::string& path, const std::string& name) {
  const bool numeric = json.is_number() && !json.is_boolean();
  if (!numeric) return type_error(path, name, "an integer", json);
  const double v = json.get<double>();
  if (!std::isfinite(v) || std::floor(v) != v) return type_error(path, name, "an integer", json);
  if (v > std::numeric_limits<int>::max() || v < std::numeric_limits<int>::min())
    return type_error(path, name, "an integer in the 32-bit range", json);
  return static_cast<int>(v);
}

Result<double> number_from_json(const Json& json, const std::string& path, const std::string& name) {
  if (!json.is_number() || json.is_boolean()) return type_error(path, name, "a number", json);
  return json.get<double>();
}

Result<Costs> costs_from_json(const Json& json, const std::string& path) {
  if (!json.is_object()) return type_error(path, "costs", "an object", json);
  if (Status st = reject_unknown_fields(
          json, path, {"forward", "backward", "weight", "overlapped", "p2pLatency", "comm"});
      !st.ok())
    return st.error();
  Costs c;
  for (auto [key, field] : {std::pair<const char*, double*>{"forward", &c.forward},
                            {"backward", &c.backward},
                            {"weight", &c.weight},
                            {"overlapped", &c.overlapped},
                            {"p2pLatency", &c.p2p_latency}}) {
    if (!json.contains(key)) continue;
    auto v = number_from_json(json.at(key), path + "/" + key, "costs." + std::string(key));
    if (!v.ok()) return v.error();
    *field = v.value();
  }
  if (json.contains("comm")) {  // the communication model (overlap/comm_json.cpp)
    auto comm = detail::comm_from_json(json.at("comm"), path + "/comm");
    if (!comm.ok()) return comm.error();
    c.comm = comm.value();
  }
  return c;
}

Result<SimConfig> config_from_json(const Json& json) {
  if (!json.is_object())
    return Error{ErrorCode::InvalidConfig, "config must be a JSON object (got " + describe(json) + ")", ""};
  if (Status st = reject_unknown_fields(json, "", {"schedule", "ranks", "microbatches", "costs"});
      !st.ok())
    return st.error();
  for (const char* required : {"schedule", "ranks", "microbatches"})
    if (!json.contains(required))
      return Error{ErrorCode::InvalidConfig, std::string("missing field ") + required,
                   std::string("/") + required};
  SimConfig config;
  if (!json.at("schedule").is_string())
    return type_error("/schedule", "schedule", "a string", json.at("schedule"));
  config.schedule = json.at("schedule").get<std::string>();
  auto ranks = int_from_json(json.at("ranks"), "/ranks", "ranks");
  if (!ranks.ok()) return ranks.error();
  config.ranks = ranks.value();
  auto mbs = int_from_json(json.at("microbatches"), "/microbatches", "microbatches");
  if (!mbs.ok()) return mbs.error();
  config.microbatches = mbs.value();
  if (json.contains("costs")) {
    auto costs = costs_from_json(json.at("costs"), "/costs");
    if (!costs.ok()) return costs.error();
    config.costs = costs.value();
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
  j["makespan"] = r.makespan;
  Json per_rank = Json::array();
  for (const RankStats& s : r.per_rank) {
    per_rank.push_back(Json{{"rank", s.rank},
                            {"busy", s.busy},
                            {"idle", s.idle},
                            {"peakActivations", s.peak_activations}});
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
  if (r.comm) j["comm"] = detail::comm_result_to_json(r);
  // Under communication the table's F, B and F&B are the ops' real lengths (effective_costs).
  const ReferenceBubble ref =
      reference_bubble(r.config.schedule, r.stages, effective_costs(r.config.costs));
  j["reference"] = Json{{"formula", ref.formula},
                        {"bubbleMax", ref.bubble_max},
                        {"applies", ref.applies},
                        {"source", ref.source}};
  if (with_timeline) {
    Json timeline = Json::array();
    for (const auto& ops : r.timeline) {
      Json row = Json::array();
      for (const TimedOp& t : ops) row.push_back(op_to_json(t));
      timeline.push_back(std::move(row));
    }
    j["timeline"] = std::move(timeline);
  }
  return j;
}

Json error_to_json(const Error& e) {
  return Json{{"code", error_code_name(e.code)}, {"message", e.message}, {"path", e.path}};
}

}  // namespace pipesim
