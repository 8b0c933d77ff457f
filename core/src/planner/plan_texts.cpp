// The planner's phrase table of pipesim/plan_texts.h and the one way its English is written: a
// template filled in, each param in its placeholder's format (web/js/lib/plan-text.js writes the
// same formats for the page).
#include "pipesim/plan_texts.h"

#include <cstdint>

#include "../format.h"
#include "pipesim/error.h"
#include "pipesim/schedule.h"
#include "plan_text.h"

namespace pipesim {
namespace {

struct Placeholder {
  std::string name;
  std::string format;  ///< "" when the placeholder names none
};

Placeholder parse_placeholder(const std::string& inside) {
  const std::size_t colon = inside.find(':');
  if (colon == std::string::npos) return {inside, ""};
  return {inside.substr(0, colon), inside.substr(colon + 1)};
}

std::string number_text(double v, const std::string& format) {
  using detail::fixed;
  if (format.empty()) return detail::format_number(v);
  if (format == "f0" || format == "f1" || format == "f2") return fixed(v, format[1] - '0');
  if (format == "pct") return detail::percent(v);
  if (format == "si") return detail::scaled(v);
  if (format == "k0" || format == "k1") return fixed(v / 1e3, format[1] - '0') + "K";
  detail::fail_check(__FILE__, __LINE__, "a plan template names an unknown number format");
}

std::string param_text(const PlanParam& param, const std::string& format) {
  if (const auto* i = std::get_if<std::int64_t>(&param.value))
    return format.empty() ? std::to_string(*i) : number_text(static_cast<double>(*i), format);
  if (const auto* d = std::get_if<double>(&param.value)) return number_text(*d, format);
  if (const auto* name = std::get_if<std::string>(&param.value)) {
    if (format.empty()) return *name;
    PIPESIM_CHECK(format == "title", "a plan template formats a name as something else");
    const ScheduleInfo* info = find_schedule_info(*name);
    return info != nullptr ? info->title : *name;
  }
  PIPESIM_CHECK(format.empty(), "a plan template formats a list of phrases");
  std::string text;
  for (const PlanText& item : std::get<std::vector<PlanText>>(param.value))
    text += (text.empty() ? "" : "; ") + item.english();
  return text;
}

bool ends_with(const std::string& text, const std::string& end) {
  return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

const PlanTextInfo* find_info(const std::string& id) {
  for (const PlanTextInfo& info : list_plan_texts())
    if (id == info.id) return &info;
  return nullptr;
}

/// The row of `text`: its own, or for a plural family the form English says `n` in (CLDR:
/// one for exactly 1, other otherwise).
const PlanTextInfo& info_of(const PlanText& text) {
  if (const PlanTextInfo* info = find_info(text.id)) return *info;
  const PlanParam* n = nullptr;
  for (const PlanParam& p : text.params)
    if (p.name == "n") n = &p;
  PIPESIM_CHECK(n != nullptr, "a plan phrase outside the table");
  const auto* count = std::get_if<std::int64_t>(&n->value);
  PIPESIM_CHECK(count != nullptr, "a plural family's {n} is an integer");
  const PlanTextInfo* info = find_info(text.id + (*count == 1 ? ".one" : ".other"));
  PIPESIM_CHECK(info != nullptr, "a plan phrase outside the table");
  return *info;
}

}  // namespace

const std::vector<PlanTextInfo>& list_plan_texts() {
  static const std::vector<PlanTextInfo> kTexts = {
#define PIPESIM_PLAN_TEXT_ROW(name, id, text) {PlanTextId::name, id, text},
      PIPESIM_PLAN_TEXTS(PIPESIM_PLAN_TEXT_ROW) PIPESIM_TRACE_TEXTS(PIPESIM_PLAN_TEXT_ROW)
          PIPESIM_MEMORY_TEXTS(PIPESIM_PLAN_TEXT_ROW)
#undef PIPESIM_PLAN_TEXT_ROW
  };
  return kTexts;
}

std::string plan_text_family(const std::string& id) {
  for (const char* form : {".one", ".other"})
    if (ends_with(id, form)) return id.substr(0, id.size() - std::char_traits<char>::length(form));
  return "";
}

std::vector<std::string> plan_text_params(const std::string& text) {
  std::vector<std::string> names;
  for (std::size_t open = text.find('{'); open != std::string::npos; open = text.find('{', open + 1)) {
    const std::size_t close = text.find('}', open);
    PIPESIM_CHECK(close != std::string::npos, "unclosed placeholder in a plan template");
    std::string name = parse_placeholder(text.substr(open + 1, close - open - 1)).name;
    bool seen = false;
    for (const auto& n : names) seen = seen || n == name;
    if (!seen) names.push_back(std::move(name));
  }
  return names;
}

PlanParam::PlanParam(std::string param_name, std::vector<PlanText> v)
    : name(std::move(param_name)), value(std::move(v)) {}
PlanParam::PlanParam(std::string param_name, PlanText v)
    : name(std::move(param_name)), value(std::vector<PlanText>{std::move(v)}) {}

PlanText plan_text(PlanTextId text, std::vector<PlanParam> params) {
  const auto index = static_cast<std::size_t>(text);
  PIPESIM_CHECK(index < list_plan_texts().size(), "plan phrase outside the table");
  const PlanTextInfo& info = list_plan_texts()[index];
  const std::vector<std::string> names = plan_text_params(info.message);
  PIPESIM_CHECK(names.size() == params.size(), "a plan phrase's params are not its placeholders");
  for (const std::string& name : names) {
    bool given = false;
    for (const PlanParam& p : params) given = given || p.name == name;
    PIPESIM_CHECK(given, "a plan phrase's placeholder has no param");
  }
  const std::string family = plan_text_family(info.id);
  if (family.empty()) return PlanText{info.id, std::move(params)};
  PIPESIM_CHECK(ends_with(info.id, ".other"), "a plural family is said from its .other row");
  PlanText said{family, std::move(params)};
  info_of(said);  // checks {n}
  return said;
}

Json plan_text_to_json(const PlanText& text) {
  Json params = Json::object();
  for (const PlanParam& p : text.params) {
    if (const auto* i = std::get_if<std::int64_t>(&p.value)) params[p.name] = *i;
    else if (const auto* d = std::get_if<double>(&p.value)) params[p.name] = *d;
    else if (const auto* name = std::get_if<std::string>(&p.value)) params[p.name] = *name;
    else {
      Json list = Json::array();
      for (const PlanText& item : std::get<std::vector<PlanText>>(p.value)) list.push_back(plan_text_to_json(item));
      params[p.name] = std::move(list);
    }
  }
  return Json{{"id", text.id}, {"params", std::move(params)}};
}

PlanText plan_text(PlanTextId text, std::initializer_list<PlanArg> args) {
  std::vector<PlanParam> params;
  params.reserve(args.size());
  for (const PlanArg& a : args) {
    switch (a.kind) {
      case PlanArg::Kind::Int: params.emplace_back(a.name, a.i); break;
      case PlanArg::Kind::Double: params.emplace_back(a.name, a.d); break;
      case PlanArg::Kind::Name: params.emplace_back(a.name, *a.s); break;
      case PlanArg::Kind::Chars: params.emplace_back(a.name, a.c); break;
      case PlanArg::Kind::Text: params.emplace_back(a.name, *a.t); break;
      case PlanArg::Kind::Texts: params.emplace_back(a.name, *a.ts); break;
    }
  }
  return plan_text(text, std::move(params));
}

std::string PlanText::english() const {
  const std::string tmpl = info_of(*this).message;
  std::string out;
  std::size_t pos = 0;
  while (pos < tmpl.size()) {
    const std::size_t open = tmpl.find('{', pos);
    if (open == std::string::npos) {
      out.append(tmpl, pos, std::string::npos);
      break;
    }
    const std::size_t close = tmpl.find('}', open);
    out.append(tmpl, pos, open - pos);
    const Placeholder ph = parse_placeholder(tmpl.substr(open + 1, close - open - 1));
    const PlanParam* param = nullptr;
    for (const PlanParam& p : params)
      if (p.name == ph.name) param = &p;
    PIPESIM_CHECK(param != nullptr, "a plan phrase's placeholder has no param");
    out += param_text(*param, ph.format);
    pos = close + 1;
  }
  return out;
}

}  // namespace pipesim
