// What the sweep widget asks the simulator for, and how its rows become chart series and CSV.
// DOM-free (tested under Node).

export const SWEEP_SCHEDULES = ['gpipe', '1f1b', 'zb-h1', 'dualpipe', 'dualpipev'];
export const METRICS = ['bubbleFraction', 'maxPeakActivations'];

/**
 * Micro-batch counts for the "vs micro-batches" sweep at R ranks: 16 evenly spaced even counts
 * up to 8R, so DualPipe's "even and >= 2R" rule leaves most points valid. Ranks for the
 * "vs ranks" sweep: even counts 2..24 (DualPipe needs an even count).
 */
export function sweepRequest({ axis, ranks, microbatches, costs }, schedules = SWEEP_SCHEDULES) {
  if (axis === 'ranks') {
    const list = Array.from({ length: 12 }, (_, i) => 2 * (i + 1));
    return { schedules, ranks: list, microbatches: [microbatches], costs };
  }
  const r = Number(ranks) || 1;
  let step = Math.max(2, Math.round(r / 2));
  if (step % 2) step += 1;
  return { schedules, ranks: [ranks], microbatches: Array.from({ length: 16 }, (_, i) => step * (i + 1)), costs };
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

const CSV_COLUMNS = ['schedule', 'ranks', 'microbatches', 'ok', 'stages', 'makespan', 'bubbleMax', 'bubbleFraction', 'utilization', 'maxPeakActivations', 'paramCopies', 'error'];

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
