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

/** Sorted distinct times at which some op starts or ends: the stops of "step one op". */
export function eventTimes(rows) {
  const set = new Set([0]);
  for (const ops of rows) for (const o of ops) { set.add(o.start); set.add(o.end); }
  return [...set].sort((a, b) => a - b);
}

/** The next event strictly after t (or the last), and the previous strictly before t (or 0). */
export function nextEvent(events, t) {
  for (const e of events) if (e > t + 1e-9) return e;
  return events.length ? events[events.length - 1] : 0;
}
export function prevEvent(events, t) {
  for (let i = events.length - 1; i >= 0; i--) if (events[i] < t - 1e-9) return events[i];
  return 0;
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

/** One line describing an op for tooltips, aria-labels and the table (t = translator). */
export function describeOp(o, t, fmt = (v) => String(v)) {
  const span = t('op.span', { start: fmt(o.start), end: fmt(o.end) });
  const rank = t('op.rank', { rank: o.rank });
  if (o.kind === 'FB') {
    const f = t('op.part', { kind: t('kind.F'), dir: o.fdir, mb: o.fmb, stage: o.fstage });
    const b = t('op.part', { kind: t('kind.B'), dir: o.bdir, mb: o.bmb, stage: o.bstage });
    return `${rank}: ${t('kind.FB')}. ${f}; ${b}. ${span}`;
  }
  const kind = o.kind === 'B' && o.zb ? t('kind.Bi') : t(`kind.${o.kind}`);
  return `${rank}: ${t('op.part', { kind, dir: o.dir, mb: o.mb, stage: o.stage })}. ${span}`;
}

/** Which op kinds and directions occur (the legend shows only those). */
export function presentKinds(rows) {
  const kinds = new Set();
  const dirs = new Set();
  for (const ops of rows) {
    for (const o of ops) {
      if (o.kind === 'FB') { kinds.add('FB'); dirs.add(o.fdir); dirs.add(o.bdir); }
      else { kinds.add(o.kind === 'B' && o.zb ? 'Bi' : o.kind); dirs.add(o.dir); }
    }
  }
  return { kinds, dirs };
}
