// Field readers for the exercise calculators' JSON requests (see fields.h).
#include "fields.h"

#include <cmath>

#include "format.h"

namespace pipesim::detail {
namespace {

Error invalid(const std::string& message, const std::string& path) {
  return Error{ErrorCode::InvalidConfig, message, path};
}

std::string describe(const Json& v) {
  if (v.is_string()) return "\"" + v.get<std::string>() + "\"";
  if (v.is_number()) return format_number(v.get<double>());
  return v.dump();
}

}  // namespace

Status check_object(const Json& json, const std::string& path, const std::string& name,
                    const std::set<std::string>& known) {
  if (!json.is_object())
    return invalid(name + " must be a JSON object (got " + describe(json) + ")", path);
  for (const auto& item : json.items())
    if (known.count(item.key()) == 0)
      return invalid(
          "unknown field \"" + item.key() + "\"" + (path.empty() ? "" : " in " + path.substr(1)),
          path + "/" + item.key());
  return Ok{};
}

Status read_int(const Json& object, const std::string& key, const std::string& path,
                const std::string& prefix, int& out) {
  if (!object.contains(key)) return Ok{};
  auto v = int_from_json(object.at(key), path + "/" + key, prefix + key);
  if (!v.ok()) return v.error();
  out = v.value();
  return Ok{};
}

Status read_number(const Json& object, const std::string& key, const std::string& path,
                   const std::string& prefix, double& out) {
  if (!object.contains(key)) return Ok{};
  auto v = number_from_json(object.at(key), path + "/" + key, prefix + key);
  if (!v.ok()) return v.error();
  out = v.value();
  return Ok{};
}

Status read_bool(const Json& object, const std::string& key, const std::string& path,
                 const std::string& prefix, bool& out) {
  if (!object.contains(key)) return Ok{};
  const Json& v = object.at(key);
  if (!v.is_boolean())
    return invalid(prefix + key + " must be true or false (got " + describe(v) + ")",
                   path + "/" + key);
  out = v.get<bool>();
  return Ok{};
}

Status read_string(const Json& object, const std::string& key, const std::string& path,
                   const std::string& prefix, std::string& out) {
  if (!object.contains(key)) return Ok{};
  const Json& v = object.at(key);
  if (!v.is_string())
    return invalid(prefix + key + " must be a string (got " + describe(v) + ")", path + "/" + key);
  out = v.get<std::string>();
  return Ok{};
}

Status int_in_range(int v, int lo, int hi, const std::string& name, const std::string& path) {
  if (v >= lo && v <= hi) return Ok{};
  return invalid(name + " must be an integer in [" + std::to_string(lo) + ", " +
                     std::to_string(hi) + "] (got " + std::to_string(v) + ")",
                 path);
}

Status positive_number(double v, double max, const std::string& name, const std::string& path) {
  if (!std::isfinite(v) || v <= 0)
    return invalid(name + " must be a finite number > 0 (got " + format_number(v) + ")", path);
  if (v > max)
    return invalid(name + " must be <= " + format_number(max) + " (got " + format_number(v) + ")",
                   path);
  return Ok{};
}

Error with_path_prefix(Error error, const std::string& prefix) {
  if (!error.path.empty()) error.path = prefix + error.path;
  return error;
}

}  // namespace pipesim::detail
