// A simulation result as JSON text without a JSON tree for its timeline (result_json_text and
// write_result_json of pipesim/json.h). The largest legal run has 2,000,000 ops: as nlohmann
// objects they took 1-1.5 GB and most of 13-31 s, against 1-4 s for the text output. Here each op
// is formatted straight into a small buffer. The bytes are result_to_json(result).dump()'s:
// the part before the timeline is that very dump (it is small), and every number is written by
// the routine dump() uses (tests/core/parse_test.cpp compares the two).
#include <charconv>
#include <cstring>

#include "pipesim/json.h"

namespace pipesim {
namespace {

// Appends the JSON of each timeline op to a caller's sink (a string, or a stream in blocks).
class OpWriter {
 public:
  // Formats `t` as op_fields_to_json plus "start" and "end" would dump it; returns its length.
  std::size_t format(const TimedOp& t) {
    p_ = buf_;
    text("{\"op\":\"");
    text(op_kind_name(t.op.kind));
    if (t.op.kind == OpKind::ForwardBackward) {
      chunk("\",\"fdir\":", "fmb", "fstage", t.op.chunk);
      chunk(",\"bdir\":", "bmb", "bstage", t.op.backward_chunk);
    } else {
      chunk("\",\"dir\":", "mb", "stage", t.op.chunk);
      if (t.op.kind == OpKind::Backward) text(t.op.zero_bubble ? ",\"zb\":true" : ",\"zb\":false");
    }
    text(",\"start\":");
    number(t.start);
    text(",\"end\":");
    number(t.end);
    text("}");
    return static_cast<std::size_t>(p_ - buf_);
  }
  const char* data() const { return buf_; }

 private:
  void text(const char* s) {
    const std::size_t n = std::strlen(s);
    std::memcpy(p_, s, n);
    p_ += n;
  }
  void integer(int v) { p_ = std::to_chars(p_, buf_ + sizeof buf_, v).ptr; }
  // dump()'s own float formatting (shortest round-trip, ".0" on whole numbers); the engine's
  // times are always finite.
  void number(double v) { p_ = nlohmann::detail::to_chars(p_, buf_ + sizeof buf_, v); }
  void chunk(const char* dir_key, const char* mb, const char* stage, const Chunk& c) {
    text(dir_key);
    integer(c.dir);
    text(",\"");
    text(mb);
    text("\":");
    integer(c.mb);
    text(",\"");
    text(stage);
    text("\":");
    integer(c.stage);
  }

  // The longest op: FB with six 11-character ints and two 24-character numbers, ~150 bytes.
  char buf_[512];
  char* p_ = buf_;
};

template <typename Sink>
void write_result(const SimResult& result, Sink& sink) {
  std::string head = result_to_json(result, false).dump();
  head.pop_back();  // its closing brace: "timeline" is the last key
  sink.append(head.data(), head.size());
  const char open[] = ",\"timeline\":[";
  sink.append(open, sizeof open - 1);
  OpWriter op;
  for (std::size_t r = 0; r < result.timeline.size(); ++r) {
    sink.append(r == 0 ? "[" : ",[", r == 0 ? 1 : 2);
    const auto& ops = result.timeline[r];
    for (std::size_t i = 0; i < ops.size(); ++i) {
      if (i > 0) sink.append(",", 1);
      const std::size_t n = op.format(ops[i]);
      sink.append(op.data(), n);
    }
    sink.append("]", 1);
  }
  sink.append("]}", 2);
}

struct StringSink {
  std::string& out;
  void append(const char* p, std::size_t n) { out.append(p, n); }
};

// Collects 64 KB before each write, so a stream sees few large writes and memory stays flat.
struct StreamSink {
  std::ostream& out;
  std::string block;
  void append(const char* p, std::size_t n) {
    block.append(p, n);
    if (block.size() >= (64u << 10)) flush();
  }
  void flush() {
    out.write(block.data(), static_cast<std::streamsize>(block.size()));
    block.clear();
  }
};

}  // namespace

std::string result_json_text(const SimResult& result) {
  std::size_t ops = 0;
  for (const auto& list : result.timeline) ops += list.size();
  std::string out;
  out.reserve(4096 + 80 * ops);  // ~70 bytes per op: one allocation for the whole text
  StringSink sink{out};
  write_result(result, sink);
  return out;
}

void write_result_json(const SimResult& result, std::ostream& out) {
  StreamSink sink{out, {}};
  write_result(result, sink);
  sink.flush();
}

}  // namespace pipesim
