// The timeline's model: lanes of rows of timed items on one time axis, whatever they came from.
// One adapter per source turns it into lanes (lib/timeline-sim-lanes.js: simulator results;
// lib/timeline-trace-lanes.js: a profiler trace as core's trace-import reads it, and the
// overlapped pair `pipesim overlap` times); the widget (views/timeline.js) and its renderers
// (ui/timeline-*.js) read lanes and nothing else, as perfetto's tracks and speedscope's importers
// keep the drawing apart from the formats. laneSet() puts any number of lanes on one axis (the
// longest lane's end), with one zoom range (the shortest item of any lane) and one list of the
// times items start or end (where "step one op" stops). DOM-free.
//
// A lane:
//   title         its heading
//   look          how its items are drawn: 'op' (a simulated run's op cells: kind, direction,
//                 micro-batch id) or 'part' (stream parts: a pass's colour, communication pale and
//                 outlined, the part's name); the renderers know looks, never sources
//   tracks        one per row, in time order: {start, end, cat, index} (lib/timeline-lod.js; items
//                 on a row never overlap), what the canvas, the overview and hit testing read
//   end           the lane's last time
//   shortest      its shortest item (the zoom range's floor)
//   itemCount     items on all rows
//   records()     item records by row, built once on first need (the SVG renderer, the table)
//   itemAt(row, i)  one record without building the rest (the canvas's labels and hover)
//   describe(record, t, fmt)  one line for tooltips, aria-labels and the table
//   dataset(record)           its data-* attributes (tests and assistive tech read them)
//   rowLabels     per row {key, vars}: the gutter's name of the row
//   idle          per row the idle column's number, or null
//   hasIdle       whether the legend names idle time
//   stats         [{key, vars}]: the numbers of the lane's heading
//   table         {head: [i18n keys], cells(record, t, fmt) -> [text]}: the data table's columns
//   streams       null, or the stream view each row opens into (a compute and a communication
//                 sub-row): {partCount, layers, partsOf(record), exposedOf(record, cache),
//                 exposedTotal(row)}
//   memory        null; a lane with a memory lane: {steps() -> per row steps, model, unit}
//   result        the simulator's result (sim lanes; null otherwise), for callers that ask
import { viewLimits } from './timeline-viewport.js';
import { eventTimesOf } from './timeline-data.js';

/**
 * `lanes` on one axis: {lanes, makespan, limits, events, unit}. `unit` is the time unit every
 * lane counts in ('' for the simulator's cost units, 'ms' for a trace's milliseconds).
 */
export function laneSet(lanes, { unit = '' } = {}) {
  const makespan = Math.max(0, ...lanes.map((l) => l.end));
  const shortest = Math.min(Infinity, ...lanes.map((l) => l.shortest));
  return { lanes, makespan, limits: viewLimits(makespan, shortest), events: eventTimesOf(lanes.map((l) => l.tracks)), unit };
}

/**
 * Tracks from item records by row (each row's records sorted by start, none overlapping): the
 * typed arrays of lib/timeline-lod.js, `cat` from catOf(record), `index` the record's place in
 * its row. Also the shortest item that lasts (Infinity for none).
 */
export function tracksOf(rows, catOf) {
  let shortest = Infinity;
  const tracks = rows.map((items) => {
    const n = items.length;
    const track = { start: new Float64Array(n), end: new Float64Array(n), cat: new Uint8Array(n), index: new Int32Array(n) };
    items.forEach((item, i) => {
      track.start[i] = item.start;
      track.end[i] = item.end;
      track.cat[i] = catOf(item);
      track.index[i] = i;
      if (item.end > item.start) shortest = Math.min(shortest, item.end - item.start);
    });
    return track;
  });
  return { tracks, shortest };
}
