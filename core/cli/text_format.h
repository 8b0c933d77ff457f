// Number and column formatting shared by the CLI's text and Markdown output (text_output.cpp,
// exercise_commands.cpp, plan_commands.cpp): one definition, so every command writes a number
// the same way.
#pragma once

#include <cstdio>
#include <string>

namespace pipesim::cli {

/// `v` with `decimals` digits after the point ("%.*f").
inline std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

/// `v` in at most 10 significant digits, without trailing zeros ("%.10g").
inline std::string shortest(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

/// `v` rounded to an integer with thousands separators: 70553706496 -> "70,553,706,496".
inline std::string grouped(double v) {
  const std::string digits = fixed(v, 0);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0 && digits[i - 1] != '-') out += ',';
    out += digits[i];
  }
  return out;
}

/// `s` right-aligned in a column `width` characters wide (never cut).
inline std::string pad_left(const std::string& s, std::size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

/// `s` left-aligned in a column `width` characters wide (never cut).
inline std::string pad_right(std::string s, std::size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

}  // namespace pipesim::cli
