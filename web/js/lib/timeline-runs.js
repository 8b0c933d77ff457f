// Several runs on one time axis, as data: the model the timeline widget draws from, whatever the
// runs are (simulated schedules today; measured traces later, in the same result shape). Each
// run becomes a lane (its op tracks, op count and stream-part count, a way to read one op); the
// set shares one axis (the longest makespan), one zoom range (the shortest op of any run) and one
// list of the times ops start or end (where "step one op" stops). Any number of runs; the
// renderers (ui/timeline-*.js) only draw lanes. DOM-free.
import { opTracks, partCountOf } from './timeline-lod.js';
import { opCount, opRecord, eventTimesOf } from './timeline-data.js';
import { viewLimits } from './timeline-viewport.js';

/**
 * The runs of `results` (simulator results, in lane order) with `titles`, on one axis:
 * {lanes: [{result, title, tracks, opCount, parts, rows: null, memory: null, opAt(rank, seq)}],
 *  makespan, limits, events}. `rows` and `memory` are filled by whoever needs them (the SVG
 * renderer and the table: op records by rank; the memory lane: activation steps).
 */
export function runSet(results, titles = []) {
  let shortest = Infinity;
  const lanes = results.map((result, i) => {
    const { tracks, shortestOp } = opTracks(result);
    shortest = Math.min(shortest, shortestOp);
    const lane = { result, title: titles[i] ?? result.schedule, tracks, opCount: opCount(result), parts: partCountOf(tracks, result.comm), rows: null, memory: null };
    lane.opAt = (rank, seq) => (lane.rows ? lane.rows[rank][seq] : opRecord(result, rank, seq, tracks[rank].index[seq]));
    return lane;
  });
  const makespan = Math.max(0, ...results.map((r) => r.makespan));
  return { lanes, makespan, limits: viewLimits(makespan, shortest), events: eventTimesOf(lanes.map((l) => l.tracks)) };
}
