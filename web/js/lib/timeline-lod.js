// Level of detail for drawing a timeline of any size (up to core's op cap) at any zoom, as
// perfetto does for its tracks: each rank's ops become a track of typed arrays (start, end, a
// colour category), and for a view and a pixel width, lodRuns() turns the ops in view into
// runs to paint: an op at least DETAIL_PX wide is its own run (it keeps its index, so the
// renderer can add its label and hatching); narrower ops are grouped per pixel column, coloured
// by the category that fills most of the column and as opaque as the column is busy, and equal
// neighbouring columns merge into one run. The work is linear in the ops in view and allocates
// nothing per frame. Also the choice between the SVG and the canvas renderer. DOM-free.
import CATALOGUE from '../../generated/catalogue.js';
import { normalizeTimeline } from './timeline-data.js';

/**
 * Up to this many ops a widget draws hand-written SVG, one element group per op with its data-*
 * attributes (what tests, embeds, tooltips and keyboard focus use), redrawn when the view
 * changes; above it, a canvas with level of detail, so a 64 x 1024 run (73,666 ops) pans and
 * zooms at 60 fps. The stream view (one SVG rect per part) draws up to SVG_MAX_PARTS parts.
 */
export const SVG_MAX_OPS = 4000;
export const SVG_MAX_PARTS = 16000;

/** 'svg' or 'canvas' for a chart of `ops` ops and `parts` stream parts: the one place it is chosen. */
export function rendererFor({ ops, parts = 0 }) {
  return ops <= SVG_MAX_OPS && parts <= SVG_MAX_PARTS ? 'svg' : 'canvas';
}

/** Ops at least this many pixels wide are drawn one by one; narrower ones are grouped. */
export const DETAIL_PX = 3;

const KIND = Object.fromEntries(CATALOGUE.opKinds.map((name, code) => [name, code]));

/**
 * Colour categories. F, Bi (zero-bubble input-gradient B), B and W by direction: kind * 2 + dir,
 * 0..7; an overlapped FB pair: 8 + fdir * 2 + bdir (its forward and backward colours); a stream
 * part (lanes of look 'part': a trace's annotated ranges, a modelled pair's parts) by its pass
 * and stream: PART_BASE + pass * 2 + (communication ? 1 : 0), the passes of PART_PASSES, X being
 * a range with no pass (a trace's own names).
 */
export const CATEGORY_KINDS = Object.freeze(['F', 'Bi', 'B', 'W']);
export const PART_PASSES = Object.freeze(['F', 'B', 'W', 'X']);
export const FB_BASE = 8;
export const PART_BASE = 12;
export const CATEGORY_COUNT = PART_BASE + PART_PASSES.length * 2;

/** The category of a stream part: its pass (F, B, W or X) and whether it communicates. */
export function partCategory(pass, comm) {
  const at = PART_PASSES.indexOf(pass);
  return PART_BASE + (at < 0 ? PART_PASSES.length - 1 : at) * 2 + (comm ? 1 : 0);
}

/** A part category's pass and stream kind: {pass, comm}. */
export function partOfCategory(cat) {
  return { pass: PART_PASSES[(cat - PART_BASE) >> 1], comm: ((cat - PART_BASE) & 1) === 1 };
}

/** The category of one op from its timeline fields. */
export function categoryOf(kind, zb, dir, bdir) {
  if (kind === 'FB') return FB_BASE + dir * 2 + bdir;
  const k = kind === 'B' ? (zb ? 1 : 2) : kind === 'F' ? 0 : 3;
  return k * 2 + dir;
}

/** What a category paints: [{kind, dir}] (two for an FB pair: forward, then backward). */
export function categoryParts(cat) {
  if (cat >= FB_BASE) return [{ kind: 'F', dir: (cat - FB_BASE) >> 1 }, { kind: 'B', dir: (cat - FB_BASE) & 1 }];
  return [{ kind: CATEGORY_KINDS[cat >> 1], dir: cat & 1 }];
}

