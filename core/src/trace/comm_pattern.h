// Private: which kernels are communication. A comm pattern is a list of substrings separated by
// | ("nccl|deep_ep::"); a kernel whose name contains any of them is a communication kernel. Plain
// substrings rather than regular expressions: std::regex recurses per character (a long kernel
// name could overflow the stack) and costs the wasm module tens of KB.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pipesim::detail {

class CommPattern {
 public:
  /// The alternatives of a pattern validate_comm_pattern accepted.
  explicit CommPattern(const std::string& pattern);
  /// True when `kernel_name` contains one of the alternatives.
  bool matches(std::string_view kernel_name) const;

 private:
  std::vector<std::string> parts_;
};

}  // namespace pipesim::detail
