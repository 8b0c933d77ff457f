// The rule table of pipesim/rules.h and the one way errors are made: a template filled in.
#include "pipesim/rules.h"

#include <cstdint>

#include "format.h"

namespace pipesim {

const std::vector<RuleInfo>& list_rules() {
  static const std::vector<RuleInfo> kRules = {
#define PIPESIM_RULE_ROW(name, id, code, text) {Rule::name, id, ErrorCode::code, text},
      PIPESIM_RULES(PIPESIM_RULE_ROW)
#undef PIPESIM_RULE_ROW
  };
  return kRules;
}

const RuleInfo& rule_info(Rule rule) {
  const auto& rules = list_rules();
  const auto index = static_cast<std::size_t>(rule);
  PIPESIM_CHECK(index < rules.size(), "rule outside the table");
  return rules[index];
}

std::vector<std::string> template_params(const std::string& text) {
  std::vector<std::string> names;
  for (std::size_t open = text.find('{'); open != std::string::npos; open = text.find('{', open + 1)) {
    const std::size_t close = text.find('}', open);
    PIPESIM_CHECK(close != std::string::npos, "unclosed placeholder in a message template");
    std::string name = text.substr(open + 1, close - open - 1);
    bool seen = false;
    for (const auto& n : names) seen = seen || n == name;
    if (!seen) names.push_back(std::move(name));
  }
  return names;
}

Error make_error(Rule rule, std::string path, ErrorParams params) {
  const RuleInfo& info = rule_info(rule);
  return Error::from_template(info.code, info.id, info.message, std::move(path), std::move(params));
}

Error make_error(Rule rule, std::string path, std::initializer_list<ErrorArg> args) {
  ErrorParams params;
  params.reserve(args.size());
  for (const ErrorArg& a : args) {
    switch (a.kind) {
      case ErrorArg::Kind::Int: params.emplace_back(a.name, a.i); break;
      case ErrorArg::Kind::Double: params.emplace_back(a.name, a.d); break;
      case ErrorArg::Kind::String: params.emplace_back(a.name, *a.s); break;
      case ErrorArg::Kind::Chars: params.emplace_back(a.name, a.c); break;
    }
  }
  return make_error(rule, std::move(path), std::move(params));
}

Error make_error(Rule rule, const char* path, std::initializer_list<ErrorArg> args) {
  return make_error(rule, std::string(path), args);
}

std::string ErrorParam::text() const {
  if (const auto* i = std::get_if<std::int64_t>(&value)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&value)) return detail::format_number(*d);
  return std::get<std::string>(value);
}

Error Error::from_template(ErrorCode code, std::string rule_id, const std::string& message_template,
                           std::string path, ErrorParams params) {
  Error e;
  e.code = code;
  e.rule = std::move(rule_id);
  e.path = std::move(path);
  // Whatever a param holds, the message stays one short line (values the user gave are already
  // summaries of kSummaryBytes, which this leaves as they are).
  for (ErrorParam& p : params)
    if (auto* text = std::get_if<std::string>(&p.value)) *text = summary(*text, kMaxParamBytes);
  std::uint64_t used = 0;  // bit i: params[i] was quoted
  std::size_t pos = 0;
  while (pos < message_template.size()) {
    const std::size_t open = message_template.find('{', pos);
    if (open == std::string::npos) {
      e.message.append(message_template, pos, std::string::npos);
      break;
    }
    const std::size_t close = message_template.find('}', open);
    PIPESIM_CHECK(close != std::string::npos, "unclosed placeholder in a message template");
    e.message.append(message_template, pos, open - pos);
    const std::string name = message_template.substr(open + 1, close - open - 1);
    const ErrorParam* param = nullptr;
    for (std::size_t i = 0; i < params.size() && param == nullptr; ++i)
      if (params[i].name == name) {
        param = &params[i];
        used |= std::uint64_t{1} << i;
      }
    PIPESIM_CHECK(param != nullptr, "an error message placeholder has no param");
    e.message += param->text();
    pos = close + 1;
  }
  PIPESIM_CHECK(params.size() < 64 && used == (std::uint64_t{1} << params.size()) - 1,
                "an error param has no placeholder in its message");
  e.params = std::move(params);
  return e;
}

}  // namespace pipesim
