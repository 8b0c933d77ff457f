// The trace reader (pipesim/trace.h) on small traces written here event by event. Expected values
// are worked by hand from the definitions trace.h states: busy = union of a stream's intervals,
// overlap = HTA's (time with both a computation and a communication kernel running / union of
// communication kernels), an annotation holds the GPU events launched inside it. Times in the
// traces are microseconds, results milliseconds. The generated Kineto trace with exact
// expectations is checked by tests/core/trace_import_test.py.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "pipesim/comm.h"
#include "pipesim/trace.h"

using namespace pipesim;

namespace {

// Events as Kineto writes them. Threads: pid 100, tid 1 (annotations) and tid 2; GPU: pid = device.
std::string kernel(const std::string& name, double ts, double dur, int stream, long correlation, int device = 0) {
  return R"({"ph":"X","cat":"kernel","name":")" + name + R"(","pid":)" + std::to_string(device) + R"(,"tid":)" +
         std::to_string(stream) + R"(,"ts":)" + std::to_string(ts) + R"(,"dur":)" + std::to_string(dur) +
         R"(,"args":{"device":)" + std::to_string(device) + R"(,"stream":)" + std::to_string(stream) +
         (correlation >= 0 ? R"(,"correlation":)" + std::to_string(correlation) : std::string()) + "}}";
}
std::string launch(double ts, long correlation, int tid = 1) {
  return R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":)" + std::to_string(tid) +
         R"(,"ts":)" + std::to_string(ts) + R"(,"dur":1,"args":{"correlation":)" + std::to_string(correlation) + "}}";
}
std::string annotation(const std::string& name, double ts, double dur, int tid = 1) {
  return R"({"ph":"X","cat":"user_annotation","name":")" + name + R"(","pid":100,"tid":)" + std::to_string(tid) +
         R"(,"ts":)" + std::to_string(ts) + R"(,"dur":)" + std::to_string(dur) + "}";
}
std::string trace(const std::vector<std::string>& events) {
  std::string text = R"({"schemaVersion":1,"traceEvents":[)";
  for (std::size_t i = 0; i < events.size(); ++i) text += (i ? "," : "") + events[i];
  return text + "]}";
}

TraceReport read(const std::string& text, const TraceOptions& options = {}) {
  auto r = import_trace(text, options);
  if (!r.ok()) FAIL(r.error().message);
  return r.value();
}

Error read_error(const std::string& text, const TraceOptions& options = {}) {
  auto r = import_trace(text, options);
  REQUIRE_FALSE(r.ok());
  return r.error();
}

const TraceAnnotation& named(const TraceReport& r, const std::string& name) {
  for (const TraceAnnotation& a : r.annotations)
    if (a.name == name) return a;
  FAIL("no annotation " << name);
  return r.annotations.front();
}

}  // namespace

TEST_CASE("streams: busy is the union of their events; kind is what most of their kernel time is") {
  const TraceReport r = read(trace({kernel("gemm", 0, 10, 7, 1), kernel("gemm", 5, 10, 7, 2),  // [0, 15)
                                    kernel("gemm", 20, 5, 7, 3),                                // [20, 25)
                                    kernel("ncclDevKernel_AllReduce", 0, 30, 27, 4),
                                    kernel("cast", 30, 10, 27, 5)}));  // compute on the comm stream
  REQUIRE(r.streams.size() == 2);
  CHECK(r.streams[0].stream == 7);
  CHECK(r.streams[0].kind == StreamKind::Compute);
  CHECK(r.streams[0].busy_ms == Approx(0.020));  // 15 + 5 us
  CHECK(r.streams[1].kind == StreamKind::Comm);  // 30 of its 40 us are communication
  CHECK(r.streams[1].kernels == 2);
  CHECK(r.streams[1].comm_kernels == 1);
  CHECK(r.streams[1].busy_ms == Approx(0.040));
}

