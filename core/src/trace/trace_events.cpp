// The trace reader's one pass (trace_records.h): walks the file with the scanner, reads the few
// fields of each event that matter (ph, cat, name, pid, tid, ts, dur, id and args.correlation,
// args.device, args.stream), checks their types wherever they appear, and keeps the events the
// analysis needs. Every error names the event and field (traceEvents.12.ts) or the byte where
// the text stopped being JSON.
#include <optional>

#include "../fields.h"
#include "json_scan.h"
#include "pipesim/json.h"
#include "pipesim/rules.h"
#include "pipesim/trace.h"
#include "trace_event_fields.h"
#include "trace_intern.h"
#include "trace_records.h"

namespace pipesim::detail {
namespace {

class EventReader {
 public:
  EventReader(std::string_view text, const CommPattern& pattern, TraceRecords& out)
      : text_(text), scan_(text), pattern_(pattern), out_(out) {}

  std::optional<Error> run() {
    const char first = scan_.peek();
    root_start_ = scan_.offset();
    if (first == '[') {
      if (!events()) return error();
    } else if (first == '{') {
      if (!object_root()) return error();
    } else {
      if (!scan_.skip_value(0)) return error();
      return not_a_trace();
    }
    if (scan_.peek() != '\0') {
      scan_.fail("unexpected text after the JSON value");
      return error();
    }
    return std::nullopt;
  }

 private:
  // Valid JSON, but not a trace: quotes the value read (the whole root, for a root object).
  Error not_a_trace() const {
    return make_error(Rule::ProfileNotTrace, "",
                      {{"got", quote_raw(text_.substr(root_start_, scan_.offset() - root_start_))}});
  }

  // The error to report: one set by a check, or the scanner's, at the innermost pointer known.
  Error error() {
    if (error_) return *error_;
    const std::string what = scan_.too_deep()
                                 ? "arrays and objects nested more than " + std::to_string(kMaxJsonDepth) + " levels deep"
                                 : std::string(scan_.problem());
    return invalid(what, scan_.problem_offset(), pointer());
  }

  // json.invalid, its detail saying what, at which byte and where: in a file of 100 MB the
  // pointer alone (json.too_deep, json.duplicate_key) would leave the reader searching.
  static Error invalid(const std::string& what, std::size_t byte, const std::string& at) {
    return make_error(Rule::JsonInvalid, at,
                      {{"detail", what + " at byte " + std::to_string(byte) + (at.empty() ? "" : " (" + at + ")")}});
  }

  bool duplicate(const std::string& key, const std::string& at) {
    return fail(invalid("the key \"" + summary(key) + "\" twice in one object", key_offset_, at));
  }

  std::string pointer() const {
    if (index_ < 0) return context_key_.empty() ? "" : json_pointer_child("", std::string(context_key_));
    std::string p = trace_event_pointer(out_.events_pointer, static_cast<std::size_t>(index_));
    if (!context_key_.empty()) p = json_pointer_child(p, std::string(context_key_));
    if (!arg_key_.empty()) p = json_pointer_child(p, std::string(arg_key_));
    return p;
  }

  bool fail(Error e) {
    error_ = std::move(e);
    return false;
  }

  bool object_root() {
    scan_.consume('{');
    bool found = false;
    if (scan_.consume('}')) return fail(not_a_trace());
    do {
      std::string_view key;
      scan_.peek();
      key_offset_ = scan_.offset();
      if (!scan_.string(key, key_buffer_)) return false;
      if (!scan_.expect(':', "expected ':'")) return false;
      if (key == "traceEvents") {
        if (found) return duplicate("traceEvents", "/traceEvents");
        found = true;
        out_.events_pointer = "/traceEvents";
        if (scan_.peek() != '[')
          return fail(make_error(Rule::FieldArray, "/traceEvents", {{"field", "traceEvents"}}));
        if (!events()) return false;
      } else {
        context_key_ = key;
        if (!scan_.skip_value(1)) return false;
        context_key_ = {};
      }
    } while (scan_.consume(','));
    if (!scan_.expect('}', "expected ',' or '}'")) return false;
    return found || fail(not_a_trace());
  }

