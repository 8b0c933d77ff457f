// Parsing of hand-written schedules. The grammar of a label is the one op_label() prints, so the
// two functions are inverses (tests/core/custom_schedule_test.cpp checks the round trip).
#include "pipesim/custom_schedule.h"

#include <cctype>
#include <cstdint>

#include "fields.h"
#include "pipesim/pytorch_csv.h"
#include "pipesim/rules.h"
#include "simulate_valid.h"

namespace pipesim {
namespace {

Error label_error(const std::string& label, const std::string& path) {
  return make_error(Rule::OpLabel, path, {{"label", summary(label)}});
}

// Reads "<dir>.<mb>@<stage>" at text[pos...]; advances pos.
bool read_chunk(const std::string& text, std::size_t& pos, Chunk& out) {
  auto read_int = [&](int& value) {
    const std::size_t start = pos;
    std::int64_t v = 0;
    while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])) && pos - start < 9)
      v = v * 10 + (text[pos++] - '0');
    value = static_cast<int>(v);
    return pos > start && (pos >= text.size() || !std::isdigit(static_cast<unsigned char>(text[pos])));
  };
  auto expect = [&](char c) { return pos < text.size() && text[pos++] == c; };
  return read_int(out.dir) && expect('.') && read_int(out.mb) && expect('@') && read_int(out.stage);
}

Result<Op> op_from_object(const Json& j, const std::string& path) {
  if (!j.contains("op") || !j.at("op").is_string())
    return make_error(Rule::OpKindMissing, path + "/op");
  const std::string kind = j.at("op").get<std::string>();
  auto chunk = [&](const char* d, const char* m, const char* s, Chunk& out) -> Status {
    for (auto [key, target] : {std::pair<const char*, int*>{d, &out.dir}, {m, &out.mb}, {s, &out.stage}}) {
      if (!j.contains(key))
        return make_error(Rule::OpFieldMissing, path + "/" + key, {{"field", key}});
      auto v = int_from_json(j.at(key), path + "/" + key, key);
      if (!v.ok()) return v.error();
      *target = v.value();
    }
    return Ok{};
  };
  // The fields of a result's timeline op (start and end are read back and ignored); any other
  // is an error, as everywhere in the schema, so a typo ("stgae") is not silently dropped.
  const bool pair = kind == "FB";
  auto known = detail::FieldReader::open(
      j, path, "", pair ? std::vector<const char*>{"op", "fdir", "fmb", "fstage", "bdir", "bmb", "bstage", "start", "end"}
                 : kind == "B" ? std::vector<const char*>{"op", "dir", "mb", "stage", "zb", "start", "end"}
                               : std::vector<const char*>{"op", "dir", "mb", "stage", "start", "end"});
  if (!known.ok() && (pair || kind == "F" || kind == "B" || kind == "W")) return known.error();
  Op op;
  Status st = Ok{};
  if (pair) {
    op.kind = OpKind::ForwardBackward;
    st = chunk("fdir", "fmb", "fstage", op.chunk);
    if (st.ok()) st = chunk("bdir", "bmb", "bstage", op.backward_chunk);
  } else if (kind == "F" || kind == "B" || kind == "W") {
    op.kind = kind == "F" ? OpKind::Forward : kind == "B" ? OpKind::Backward : OpKind::Weight;
    st = chunk("dir", "mb", "stage", op.chunk);
    if (kind == "B" && j.contains("zb")) {
      if (!j.at("zb").is_boolean())
        return make_error(Rule::OpZeroBubble, path + "/zb");
      op.zero_bubble = j.at("zb").get<bool>();
    }
  } else {
    return make_error(Rule::OpKind, path + "/op", {{"got", summary(kind)}});
  }
  if (!st.ok()) return st.error();
  return op;
}

}  // namespace

Result<Op> parse_op_label(const std::string& label, const std::string& path) {
  Op op;
  std::size_t pos = 0;
  bool ok = false;
  if (label.rfind("FB(F", 0) == 0) {
    op.kind = OpKind::ForwardBackward;
    pos = 4;
    ok = read_chunk(label, pos, op.chunk) && label.compare(pos, 2, ",B") == 0 &&
         (pos += 2, read_chunk(label, pos, op.backward_chunk)) && label.compare(pos, 1, ")") == 0 && ++pos;
  } else if (!label.empty()) {
    pos = 1;
    switch (label[0]) {
      case 'F': op.kind = OpKind::Forward; break;
      case 'W': op.kind = OpKind::Weight; break;
      case 'B':
        op.kind = OpKind::Backward;
        if (label.size() > 1 && label[1] == 'z') {
          op.zero_bubble = true;
          pos = 2;
        }
        break;
      default: return label_error(label, path);
    }
    ok = read_chunk(label, pos, op.chunk);
  }
  if (!ok || pos != label.size()) return label_error(label, path);
  return op;
}

