// Comparisons: two or more sides (models, layouts or schedules) counted under one accounting. The
// shared fields are written once; a side lays its own over them, so the recipe, the ZeRO stage and
// the layout policy (how DP is chosen) are the same on every side unless a side sets them itself,
// and the result says which agree. memory_json() answers a single request or a comparison.
#include <string>
#include <vector>

#include "fields.h"
#include "pipesim/memory.h"
#include "pipesim/rules.h"

namespace pipesim {
namespace {

// The shared fields with `side`'s laid over them: a layout object merges key by key, and a side
// that names its model drops the shared bare count (and the other way round).
Json merged_side(const Json& shared, const Json& side) {
  Json merged = shared;
  if (side.contains("model") || side.contains("custom"))
    for (const char* k : {"params", "routedParams", "shape", "custom"}) merged.erase(k);
  if (side.contains("params"))
    for (const char* k : {"model", "custom"}) merged.erase(k);
  for (const auto& item : side.items()) {
    if (item.key() == "layout" && item.value().is_object() && merged.contains("layout") &&
        merged["layout"].is_object()) {
      for (const auto& field : item.value().items()) merged["layout"][field.key()] = field.value();
      // DP follows from the shared GPU count unless the side gives its own.
      if (item.value().contains("dp") && !item.value().contains("gpus")) merged["layout"].erase("gpus");
      if (item.value().contains("gpus") && !item.value().contains("dp")) merged["layout"].erase("dp");
    } else {
      merged[item.key()] = item.value();
    }
  }
  return merged;
}

// The error names the side when the field at fault is one the side set itself.
Error side_error(Error e, const Json& side, std::size_t index) {
  const std::size_t start = e.path.size() > 1 ? 1 : 0;
  const std::string first = e.path.substr(start, e.path.find('/', 1) - start);
  bool own = !first.empty() && side.contains(first);
  if (own && first == "layout" && side["layout"].is_object()) {
    const std::size_t second = e.path.find('/', 1);
    own = second == std::string::npos ||
          side["layout"].contains(e.path.substr(second + 1, e.path.find('/', second + 1) - second - 1));
  }
  return own ? detail::with_path_prefix(std::move(e), "/sides/" + std::to_string(index)) : e;
}

std::string policy_text(const MemoryRequest& q) {
  return q.dp_from_gpus ? "all " + std::to_string(q.layout.gpus()) + " GPUs, DP = GPUs / (TP x PP)"
                        : "DP " + std::to_string(q.layout.dp) + " as given";
}

std::string side_name(const MemoryResult& r, std::size_t i) {
  return "side " + std::to_string(i + 1) + " (" + r.request.model.label + ", " + r.request.schedule + ")";
}

std::string accounting_text(const MemoryComparison& c) {
  const MemoryResult& first = c.sides.front();
  if (c.same_recipe && c.same_sharding && c.same_layout_policy)
    return "every side: " + first.recipe.label + " recipe, ZeRO-" + std::to_string(first.request.zero) +
           " over each side's data-parallel group, " + policy_text(first.request);
  std::string text = "set apart by the request:";
  const auto list = [&](const char* what, auto value) {
    text += std::string(" ") + what + " (";
    for (std::size_t i = 0; i < c.sides.size(); ++i)
      text += (i ? "; " : "") + side_name(c.sides[i], i) + ": " + value(c.sides[i]);
    text += ")";
  };
  if (!c.same_recipe) list("recipe", [](const MemoryResult& r) { return r.recipe.label; });
  if (!c.same_sharding)
    list("sharding", [](const MemoryResult& r) { return "ZeRO-" + std::to_string(r.request.zero); });
  if (!c.same_layout_policy)
    list("layout policy", [](const MemoryResult& r) { return policy_text(r.request); });
  return text;
}

bool same_policy(const MemoryRequest& a, const MemoryRequest& b) {
  if (a.dp_from_gpus != b.dp_from_gpus) return false;
  return a.dp_from_gpus ? a.layout.gpus() == b.layout.gpus() : a.layout.dp == b.layout.dp;
}

}  // namespace

Result<MemoryComparison> memory_comparison(const Json& json) {
  if (!json.is_object())
    return make_error(Rule::FieldJsonObject, "", {{"field", "memory request"}, {"got", detail::describe(json)}});
  const Json& sides = json.at("sides");
  if (!sides.is_array() || sides.size() < 2 || sides.size() > kMaxMemorySides)
    return make_error(Rule::MemorySides, "/sides", {{"max", kMaxMemorySides}, {"got", detail::describe(sides)}});
  Json shared = json;
  shared.erase("sides");
  MemoryComparison c;
  for (std::size_t i = 0; i < sides.size(); ++i) {
    const Json& side = sides[i];
    const std::string path = "/sides/" + std::to_string(i);
    if (!side.is_object())
      return make_error(Rule::FieldObject, path, {{"field", detail::dotted(path)}, {"got", detail::describe(side)}});
    auto request = memory_request_from_json(merged_side(shared, side));
    if (!request.ok()) return side_error(request.error(), side, i);
    auto result = memory(request.value());
    if (!result.ok()) return side_error(result.error(), side, i);
    c.sides.push_back(std::move(result.value()));
  }
  for (const MemoryResult& r : c.sides) {
    const MemoryRequest& a = c.sides.front().request;
    c.same_recipe = c.same_recipe && r.request.recipe == a.recipe;
    c.same_sharding = c.same_sharding && r.request.zero == a.zero;
    c.same_layout_policy = c.same_layout_policy && same_policy(r.request, a);
  }
  c.accounting = accounting_text(c);
  return c;
}

Json memory_comparison_to_json(const MemoryComparison& c) {
  Json sides = Json::array();
  for (const MemoryResult& r : c.sides) sides.push_back(memory_result_to_json(r));
  return Json{{"sides", std::move(sides)},
              {"accounting", Json{{"same", c.same_recipe && c.same_sharding && c.same_layout_policy},
                                  {"sameRecipe", c.same_recipe},
                                  {"sameSharding", c.same_sharding},
                                  {"sameLayoutPolicy", c.same_layout_policy},
                                  {"text", c.accounting}}}};
}

Result<Json> memory_json(const Json& request) {
  if (request.is_object() && request.contains("sides")) {
    auto c = memory_comparison(request);
    if (!c.ok()) return c.error();
    return memory_comparison_to_json(c.value());
  }
  auto q = memory_request_from_json(request);
  if (!q.ok()) return q.error();
  auto r = memory(q.value());
  if (!r.ok()) return r.error();
  return memory_result_to_json(r.value());
}

}  // namespace pipesim
