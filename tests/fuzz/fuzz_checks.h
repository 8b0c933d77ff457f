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

/// Well-formed UTF-8 (shortest forms, no surrogates, at most U+10FFFF) with no control character
// (C0, DEL, C1, U+2028, U+2029): one line in any terminal. Decodes by the definition, apart from
// the library's own decoder.
inline bool one_clean_line(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    unsigned long cp = n == 1 ? c : n == 2 ? (c & 0x1fu) : n == 3 ? (c & 0x0fu) : (c & 0x07u);
    for (std::size_t k = 1; k < n; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      if ((b >> 6) != 0x2) return false;
      cp = (cp << 6) | (b & 0x3fu);
    }
    const unsigned long min = n == 1 ? 0 : n == 2 ? 0x80 : n == 3 ? 0x800 : 0x10000;
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029) return false;
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
