// Error model of pipesim: bad input travels as a value (Error inside Result<T>), broken invariants
// (our bugs) throw InternalError. Nothing here aborts, so the CLI and the WASM boundary can report
// every failure as one clear line or one JSON object.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

namespace pipesim {

/// Stable error identifiers. Their snake_case names (see error_code_name) are part of the JSON and
/// JS APIs, so never renumber or rename one.
enum class ErrorCode {
  InvalidConfig,    ///< a field has the wrong type or is out of range
  UnknownSchedule,  ///< the schedule name is not one of list_schedules()
  InvalidSchedule,  ///< an op list is malformed (missing, duplicated or misplaced ops)
  TooLarge,         ///< the problem exceeds the documented size cap (kMaxOps)
  Deadlock,         ///< the op lists can never complete: ops wait on each other
  ParseError,       ///< the input is not valid JSON
  Internal,         ///< a broken invariant inside pipesim (a bug)
};

/// The snake_case id of an error code, e.g. "invalid_config".
const char* error_code_name(ErrorCode code);

/// A user-facing failure: `message` is one sentence naming the field, the rule and the value;
/// `path` is a JSON pointer into the input ("/costs/backward") or "" when no field is to blame.
struct Error {
  ErrorCode code = ErrorCode::Internal;
  std::string message;
  std::string path;
};

/// Either a value or an Error. Small on purpose: ok(), value(), error().
template <typename T>
class Result {
 public:
  Result(T value) : state_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Error error) : state_(std::move(error)) {}  // NOLINT: implicit by design

  bool ok() const { return std::holds_alternative<T>(state_); }
  const T& value() const& { return std::get<T>(state_); }
  T&& value() && { return std::get<T>(std::move(state_)); }
  const Error& error() const { return std::get<Error>(state_); }

 private:
  std::variant<T, Error> state_;
};

/// Result of an operation that returns nothing on success.
struct Ok {};
using Status = Result<Ok>;

/// Thrown only by PIPESIM_CHECK: a bug in pipesim, never the user's input.
class InternalError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

namespace detail {
[[noreturn]] void fail_check(const char* file, int line, const char* what);
}  // namespace detail

}  // namespace pipesim

/// Asserts an internal invariant; on failure throws pipesim::InternalError carrying file:line.
#define PIPESIM_CHECK(cond, what) \
  do {                            \
    if (!(cond)) ::pipesim::detail::fail_check(__FILE__, __LINE__, what); \
  } while (false)
