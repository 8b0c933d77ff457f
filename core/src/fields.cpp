// The shared field reader (fields.h) and the JSON number readers of pipesim/json.h.
#include "fields.h"

#include <cmath>
#include <limits>

#include "format.h"
#include "pipesim/rules.h"
#include "summary.h"

namespace pipesim {
namespace detail {

std::string dotted(const std::string& path) {
  std::string name = path.empty() ? path : path.substr(1);
  for (char& ch : name)
    if (ch == '/') ch = '.';
  return name;
}

namespace {

// Compact JSON of an array or object, as dump() writes it, but only as far as a summary shows:
// the walk stops once the text is past kSummaryBytes, so its cost does not depend on the size
// or depth of the value.
std::string describe_structured(const Json& root) {
  BoundedText out(kSummaryBytes, cut_note(root.size(), root.is_array() ? "items" : "keys"));
  struct Level {
    const Json* value;
    std::size_t next;
  };
  std::vector<Level> stack{{&root, 0}};
  out.piece(root.is_array() ? "[" : "{");
  while (!stack.empty() && !out.full()) {
    Level& level = stack.back();
    const Json& v = *level.value;
    if (level.next == v.size()) {
      out.piece(v.is_array() ? "]" : "}");
      stack.pop_back();
      continue;
    }
    if (level.next > 0) out.piece(",");
    const Json* child = nullptr;
    if (v.is_array()) {
      child = &v[level.next];
    } else {
      const auto& entry = *(v.get_ref<const Json::object_t&>().begin() + static_cast<std::ptrdiff_t>(level.next));
      out.piece("\"");
      out.escaped(entry.first, true);
      out.piece("\":");
      child = &entry.second;
    }
    ++level.next;
    if (child->is_structured()) {
      out.piece(child->is_array() ? "[" : "{");
      stack.push_back({child, 0});
    } else if (child->is_string()) {
      out.piece("\"");
      out.escaped(child->get_ref<const std::string&>(), true);
      out.piece("\"");
    } else {
      out.piece(child->dump());  // a number, true, false or null: a few bytes
    }
  }
  return out.finish();
}

}  // namespace

std::string describe(const Json& v) {
  if (v.is_string()) return "\"" + summary(v.get_ref<const std::string&>(), kSummaryBytes - 2) + "\"";
  if (v.is_number()) return format_number(v.get<double>());
  if (v.is_structured()) return describe_structured(v);
  return v.dump();
}

Result<FieldReader> FieldReader::open(const Json& json, const std::string& path,
                                      const std::string& name,
                                      const std::vector<const char*>& known) {
  if (!json.is_object()) {
    if (path.empty())
      return make_error(Rule::FieldJsonObject, path, {{"field", name}, {"got", describe(json)}});
    return make_error(Rule::FieldObject, path, {{"field", dotted(path)}, {"got", describe(json)}});
  }
  for (const auto& item : json.items()) {
    bool listed = false;
    for (const char* k : known) listed = listed || item.key() == k;
    if (listed) continue;
    if (path.empty())
      return make_error(Rule::FieldUnknown, json_pointer_child(path, item.key()), {{"key", summary(item.key())}});
    return make_error(Rule::FieldUnknownIn, json_pointer_child(path, item.key()),
                      {{"key", summary(item.key())}, {"object", dotted(path)}});
  }
  return FieldReader(json, path);
}

Status FieldReader::require(std::initializer_list<const char*> keys) const {
  for (const char* key : keys)
    if (!has(key)) return make_error(Rule::FieldMissing, path(key), {{"field", name(key)}});
  return Ok{};
}

Status FieldReader::read(const char* key, int& out) const {
  if (!has(key)) return Ok{};
  auto v = int_from_json(at(key), path(key), name(key));
  if (!v.ok()) return v.error();
  out = v.value();
  return Ok{};
}

Status FieldReader::read(const char* key, double& out) const {
  if (!has(key)) return Ok{};
  auto v = number_from_json(at(key), path(key), name(key));
  if (!v.ok()) return v.error();
  out = v.value();
  return Ok{};
}

Status FieldReader::read(const char* key, bool& out) const {
  if (!has(key)) return Ok{};
  if (!at(key).is_boolean())
    return make_error(Rule::FieldBoolean, path(key), {{"field", name(key)}, {"got", describe(at(key))}});
  out = at(key).get<bool>();
  return Ok{};
}

Status FieldReader::read(const char* key, std::string& out) const {
  if (!has(key)) return Ok{};
  if (!at(key).is_string())
    return make_error(Rule::FieldString, path(key), {{"field", name(key)}, {"got", describe(at(key))}});
  out = at(key).get<std::string>();
  return Ok{};
}

Status FieldReader::read_in(const char* key, int lo, int hi, int& out) const {
  if (!has(key)) return Ok{};
  int v = out;
  if (Status st = read(key, v); !st.ok()) return st;
  if (Status st = int_in_range(v, lo, hi, name(key), path(key)); !st.ok()) return st;
  out = v;
  return Ok{};
}

Status int_in_range(int v, int lo, int hi, const std::string& name, const std::string& path) {
  if (v >= lo && v <= hi) return Ok{};
  return make_error(Rule::RangeInteger, path, {{"field", name}, {"min", lo}, {"max", hi}, {"got", v}});
}

Status positive_number(double v, double max, const std::string& name, const std::string& path) {
  if (!std::isfinite(v) || v <= 0)
    return make_error(Rule::RangePositive, path, {{"field", name}, {"got", v}});
  if (v > max) return make_error(Rule::RangeAtMost, path, {{"field", name}, {"max", max}, {"got", v}});
  return Ok{};
}

Status cost_in_range(double v, bool may_be_zero, const std::string& name, const std::string& path) {
  if (!std::isfinite(v) || v < 0 || (!may_be_zero && v == 0))
    return make_error(may_be_zero ? Rule::RangeNonNegative : Rule::RangePositive, path,
                      {{"field", name}, {"got", v}});
  if (!may_be_zero && v < 1 / kTicksPerUnit)
    return make_error(Rule::RangeResolution, path, {{"field", name}, {"min", 1 / kTicksPerUnit}, {"got", v}});
  if (v > kMaxCost) return make_error(Rule::RangeAtMost, path, {{"field", name}, {"max", kMaxCost}, {"got", v}});
  return Ok{};
}

Error with_path_prefix(Error error, const std::string& prefix) {
  if (!error.path.empty()) error.path = prefix + error.path;
  return error;
}

}  // namespace detail

Result<int> int_from_json(const Json& json, const std::string& path, const std::string& name) {
  const bool numeric = json.is_number() && !json.is_boolean();
  const auto type_error = [&](Rule rule) {
    return make_error(rule, path, {{"field", name}, {"got", detail::describe(json)}});
  };
  if (!numeric) return type_error(Rule::FieldInteger);
  const double v = json.get<double>();
  if (!std::isfinite(v) || std::floor(v) != v) return type_error(Rule::FieldInteger);
  if (v > std::numeric_limits<int>::max() || v < std::numeric_limits<int>::min())
    return type_error(Rule::FieldInteger32);
  return static_cast<int>(v);
}

Result<double> number_from_json(const Json& json, const std::string& path, const std::string& name) {
  if (!json.is_number() || json.is_boolean())
    return make_error(Rule::FieldNumber, path, {{"field", name}, {"got", detail::describe(json)}});
  return json.get<double>();
}

}  // namespace pipesim
