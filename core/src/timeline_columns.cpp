// The timeline as typed columns (pipesim/timeline_columns.h): the column list, the block's
// layout, and the engine's pass writing a run into it (plan_columns.h).
#include "pipesim/timeline_columns.h"

#include <algorithm>
#include <cstring>
#include <iterator>

#include "plan_columns.h"

namespace pipesim {
namespace {

// Column indices, in the order of kInfos below.
enum Column { kRank, kOp, kZb, kDir, kMb, kStage, kBdir, kBmb, kBstage, kStart, kEnd, kColumns };

// Types: ranks <= kMaxRanks = 1024 and stages <= 2 x kMaxRanks fit int16; micro-batches up to
// kMaxMicrobatches = 2^20 need int32; times are float64 (integer ticks of 1e-6 up to ~2e12).
const TimelineColumnInfo kInfos[kColumns] = {
    {"rank", ColumnType::Int16, "the rank that ran the op"},
    {"op", ColumnType::Uint8, "the op kind, an index into opKinds: 0=F 1=B 2=W 3=FB"},
    {"zb", ColumnType::Uint8, "1 for a zero-bubble B (input gradient only), else 0"},
    {"dir", ColumnType::Uint8, "direction of the chunk (the forward part of an FB)"},
    {"mb", ColumnType::Int32, "micro-batch of the chunk, from 0 within its direction"},
    {"stage", ColumnType::Int16, "stage of the chunk, from 0 along its direction"},
    {"bdir", ColumnType::Int8, "an FB's backward chunk: direction; -1 for other ops"},
    {"bmb", ColumnType::Int32, "an FB's backward chunk: micro-batch; -1 for other ops"},
    {"bstage", ColumnType::Int16, "an FB's backward chunk: stage; -1 for other ops"},
    {"start", ColumnType::Float64, "start time, in cost units"},
    {"end", ColumnType::Float64, "end time, in cost units"},
};

// Writes values of column `c` one after another (the column's declared type must be T).
template <typename T>
class Writer {
 public:
  Writer(TimelineTable& table, Column c) : out_(table.data() + table.offsets()[c]) {
    PIPESIM_CHECK(sizeof(T) == static_cast<std::size_t>(column_type_size(kInfos[c].type)),
                  "a timeline column is written with its declared type");
  }
  void put(T v) {
    std::memcpy(out_, &v, sizeof v);
    out_ += sizeof v;
  }

