// What a client needs to know about pipesim before it asks anything, from the one place that
// decides it: every schedule with its shape rules, stage layout and reference formula; the size
// limits and the time tick; the cost defaults; the op kinds; the timeline columns the WASM module
// hands over; the error codes and every rule with its English template. The page, its workers and
// its embeds read this instead of restating any of it (`pipesim catalogue`, JS `catalogue()`).
#pragma once

#include "pipesim/json.h"

namespace pipesim {

/// The schedules as `pipesim schedules --format json` prints them: name, title, constraints,
/// source.
Json schedules_to_json();

/// The whole catalogue (docs/schema.md "Catalogue").
Json catalogue_to_json();

}  // namespace pipesim
