// Cuts one sweep request into parts that several workers can run at once, and merges their rows
// back into exactly what one sweep(request) returns. DOM-free (tested under Node).
//
// A part is the same request with a subset of one axis (ranks, or micro-batches when there is a
// single ranks value), so every cell keeps its schedule, ranks, micro-batch spec, costs and chunks and
// gives the same row as in the whole sweep. Errors always come from core, never from here: a
// request is only split when it is well formed and its size is provably within core's sweep
// limits, so it is valid exactly when every part is valid (core checks the same fields in each
// part, and the size limits can only fail for the whole). When a part fails anyway, the caller
// runs the whole request once and reports that result, so error paths (/ranks/3) keep the
// indices of the caller's request.

/**
 * Ops one cell makes per rank and per micro-batch under `schedule`, the factor in core's size
 * estimate (catalogue: M x stages x opsPerChunk, stages = ranks x stagesPerRank / directions).
 * A schedule that takes chunks has the request's `chunks` stages per rank when given (0: its
 * default, the layout's stagesPerRank).
 */
function opsPerRankMicrobatch({ layout, chunks: range }, chunks) {
  const stagesPerRank = range && chunks ? chunks : layout.stagesPerRank;
  return (layout.opsPerChunk * stagesPerRank) / layout.directions;
}

/**
 * Below this many ranks x micro-batches units (summed over cells) a sweep runs whole on one
 * worker: measured at 10-16 thousand units per ms, that is under about 15-20 ms of work, where
 * splitting saves a few ms at best and the first split also starts the extra workers. The sweep
 * view's default request (8 ranks, vs micro-batches) is about 22,000 units.
 */
export const MIN_SPLIT_UNITS = 200_000;

const FIELDS = new Set(['schedules', 'ranks', 'microbatches', 'costs', 'chunks']);
const SPEC = /^([0-9]{1,9})([Rr]?)$/;

// Measured in Chromium and Node: one sweep cell costs about (ranks x micro-batches)^1.25 units
// plus a fixed part, i.e. per-op time grows with a cell's size.
const cellCost = (units) => units ** 1.25 + 300;

/** [value, perRank] of a micro-batch entry core accepts, or null. */
function parseSpec(entry) {
  if (typeof entry === 'number') {
    return Number.isInteger(entry) && entry >= 1 && entry <= 0x7fffffff ? [entry, false] : null;
  }
  const match = typeof entry === 'string' ? SPEC.exec(entry) : null;
  return match && Number(match[1]) >= 1 ? [Number(match[1]), match[2] !== ''] : null;
}

/**
 * The request's grid when it is plain, well formed, names only schedules of the catalogue and is
 * provably within core's limits (catalogue.limits), else null.
 */
function gridOf(request, catalogue) {
  const { limits } = catalogue;
  if (request === null || typeof request !== 'object' || Array.isArray(request)) return null;
  const proto = Object.getPrototypeOf(request);
  if (proto !== Object.prototype && proto !== null) return null;
  if (Object.keys(request).some((key) => !FIELDS.has(key))) return null;
  const { schedules, ranks, microbatches, chunks = 0 } = request;
  if (![schedules, ranks, microbatches].every((list) => Array.isArray(list) && list.length > 0)) return null;
  // Core checks chunks once for the whole request, the same in every part (0: the defaults).
  if (!Number.isInteger(chunks) || chunks < 0 || chunks > limits.maxChunks) return null;
  const factors = [];
  for (let i = 0; i < schedules.length; i++) {
    const info = catalogue.schedules.find((entry) => entry.name === schedules[i]);
    if (!info) return null;  // core names the unknown schedule
    factors.push(opsPerRankMicrobatch(info, chunks));
  }
  for (let i = 0; i < ranks.length; i++) {
    const r = ranks[i];
    if (!Number.isInteger(r) || r < 1 || r > limits.maxRanks) return null;
  }
  const specs = [];
  for (let i = 0; i < microbatches.length; i++) {
    const spec = parseSpec(microbatches[i]);
    if (!spec) return null;
    specs.push(spec);
  }
  if (schedules.length * ranks.length * microbatches.length > limits.maxSweepCells) return null;
  // units[i][j]: ranks x micro-batches of cell (ranks[i], microbatches[j]), for every schedule.
  const units = ranks.map((r) => specs.map(([value, perRank]) => r * (perRank ? value * r : value)));
  const perSchedule = units.flat().reduce((a, b) => a + b, 0);
  const total = perSchedule * schedules.length;
  if (factors.reduce((ops, factor) => ops + perSchedule * factor, 0) > limits.maxSweepOps) return null;
  return { schedules, ranks, microbatches, units, total };
}

