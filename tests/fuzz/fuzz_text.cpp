// libFuzzer harness: the functions every message and every CLI number goes through. summary():
// at most its budget, one clean line, a summary of a summary is itself, clean short text comes
// back unchanged. parse_json_number(): only the JSON number grammar (its text re-parses as JSON to
// the same number). json_pointer_child(): never longer than kMaxPathBytes.
#include <cstddef>
#include <cstdint>

#include "fuzz_checks.h"

using namespace pipesim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (std::size_t budget : {std::size_t{0}, std::size_t{20}, std::size_t{kSummaryBytes}, std::size_t{kMaxParamBytes}}) {
    const std::string s = summary(text, budget);
    PIPESIM_FUZZ_REQUIRE(fuzz::one_clean_line(s));
    PIPESIM_FUZZ_REQUIRE(s.size() <= budget || s.size() <= 40);  // a tiny budget still gets the note
    if (s.size() <= budget) PIPESIM_FUZZ_REQUIRE(summary(s, budget) == s);
    if (fuzz::one_clean_line(text) && text.size() <= budget) PIPESIM_FUZZ_REQUIRE(s == text);
  }
  if (auto number = parse_json_number(text)) {
    PIPESIM_FUZZ_REQUIRE(number->is_number());
    PIPESIM_FUZZ_REQUIRE(!text.empty() && text.find_first_not_of("0123456789-+.eE") == std::string::npos);
    PIPESIM_FUZZ_REQUIRE(Json::parse(text) == *number);
  }
  const std::string path = json_pointer_child("/costs", text);
  PIPESIM_FUZZ_REQUIRE(path.size() <= static_cast<std::size_t>(kMaxPathBytes));
  return 0;
}