TEST_CASE("overlap is HTA's: time with computation under communication over the communication union") {
  // Computation [0, 10) and [20, 30); communication [5, 25): 10 of its 20 us have computation.
  const TraceReport r = read(trace({kernel("gemm", 0, 10, 7, 1), kernel("gemm", 20, 10, 7, 2),
                                    kernel("deep_ep::internode::dispatch", 5, 20, 27, 3)}));
  REQUIRE(r.devices.size() == 1);
  CHECK(r.devices[0].compute_ms == Approx(0.020));
  CHECK(r.devices[0].comm_ms == Approx(0.020));
  CHECK(r.devices[0].overlap_ms == Approx(0.010));
  REQUIRE(r.overlap.has_value());
  CHECK(*r.overlap == 0.5);
  // A memcpy is neither kind (HTA's MEMORY): it fills no gap, but the stream is busy during it.
  const TraceReport m = read(trace({kernel("gemm", 0, 10, 7, 1), kernel("nccl", 5, 20, 27, 2),
                                    R"({"ph":"X","cat":"gpu_memcpy","name":"Memcpy DtoD","pid":0,"tid":7,"ts":10,"dur":15,"args":{"device":0,"stream":7}})"}));
  CHECK(*m.overlap == 0.25);
  CHECK(m.streams[0].busy_ms == Approx(0.025));
  CHECK(m.streams[0].memory_events == 1);
  // No communication: no overlap to speak of.
  CHECK_FALSE(read(trace({kernel("gemm", 0, 10, 7, 1)})).overlap.has_value());
}

TEST_CASE("the comm pattern decides which kernels are communication") {
  const std::string t = trace({kernel("gemm", 0, 10, 7, 1), kernel("my_all_to_all", 0, 10, 9, 2)});
  CHECK_FALSE(read(t).overlap.has_value());
  TraceOptions options;
  options.comm_pattern = "nccl|all_to_all";
  CHECK(*read(t, options).overlap == 1.0);
  for (const char* bad : {"", "nccl||x", "|nccl", "nccl|"}) {
    options.comm_pattern = bad;
    const Error e = read_error(t, options);
    CHECK(e.rule == "profile.comm_pattern");
    CHECK(e.path == "/commPattern");
  }
  options.comm_pattern = "a";
  for (int i = 1; i < kMaxCommPatternParts; ++i) options.comm_pattern += "|a";
  CHECK(read(t, options).streams.size() == 2);  // 32 alternatives
  options.comm_pattern += "|a";
  CHECK(read_error(t, options).rule == "profile.comm_pattern");
  options.comm_pattern = std::string(kMaxCommPatternBytes + 1, 'a');
  CHECK(read_error(t, options).message ==
        "commPattern must be 1 to 32 non-empty kernel-name substrings separated by |, at most 1024 bytes in all (got \"" +
            std::string(64, 'a') + "... (1025 bytes)\")");
  const Error e = trace_options_from_json(Json{{"commPattern", 3}}).error();
  CHECK(e.message == "commPattern must be a string (got 3)");
  CHECK(trace_options_from_json(Json{{"pattern", "x"}}).error().rule == "field.unknown");
  CHECK(trace_options_from_json(Json::object()).value().comm_pattern == kDefaultCommPattern);
}

TEST_CASE("GPU events belong to the innermost annotation around their launch") {
  const TraceReport r = read(trace({annotation("step", 0, 1000), annotation("attn(F)", 10, 100), annotation("mlp(F)", 110, 100),
                                    launch(20, 1), launch(110, 2),  // 110: where attn(F) ends, mlp(F) starts
                                    launch(500, 3),                 // inside step only
                                    launch(2000, 4),                // outside everything
                                    kernel("a", 0, 4, 7, 1), kernel("b", 10, 6, 7, 2), kernel("c", 20, 8, 7, 3),
                                    kernel("d", 30, 1, 7, 4), kernel("e", 40, 2, 7, 99)}));  // 99: no launch
  CHECK(named(r, "attn(F)").kernels == 1);
  CHECK(named(r, "attn(F)").gpu_ms == Approx(0.004));
  CHECK(named(r, "mlp(F)").kernels == 1);
  CHECK(named(r, "step").kernels == 3);  // its own and its children's
  CHECK(named(r, "step").gpu_ms == Approx(0.018));
  CHECK(r.unattributed_events == 2);
  CHECK(r.unattributed_ms == Approx(0.003));
  // order: the innermost annotations with GPU events (step itself holds one directly but
  // encloses others), by their first GPU event.
  CHECK(r.order == std::vector<std::string>{"attn(F)", "mlp(F)"});
  REQUIRE(r.spans.size() == 2);
  CHECK(r.spans[1].start_ms == Approx(0.010));
  CHECK(r.spans[1].end_ms == Approx(0.016));
}

