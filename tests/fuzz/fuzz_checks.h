// Shared by the libFuzzer harnesses: the properties every error must have, whatever the input
// (issue 13). A broken property traps, which libFuzzer reports as a crash with its input.
#pragma once

#include <string>

#include "pipesim/json.h"
#include "pipesim/rules.h"

namespace pipesim::fuzz {

#define PIPESIM_FUZZ_REQUIRE(cond) \
  do {                              \
    if (!(cond)) __builtin_trap();  \
  } while (false)

/// Well-formed UTF-8 without control characters (C0, DEL, C1, U+2028, U+2029): one line.
inline bool one_clean_line(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
    if (n == 0 || i + n > s.size() || c < 0x20 || c == 0x7f) return false;
    for (std::size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return false;
    const auto b1 = n > 1 ? static_cast<unsigned char>(s[i + 1]) : 0;
    if (n == 2 && (c < 0xc2 || (c == 0xc2 && b1 < 0xa0))) return false;  // overlong or C1
    if (n == 3 && c == 0xe2 && b1 == 0x80 && (s[i + 2] == '\xa8' || s[i + 2] == '\xa9')) return false;
    i += n;
  }
  return true;
}

/// An error as the CLI would print it: one clean line of at most 300 bytes, its message its
/// rule's template filled with its params, its path short, its JSON writable.
inline void check_error(const Error& e) {
  const std::string line = std::string("pipesim: ") + error_code_name(e.code) + ": " + e.message;
  PIPESIM_FUZZ_REQUIRE(one_clean_line(line));
  PIPESIM_FUZZ_REQUIRE(line.size() <= 300);
  PIPESIM_FUZZ_REQUIRE(e.path.size() <= static_cast<std::size_t>(kMaxPathBytes) + 32);
  PIPESIM_FUZZ_REQUIRE(e.code != ErrorCode::Internal);
  const RuleInfo* info = nullptr;
  for (const RuleInfo& r : list_rules())
    if (e.rule == r.id) info = &r;
  PIPESIM_FUZZ_REQUIRE(info != nullptr && info->code == e.code);
  std::string rebuilt = info->message;
  for (const ErrorParam& p : e.params) {
    const std::string key = "{" + p.name + "}";
    for (auto at = rebuilt.find(key); at != std::string::npos; at = rebuilt.find(key, at + p.text().size()))
      rebuilt.replace(at, key.size(), p.text());
    if (std::holds_alternative<std::string>(p.value))
      PIPESIM_FUZZ_REQUIRE(p.text().size() <= static_cast<std::size_t>(kMaxParamBytes));
  }
  PIPESIM_FUZZ_REQUIRE(rebuilt == e.message);
  (void)error_to_json(e).dump();  // throws (and so aborts the run) on invalid UTF-8
}

}  // namespace pipesim::fuzz
