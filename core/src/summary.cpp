// summary() of pipesim/rules.h: how a message quotes a value it did not choose. Messages are one
// line read by people and by terminals, so whatever the user sent (a 100 MB string, a newline in
// a key, bytes that are not UTF-8) is shown escaped and cut to its start and its length.
#include <cstdio>

#include "pipesim/rules.h"
#include "summary.h"

namespace pipesim {
namespace detail {

std::size_t utf8_sequence_length(const std::string& s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80) return 1;
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the range of the second byte (shortest form, no surrogates)
  if (lead >= 0xC2 && lead <= 0xDF) n = 2;
  else if (lead == 0xE0) n = 3, lo = 0xA0;
  else if ((lead >= 0xE1 && lead <= 0xEC) || lead == 0xEE || lead == 0xEF) n = 3;
  else if (lead == 0xED) n = 3, hi = 0x9F;
  else if (lead == 0xF0) n = 4, lo = 0x90;
  else if (lead >= 0xF1 && lead <= 0xF3) n = 4;
  else if (lead == 0xF4) n = 4, hi = 0x8F;
  else return 0;
  if (i + n > s.size() || byte(1) < lo || byte(1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if (byte(k) < 0x80 || byte(k) > 0xBF) return 0;
  return n;
}

void BoundedText::piece(const char* p, std::size_t n) {
  if (full()) return;
  out_.append(p, n);
  if (out_.size() <= fit_limit_) fit_ = out_.size();
}

void BoundedText::escaped(const std::string& text, bool json_quotes) {
  char buf[8];
  for (std::size_t i = 0; i < text.size() && !full();) {
    const std::size_t n = utf8_sequence_length(text, i);
    const auto lead = static_cast<unsigned char>(text[i]);
    unsigned code = lead;  // the code point, for the few multi-byte ones escaped below
    if (n == 2) code = ((lead & 0x1Fu) << 6) | (static_cast<unsigned char>(text[i + 1]) & 0x3Fu);
    if (n == 3)
      code = ((lead & 0x0Fu) << 12) | ((static_cast<unsigned char>(text[i + 1]) & 0x3Fu) << 6) |
             (static_cast<unsigned char>(text[i + 2]) & 0x3Fu);
    if (n == 0) {
      std::snprintf(buf, sizeof buf, "\\x%02x", lead);
      piece(buf, 4);
      i += 1;
      continue;
    }
    const char* short_escape = nullptr;
    switch (code) {
      case '\b': short_escape = "\\b"; break;
      case '\t': short_escape = "\\t"; break;
      case '\n': short_escape = "\\n"; break;
      case '\f': short_escape = "\\f"; break;
      case '\r': short_escape = "\\r"; break;
      case '"': short_escape = json_quotes ? "\\\"" : nullptr; break;
      case '\\': short_escape = json_quotes ? "\\\\" : nullptr; break;
      default: break;
    }
    if (short_escape != nullptr) {
      piece(short_escape, 2);
    } else if (n < 4 && (code < 0x20 || (code >= 0x7F && code <= 0x9F) || code == 0x2028 || code == 0x2029)) {
      std::snprintf(buf, sizeof buf, "\\u%04x", code);
      piece(buf, 6);
    } else {
      piece(text.data() + i, n);
    }
    i += n;
  }
}

std::string BoundedText::finish() {
  if (!full()) return std::move(out_);
  out_.resize(fit_);
  out_ += note_;
  return std::move(out_);
}

std::string cut_note(std::size_t length, const char* unit) {
  return "... (" + std::to_string(length) + " " + unit + ")";
}

}  // namespace detail

std::string summary(const std::string& text, std::size_t max_bytes) {
  detail::BoundedText out(max_bytes, detail::cut_note(text.size(), "bytes"));
  out.escaped(text, false);
  return out.finish();
}

}  // namespace pipesim
