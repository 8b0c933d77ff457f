// Private: number formatting for the planner's reasoning and its Markdown page.
#pragma once

#include <cstdio>
#include <string>

namespace pipesim::detail {

/// `value` with `digits` decimals: fixed(0.1234, 1) = "0.1".
inline std::string fixed(double value, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, value);
  return buf;
}

/// A fraction as a percentage with two decimals: 0.05263 -> "5.26%".
inline std::string percent(double fraction) { return fixed(100 * fraction, 2) + "%"; }

/// 6.71e11 -> "671B", 7e9 -> "7B", 3.7e10 -> "37B", 1.48e13 -> "14.8T".
inline std::string scaled(double value) {
  const char* unit = "";
  double v = value;
  if (value >= 1e12) {
    v = value / 1e12;
    unit = "T";
  } else if (value >= 1e9) {
    v = value / 1e9;
    unit = "B";
  } else if (value >= 1e6) {
    v = value / 1e6;
    unit = "M";
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4g%s", v, unit);
  return buf;
}

}  // namespace pipesim::detail
