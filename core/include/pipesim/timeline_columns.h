// A simulation's timeline as columns (one array per field, ops ordered by rank then execution
// order), the form in which the WASM module hands timelines to JavaScript: a typed array per
// column is 50-100x cheaper to cross the boundary than JSON. The column list is data, so the
// bindings, the JS API and the page's workers all read it from here (catalogue "timeline").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pipesim/engine.h"

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

/// One filled column: `count` little-endian values of `info.type` in `bytes`.
struct TimelineColumn {
  const TimelineColumnInfo* info = nullptr;
  std::vector<std::uint8_t> bytes;
};

/// The timeline of `result` as columns (in timeline_column_infos() order) and the op count.
struct TimelineTable {
  std::size_t count = 0;
  std::vector<TimelineColumn> columns;
};
TimelineTable timeline_columns(const SimResult& result);

}  // namespace pipesim
