// Builds the trace through the engine's Observer (replay), so events arrive in time order: one
// complete ("X") event per op on its rank's track and an activations counter ("C") per rank.
#include "trace_output.h"

#include "pipesim/json.h"

namespace pipesim::cli {
namespace {

constexpr double kMicrosPerUnit = 1000.0;  // 1 unit = 1 ms on the trace's clock

class ChromeTrace : public Observer {
 public:
  void on_op_finish(int rank, const TimedOp& t) override {
    Json args{{"start", t.start}, {"end", t.end}};
    events_.push_back(Json{{"name", op_label(t.op)},
                           {"cat", op_kind_name(t.op.kind)},
                           {"ph", "X"},
                           {"ts", t.start * kMicrosPerUnit},
                           {"dur", (t.end - t.start) * kMicrosPerUnit},
                           {"pid", 0},
                           {"tid", rank},
                           {"args", std::move(args)}});
  }
  void on_activations(int rank, double time, int /*delta*/, int in_flight) override {
    events_.push_back(Json{{"name", "activations rank " + std::to_string(rank)},
                           {"ph", "C"},
                           {"ts", time * kMicrosPerUnit},
                           {"pid", 0},
                           {"args", Json{{"in flight", in_flight}}}});
  }
  Json take(const SimResult& r) {
    Json names = Json::array();
    for (int rank = 0; rank < r.config.ranks; ++rank)
      names.push_back(Json{{"name", "thread_name"}, {"ph", "M"}, {"pid", 0}, {"tid", rank},
                           {"args", Json{{"name", "rank " + std::to_string(rank)}}}});
    for (auto& e : events_) names.push_back(std::move(e));
    return Json{{"traceEvents", std::move(names)}, {"displayTimeUnit", "ms"}};
  }

 private:
  std::vector<Json> events_;
};

}  // namespace

void print_chrome_trace(const SimResult& result, std::ostream& out) {
  ChromeTrace trace;
  replay(result, trace);
  out << trace.take(result).dump() << "\n";
}

}  // namespace pipesim::cli
