// A simulation's timeline as columns (one array per field, ops ordered by rank then execution
// order) in one block of bytes: the form in which the WASM module hands timelines to JavaScript,
// as one copy of the block with a typed array viewing each column (JSON of 200k ops costs
// 300-900 ms to parse). The engine writes the block itself when asked (TimelineForm::Columns in
// pipesim/engine.h), with no list of TimedOps in between. The column list is data, so the
// bindings, the JS API and the page's workers all read it from here (catalogue "timeline").
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace pipesim {

/// Element type of a column; each is as narrow as the limits allow (kMaxRanks, kMaxMicrobatches).
enum class ColumnType : std::uint8_t { Int8, Uint8, Int16, Int32, Float64 };

/// "int8", "uint8", "int16", "int32", "float64" (JS: Int8Array ... Float64Array).
const char* column_type_name(ColumnType type);
/// Bytes per element.
int column_type_size(ColumnType type);

struct TimelineColumnInfo {
  const char* name;     ///< e.g. "rank"
  ColumnType type;
  const char* meaning;  ///< one line for the schema and the catalogue
};

/// The columns, in a stable order.
const std::vector<TimelineColumnInfo>& timeline_column_infos();

/// The timeline of `count` ops in one block of bytes: column c (timeline_column_infos() order)
/// holds `count` little-endian values of its type from byte offset(c). Every offset is a multiple
/// of 8, so each column is aligned for its type in any copy of the block that starts 8-aligned
/// (a JS ArrayBuffer does). Copying a table copies its bytes.
class TimelineTable {
 public:
  TimelineTable() = default;
  /// Laid out for `count` ops, its values uninitialised (the writer fills every one, and zeroing
  /// the megabytes of a large timeline first would touch them all once more); only the padding
  /// between columns is zeroed, so a block's bytes depend on the run alone.
  explicit TimelineTable(std::size_t count);
  TimelineTable(const TimelineTable& other);
  TimelineTable& operator=(const TimelineTable& other);
  TimelineTable(TimelineTable&&) noexcept = default;
  TimelineTable& operator=(TimelineTable&&) noexcept = default;
  ~TimelineTable() = default;

  std::size_t count() const { return count_; }
  /// Byte offset of each column in the block, in timeline_column_infos() order.
  const std::vector<std::size_t>& offsets() const { return offsets_; }
  std::size_t size_bytes() const { return size_bytes_; }
  const std::uint8_t* data() const { return bytes_.get(); }
  std::uint8_t* data() { return bytes_.get(); }

 private:
  std::size_t count_ = 0;
  std::vector<std::size_t> offsets_;
  std::size_t size_bytes_ = 0;
  std::unique_ptr<std::uint8_t[]> bytes_;
};

}  // namespace pipesim