TEST_CASE("a launch on a thread without annotations defers to its process's most annotated thread") {
  // PyTorch's autograd engine launches backward kernels from its own thread (tid 2 here).
  const TraceReport r = read(trace({annotation("mlp(B)", 0, 100, 1), annotation("x", 200, 10, 3), launch(50, 1, 2),
                                    kernel("k", 0, 5, 7, 1)}));
  CHECK(named(r, "mlp(B)").kernels == 1);
  CHECK(r.unattributed_events == 0);
}

TEST_CASE("without args.correlation, the ac2g flow ties a kernel to its launch") {
  const std::string flows =
      R"({"ph":"s","id":42,"pid":100,"tid":1,"ts":50,"cat":"ac2g","name":"ac2g"},)"
      R"({"ph":"f","id":42,"pid":0,"tid":7,"ts":300,"cat":"ac2g","name":"ac2g","bp":"e"})";
  const TraceReport r = read(trace({annotation("attn(F)", 0, 100), flows, kernel("k", 300, 5, 7, -1)}));
  CHECK(named(r, "attn(F)").kernels == 1);
  // A correlation id two launches share picks neither, and neither does a flow id given twice.
  const TraceReport dup = read(trace({annotation("a", 0, 100), annotation("b", 200, 100), launch(50, 1), launch(250, 1),
                                      kernel("k", 300, 5, 7, 1)}));
  CHECK(dup.unattributed_events == 1);
  const std::string twice = R"({"ph":"s","id":42,"pid":100,"tid":1,"ts":250,"cat":"ac2g","name":"ac2g"})";
  CHECK(read(trace({annotation("attn(F)", 0, 100), annotation("b", 200, 100), flows, twice, kernel("k", 300, 5, 7, -1)}))
            .unattributed_events == 1);
}

TEST_CASE("annotations nest at most kMaxAnnotationDepth levels on a thread") {
  std::vector<std::string> events;
  for (int i = 0; i < kMaxAnnotationDepth; ++i) events.push_back(annotation("n", i, 1000 - 2 * i));
  CHECK(read(trace(events)).annotations.at(0).count == kMaxAnnotationDepth);
  events.push_back(annotation("n", kMaxAnnotationDepth, 10));
  const Error e = read_error(trace(events));
  CHECK(e.rule == "profile.annotation_depth");
  CHECK(e.message == "user annotations nest more than 32 levels deep on one thread (at traceEvents.32)");
  CHECK(e.path == "/traceEvents/32");
}

TEST_CASE("timestamps are read exactly, to the nanosecond") {
  // 0.0005 us is half a nanosecond: rounded away from zero. Exponents and a bare array are JSON too.
  const TraceReport r = read(R"([{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":-1.5e3,"dur":0.0005},
                                 {"ph":"X","cat":"Kernel","name":"k","pid":0,"tid":7,"ts":1740461679471346.123,"dur":2.5E-2}])");
  REQUIRE(r.streams.size() == 1);
  CHECK(r.streams[0].busy_ms == 0.000026);  // 1 ns + 25 ns
  CHECK(r.origin_us == -1500);
}

TEST_CASE("strings: escapes are decoded, raw control characters taken as the profiler writes them") {
  const TraceReport r = read(trace({annotation(R"(a\u00b5\"b\ud83d\ude00)", 0, 100), launch(1, 1),
                                    kernel(R"(nc\u0063l)", 0, 5, 27, 1), kernel("gemm\tx\ny", 0, 5, 7, 2)}));
  CHECK(r.annotations.at(0).name == "a\xC2\xB5\"b\xF0\x9F\x98\x80");
  CHECK(r.streams.at(1).comm_kernels == 1);  // "ncc" + "l" matches nccl once decoded
}

