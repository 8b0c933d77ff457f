// A simulation result as JSON text without a JSON tree for its timeline (result_json_text and
// write_result_json of pipesim/json.h). The largest legal run has 2,000,000 ops: as nlohmann
// objects they took 1-1.5 GB and most of 13-31 s, against 1-4 s for the text output. Here each op
// is formatted straight into a 64 KB block. The bytes are result_to_json(result).dump()'s: the
// part before the timeline is that very dump (it is small), and every number is written as dump()
// writes it (tests/core/hostile_input_test.cpp and the request fuzzer compare the two).
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "pipesim/json.h"

namespace pipesim {
namespace {

// The most bytes one op's JSON can take: an FB pair with six 11-character ints and two
// 24-character numbers is under 250.
constexpr std::size_t kMaxOpBytes = 512;

// Formats timeline ops as op_fields_to_json plus "start" and "end" would dump them, straight into
// the caller's buffer.
class OpWriter {
 public:
  // Writes `t` at `p`, which has room for kMaxOpBytes; returns the end.
  char* format(const TimedOp& t, char* p) {
    p_ = p;
    text("{\"op\":\"");
    text(op_kind_name(t.op.kind));
    if (t.op.kind == OpKind::ForwardBackward) {
      chunk("\",\"fdir\":", ",\"fmb\":", ",\"fstage\":", t.op.chunk);
      chunk(",\"bdir\":", ",\"bmb\":", ",\"bstage\":", t.op.backward_chunk);
    } else {
      chunk("\",\"dir\":", ",\"mb\":", ",\"stage\":", t.op.chunk);
      if (t.op.kind == OpKind::Backward) {
        if (t.op.zero_bubble) text(",\"zb\":true");
        else text(",\"zb\":false");
      }
    }
    text(",\"start\":");
    number(t.start);
    text(",\"end\":");
    number(t.end);
    text("}");
    return p_;
  }
  // Writes `v` at `p` as dump() would; returns the end.
  char* format_number(double v, char* p) {
    p_ = p;
    number(v);
    return p_;
  }

 private:
  template <std::size_t N>
  void text(const char (&s)[N]) {  // a literal: a fixed-size copy the compiler inlines
    std::memcpy(p_, s, N - 1);
    p_ += N - 1;
  }
  void text(const char* s) {
    const std::size_t n = std::strlen(s);
    std::memcpy(p_, s, n);
    p_ += n;
  }
  void integer(int v) { p_ = std::to_chars(p_, p_ + 16, v).ptr; }
  // dump()'s own float formatting: shortest round-trip digits, ".0" on whole numbers, exponent
  // form from 1e15. Whole numbers below that (every time under integer costs) are written
  // directly, the same digits without the float-to-decimal search; times are never negative.
  void number(double v) {
    if (v >= 0 && v < 1e15 && v == static_cast<double>(static_cast<std::int64_t>(v)) && !std::signbit(v)) {
      p_ = std::to_chars(p_, p_ + 24, static_cast<std::int64_t>(v)).ptr;
      text(".0");
      return;
    }
    p_ = nlohmann::detail::to_chars(p_, p_ + 64, v);
  }
  template <std::size_t A, std::size_t B, std::size_t C>
  void chunk(const char (&dir)[A], const char (&mb)[B], const char (&stage)[C], const Chunk& c) {
    text(dir);
    integer(c.dir);
    text(mb);
    integer(c.mb);
    text(stage);
    integer(c.stage);
  }

  char* p_ = nullptr;
};

// Writes the result to `sink(const char*, std::size_t)`: the part before the timeline in one
// piece, then the ops formatted into a local block handed over every 64 KB, so the sink sees a
// few large writes and nothing is zero-filled or copied per op.
template <typename Sink>
void write_result(const SimResult& result, Sink&& sink) {
  std::string head = result_to_json(result, false).dump();
  head.pop_back();  // its closing brace: "timeline" is the last key
  head += ",\"timeline\":[";
  sink(head.data(), head.size());
  constexpr std::size_t kBlock = 64u << 10;
  std::vector<char> block(kBlock + kMaxOpBytes + 4);
  char* const begin = block.data();
  char* p = begin;
  OpWriter op;
  for (std::size_t r = 0; r < result.timeline.size(); ++r) {
    if (r > 0) *p++ = ',';
    *p++ = '[';
    const auto& ops = result.timeline[r];
    for (std::size_t i = 0; i < ops.size(); ++i) {
      if (i > 0) *p++ = ',';
      p = op.format(ops[i], p);
      if (static_cast<std::size_t>(p - begin) >= kBlock) {
        sink(begin, static_cast<std::size_t>(p - begin));
        p = begin;
      }
    }
    *p++ = ']';
  }
  *p++ = ']';
  // The activation steps, when recorded: after the timeline, as result_to_json places them.
  const auto flush_if_full = [&] {
    if (static_cast<std::size_t>(p - begin) >= kBlock) {
      sink(begin, static_cast<std::size_t>(p - begin));
      p = begin;
    }
  };
  const auto put = [&](const char* s) {
    const std::size_t n = std::strlen(s);
    std::memcpy(p, s, n);
    p += n;
  };
  const auto numbers = [&](const std::vector<double>& values) {
    *p++ = '[';
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (i > 0) *p++ = ',';
      p = op.format_number(values[i], p);
      flush_if_full();
    }
    *p++ = ']';
  };
  if (!result.activation_steps.empty()) {
    put(",\"activationSteps\":[");
    for (std::size_t r = 0; r < result.activation_steps.size(); ++r) {
      put(r > 0 ? ",{\"time\":" : "{\"time\":");
      numbers(result.activation_steps[r].time);
      put(",\"level\":");
      numbers(result.activation_steps[r].level);
      *p++ = '}';
      flush_if_full();
    }
    *p++ = ']';
  }
  *p++ = '}';
  sink(begin, static_cast<std::size_t>(p - begin));
}

}  // namespace

std::string result_json_text(const SimResult& result) {
  std::size_t ops = 0;
  for (const auto& list : result.timeline) ops += list.size();
  std::string out;
  out.reserve(4096 + 80 * ops);  // ~70 bytes per op: usually the only allocation
  write_result(result, [&out](const char* p, std::size_t n) { out.append(p, n); });
  return out;
}

void write_result_json(const SimResult& result, std::ostream& out) {
  write_result(result, [&out](const char* p, std::size_t n) { out.write(p, static_cast<std::streamsize>(n)); });
}

}  // namespace pipesim