  bool events() {
    scan_.consume('[');
    const int depth = out_.events_pointer.empty() ? 1 : 2;
    if (!scan_.consume(']')) {
      do {
        if (!event(depth)) return false;
        ++out_.events;
      } while (scan_.consume(','));
      if (!scan_.expect(']', "expected ',' or ']'")) return false;
    }
    index_ = -1;
    context_key_ = {};
    return true;
  }

  std::string field_path(Field f) const {
    const std::string event = trace_event_pointer(out_.events_pointer, static_cast<std::size_t>(index_));
    const std::string key(kFieldKeys[f]);
    return f >= kCorrelation ? json_pointer_child(json_pointer_child(event, "args"), key)
                             : json_pointer_child(event, key);
  }
  std::string field_name(Field f) const { return dotted(field_path(f)); }

  // One value of a field the reader looks at, into tokens_[f].
  bool value(Field f, int depth, std::string& buffer) {
    if (seen_ & (1u << f)) return duplicate(std::string(kFieldKeys[f]), field_path(f));
    seen_ |= 1u << f;
    Token& t = tokens_[f];
    const char c = scan_.peek();
    if (c == '"') {
      t.type = 's';
      return scan_.string(t.text, buffer);
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      t.type = 'n';
      return scan_.number(t.text);
    }
    const std::size_t start = scan_.offset();
    if (!scan_.skip_value(depth)) return false;
    t.type = 'o';
    t.text = text_.substr(start, scan_.offset() - start);
    return true;
  }

  // The keys of one object at `depth`: `first` to `last` of Field are read, the rest skipped.
  bool members(int depth, Field first, Field last, std::string& key) {
    if (scan_.consume('}')) return true;
    do {
      std::string_view k;
      (first == kPh ? context_key_ : arg_key_) = {};  // a key cut short is blamed on its object
      scan_.peek();
      key_offset_ = scan_.offset();
      if (!scan_.string(k, key)) return false;
      if (!scan_.expect(':', "expected ':'")) return false;
      unsigned f = field_of(k);
      if (f < first) f = kFields;
      (first == kPh ? context_key_ : arg_key_) = k;  // for error pointers; valid until the next key
      if (f == kArgs) {
        if (seen_ & (1u << kArgs)) return duplicate("args", field_path(kArgs));
        seen_ |= 1u << kArgs;
        if (scan_.peek() == '{') {
          scan_.consume('{');
          if (!members(depth + 1, kCorrelation, kStream, args_key_buffer_)) return false;
          arg_key_ = {};
        } else {
          const std::size_t start = scan_.offset();
          if (!scan_.skip_value(depth)) return false;
          return fail(make_error(Rule::FieldObject, field_path(kArgs),
                                 {{"field", field_name(kArgs)}, {"got", quote_raw(text_.substr(start, scan_.offset() - start))}}));
        }
      } else if (f <= last) {
        if (!value(static_cast<Field>(f), depth, buffers_[f])) return false;
      } else if (!scan_.skip_value(depth)) {
        return false;
      }
    } while (scan_.consume(','));
    return scan_.expect('}', "expected ',' or '}'");
  }

  bool event(int depth) {
    ++index_;
    context_key_ = {};
    seen_ = 0;
    for (Token& t : tokens_) t = Token{};
    if (scan_.peek() != '{') {
      const std::size_t start = scan_.offset();
      if (!scan_.skip_value(depth)) return false;
      const std::string at = trace_event_pointer(out_.events_pointer, static_cast<std::size_t>(index_));
      return fail(make_error(Rule::FieldObject, at, {{"field", dotted(at)},
                                                     {"got", quote_raw(text_.substr(start, scan_.offset() - start))}}));
    }
    scan_.consume('{');
    if (!members(depth + 1, kPh, kArgs, key_buffer_)) return false;
    context_key_ = {};
    return check_types() && keep();
  }