Result<CustomRequest> custom_schedule_from_json(const Json& json) {
  auto fields = detail::FieldReader::open(
      json, "", "custom schedule",
      {"schedule", "stages", "directions", "microbatches", "rankOps", "costs", "stageCosts"});
  if (!fields.ok()) return fields.error();
  const detail::FieldReader& f = fields.value();
  for (const char* key : {"stages", "microbatches", "rankOps"})
    if (!f.has(key)) return make_error(Rule::CustomMissing, f.path(key), {{"field", key}});
  CustomRequest req;
  Schedule& s = req.schedule;
  s.name = "custom";
  s.directions = 1;
  int microbatches = 0;
  for (Status st : {f.read("stages", s.stages), f.read("directions", s.directions),
                    f.read("microbatches", microbatches)})
    if (!st.ok()) return st.error();
  if (Status st = detail::int_in_range(s.stages, 1, kMaxStages, "stages", "/stages"); !st.ok())
    return st.error();
  if (s.directions != 1 && s.directions != 2)
    return make_error(Rule::CustomDirections, "/directions", {{"got", s.directions}});
  if (microbatches < s.directions || microbatches % s.directions != 0 || microbatches > kMaxMicrobatches)
    return make_error(Rule::CustomMicrobatches, "/microbatches",
                      {{"max", kMaxMicrobatches}, {"got", microbatches}});
  s.microbatches_per_direction = microbatches / s.directions;
  if (s.stages < 1 || static_cast<std::int64_t>(s.stages) * microbatches > kMaxOps)
    return make_error(Rule::CustomTooManyChunks, "/stages", {{"max", kMaxOps}});
  const Json& rank_ops = json.at("rankOps");
  if (!rank_ops.is_array() || rank_ops.empty() || rank_ops.size() > static_cast<std::size_t>(kMaxRanks))
    return make_error(Rule::CustomRankOps, "/rankOps", {{"max", kMaxRanks}});
  s.ranks = static_cast<int>(rank_ops.size());
  s.stages_per_rank = (s.stages * s.directions + s.ranks - 1) / s.ranks;
  s.param_copies = s.directions;
  std::int64_t total = 0;
  for (std::size_t r = 0; r < rank_ops.size(); ++r) {
    const std::string rank_path = "/rankOps/" + std::to_string(r);
    if (!rank_ops[r].is_array())
      return make_error(Rule::CustomRankOpsEntry, rank_path);
    total += static_cast<std::int64_t>(rank_ops[r].size());
    if (total > kMaxOps)
      return make_error(Rule::CustomTooManyOps, "/rankOps", {{"max", kMaxOps}});
    std::vector<Op> ops;
    ops.reserve(rank_ops[r].size());
    for (std::size_t i = 0; i < rank_ops[r].size(); ++i) {
      const std::string path = rank_path + "/" + std::to_string(i);
      const Json& item = rank_ops[r][i];
      Result<Op> op = item.is_string() ? parse_op_label(item.get<std::string>(), path)
                      : item.is_object() ? op_from_object(item, path)
                                         : Result<Op>(make_error(Rule::OpType, path));
      if (!op.ok()) return op.error();
      ops.push_back(op.value());
    }
    s.rank_ops.push_back(std::move(ops));
  }
  if (f.has("costs")) {
    auto costs = costs_from_json(f.at("costs"), f.path("costs"));
    if (!costs.ok()) return costs.error();
    req.costs = costs.value();
  }
  if (f.has("stageCosts")) {  // one per stage of `stages`; simulate_schedule checks the count
    auto stages = stage_costs_from_json(f.at("stageCosts"), f.path("stageCosts"), req.costs);
    if (!stages.ok()) return stages.error();
    req.costs.stages = std::move(stages).value();
  }
  return req;
}

Result<SimResult> simulate_request(const Json& json, const SimOptions& options) {
  if (json.is_object() && json.contains("schedule") && json.at("schedule") == "custom") {
    if (json.contains("csv")) return simulate_csv_request(json, options);  // a torch CSV
    auto req = custom_schedule_from_json(json);
    if (!req.ok()) return req.error();
    return simulate_schedule(req.value().schedule, req.value().costs, options);
  }
  auto config = config_from_json(json);  // parses and validates
  if (!config.ok()) return config.error();
  return detail::simulate_valid(config.value(), options);
}

}  // namespace pipesim
