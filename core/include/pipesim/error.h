// Error model of pipesim: bad input travels as a value (Error inside Result<T>), broken invariants
// (our bugs) throw InternalError. Nothing here aborts, so the CLI and the WASM boundary can report
// every failure as one clear line or one JSON object.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace pipesim {

/// The most bytes a message spends quoting one value the user gave (a field's value, a key, an
/// op label, a flag): a longer one is cut to its start and its length (summary() in rules.h).
inline constexpr int kSummaryBytes = 80;
/// The most bytes any string param of an error may have; longer ones are cut the same way. Values
/// the user gave are already cut to kSummaryBytes; this bounds everything else (parser details,
/// deadlock lists, internal errors), so a message is always short.
inline constexpr int kMaxParamBytes = 200;

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
  /// The CLI could not write its output (a full disk, a closed stdout): the environment, not
  /// the input. Core and the JS API do no I/O and never raise it, so the catalogue's
  /// `errorCodes` (the codes a request can meet) stop at Internal.
  OutputFailed,
};

/// The snake_case id of an error code, e.g. "invalid_config".
const char* error_code_name(ErrorCode code);

/// One named value quoted in an error message, e.g. {"got", 3}. Numbers stay numbers, so a
/// client can format them its own way; text() is how the English message prints the value.
struct ErrorParam {
  template <typename T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  ErrorParam(std::string param_name, T v)  // NOLINT: implicit by design
      : name(std::move(param_name)), value(static_cast<std::int64_t>(v)) {}
  ErrorParam(std::string param_name, double v) : name(std::move(param_name)), value(v) {}
  ErrorParam(std::string param_name, std::string v) : name(std::move(param_name)), value(std::move(v)) {}
  ErrorParam(std::string param_name, const char* v) : name(std::move(param_name)), value(std::string(v)) {}

  std::string name;
  std::variant<std::int64_t, double, std::string> value;

  /// The value as the English message prints it (numbers with 15 significant digits).
  std::string text() const;
};
using ErrorParams = std::vector<ErrorParam>;

/// The error another one wraps (csv.schedule wraps a custom-schedule check's error with the row
/// and column it blames): its rule, params and path, so a client says it in another language
/// from the inner rule's template instead of reading the English text back.
struct ErrorCause {
  std::string rule;
  ErrorParams params;
  std::string path;
};

/// A user-facing failure. `message` is one English sentence naming the field, the rule and the
/// value; `path` is a JSON pointer into the input ("/costs/backward") or "" when no field is to
/// blame; `rule` is a stable id (pipesim/rules.h) and `params` the values the message quotes, so
/// a client can say the same thing in another language. The message is always the rule's
/// template filled in with the params: make errors with make_error (rules.h), never by hand.
struct Error {
  Error() {}  // NOLINT: user-provided so that Error{code, message, path} no longer compiles

  /// The error of rule `rule_id` whose message is `message_template` filled in with `params`
  /// (every {placeholder} needs a param and every param a placeholder, else InternalError).
  static Error from_template(ErrorCode code, std::string rule_id, const std::string& message_template,
                             std::string path, ErrorParams params);

  ErrorCode code = ErrorCode::Internal;
  std::string message;
  std::string path;
  std::string rule;
  ErrorParams params;
  std::optional<ErrorCause> cause;  ///< the wrapped error, for rules whose message quotes one
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