/** The key of a category's entry in result.comm.ops (stream-parts.js commKey). */
export const commKeyOf = (cat) => (cat >= FB_BASE ? 'FB' : ['F', 'Bz', 'B', 'W'][cat >> 1]);

/**
 * The op kinds (F, B, Bi, W, FB) and directions present in `tracks`, and the stream parts'
 * passes (F, B, W, X) and whether any communicates: what the legend shows.
 */
export function presentKinds(tracks) {
  const seen = new Uint8Array(CATEGORY_COUNT);
  for (const tr of tracks) for (let i = 0; i < tr.cat.length; i++) seen[tr.cat[i]] = 1;
  const kinds = new Set();
  const dirs = new Set();
  const passes = new Set();
  let comm = false;
  seen.forEach((on, cat) => {
    if (!on) return;
    if (cat >= PART_BASE) {
      const part = partOfCategory(cat);
      passes.add(part.pass);
      comm ||= part.comm;
      return;
    }
    const parts = categoryParts(cat);
    kinds.add(cat >= FB_BASE ? 'FB' : parts[0].kind);
    for (const p of parts) dirs.add(p.dir);
  });
  return { kinds, dirs, passes, comm };
}

/** True for an F (activations appear when it ends); B and Bi (they are freed) by isBackward. */
export const isForward = (cat) => cat < 2;
export const isBackward = (cat) => cat >= 2 && cat < 6;

function emptyTrack(n) {
  return { start: new Float64Array(n), end: new Float64Array(n), cat: new Uint8Array(n), index: new Int32Array(n) };
}

/**
 * Each rank's ops as a track, in execution order (so start and end both increase: a rank runs
 * one op at a time): {start, end, cat, index}, `index` being the op's position in the result's
 * typed columns (or its place in the JSON timeline's flattened order). Also the shortest op.
 */
export function opTracks(result) {
  const tl = result.timeline;
  const ranks = result.ranks;
  const counts = new Int32Array(ranks);
  let tracks;
  if (tl && typeof tl.count === 'number') {
    for (let i = 0; i < tl.count; i++) counts[tl.rank[i]]++;
    tracks = Array.from(counts, (n) => emptyTrack(n));
    counts.fill(0);
    for (let i = 0; i < tl.count; i++) {
      const r = tl.rank[i];
      const at = counts[r]++;
      const track = tracks[r];
      const kind = tl.op[i];
      track.start[at] = tl.start[i];
      track.end[at] = tl.end[i];
      track.index[at] = i;
      track.cat[at] = kind === KIND.FB ? FB_BASE + tl.dir[i] * 2 + tl.bdir[i]
        : kind === KIND.B ? (tl.zb[i] ? 2 : 4) + tl.dir[i] : kind === KIND.F ? tl.dir[i] : 6 + tl.dir[i];
    }
  } else {
    let flat = 0;
    tracks = normalizeTimeline(result).map((ops) => {
      const track = emptyTrack(ops.length);
      ops.forEach((o, at) => {
        track.start[at] = o.start;
        track.end[at] = o.end;
        track.index[at] = flat++;
        track.cat[at] = o.kind === 'FB' ? categoryOf('FB', false, o.fdir, o.bdir) : categoryOf(o.kind, o.zb, o.dir);
      });
      return track;
    });
  }
  let shortestOp = Infinity;
  for (const t of tracks) for (let i = 0; i < t.start.length; i++) shortestOp = Math.min(shortestOp, t.end[i] - t.start[i]);
  return { tracks, shortestOp };
}

/** The first position in `sorted` (ascending) whose value is > t (sorted.length if none). */
export function firstAfter(sorted, t) {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] > t) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The op of `track` under time t, or -1 (an op covers [start, end)). */
export function opAtTime(track, t) {
  const i = firstAfter(track.end, t);
  return i < track.start.length && track.start[i] <= t ? i : -1;
}

/**
 * A reusable buffer of runs: for run j, pixels [x0[j], x1[j]) from the plot's left edge, colour
 * category cat[j], opacity alpha[j] (the busy share of a grouped column, in eighths), and op[j]:
 * the op's position in its track when the run is one op, -1 when it groups several.
 */