  // Types are checked wherever a field appears, used or not.
  bool check_types() {
    for (Field f : {kPh, kCat, kName})
      if (tokens_[f].type && tokens_[f].type != 's') return wrong(Rule::FieldString, f);
    for (Field f : {kTs, kDur})
      if (tokens_[f].type && tokens_[f].type != 'n') return wrong(Rule::FieldNumber, f);
    for (Field f : {kPid, kTid, kId})
      if (tokens_[f].type == 'o') return wrong(Rule::ProfileId, f);
    for (Field f : {kCorrelation, kDevice, kStream})
      if (tokens_[f].type && !id(f).has_value()) return false;
    return true;
  }

  bool wrong(Rule rule, Field f) {
    const Token& t = tokens_[f];
    const std::string got = t.type == 's' ? "\"" + summary(std::string(t.text)) + "\"" : quote_raw(t.text);
    return fail(make_error(rule, field_path(f), {{"field", field_name(f)}, {"got", got}}));
  }

  bool require(std::initializer_list<Field> fields) {
    for (Field f : fields)
      if (!tokens_[f].type) return fail(make_error(Rule::FieldMissing, field_path(f), {{"field", field_name(f)}}));
    return true;
  }

  // A number field that must be a whole number in [0, 2^53].
  std::optional<std::int64_t> id(Field f) {
    std::int64_t v = 0;
    bool integral = false;
    const Token& t = tokens_[f];
    if (t.type == 'n' && trace_fixed_point(t.text, 0, kMaxTraceId, v, integral) && integral && v >= 0) return v;
    const std::string got = t.type == 's' ? "\"" + summary(std::string(t.text)) + "\"" : quote_raw(t.text);
    fail(make_error(Rule::RangeInteger, field_path(f),
                    {{"field", field_name(f)}, {"min", 0}, {"max", kMaxTraceId}, {"got", got}}));
    return std::nullopt;
  }

  std::optional<TraceNs> nanos(Field f, bool duration) {
    std::int64_t v = 0;
    bool integral = false;
    if (trace_fixed_point(tokens_[f].text, 3, kMaxTraceNanos, v, integral) && (!duration || v >= 0)) return v;
    fail(make_error(Rule::RangeNumber, field_path(f),
                    {{"field", field_name(f)}, {"min", duration ? 0.0 : -kMaxTraceMicros},
                     {"max", kMaxTraceMicros}, {"got", quote_raw(tokens_[f].text)}}));
    return std::nullopt;
  }

  // An interned pid or tid ("n" + integer or "s" + text), or nothing after an error.
  std::optional<std::string> ident(Field f) {
    const Token& t = tokens_[f];
    if (t.type == 's') return "s" + std::string(t.text);
    std::int64_t v = 0;
    bool integral = false;
    if (trace_fixed_point(t.text, 0, kMaxTraceId, v, integral) && integral) return "n" + std::to_string(v);
    wrong(Rule::ProfileId, f);
    return std::nullopt;
  }

  // A flow's id, interned: numbers (Kineto's) without building a string, strings as text.
  std::optional<std::uint32_t> flow_id() {
    const Token& t = tokens_[kId];
    std::int64_t v = 0;
    bool integral = false;
    if (t.type == 'n' && trace_fixed_point(t.text, 0, kMaxTraceId, v, integral) && integral) return ids_.flow(v);
    const auto key = ident(kId);
    if (!key) return std::nullopt;
    return ids_.flow(*key);
  }

  std::optional<std::uint32_t> thread() {
    // Consecutive events are mostly on one thread: the last one's id, without hashing.
    const Token &p = tokens_[kPid], &t = tokens_[kTid];
    if (last_thread_ != kTraceNone && p.type == last_pid_type_ && t.type == last_tid_type_ && p.text == last_pid_ &&
        t.text == last_tid_)
      return last_thread_;
    const auto id = intern_thread();
    if (id) {
      last_thread_ = *id;
      last_pid_type_ = p.type;
      last_tid_type_ = t.type;
      last_pid_.assign(p.text);
      last_tid_.assign(t.text);
    }
    return id;
  }

  std::optional<std::uint32_t> intern_thread() {
    const auto pid = ident(kPid);
    const auto tid = pid ? ident(kTid) : std::nullopt;
    if (!tid) return std::nullopt;
    return ids_.thread(*pid, *tid, out_.thread_process);
  }

