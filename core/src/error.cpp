// Error code names and the PIPESIM_CHECK failure path.
#include "pipesim/error.h"

namespace pipesim {

const char* error_code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::InvalidConfig: return "invalid_config";
    case ErrorCode::UnknownSchedule: return "unknown_schedule";
    case ErrorCode::InvalidSchedule: return "invalid_schedule";
    case ErrorCode::TooLarge: return "too_large";
    case ErrorCode::Deadlock: return "deadlock";
    case ErrorCode::ParseError: return "parse_error";
    case ErrorCode::Internal: return "internal";
    case ErrorCode::OutputFailed: return "output_failed";
  }
  return "internal";
}

namespace detail {
void fail_check(const char* file, int line, const char* what) {
  throw InternalError(std::string("internal error at ") + file + ":" + std::to_string(line) +
                      ": " + what);
}
}  // namespace detail

}  // namespace pipesim