 private:
  std::uint8_t* out_;
};

// Column offsets are multiples of this: the widest type's size.
constexpr std::size_t kColumnAlign = 8;

}  // namespace

const char* column_type_name(ColumnType type) {
  switch (type) {
    case ColumnType::Int8: return "int8";
    case ColumnType::Uint8: return "uint8";
    case ColumnType::Int16: return "int16";
    case ColumnType::Int32: return "int32";
    case ColumnType::Float64: return "float64";
  }
  return "";
}

int column_type_size(ColumnType type) {
  switch (type) {
    case ColumnType::Int8:
    case ColumnType::Uint8: return 1;
    case ColumnType::Int16: return 2;
    case ColumnType::Int32: return 4;
    case ColumnType::Float64: return 8;
  }
  return 0;
}

const std::vector<TimelineColumnInfo>& timeline_column_infos() {
  static const std::vector<TimelineColumnInfo> kList(std::begin(kInfos), std::end(kInfos));
  return kList;
}

TimelineTable::TimelineTable(std::size_t count) : count_(count) {
  std::vector<std::size_t> used;  // bytes of values in each column, before its alignment padding
  for (const TimelineColumnInfo& info : kInfos) {
    offsets_.push_back(size_bytes_);
    used.push_back(count * static_cast<std::size_t>(column_type_size(info.type)));
    size_bytes_ += (used.back() + kColumnAlign - 1) / kColumnAlign * kColumnAlign;
  }
  bytes_.reset(new std::uint8_t[size_bytes_]);
  // The writer fills every value but not the few padding bytes after a column: zeroed, so the
  // same run gives the same block byte for byte (no leftover heap bytes reach a copy or a hash).
  for (std::size_t c = 0; c < offsets_.size(); ++c) {
    const std::size_t end = c + 1 < offsets_.size() ? offsets_[c + 1] : size_bytes_;
    std::fill(bytes_.get() + offsets_[c] + used[c], bytes_.get() + end, std::uint8_t{0});
  }
}

TimelineTable::TimelineTable(const TimelineTable& other)
    : count_(other.count_), offsets_(other.offsets_), size_bytes_(other.size_bytes_),
      bytes_(new std::uint8_t[other.size_bytes_]) {
  std::copy(other.data(), other.data() + size_bytes_, bytes_.get());
}

TimelineTable& TimelineTable::operator=(const TimelineTable& other) {
  if (this != &other) *this = TimelineTable(other);
  return *this;
}

namespace detail {

TimelineTable plan_columns(const OpPlan& plan, const Tick* starts, const OpLengths& lengths) {
  TimelineTable table(plan.size());
  // This runs for each timeline the page draws. Two passes over the ops, each writing five or six
  // columns with fewer pointers live at once: a whole Columns simulate() of DualPipe 64x1024 took
  // 12% less in wasm (about 5% natively) than with one pass writing all eleven.
  // Pass one: what the op is and when it ran.
  {
    Writer<std::int16_t> rank(table, kRank);
    Writer<std::uint8_t> op(table, kOp), zb(table, kZb);
    Writer<double> start(table, kStart), end(table, kEnd);
    const Tick* t = starts;
    std::size_t i = 0;
    for (int r = 0; r < plan.shape().ranks; ++r)
      for (const PlanOp* p = plan.begin(r); p != plan.end(r); ++p, ++t, ++i) {
        const int slot = p->code & kSlotMask;
        rank.put(static_cast<std::int16_t>(r));
        op.put(static_cast<std::uint8_t>(slot & 3));
        zb.put((slot & 4) != 0 ? 1 : 0);
        start.put(to_units(*t));
        end.put(to_units(*t + lengths.of(i, *p)));
      }
  }
  // Pass two: its chunks, decoded from their keys.
  Writer<std::int16_t> stage(table, kStage), bstage(table, kBstage);
  Writer<std::uint8_t> dir(table, kDir);
  Writer<std::int8_t> bdir(table, kBdir);
  Writer<std::int32_t> mb(table, kMb), bmb(table, kBmb);
  const ChunkIndex index = plan.index();  // a copy the compiler can keep in registers
  for (int r = 0; r < plan.shape().ranks; ++r)
    for (const PlanOp* p = plan.begin(r); p != plan.end(r); ++p) {
      const bool pair = (p->code & kSlotMask) == kSlotPair;
      const Chunk c = index.chunk(p->key);
      const Chunk b = pair ? index.chunk(p->backward_key) : Chunk{-1, -1, -1};
      dir.put(static_cast<std::uint8_t>(c.dir));
      mb.put(c.mb);
      stage.put(static_cast<std::int16_t>(c.stage));
      bdir.put(static_cast<std::int8_t>(b.dir));
      bmb.put(b.mb);
      bstage.put(static_cast<std::int16_t>(b.stage));
    }
  return table;
}

TimelineTable ops_columns(const std::vector<RankTimeline>& timeline) {
  std::size_t count = 0;
  for (const auto& list : timeline) count += list.size();
  TimelineTable table(count);
  Writer<std::int16_t> rank(table, kRank), stage(table, kStage), bstage(table, kBstage);
  Writer<std::uint8_t> op(table, kOp), zb(table, kZb), dir(table, kDir);
  Writer<std::int8_t> bdir(table, kBdir);
  Writer<std::int32_t> mb(table, kMb), bmb(table, kBmb);
  Writer<double> start(table, kStart), end(table, kEnd);
  for (std::size_t r = 0; r < timeline.size(); ++r)
    for (const TimedOp& t : timeline[r]) {
      const bool pair = t.op.kind == OpKind::ForwardBackward;
      const Chunk b = pair ? t.op.backward_chunk : Chunk{-1, -1, -1};
      rank.put(static_cast<std::int16_t>(r));
      op.put(static_cast<std::uint8_t>(t.op.kind));
      zb.put(t.op.zero_bubble ? 1 : 0);
      dir.put(static_cast<std::uint8_t>(t.op.chunk.dir));
      mb.put(t.op.chunk.mb);
      stage.put(static_cast<std::int16_t>(t.op.chunk.stage));
      bdir.put(static_cast<std::int8_t>(b.dir));
      bmb.put(b.mb);
      bstage.put(static_cast<std::int16_t>(b.stage));
      start.put(t.start);
      end.put(t.end);
    }
  return table;
}

}  // namespace detail
}  // namespace pipesim
