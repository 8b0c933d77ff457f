// Normalises a simulation result's timeline into plain op records, whichever shape it came in:
// the CLI/JSON shape (arrays of op objects per rank, docs/schema.md) or the WASM module's
// struct of typed arrays (ordered by rank, then execution order). Views only ever see the output.
// DOM-free (tested under Node).
import CATALOGUE from '../../generated/catalogue.js';

const OP_KINDS = CATALOGUE.opKinds; // the typed arrays' op codes 0..3 name these kinds

/**
 * @typedef {object} Op
 * @property {number} rank
 * @property {number} seq    position in its rank's execution order
 * @property {'F'|'B'|'W'|'FB'} kind
 * @property {boolean} zb    B only: a zero-bubble (input-gradient) backward, its W runs separately
 * @property {number} [dir] @property {number} [mb] @property {number} [stage]   F, B, W
 * @property {number} [fdir] @property {number} [fmb] @property {number} [fstage] FB: forward part
 * @property {number} [bdir] @property {number} [bmb] @property {number} [bstage] FB: backward part
 * @property {number} start @property {number} end
 */

function fromObject(rank, seq, o) {
  const base = { rank, seq, kind: o.op, zb: o.op === 'B' && Boolean(o.zb), start: o.start, end: o.end };
  if (o.op === 'FB') {
    return { ...base, fdir: o.fdir, fmb: o.fmb, fstage: o.fstage, bdir: o.bdir, bmb: o.bmb, bstage: o.bstage };
  }
  return { ...base, dir: o.dir, mb: o.mb, stage: o.stage };
}

function fromTyped(t, i, seq) {
  const kind = OP_KINDS[t.op[i]];
  const base = { rank: t.rank[i], seq, kind, zb: kind === 'B' && t.zb[i] !== 0, start: t.start[i], end: t.end[i] };
  if (kind === 'FB') {
    return { ...base, fdir: t.dir[i], fmb: t.mb[i], fstage: t.stage[i], bdir: t.bdir[i], bmb: t.bmb[i], bstage: t.bstage[i] };
  }
  return { ...base, dir: t.dir[i], mb: t.mb[i], stage: t.stage[i] };
}

/** Op records grouped by rank: `rows[r]` lists rank r's ops in execution order. */
export function normalizeTimeline(result) {
  const ranks = result.ranks;
  const rows = Array.from({ length: ranks }, () => []);
  const tl = result.timeline;
  if (Array.isArray(tl)) {
    tl.forEach((ops, r) => ops.forEach((o, seq) => rows[r].push(fromObject(r, seq, o))));
  } else if (tl && typeof tl.count === 'number') {
    for (let i = 0; i < tl.count; i++) {
      const r = tl.rank[i];
      rows[r].push(fromTyped(tl, i, rows[r].length));
    }
  } else {
    throw new TypeError('result.timeline is neither per-rank op arrays nor typed arrays');
  }
  return rows;
}

/** Number of ops in a result without building records (used to refuse drawing huge timelines). */
export function opCount(result) {
  const tl = result.timeline;
  if (Array.isArray(tl)) return tl.reduce((n, ops) => n + ops.length, 0);
  return tl && typeof tl.count === 'number' ? tl.count : 0;
}

/** One op record without building the rest: op `seq` of `rank`, at `index` in typed columns. */
export function opRecord(result, rank, seq, index) {
  const tl = result.timeline;
  return Array.isArray(tl) ? fromObject(rank, seq, tl[rank][seq]) : fromTyped(tl, index, seq);
}

/** Sorted distinct times at which some op starts or ends: the stops of "step one op". */
export function eventTimes(rows) {
  const set = new Set([0]);
  for (const ops of rows) for (const o of ops) { set.add(o.start); set.add(o.end); }
  return Float64Array.from([...set].sort((a, b) => a - b));
}

/** The same from op tracks (lib/timeline-lod.js), for every lane: `trackSets` = [tracks]. */
export function eventTimesOf(trackSets) {
  let n = 1;
  for (const tracks of trackSets) for (const tr of tracks) n += 2 * tr.start.length;
  const all = new Float64Array(n);
  let at = 1; // all[0] = 0
  for (const tracks of trackSets) {
    for (const tr of tracks) {
      all.set(tr.start, at);
      all.set(tr.end, at + tr.start.length);
      at += 2 * tr.start.length;
    }
  }
  all.sort();
  let unique = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[unique - 1]) all[unique++] = all[i];
  return all.slice(0, unique);
}

/** The next event strictly after t (or the last), and the previous strictly before t (or 0). */
export function nextEvent(events, t) {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (events[mid] > t + 1e-9) hi = mid;
    else lo = mid + 1;
  }
  if (lo < events.length) return events[lo];
  return events.length ? events[events.length - 1] : 0;
}
export function prevEvent(events, t) {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (events[mid] < t - 1e-9) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 ? events[lo - 1] : 0;
}

/** The data-* attributes each drawn op carries (tests and assistive tech read them). */
export function opDataset(o) {
  const d = { rank: o.rank, op: o.kind, start: o.start, end: o.end };
  if (o.kind === 'FB') {
    Object.assign(d, { fdir: o.fdir, fmb: o.fmb, fstage: o.fstage, bdir: o.bdir, bmb: o.bmb, bstage: o.bstage });
  } else {
    Object.assign(d, { dir: o.dir, mb: o.mb, stage: o.stage });
    if (o.kind === 'B') d.zb = o.zb ? 1 : 0;
  }
  return d;
}

/** One line describing an op for tooltips, aria-labels and the table (t = translator): one message per shape. */
export function describeOp(o, t, fmt = (v) => String(v)) {
  const where = { rank: o.rank, start: fmt(o.start), end: fmt(o.end) };
  if (o.kind === 'FB') {
    return t('op.describeFB', { ...where, fdir: o.fdir, fmb: o.fmb, fstage: o.fstage, bdir: o.bdir, bmb: o.bmb, bstage: o.bstage });
  }
  const kind = o.kind === 'B' && o.zb ? t('kind.Bi') : t(`kind.${o.kind}`);
  return t('op.describe', { ...where, kind, dir: o.dir, mb: o.mb, stage: o.stage });
}
