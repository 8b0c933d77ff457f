// Private: number formatting for messages and text output (shortest form that reads back).
#pragma once

#include <string>

namespace pipesim::detail {

/// 6 -> "6", 4.2 -> "4.2", 0.30434782608695654 -> "0.304347826086957" (15 significant digits).
std::string format_number(double value);

}  // namespace pipesim::detail
