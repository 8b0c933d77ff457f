// What the sweep widget asks the simulator for, and how its rows become chart series and CSV.
// The schedules and the shape rules the grid respects come from core's catalogue. DOM-free
// (tested under Node).

import { SCHEDULES, SCHEDULE_NAMES } from './schedules.js';

/** Every schedule core offers, in the catalogue's order. */
export const SWEEP_SCHEDULES = SCHEDULE_NAMES;
// Activations as per-GPU memory (core's maxPeakActivationMemory: one unit is a micro-batch through
// 1/ranks of the model), the only count in which DualPipeV's half-size stages compare with the rest.
export const METRICS = ['bubbleFraction', 'maxPeakActivationMemory'];

const gcd = (a, b) => (b ? gcd(b, a % b) : a);
const lcm = (a, b) => (a / gcd(a, b)) * b;

/**
 * The step every micro-batch count of the sweep is a multiple of at R ranks, so that each
 * schedule's divisibility rules (catalogue `shape`: even counts, multiples of R) hold at every
 * point and its line has no gaps but those of its minimum: the least common multiple of what the
 * shapes ask, scaled up to at least R/2 so that the grid reaches far enough.
 */
export function microbatchStep(ranks, schedules = SCHEDULES) {
  const r = Number.isInteger(ranks) && ranks > 0 ? ranks : 1;
  let step = 1;
  for (const { shape } of schedules) {
    if (shape.evenMicrobatches) step = lcm(step, 2);
    if (shape.microbatchesMultipleOfRanks) step = lcm(step, r);
  }
  return step * Math.max(1, Math.ceil(r / 2 / step));
}

/** The rank step of the "vs ranks" sweep: 2 when any schedule needs an even rank count. */
export function rankStep(schedules = SCHEDULES) {
  return schedules.some((s) => s.shape.evenRanks) ? 2 : 1;
}

/** Points of the "vs micro-batches" sweep: multiples of the step up to 8R, at least this many. */
const MIN_POINTS = 8;
/** Points of the "vs ranks" sweep. */
const RANK_POINTS = 12;

/**
 * The sweep request for the widget. "vs micro-batches" at R ranks: multiples of
 * microbatchStep(R) up to 8R (at least 8 of them). "vs ranks" at M micro-batches: 12 rank counts
 * in steps of rankStep(). `schedules` are names; their shapes come from the catalogue.
 */
export function sweepRequest({ axis, ranks, microbatches, costs, chunks }, schedules = SWEEP_SCHEDULES) {
  const shapes = SCHEDULES.filter((s) => schedules.includes(s.name));
  // Core applies chunks to the schedules that take them and leaves the others' layouts; absent,
  // each takes its catalogue default.
  const extra = chunks === null || chunks === undefined ? {} : { chunks };
  if (axis === 'ranks') {
    const step = rankStep(shapes);
    return { schedules: [...schedules], ranks: Array.from({ length: RANK_POINTS }, (_, i) => step * (i + 1)), microbatches: [microbatches], costs, ...extra };
  }
  const r = Number.isInteger(ranks) && ranks > 0 ? ranks : 1;
  const step = microbatchStep(r, shapes);
  const count = Math.max(MIN_POINTS, Math.floor((8 * r) / step));
  return { schedules: [...schedules], ranks: [ranks], microbatches: Array.from({ length: count }, (_, i) => step * (i + 1)), costs, ...extra };
}

/**
 * Series per schedule for one metric: points in x order, null where the shape is invalid for the
 * schedule (drawn as a gap). x is micro-batches or ranks depending on the axis.
 */
export function seriesFrom(rows, axis, metric) {
  const xKey = axis === 'ranks' ? 'ranks' : 'microbatches';
  const bySchedule = new Map();
  for (const row of rows) {
    if (!bySchedule.has(row.schedule)) bySchedule.set(row.schedule, []);
    bySchedule.get(row.schedule).push({ x: row[xKey], y: row.ok ? row[metric] : null, error: row.ok ? null : row.error });
  }
  return [...bySchedule].map(([schedule, points]) => ({ schedule, points: points.sort((a, b) => a.x - b.x) }));
}

/** Splits a series into runs of consecutive valid points, so lines break at n/a cells. */
export function segments(points) {
  const out = [];
  let run = [];
  for (const p of points) {
    if (p.y === null) { if (run.length) out.push(run); run = []; }
    else run.push(p);
  }
  if (run.length) out.push(run);
  return out;
}

const CSV_COLUMNS = ['schedule', 'ranks', 'microbatches', 'ok', 'stages', 'makespan', 'bubbleMax', 'bubbleFraction', 'utilization', 'maxPeakActivationMemory', 'maxPeakActivations', 'paramCopies', 'error'];

function csvCell(value) {
  if (value === undefined || value === null) return '';
  const text = String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** RFC 4180 CSV of sweep rows; invalid rows keep their error message in the last column. */
export function rowsToCsv(rows) {
  const lines = [CSV_COLUMNS.join(',')];
  for (const row of rows) {
    lines.push(CSV_COLUMNS.map((c) => csvCell(c === 'error' ? (row.error ? row.error.message : '') : row[c])).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** Values this close (relative) are the same: floating-point rounding apart. */
const SAME = 1e-9;

/**
 * Series whose points are the same (the same x, and y equal but for rounding, gaps included), which
 * one line would hide under another (GPipe's bubble lies exactly on 1F1B's): {schedule: {with:
 * [the other schedules], offset}}, `offset` the series' place in its group centred on 0 (-0.5,
 * 0.5 for a pair), so a chart can draw them a little apart. Series alone are left out.
 */
export function coincidentSeries(series) {
  const same = (a, b) => a.points.length === b.points.length && a.points.every((p, i) => {
    const q = b.points[i];
    return p.x === q.x && (p.y === null ? q.y === null : q.y !== null && Math.abs(p.y - q.y) <= SAME * Math.max(1, Math.abs(p.y)));
  });
  const groups = [];
  for (const s of series) {
    const group = groups.find((g) => same(g[0], s));
    if (group) group.push(s); else groups.push([s]);
  }
  const out = {};
  for (const group of groups.filter((g) => g.length > 1)) {
    group.forEach((s, i) => { out[s.schedule] = { with: group.filter((o) => o !== s).map((o) => o.schedule), offset: i - (group.length - 1) / 2 }; });
  }
  return out;
}
