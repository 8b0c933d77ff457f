// Private: a strict JSON scanner for traces, over one contiguous text. The trace reader pulls
// values from it one by one and keeps only what it needs, so a 100 MB trace is read in one pass
// without a document tree (nlohmann's own SAX parser managed ~15 MB/s on such a trace, this reads
// several hundred). Strings come back as views of the input when they hold no escape; values
// the reader does not need are checked and skipped without being copied.
//
// Grammar: RFC 8259, with one leniency: raw control characters inside strings are taken as they
// are, because the PyTorch profiler writes Python source lines with raw newlines into event
// names (pytorch/pytorch#113001). Strings must be valid UTF-8; \u escapes must pair surrogates.
// A leading byte order mark is skipped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace pipesim::detail {

class TraceJsonScanner {
 public:
  /// A UTF-8 byte order mark at the start is skipped, as nlohmann's parser skips it.
  explicit TraceJsonScanner(std::string_view text)
      : begin_(text.data()),
        p_(text.data() + (text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0)),
        end_(text.data() + text.size()) {}

  /// Bytes read so far.
  std::size_t offset() const { return static_cast<std::size_t>(p_ - begin_); }
  /// The next character after whitespace, or '\0' at the end of the text (never consumed).
  char peek() {
    skip_space();
    return p_ < end_ ? *p_ : '\0';
  }
  /// Consumes `c` if it is next (after whitespace).
  bool consume(char c) {
    if (peek() != c || p_ == end_) return false;
    ++p_;
    return true;
  }
  /// Consumes `c`, or fails with "expected <what>".
  bool expect(char c, const char* what) { return consume(c) || fail(what); }

  /// A string at the cursor; its text is a view of the input when it holds no escape, else of
  /// `buffer` (decoded into it), valid until `buffer` changes.
  bool string(std::string_view& out, std::string& buffer);
  /// A number at the cursor, as its literal text (a view of the input).
  bool number(std::string_view& literal);
  /// Checks and skips one value; `depth` arrays and objects are open around it.
  bool skip_value(int depth);

  /// Why the last call failed: a short phrase ("expected ',' or '}'"), the byte it failed at, and
  /// whether it failed for nesting deeper than kMaxJsonDepth.
  const char* problem() const { return problem_; }
  std::size_t problem_offset() const { return problem_offset_; }
  bool too_deep() const { return too_deep_; }
  /// Fails at the cursor with `what` (for the reader's own expectations).
  bool fail(const char* what) {
    problem_ = p_ == end_ ? "unexpected end of input" : what;
    problem_offset_ = offset();
    return false;
  }

 private:
  void skip_space() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }
  bool skip_string();
  bool scalar();
  bool escape(std::string* out);
  bool utf8_sequence();
  bool literal(const char* word, std::size_t length);

  const char* begin_;
  const char* p_;
  const char* end_;
  const char* problem_ = "";
  std::size_t problem_offset_ = 0;
  bool too_deep_ = false;
};

/// A JSON number literal as a whole number of 10^-`decimals` units (ts in microseconds with
/// decimals = 3 gives nanoseconds), rounded half away from zero. False when the value is outside
/// [-limit, limit]. `integral` says whether no rounding happened.
bool trace_fixed_point(std::string_view literal, int decimals, std::int64_t limit, std::int64_t& out,
                       bool& integral);

}  // namespace pipesim::detail