export function createRuns(capacity = 1024) {
  return { n: 0, x0: new Float32Array(capacity), x1: new Float32Array(capacity), cat: new Uint8Array(capacity), alpha: new Float32Array(capacity), op: new Int32Array(capacity) };
}

function grow(runs) {
  const bigger = createRuns(runs.x0.length * 2);
  for (const key of ['x0', 'x1', 'cat', 'alpha', 'op']) bigger[key].set(runs[key]);
  Object.assign(runs, bigger, { n: runs.n });
}

function push(runs, x0, x1, cat, alpha, op) {
  if (runs.n === runs.x0.length) grow(runs);
  const j = runs.n++;
  runs.x0[j] = x0;
  runs.x1[j] = x1;
  runs.cat[j] = cat;
  runs.alpha[j] = alpha;
  runs.op[j] = op;
}

const cover = new Float64Array(CATEGORY_COUNT); // pixels per category in the column being grouped
const touched = new Uint8Array(CATEGORY_COUNT); // the categories the column touched, in order
const isTouched = new Uint8Array(CATEGORY_COUNT);
let touchedCount = 0;

/**
 * The runs that paint `track` in `view` on a plot `width` pixels wide, written into `runs`
 * (from createRuns; its previous content is dropped). Returns runs.n. With `from` and `to`, only
 * the pixel columns [from, to) are wanted (a renderer that shifted its bitmap draws the strip the
 * pan exposed): the runs cover them exactly as the whole plot's runs do, at the same x, and may
 * spill a column or an op beyond them, which the caller clips.
 */
export function lodRuns(track, view, width, runs, detailPx = DETAIL_PX, from = 0, to = width) {
  runs.n = 0;
  const { start, end, cat } = track;
  const n = start.length;
  const k = width / (view.end - view.start);
  // Ops that touch the columns wanted, with a column to spare each side (rounding at the edges).
  const t0 = from > 0 ? view.start + (from - 1) / k : view.start;
  const t1 = to < width ? view.start + (to + 1) / k : view.end;
  const lo = Math.max(-1, from - 1);
  const hi = Math.min(width, to) + 1;
  let column = NaN;
  let pending = false;

  // Only the categories the column touched are read back (a column holds one or two; the lowest
  // category wins a tie, whatever order they came in).
  const flush = () => {
    if (!pending) return;
    let best = 0;
    let bestCover = 0;
    let busy = 0;
    for (let j = 0; j < touchedCount; j++) {
      const c = touched[j];
      busy += cover[c];
      if (cover[c] > bestCover || (cover[c] === bestCover && c < best)) {
        best = c;
        bestCover = cover[c];
      }
      cover[c] = 0;
      isTouched[c] = 0;
    }
    touchedCount = 0;
    const alpha = Math.max(1, Math.round(Math.min(1, busy) * 8)) / 8;
    const last = runs.n - 1;
    if (last >= 0 && runs.op[last] === -1 && runs.cat[last] === best && runs.alpha[last] === alpha && runs.x1[last] >= column) {
      runs.x1[last] = column + 1;
    } else {
      push(runs, column, column + 1, best, alpha, -1);
    }
    pending = false;
  };

  for (let i = firstAfter(end, t0); i < n && start[i] < t1; i++) {
    const x0 = (start[i] - view.start) * k;
    const x1 = (end[i] - view.start) * k;
    if (x1 - x0 >= detailPx) {
      flush();
      push(runs, x0, x1, cat[i], 1, i);
      continue;
    }
    // A narrow op adds the share of each pixel column it covers (clipped to the plot, so an op
    // that starts far before the view does not walk every column on the way).
    const a = Math.max(x0, lo);
    const b = Math.min(x1, hi);
    for (let c = Math.floor(a); c < b; c++) {
      if (c !== column) {
        flush();
        column = c;
      }
      const k = cat[i];
      if (!isTouched[k]) {
        isTouched[k] = 1;
        touched[touchedCount++] = k;
      }
      cover[k] += Math.min(b, c + 1) - Math.max(a, c);
      pending = true;
    }
  }
  flush();
  return runs.n;
}