TEST_CASE("text that is not a trace gets one line saying where") {
  const auto error = [](const std::string& text) { return read_error(text); };
  Error e = error("");
  CHECK(e.rule == "json.invalid");
  CHECK(e.message == "input is not valid JSON: unexpected end of input at byte 0");
  const std::string one = trace({kernel("k", 0, 1, 7, 1)});  // {"schemaVersion":1,"traceEvents":[{"ph":"X","cat":...
  e = error(one.substr(0, 60));  // inside the key "name"
  CHECK(e.message == "input is not valid JSON: unexpected end of input at byte 60 (/traceEvents/0)");
  CHECK(e.path == "/traceEvents/0");
  e = error(one.substr(0, 68));  // inside its value
  CHECK(e.message == "input is not valid JSON: unexpected end of input at byte 68 (/traceEvents/0/name)");
  e = error(R"({"traceEvents":[{"ph":"X","ts":1,"ts":2}]})");
  CHECK(e.message == R"(input is not valid JSON: the key "ts" twice in one object at byte 33 (/traceEvents/0/ts))");
  e = error(R"({"traceEvents":[]} x)");
  CHECK(e.message == "input is not valid JSON: unexpected text after the JSON value at byte 19");
  e = error(R"({"traceEvents":[{"ph":"X","args":{"a":)" + std::string(70, '[') + std::string(70, ']') + "}}]}");
  CHECK(e.message == "input is not valid JSON: arrays and objects nested more than 64 levels deep at byte 98 "
                     "(/traceEvents/0/args/a)");
  e = error("{\"traceEvents\":[{\"name\":\"\xff\"}]}");
  CHECK(e.message == "input is not valid JSON: invalid UTF-8 in a string at byte 25 (/traceEvents/0/name)");
  e = error(R"({"schedule":"dualpipe","ranks":8})");
  CHECK(e.rule == "profile.not_trace");
  CHECK(e.message == R"(input is not a trace: expected an array of trace events or an object with a traceEvents )"
                     R"(array (got {"schedule":"dualpipe","ranks":8}))");
  CHECK(error("  42 ").rule == "profile.not_trace");
  e = error(R"({"traceEvents":{}})");
  CHECK(e.message == "traceEvents must be an array");
  CHECK(e.path == "/traceEvents");
}

TEST_CASE("event fields of the wrong type, out of range or missing name the event and the field") {
  const auto message = [](const std::string& event) { return read_error(trace({R"({"ph":"i"})", event})).message; };
  CHECK(message("3") == "traceEvents.1 must be an object (got 3)");
  CHECK(message(R"({"ph":7})") == "traceEvents.1.ph must be a string (got 7)");
  CHECK(message(R"({"ph":"X","ts":"5","dur":1})") == R"(traceEvents.1.ts must be a number (got "5"))");
  CHECK(message(R"({"ph":"X","ts":1e300,"dur":1})") ==
        "traceEvents.1.ts must be a finite number in [-4e+15, 4e+15] (got 1e300)");
  CHECK(message(R"({"ph":"X","ts":1,"dur":-1})") == "traceEvents.1.dur must be a finite number in [0, 4e+15] (got -1)");
  CHECK(message(R"({"ph":"X","ts":1})") == "missing field traceEvents.1.dur");
  CHECK(message(R"({"name":"x"})") == "missing field traceEvents.1.ph");
  CHECK(message(R"({"ph":"X","cat":"kernel","name":"k","ts":1,"dur":1,"pid":"GPU 0","tid":7})") ==
        "missing field traceEvents.1.args.device");
  CHECK(message(R"({"ph":"X","cat":"kernel","name":"k","ts":1,"dur":1,"args":{"device":0,"stream":1.5}})") ==
        "traceEvents.1.args.stream must be an integer in [0, 9007199254740992] (got 1.5)");
  CHECK(message(R"({"ph":"X","cat":"user_annotation","name":"a","ts":1,"dur":1,"pid":[1],"tid":1})") ==
        "traceEvents.1.pid must be an integer or a string (got [1])");
  CHECK(message(R"({"ph":"X","args":[]})") == "traceEvents.1.args must be an object (got [])");
  // Phases and categories the reader does not use are read and left alone (their fields still
  // have to have the types the format gives them).
  CHECK(read(trace({R"({"ph":"Q","cat":"kernel","ts":5,"args":{"x":[{}]}})", R"({"ph":"M","name":"thread_name"})"}))
            .events == 2);
}

