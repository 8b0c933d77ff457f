// Writes the trace through the engine's Observer (replay), so events arrive in time order: one
// complete ("X") event per op on its rank's track and an activations counter ("C") per rank.
// Each event is written as it arrives, in 64 KB blocks, never held as a JSON tree: the largest
// run has 2,000,000 ops. The bytes are those nlohmann's dump() gave for the same events (numbers
// by its own float formatting, keys in the same order).
#include "trace_output.h"

#include <string>

#include "pipesim/json.h"

namespace pipesim::cli {
namespace {

constexpr double kMicrosPerUnit = 1000.0;  // 1 unit = 1 ms on the trace's clock

class ChromeTrace : public Observer {
 public:
  explicit ChromeTrace(std::ostream& out) : out_(out) {}

  void begin(const SimResult& r) {
    text_ += "{\"traceEvents\":[";
    for (int rank = 0; rank < r.config.ranks; ++rank) {
      event_start();
      text_ += "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":" + std::to_string(rank) +
               ",\"args\":{\"name\":\"rank " + std::to_string(rank) + "\"}}";
    }
  }
  void on_op_finish(int rank, const TimedOp& t) override {
    event_start();
    text_ += "{\"name\":\"" + op_label(t.op) + "\",\"cat\":\"" + op_kind_name(t.op.kind) + "\",\"ph\":\"X\",\"ts\":";
    number(t.start * kMicrosPerUnit);
    text_ += ",\"dur\":";
    number((t.end - t.start) * kMicrosPerUnit);
    text_ += ",\"pid\":0,\"tid\":" + std::to_string(rank) + ",\"args\":{\"start\":";
    number(t.start);
    text_ += ",\"end\":";
    number(t.end);
    text_ += "}}";
    flush_if_full();
  }
  void on_activations(int rank, double time, int /*delta*/, int in_flight) override {
    event_start();
    text_ += "{\"name\":\"activations rank " + std::to_string(rank) + "\",\"ph\":\"C\",\"ts\":";
    number(time * kMicrosPerUnit);
    text_ += ",\"pid\":0,\"args\":{\"in flight\":" + std::to_string(in_flight) + "}}";
    flush_if_full();
  }
  void end() {
    text_ += "],\"displayTimeUnit\":\"ms\"}\n";
    out_.write(text_.data(), static_cast<std::streamsize>(text_.size()));
    text_.clear();
  }

 private:
  void event_start() {
    if (events_++ > 0) text_ += ',';
  }
  // dump()'s float formatting: shortest round-trip digits, ".0" on whole numbers.
  void number(double v) {
    char buf[64];
    text_.append(buf, nlohmann::detail::to_chars(buf, buf + sizeof buf, v));
  }
  void flush_if_full() {
    if (text_.size() < (64u << 10)) return;
    out_.write(text_.data(), static_cast<std::streamsize>(text_.size()));
    text_.clear();
  }

  std::ostream& out_;
  std::string text_;
  long long events_ = 0;
};

}  // namespace

void print_chrome_trace(const SimResult& result, std::ostream& out) {
  ChromeTrace trace(out);
  trace.begin(result);
  replay(result, trace);
  trace.end();
}

}  // namespace pipesim::cli