/** Deals entries (with costs) into at most `count` groups, largest first (LPT), each sorted. */
function group(costs, count) {
  const order = costs.map((cost, index) => ({ cost, index }))
    .sort((a, b) => b.cost - a.cost || a.index - b.index);
  const bins = Array.from({ length: Math.min(count, costs.length) }, () => ({ cost: 0, indices: [] }));
  for (const { cost, index } of order) {
    const bin = bins.reduce((low, b) => (b.cost < low.cost ? b : low));
    bin.cost += cost;
    bin.indices.push(index);
  }
  for (const bin of bins) bin.indices.sort((a, b) => a - b);
  return bins.sort((a, b) => b.cost - a.cost);
}

/**
 * Plans a split of `request` into parts, largest first, or returns null when it should run
 * whole (`workers` < 2, a small or single-cell-axis sweep, or anything unusual about the request).
 * `catalogue` is core's (limits and schedule layouts decide whether a split is safe).
 * `maxParts` caps the number of parts (more parts than workers balance better as they finish).
 * Returns {axis, parts: [{request, cost}], merge(results) -> {rows}}; merge throws when a result
 * does not have the shape of a part's sweep, so the caller can fall back to the whole request.
 */
export function planSweep(request, { workers = 1, catalogue, maxParts = 32, minUnits = MIN_SPLIT_UNITS } = {}) {
  if (workers < 2 || !catalogue) return null;
  const grid = gridOf(request, catalogue);
  if (!grid || grid.total < minUnits) return null;
  const { schedules, ranks, microbatches, units } = grid;
  const axis = ranks.length >= microbatches.length ? 'ranks' : 'microbatches';
  const length = axis === 'ranks' ? ranks.length : microbatches.length;
  if (length < 2) return null;
  const costs = axis === 'ranks'
    ? units.map((row) => row.reduce((sum, u) => sum + cellCost(u), 0))
    : microbatches.map((_, j) => units.reduce((sum, row) => sum + cellCost(row[j]), 0));
  const bins = group(costs, maxParts);
  const all = (n) => Array.from({ length: n }, (_, i) => i);
  const parts = bins.map(({ cost, indices }) => {
    const pick = { schedules: all(schedules.length), ranks: all(ranks.length),
      microbatches: all(microbatches.length) };
    pick[axis] = indices;
    return { request: { ...request, [axis]: indices.map((i) => request[axis][i]) }, cost, pick };
  });
  const merge = (results) => {
    const R = ranks.length;
    const M = microbatches.length;
    const rows = new Array(schedules.length * R * M);
    if (results.length !== parts.length) throw new Error('one result per sweep part expected');
    results.forEach((result, p) => {
      const { pick } = parts[p];
      const sub = result?.rows;
      const r = pick.ranks.length;
      const m = pick.microbatches.length;
      const shaped = Array.isArray(sub) && Object.keys(result).length === 1;
      if (!shaped || sub.length !== schedules.length * r * m) {
        throw new Error(`sweep part ${p} returned an unexpected result`);
      }
      let k = 0;
      for (const s of pick.schedules) {
        for (const i of pick.ranks) for (const j of pick.microbatches) rows[(s * R + i) * M + j] = sub[k++];
      }
    });
    return { rows };
  };
  return { axis, parts: parts.map(({ request: part, cost }) => ({ request: part, cost })), merge };
}