  bool keep() {
    if (!require({kPh})) return false;
    const std::string_view ph = tokens_[kPh].text, cat = tokens_[kCat].text;
    const auto event = static_cast<std::uint32_t>(index_);
    if ((ph == "s" || ph == "f") && cat == "ac2g") {
      if (!require({kId, kPid, kTid, kTs})) return false;
      const auto flow = flow_id();
      const auto th = flow ? thread() : std::nullopt;
      const auto ts = th ? nanos(kTs, false) : std::nullopt;
      if (!ts) return false;
      (ph == "s" ? out_.flow_starts : out_.flow_ends).push_back(FlowRecord{*flow, *th, *ts});
      return true;
    }
    if (ph != "X") return true;
    if (!require({kTs, kDur})) return false;
    const auto start = nanos(kTs, false);
    const auto dur = start ? nanos(kDur, true) : std::nullopt;
    if (!dur) return false;
    bool memory = false;
    if (is_gpu_category(cat, memory)) {
      if (!memory && !require({kName})) return false;
      GpuRecord g{*start, *start + *dur};
      g.event = event;
      g.kind = memory ? GpuKind::Memory : pattern_.matches(tokens_[kName].text) ? GpuKind::Comm : GpuKind::Compute;
      for (auto [own, fallback, target] : {std::tuple<Field, Field, std::int64_t*>{kDevice, kPid, &g.device},
                                           {kStream, kTid, &g.stream}}) {
        const Field f = tokens_[own].type ? own : tokens_[fallback].type == 'n' ? fallback : own;
        if (!require({f})) return false;
        const auto v = id(f);
        if (!v) return false;
        *target = *v;
      }
      if (tokens_[kCorrelation].type) g.correlation = *id(kCorrelation);
      if (tokens_[kPid].type && tokens_[kTid].type) {
        const auto th = thread();
        if (!th) return false;
        g.thread = *th;
      }
      out_.gpu.push_back(g);
    } else if (cat == "user_annotation") {
      if (!require({kName, kPid, kTid})) return false;
      const auto th = thread();
      if (!th) return false;
      out_.annotations.push_back(
          AnnotationRecord{ids_.name(tokens_[kName].text, out_.names), *th, *start, *start + *dur, event});
    } else if (tokens_[kCorrelation].type) {
      if (!require({kPid, kTid})) return false;
      const auto th = thread();
      if (!th) return false;
      out_.launches.push_back(LaunchRecord{*id(kCorrelation), *th, *start});
    }
    return true;
  }

  std::string_view text_;
  TraceJsonScanner scan_;
  const CommPattern& pattern_;
  TraceRecords& out_;
  std::optional<Error> error_;
  std::size_t root_start_ = 0;
  std::size_t key_offset_ = 0;  // where the key being read starts
  long long index_ = -1;      // the event being read, -1 outside traceEvents
  std::string_view context_key_;  // its key being read (or the root object's)
  std::string_view arg_key_;      // and the key inside its args
  unsigned seen_ = 0;
  Token tokens_[kFields];
  std::string buffers_[kFields], key_buffer_, args_key_buffer_;
  TraceInterner ids_;
  std::uint32_t last_thread_ = kTraceNone;  // thread()'s last answer, for the same pid and tid text
  char last_pid_type_ = 0, last_tid_type_ = 0;
  std::string last_pid_, last_tid_;
};

}  // namespace

std::string trace_event_pointer(const std::string& events_pointer, std::size_t index, std::string_view key) {
  std::string p = json_pointer_child(events_pointer, std::to_string(index));
  return key.empty() ? p : json_pointer_child(p, std::string(key));
}

Result<TraceRecords> read_trace_events(std::string_view text, const CommPattern& pattern) {
  if (static_cast<std::int64_t>(text.size()) > kMaxTraceBytes)
    return make_error(Rule::InputTooLarge, "", {{"limit", kMaxTraceBytes}});
  TraceRecords records;
  EventReader reader(text, pattern, records);
  if (auto error = reader.run()) return *error;
  return records;
}

}  // namespace pipesim::detail