TEST_CASE("costs: DeepSeek's ten part annotations give the comm model's explicit components") {
  // One layer, one kernel per part on one device, durations in us chosen so every sum is exact;
  // the GPU times need not follow Fig. 4 for the costs (they only use each part's busy time).
  const std::vector<std::pair<const char*, double>> parts = {
      {"attn(F)", 3},  {"dispatch(F)", 2}, {"mlp(F)", 5},  {"combine(F)", 4}, {"attn(B)", 6},
      {"attn(W)", 1},  {"dispatch(B)", 3}, {"mlp(B)", 7},  {"mlp(W)", 2},     {"combine(B)", 1}};
  std::vector<std::string> events = {annotation("ProfilerStep#1", 0, 10000)};
  double t = 0;
  long correlation = 1;
  for (const auto& [name, us] : parts) {
    events.push_back(annotation(name, 10 * correlation, 10));
    events.push_back(launch(10 * correlation + 1, correlation));
    const bool comm = std::string(name).find("dispatch") == 0 || std::string(name).find("combine") == 0;
    events.push_back(kernel(comm ? "nccl" : "gemm", t, us, comm ? 27 : 7, correlation++));
    t += us;
  }
  const TraceReport r = read(trace(events));
  REQUIRE(r.costs.has_value());
  const TraceCosts& c = *r.costs;
  CHECK(c.pairs.value == 1);
  CHECK(c.layers.value == 1);
  CHECK(c.forward.value == 0.008);      // attn(F) 3 + mlp(F) 5 us
  CHECK(c.backward.value == 0.016);     // attn(B) 6 + attn(W) 1 + mlp(B) 7 + mlp(W) 2
  CHECK(c.weight.value == 0.003);
  CHECK(c.overlapped.value == 0.024);   // F + B: the pair's compute
  CHECK(c.comm_ratio.value == 0.75);    // (2 + 4) / 8
  CHECK(c.attn_share.value == 0.375);   // 3 / 8
  CHECK(c.forward_alone.value == 0.014);
  CHECK(c.backward_alone.value == 0.020);
  CHECK(c.pair_ms.value == Approx(0.034));  // the kernels run back to back: 34 us
  CHECK(c.forward.derivation == "attn(F) + mlp(F) = 0.003 ms + 0.005 ms");
  // Each derivation is a phrase of pipesim/plan_texts.h, so a client says it in its own words.
  CHECK(plan_text_to_json(c.forward.said).dump() ==
        R"({"id":"trace.derived.forward","params":{"attn":0.003,"mlp":0.005}})");
  CHECK(c.layers.said.id == "trace.derived.layers");  // a plural family: "1 time per pair"
  CHECK(c.layers.derivation == "each of the ten parts launched GPU work 1 time per pair");
  CHECK(c.pairs.derivation ==
        "one chunk pair per device and ProfilerStep whose part annotations launched GPU work; the first: device 0, "
        "ProfilerStep#1");
  CHECK(c.overlapped.derivation.find("modelPairMs") == std::string::npos);  // words, not field names
  REQUIRE(c.costs.comm.has_value());
  CHECK(c.costs.comm->components.backward_mlp_weight == 0.002);
  CHECK(c.costs.comm->layers == 1);
  CHECK(validate_costs(c.costs).ok());
  CHECK(c.model_pair_ms.value == analyse_pair(c.costs).value().timing.duration);
  CHECK(c.plain_costs.overlapped == c.pair_ms.value);
  // The pair to draw: device 0 (the kernel's args.device) in ProfilerStep#1, from the first
  // kernel (t = 0, the trace's first GPU event) to the last one's end, 34 us later.
  CHECK(c.first_pair.device == 0);
  CHECK(c.first_pair.step == "ProfilerStep#1");
  CHECK(c.first_pair.start_ms == 0);
  CHECK(c.first_pair.end_ms == Approx(0.034));
  // Without one part there is nothing to give the model; the report says which.
  events.erase(events.begin() + 1, events.begin() + 4);  // attn(F)
  const TraceReport missing = read(trace(events));
  CHECK_FALSE(missing.costs.has_value());
  REQUIRE(missing.costs_missing.has_value());
  CHECK(missing.costs_missing->rule == "profile.part_missing");
  CHECK(missing.costs_missing->message ==
        "attn(F) launched no GPU work in the pair of device 0 in ProfilerStep#1, which other parts did: the costs "
        "need all ten parts of the pair");
}
