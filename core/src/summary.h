// Private: text written up to a byte budget, for the values messages quote (summary() of
// pipesim/rules.h, and describe() in fields.cpp for JSON values).
#pragma once

#include <cstddef>
#include <string>

namespace pipesim::detail {

/// The length of the UTF-8 sequence at s[i] if it is a valid shortest-form encoding of a Unicode
/// scalar value, else 0.
std::size_t utf8_sequence_length(const std::string& s, std::size_t i);

/// "... (N <unit>)": how a cut value ends.
std::string cut_note(std::size_t length, const char* unit);

/// Text appended in pieces (characters, tokens) that stops growing once past max_bytes, so its
/// cost does not depend on how long the value is. finish() returns it whole if it fits, else cut
/// at the last piece that leaves room for `note`, with the note appended: never above max_bytes.
class BoundedText {
 public:
  BoundedText(std::size_t max_bytes, std::string note)
      : max_bytes_(max_bytes),
        fit_limit_(max_bytes > note.size() ? max_bytes - note.size() : 0),
        note_(std::move(note)) {}

  /// Past max_bytes: further pieces are ignored.
  bool full() const { return out_.size() > max_bytes_; }
  void piece(const char* p, std::size_t n);
  void piece(const std::string& p) { piece(p.data(), p.size()); }
  /// `text` character by character, control characters and bytes that are not UTF-8 escaped;
  /// with json_quotes also '"' and '\' (a string inside JSON text).
  void escaped(const std::string& text, bool json_quotes);
  std::string finish();

 private:
  std::string out_;
  std::size_t max_bytes_, fit_limit_;
  std::size_t fit_ = 0;  // length of out_ at the last piece boundary within fit_limit_
  std::string note_;
};

}  // namespace pipesim::detail
