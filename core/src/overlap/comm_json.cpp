// JSON of the communication model: the costs.comm input (two forms) and the result's "comm"
// object. Field by field, with paths, like the rest of json.cpp.
#include "comm_json.h"

#include <cctype>
#include <set>

#include "format.h"

namespace pipesim::detail {
namespace {

Error comm_error(const std::string& path, const std::string& message) {
  return Error{ErrorCode::InvalidConfig, message, path};
}

// "/costs/comm/forward" -> "costs.comm.forward"
std::string dotted(const std::string& path) {
  std::string name = path.substr(1);
  for (char& ch : name)
    if (ch == '/') ch = '.';
  return name;
}

Status only_fields(const Json& obj, const std::string& path, const std::set<std::string>& known) {
  for (const auto& item : obj.items())
    if (known.count(item.key()) == 0)
      return comm_error(path + "/" + item.key(),
                        "unknown field \"" + item.key() + "\" in " + dotted(path));
  return Ok{};
}

Status read_number(const Json& obj, const std::string& path, const char* key, double& out) {
  if (!obj.contains(key))
    return comm_error(path + "/" + key, "missing field " + dotted(path) + "." + key);
  auto v = number_from_json(obj.at(key), path + "/" + key, dotted(path) + "." + key);
  if (!v.ok()) return v.error();
  out = v.value();
  return Ok{};
}

using Fields = std::vector<std::pair<const char*, double*>>;

Status read_object(const Json& json, const std::string& path, const Fields& fields) {
  if (!json.is_object())
    return comm_error(path, dotted(path) + " must be an object (got " + json.dump() + ")");
  std::set<std::string> known;
  for (const auto& f : fields) known.insert(f.first);
  if (Status st = only_fields(json, path, known); !st.ok()) return st;
  for (const auto& [key, target] : fields)
    if (Status st = read_number(json, path, key, *target); !st.ok()) return st;
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

Json timing_to_json(const OpTiming& t) {
  Json parts = Json::array();
  for (const OpPart& p : t.parts) parts.push_back(op_part_to_json(p));
  return Json{{"duration", t.duration},
              {"compute", t.compute},
              {"comm", t.comm},
              {"exposed", t.exposed},
              {"parts", std::move(parts)}};
}

}  // namespace

Result<CommCosts> comm_from_json(const Json& json, const std::string& path) {
  if (!json.is_object())
    return comm_error(path, dotted(path) + " must be an object (got " + json.dump() + ")");
  if (Status st = only_fields(json, path, {"ratio", "attnShare", "layers", "forward", "backward"});
      !st.ok())
    return st.error();
  const bool ratio_form = json.contains("ratio") || json.contains("attnShare");
  const bool explicit_form = json.contains("forward") || json.contains("backward");
  if (ratio_form && explicit_form)
    return comm_error(path, dotted(path) +
                                " takes either ratio (and attnShare) or forward and backward "
                                "components, not both");
  if (!ratio_form && !explicit_form)
    return comm_error(path, dotted(path) + " needs ratio or forward and backward components");
  CommCosts m;
  if (json.contains("layers")) {
    auto layers = int_from_json(json.at("layers"), path + "/layers", dotted(path) + ".layers");
    if (!layers.ok()) return layers.error();
    m.layers = layers.value();
  }
  if (ratio_form) {
    if (Status st = read_number(json, path, "ratio", m.ratio); !st.ok()) return st.error();
    if (json.contains("attnShare"))
      if (Status st = read_number(json, path, "attnShare", m.attn_share); !st.ok())
        return st.error();
    return m;
  }
  m.explicit_components = true;
  for (const char* key : {"forward", "backward"})
    if (!json.contains(key))
      return comm_error(path + "/" + key, "missing field " + dotted(path) + "." + key);
  if (Status st = read_object(json.at("forward"), path + "/forward", forward_fields(m.components));
      !st.ok())
    return st.error();
  if (Status st =
          read_object(json.at("backward"), path + "/backward", backward_fields(m.components));
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

Json comm_result_to_json(const SimResult& r) {
  const CommSummary& s = *r.comm;
  const Costs& costs = r.config.costs;
  Json ops = Json::object();
  const std::pair<const char*, Op> kinds[] = {{"F", Op{OpKind::Forward, false, {}, {}}},
                                              {"B", Op{OpKind::Backward, false, {}, {}}},
                                              {"Bz", Op{OpKind::Backward, true, {}, {}}},
                                              {"W", Op{OpKind::Weight, false, {}, {}}},
                                              {"FB", Op{OpKind::ForwardBackward, false, {}, {}}}};
  for (const auto& [key, op] : kinds) ops[key] = timing_to_json(op_timing(op, costs));
  return Json{{"total", s.total},
              {"exposed", s.exposed},
              {"hidden", s.hidden},
              {"hiddenFraction", s.hidden_fraction},
              {"computeUtilization", s.compute_utilization},
              {"components", components_to_json(resolve_components(costs))},
              {"ops", std::move(ops)}};
}

}  // namespace pipesim::detail
