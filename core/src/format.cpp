// Number formatting shared by messages and text output.
#include "format.h"

#include <cmath>
#include <cstdio>

namespace pipesim::detail {

std::string format_number(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", value);
  return buf;
}

}  // namespace pipesim::detail
