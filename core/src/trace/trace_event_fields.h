// Private: the event fields the trace reader looks at (trace_events.cpp), how a value of one is
// kept while its event is read, the bounds on their values, and the helpers that name them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "../summary.h"
#include "pipesim/error.h"
#include "pipesim/rules.h"

namespace pipesim::detail {

// Microseconds of a timestamp or duration: 4e15 us (127 years) both ways, so ts + dur stays
// inside an int64 of nanoseconds.
constexpr double kMaxTraceMicros = 4e15;
constexpr std::int64_t kMaxTraceNanos = 4'000'000'000'000'000'000;
// Ids (correlation, device, stream, and pid, tid or flow id when numbers): JS-safe integers.
constexpr std::int64_t kMaxTraceId = std::int64_t{1} << 53;

// A value as read: its JSON type ('s' string, 'n' number, 'o' anything else, 0 absent) and text
// (a string's decoded text, a number's literal, anything else's raw JSON).
struct Token {
  char type = 0;
  std::string_view text;
};

// The fields of one event the reader looks at.
enum Field : unsigned { kPh, kCat, kName, kPid, kTid, kTs, kDur, kId, kArgs, kCorrelation, kDevice, kStream, kFields };
constexpr std::string_view kFieldKeys[kFields] = {"ph", "cat", "name", "pid", "tid", "ts", "dur", "id", "args",
                                                  "correlation", "device", "stream"};

// The Field a key names, or kFields: by length first, so most keys cost one comparison.
inline unsigned field_of(std::string_view k) {
  switch (k.size()) {
    case 2: return k == "ph" ? kPh : k == "ts" ? kTs : k == "id" ? kId : kFields;
    case 3: return k == "cat" ? kCat : k == "pid" ? kPid : k == "tid" ? kTid : k == "dur" ? kDur : kFields;
    case 4: return k == "name" ? kName : k == "args" ? kArgs : kFields;
    case 6: return k == "device" ? kDevice : k == "stream" ? kStream : kFields;
    case 11: return k == "correlation" ? kCorrelation : kFields;
    default: return kFields;
  }
}

// Kineto's categories of GPU events; `memory` tells memcpy and memset from kernels.
inline bool is_gpu_category(std::string_view cat, bool& memory) {
  const auto same = [&](std::string_view word) {  // ASCII case-insensitive: older Kineto wrote "Kernel"
    if (cat.size() != word.size()) return false;
    for (std::size_t i = 0; i < cat.size(); ++i) {
      const char c = cat[i] >= 'A' && cat[i] <= 'Z' ? static_cast<char>(cat[i] - 'A' + 'a') : cat[i];
      if (c != word[i]) return false;
    }
    return true;
  };
  memory = same("gpu_memcpy") || same("gpu_memset") || same("memcpy") || same("memset");
  return memory || same("kernel");
}

// `raw` (JSON text from the input) as a message quotes a value: one line, at most kSummaryBytes.
inline std::string quote_raw(std::string_view raw) {
  if (raw.size() <= 2 * static_cast<std::size_t>(kSummaryBytes)) return summary(std::string(raw));
  BoundedText text(kSummaryBytes, cut_note(raw.size(), "bytes"));
  text.escaped(std::string(raw.substr(0, 2 * static_cast<std::size_t>(kSummaryBytes))), false);
  return text.finish();
}

}  // namespace pipesim::detail
