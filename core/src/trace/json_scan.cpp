// The trace reader's JSON scanner (json_scan.h): hand-written for speed, byte by byte, with a
// table for the bytes a string may hold as they are.
#include "json_scan.h"

#include <array>
#include <cstring>

#include "pipesim/json.h"

namespace pipesim::detail {
namespace {

// Bytes a string holds as they are: ASCII but the quote and the backslash. Control characters
// are taken too (json_scan.h says why); bytes from 0x80 are checked as UTF-8.
constexpr std::array<bool, 256> kPlainStringByte = [] {
  std::array<bool, 256> plain{};
  for (int c = 0; c < 0x80; ++c) plain[static_cast<std::size_t>(c)] = c != '"' && c != '\\';
  return plain;
}();

bool is_digit(char c) { return c >= '0' && c <= '9'; }

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void append_utf8(std::string& out, unsigned long cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

constexpr std::uint64_t kPow10[] = {1ull,
                                    10ull,
                                    100ull,
                                    1000ull,
                                    10000ull,
                                    100000ull,
                                    1000000ull,
                                    10000000ull,
                                    100000000ull,
                                    1000000000ull,
                                    10000000000ull,
                                    100000000000ull,
                                    1000000000000ull,
                                    10000000000000ull,
                                    100000000000000ull,
                                    1000000000000000ull,
                                    10000000000000000ull,
                                    100000000000000000ull,
                                    1000000000000000000ull,
                                    10000000000000000000ull};

}  // namespace

bool TraceJsonScanner::utf8_sequence() {
  // RFC 3629's well-formed sequences: shortest forms only, no surrogates, at most U+10FFFF.
  const auto byte = [&](std::ptrdiff_t i) {
    return p_ + i < end_ ? static_cast<unsigned char>(p_[i]) : 0u;
  };
  const unsigned c = byte(0);
  unsigned lo = 0x80, hi = 0xBF;
  int continuation = 0;
  if (c >= 0xC2 && c <= 0xDF) {
    continuation = 1;
  } else if (c >= 0xE0 && c <= 0xEF) {
    continuation = 2;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    continuation = 3;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return fail("invalid UTF-8 in a string");
  }
  for (int i = 1; i <= continuation; ++i) {
    const unsigned b = byte(i);
    if (b < (i == 1 ? lo : 0x80) || b > (i == 1 ? hi : 0xBF)) {
      p_ += i;
      return fail("invalid UTF-8 in a string");
    }
  }
  p_ += continuation + 1;
  return true;
}

bool TraceJsonScanner::escape(std::string* out) {
  // At the backslash.
  ++p_;
  if (p_ == end_) return fail("unexpected end of input");
  const char c = *p_++;
  const char* simple = std::strchr("\"\\/bfnrt", c);
  if (c != '\0' && simple != nullptr) {
    if (out != nullptr) {
      static const char kDecoded[] = "\"\\/\b\f\n\r\t";
      *out += kDecoded[simple - "\"\\/bfnrt"];
    }
    return true;
  }
  if (c != 'u') {
    --p_;
    return fail("invalid escape in a string");
  }
  const auto unit = [&](unsigned long& v) {
    v = 0;
    for (int i = 0; i < 4; ++i) {
      const int h = p_ < end_ ? hex_value(*p_) : -1;
      if (h < 0) return fail("invalid \\u escape in a string");
      v = (v << 4) | static_cast<unsigned long>(h);
      ++p_;
    }
    return true;
  };
  unsigned long cp = 0;
  if (!unit(cp)) return false;
  if (cp >= 0xDC00 && cp <= 0xDFFF) return fail("unpaired surrogate in a \\u escape");
  if (cp >= 0xD800 && cp <= 0xDBFF) {
    unsigned long low = 0;
    if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') return fail("unpaired surrogate in a \\u escape");
    p_ += 2;
    if (!unit(low)) return false;
    if (low < 0xDC00 || low > 0xDFFF) return fail("unpaired surrogate in a \\u escape");
    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
  }
  if (out != nullptr) append_utf8(*out, cp);
  return true;
}

bool TraceJsonScanner::string(std::string_view& out, std::string& buffer) {
  if (peek() != '"') return fail("expected a string");
  const char* start = ++p_;
  for (;;) {  // the common case: no escape, so the text is a view of the input
    while (p_ < end_ && kPlainStringByte[static_cast<unsigned char>(*p_)]) ++p_;
    if (p_ == end_) return fail("unexpected end of input");
    if (*p_ == '"') {
      out = std::string_view(start, static_cast<std::size_t>(p_ - start));
      ++p_;
      return true;
    }
    if (*p_ == '\\') break;
    if (!utf8_sequence()) return false;
  }
  buffer.assign(start, static_cast<std::size_t>(p_ - start));
  for (;;) {
    if (p_ == end_) return fail("unexpected end of input");
    const char c = *p_;
    if (c == '"') {
      ++p_;
      out = buffer;
      return true;
    }
    if (c == '\\') {
      if (!escape(&buffer)) return false;
    } else if (kPlainStringByte[static_cast<unsigned char>(c)]) {
      buffer += c;
      ++p_;
    } else {
      const char* from = p_;
      if (!utf8_sequence()) return false;
      buffer.append(from, static_cast<std::size_t>(p_ - from));
    }
  }
}

bool TraceJsonScanner::skip_string() {
  ++p_;  // the opening quote
  for (;;) {
    while (p_ < end_ && kPlainStringByte[static_cast<unsigned char>(*p_)]) ++p_;
    if (p_ == end_) return fail("unexpected end of input");
    if (*p_ == '"') {
      ++p_;
      return true;
    }
    if (*p_ == '\\') {
      if (!escape(nullptr)) return false;
    } else if (!utf8_sequence()) {
      return false;
    }
  }
}

bool TraceJsonScanner::number(std::string_view& literal) {
  skip_space();
  const char* start = p_;
  if (p_ < end_ && *p_ == '-') ++p_;
  if (p_ < end_ && *p_ == '0') {
    ++p_;
  } else if (p_ < end_ && *p_ >= '1' && *p_ <= '9') {
    while (p_ < end_ && is_digit(*p_)) ++p_;
  } else {
    return fail("invalid number");
  }
  if (p_ < end_ && *p_ == '.') {
    ++p_;
    if (p_ == end_ || !is_digit(*p_)) return fail("invalid number");
    while (p_ < end_ && is_digit(*p_)) ++p_;
  }
  if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
    ++p_;
    if (p_ < end_ && (*p_ == '+' || *p_ == '-')) ++p_;
    if (p_ == end_ || !is_digit(*p_)) return fail("invalid number");
    while (p_ < end_ && is_digit(*p_)) ++p_;
  }
  literal = std::string_view(start, static_cast<std::size_t>(p_ - start));
  return true;
}

bool TraceJsonScanner::literal(const char* word, std::size_t length) {
  if (static_cast<std::size_t>(end_ - p_) < length || std::memcmp(p_, word, length) != 0)
    return fail("invalid literal");
  p_ += length;
  return true;
}

bool TraceJsonScanner::scalar() {
  switch (peek()) {
    case '"': return skip_string();
    case 't': return literal("true", 4);
    case 'f': return literal("false", 5);
    case 'n': return literal("null", 4);
    default: {
      std::string_view unused;
      return number(unused) || fail("expected a value");
    }
  }
}

bool TraceJsonScanner::skip_value(int depth) {
  // Iterative: one flag per open container (true: object), at most kMaxJsonDepth of them.
  bool is_object[kMaxJsonDepth];
  int open = 0;
  for (;;) {
    const char c = peek();
    if (c == '{' || c == '[') {
      if (depth + open + 1 > kMaxJsonDepth) {
        too_deep_ = true;
        return fail("nesting too deep");
      }
      ++p_;
      is_object[open++] = c == '{';
      if (consume(c == '{' ? '}' : ']')) {
        --open;
      } else {
        if (c == '{' && !(peek() == '"' ? skip_string() : fail("expected a key")) ) return false;
        if (c == '{' && !expect(':', "expected ':'")) return false;
        continue;  // the first value inside
      }
    } else if (!scalar()) {
      return false;
    }
    // After a value: close containers or move to the next value.
    for (;;) {
      if (open == 0) return true;
      if (consume(',')) {
        if (is_object[open - 1]) {
          if (!(peek() == '"' ? skip_string() : fail("expected a key"))) return false;
          if (!expect(':', "expected ':'")) return false;
        }
        break;
      }
      if (!expect(is_object[open - 1] ? '}' : ']', is_object[open - 1] ? "expected ',' or '}'" : "expected ',' or ']'"))
        return false;
      --open;
    }
  }
}

bool trace_fixed_point(std::string_view literal, int decimals, std::int64_t limit, std::int64_t& out,
                       bool& integral) {
  std::size_t i = 0;
  const bool negative = !literal.empty() && literal[0] == '-';
  if (negative) ++i;
  std::uint64_t digits = 0;
  int kept = 0;       // significant digits in `digits` (at most 19 fit)
  long exponent = 0;  // value = digits x 10^exponent
  bool dropped = false;  // a non-zero digit did not fit
  const auto add = [&](char c, bool fraction) {
    const auto d = static_cast<std::uint64_t>(c - '0');
    if (kept == 0 && d == 0) {
      if (fraction) --exponent;
      return;
    }
    if (kept < 19) {
      digits = digits * 10 + d;
      ++kept;
      if (fraction) --exponent;
    } else {
      if (!fraction) ++exponent;
      dropped = dropped || d != 0;
    }
  };
  for (; i < literal.size() && is_digit(literal[i]); ++i) add(literal[i], false);
  if (i < literal.size() && literal[i] == '.')
    for (++i; i < literal.size() && is_digit(literal[i]); ++i) add(literal[i], true);
  if (i < literal.size() && (literal[i] == 'e' || literal[i] == 'E')) {
    ++i;
    const bool minus = i < literal.size() && literal[i] == '-';
    if (i < literal.size() && (literal[i] == '-' || literal[i] == '+')) ++i;
    long e = 0;
    for (; i < literal.size() && is_digit(literal[i]); ++i) e = e > 100000 ? e : e * 10 + (literal[i] - '0');
    exponent += minus ? -e : e;
  }
  integral = !dropped;
  if (digits == 0) {
    out = 0;
    return true;
  }
  const long shift = exponent + decimals;
  std::uint64_t magnitude = 0;
  if (shift >= 0) {
    if (shift > 18 || digits > static_cast<std::uint64_t>(limit) / kPow10[shift]) return false;
    magnitude = digits * kPow10[shift];
  } else if (shift < -19) {
    integral = false;  // below half a unit: rounds to 0
  } else {
    const std::uint64_t unit = kPow10[-shift];
    const std::uint64_t rest = digits % unit;
    magnitude = digits / unit + (rest >= unit - rest ? 1 : 0);
    integral = integral && rest == 0;
  }
  if (magnitude > static_cast<std::uint64_t>(limit)) return false;
  out = negative ? -static_cast<std::int64_t>(magnitude) : static_cast<std::int64_t>(magnitude);
  return true;
}

}  // namespace pipesim::detail
