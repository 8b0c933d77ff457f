// JSON of the communication model: the costs.comm input (two forms) and the result's "comm"
// object. Field by field, with paths, like the rest of json.cpp.
#include "comm_json.h"

#include <cctype>
#include <cstdint>
#include <cstring>

#include "comm_ticks.h"
#include "fields.h"
#include "pipesim/rules.h"

namespace pipesim::detail {
namespace {

using Fields = std::vector<std::pair<const char*, double*>>;

// A components object: every one of `fields` is required.
Status read_object(const Json& json, const std::string& path, const Fields& fields) {
  std::vector<const char*> known;
  for (const auto& field : fields) known.push_back(field.first);
  auto reader = FieldReader::open(json, path, "", known);
  if (!reader.ok()) return reader.error();
  for (const auto& [key, target] : fields) {
    if (Status st = reader.value().require({key}); !st.ok()) return st;
    if (Status st = reader.value().read(key, *target); !st.ok()) return st;
  }
  return Ok{};
}

Fields forward_fields(ChunkComponents& x) {
  return {{"attn", &x.forward_attn},
          {"dispatch", &x.forward_dispatch},
          {"mlp", &x.forward_mlp},
          {"combine", &x.forward_combine}};
}
Fields backward_fields(ChunkComponents& x) {
  return {{"attn", &x.backward_attn},         {"attnWeight", &x.backward_attn_weight},
          {"mlp", &x.backward_mlp},           {"mlpWeight", &x.backward_mlp_weight},
          {"dispatch", &x.backward_dispatch}, {"combine", &x.backward_combine}};
}

Json fields_to_json(const Fields& fields) {
  Json j = Json::object();
  for (const auto& [key, value] : fields) j[key] = *value;
  return j;
}

Json components_to_json(ChunkComponents x) {
  return Json{{"forward", fields_to_json(forward_fields(x))},
              {"backward", fields_to_json(backward_fields(x))}};
}

Json timing_to_json(const OpTiming& t, const std::vector<PartHiding>& hiding) {
  Json parts = Json::array();
  for (const OpPart& p : t.parts) parts.push_back(op_part_to_json(p));
  return Json{{"duration", t.duration},
              {"compute", t.compute},
              {"comm", t.comm},
              {"exposed", t.exposed},
              {"parts", std::move(parts)},
              {"hiding", hiding_to_json(hiding, t.parts)}};
}

}  // namespace

Result<CommCosts> comm_from_json(const Json& json, const std::string& path) {
  auto fields = FieldReader::open(json, path, "", {"ratio", "attnShare", "layers", "forward", "backward"});
  if (!fields.ok()) return fields.error();
  const FieldReader& f = fields.value();
  const bool ratio_form = f.has("ratio") || f.has("attnShare");
  const bool explicit_form = f.has("forward") || f.has("backward");
  if (ratio_form && explicit_form) return make_error(Rule::CommBothForms, path, {{"field", dotted(path)}});
  if (!ratio_form && !explicit_form) return make_error(Rule::CommNoForm, path, {{"field", dotted(path)}});
  CommCosts m;
  if (Status st = f.read("layers", m.layers); !st.ok()) return st.error();
  if (ratio_form) {
    for (Status st : {f.require({"ratio"}), f.read("ratio", m.ratio), f.read("attnShare", m.attn_share)})
      if (!st.ok()) return st.error();
    return m;
  }
  m.explicit_components = true;
  if (Status st = f.require({"forward", "backward"}); !st.ok()) return st.error();
  if (Status st = read_object(f.at("forward"), f.path("forward"), forward_fields(m.components));
      !st.ok())
    return st.error();
  if (Status st = read_object(f.at("backward"), f.path("backward"), backward_fields(m.components));
      !st.ok())
    return st.error();
  return m;
}

Json comm_to_json(const CommCosts& m) {
  if (!m.explicit_components)
    return Json{{"ratio", m.ratio}, {"attnShare", m.attn_share}, {"layers", m.layers}};
  Json j = components_to_json(m.components);
  j["layers"] = m.layers;
  return j;
}

Json op_part_to_json(const OpPart& p) {
  std::string label = part_name(p.part);
  for (char& ch : label) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  label += std::string("(") + pass_name(p.pass) + ")";
  return Json{{"stream", stream_name(p.stream)},
              {"part", part_name(p.part)},
              {"pass", pass_name(p.pass)},
              {"layer", p.layer},
              {"label", label},
              {"start", p.start},
              {"end", p.end}};
}

Json hiding_to_json(const std::vector<PartHiding>& hiding, const std::vector<OpPart>& parts) {
  auto label = [&](std::size_t i) { return op_part_to_json(parts.at(i)).at("label"); };
  Json out = Json::array();
  for (const PartHiding& h : hiding) {
    Json by = Json::array();
    for (const PartHiding::By& b : h.hidden_by)
      by.push_back(Json{{"part", b.compute_part}, {"label", label(b.compute_part)}, {"overlap", b.overlap}});
    out.push_back(Json{{"part", h.comm_part},
                       {"label", label(h.comm_part)},
                       {"layer", parts.at(h.comm_part).layer},
                       {"hiddenBy", std::move(by)},
                       {"exposed", h.exposed}});
  }
  return out;
}

Json comm_result_to_json(const SimResult& r) {
  const CommSummary& s = *r.comm;
  const Costs& costs = r.config.costs;
  const PartOrder order = part_order(r.config);
  Json ops = Json::object();
  const std::pair<const char*, Op> kinds[] = {{"F", Op{OpKind::Forward, false, {}, {}}},
                                              {"B", Op{OpKind::Backward, false, {}, {}}},
                                              {"Bz", Op{OpKind::Backward, true, {}, {}}},
                                              {"W", Op{OpKind::Weight, false, {}, {}}},
                                              {"FB", Op{OpKind::ForwardBackward, false, {}, {}}}};
  // An op's timing and what hides its all-to-alls, from the same tick layout (with per-stage
  // costs, the layout of the op's own stages).
  const auto op_json = [&](const Op& op) {
    const KindTicks ticks = costs.stages.empty() ? comm_ticks(costs, order).of(op)
                                                 : staged_comm_ticks(op, costs, order);
    return timing_to_json(op_timing(op, costs, order), part_hiding(ticks));
  };
  for (const auto& [key, op] : kinds) ops[key] = op_json(op);
  Json out{{"total", s.total},
           {"exposed", s.exposed},
           {"hidden", s.hidden},
           {"hiddenFraction", s.hidden_fraction},
           {"computeUtilization", s.compute_utilization},
           {"partOrder", part_order_name(order)},
           {"components", components_to_json(resolve_components(costs))},
           {"ops", std::move(ops)}};
  if (costs.stages.empty()) return out;
  // Under per-stage costs an op's parts depend on its stage (a pair's on both): every stage's
  // lone ops, "<stage>:<key>", and each pair of stages the run overlaps, "<forward>:<backward>:FB".
  Json staged = Json::object();
  for (int stage = 0; stage < static_cast<int>(costs.stages.size()); ++stage)
    for (const auto& [key, op] : kinds) {
      if (op.kind == OpKind::ForwardBackward) continue;
      Op at = op;
      at.chunk.stage = stage;
      staged[std::to_string(stage) + ":" + key] = op_json(at);
    }
  const auto add_pair = [&](int forward_stage, int backward_stage) {
    const std::string key = std::to_string(forward_stage) + ":" + std::to_string(backward_stage) + ":FB";
    if (staged.contains(key)) return;
    const Op pair{OpKind::ForwardBackward, false, {0, 0, forward_stage}, {0, 0, backward_stage}};
    staged[key] = op_json(pair);
  };
  for (const auto& rank : r.timeline)  // the timeline as ops, or as columns (the JS API's)
    for (const TimedOp& t : rank)
      if (t.op.kind == OpKind::ForwardBackward) add_pair(t.op.chunk.stage, t.op.backward_chunk.stage);
  const TimelineTable& c = r.columns;
  if (c.count() > 0) {
    const auto column = [&](const char* name) {
      const auto& infos = timeline_column_infos();
      for (std::size_t i = 0; i < infos.size(); ++i)
        if (std::string(infos[i].name) == name) return c.data() + c.offsets()[i];
      return static_cast<const std::uint8_t*>(nullptr);
    };
    const std::uint8_t* kind = column("op");
    const std::uint8_t* stage = column("stage");
    const std::uint8_t* bstage = column("bstage");
    for (std::size_t i = 0; i < c.count(); ++i) {
      if (kind[i] != static_cast<std::uint8_t>(OpKind::ForwardBackward)) continue;
      std::int16_t f = 0, b = 0;  // int16 columns (timeline_columns.h)
      std::memcpy(&f, stage + 2 * i, sizeof f);
      std::memcpy(&b, bstage + 2 * i, sizeof b);
      add_pair(f, b);
    }
  }
  out["stageOps"] = std::move(staged);
  return out;
}

}  // namespace pipesim::detail
