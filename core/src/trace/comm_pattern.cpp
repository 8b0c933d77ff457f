// The comm pattern (comm_pattern.h) and its validation (validate_comm_pattern of pipesim/trace.h).
#include "comm_pattern.h"

#include "pipesim/rules.h"
#include "pipesim/trace.h"

namespace pipesim {
namespace detail {
namespace {

std::vector<std::string> pattern_parts(const std::string& pattern) {
  std::vector<std::string> parts;
  std::size_t from = 0;
  for (;;) {
    const std::size_t bar = pattern.find('|', from);
    parts.push_back(pattern.substr(from, bar == std::string::npos ? std::string::npos : bar - from));
    if (bar == std::string::npos) return parts;
    from = bar + 1;
  }
}

}  // namespace

CommPattern::CommPattern(const std::string& pattern) : parts_(pattern_parts(pattern)) {}

bool CommPattern::matches(std::string_view kernel_name) const {
  for (const std::string& part : parts_)
    if (kernel_name.find(part) != std::string_view::npos) return true;
  return false;
}

}  // namespace detail

Status validate_comm_pattern(const std::string& pattern, const std::string& path) {
  bool ok = !pattern.empty() && pattern.size() <= static_cast<std::size_t>(kMaxCommPatternBytes);
  if (ok) {
    const auto parts = detail::pattern_parts(pattern);
    ok = parts.size() <= static_cast<std::size_t>(kMaxCommPatternParts);
    for (const std::string& part : parts) ok = ok && !part.empty();
  }
  if (ok) return Ok{};
  return make_error(Rule::ProfileCommPattern, path,
                    {{"maxParts", kMaxCommPatternParts}, {"maxBytes", kMaxCommPatternBytes}, {"got", summary(pattern)}});
}

}  // namespace pipesim
