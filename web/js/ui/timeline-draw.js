// The SVG renderer of a timeline lane (lib/timeline-model.js), for small runs (lib/timeline-lod.js
// chooses it): one row per row of the lane (a rank, a GPU stream), one group per item with its
// data-* attributes (tests, embeds, tooltips and keyboard focus read them), drawn in the lane's
// look: an op cell (kind, direction dots, micro-batch id) or a stream part (its pass's colour,
// communication pale and outlined, its name); a time axis and idle background, in the time window
// `view` fitted to the lane's width. A view change redraws the lane; only items that intersect
// the view are drawn, so zooming in makes redraws cheaper, not dearer. Labels show where they
// fit. Several lanes (compared schedules, a measured and a modelled pair) share one view. The
// cursor, veil and gutter are HTML layers (ui/timeline-frame.js). A lane with a stream view can
// also show each rank's compute and communication streams (ui/timeline-streams.js), and with
// `memory` its in-flight activations under its op row.
import { h, s } from './dom.js';
import { ticks } from '../lib/scale.js';
import { partText } from '../lib/stream-parts.js';
import { numberFormat } from '../lib/format.js';
import { timeToX } from '../lib/timeline-viewport.js';
import { drawStreams } from './timeline-streams.js';
import { drawGutter, drawIdleColumn, cursorLayer, memoryPath } from './timeline-frame.js';

/**
 * The defs every timeline of a widget references: the dots that mark direction 1, one pattern per
 * op kind (drawn in that kind's text colour, so they show on its fill), and the idle texture (the
 * one hatch: ranks waiting). Kept in their own always-rendered SVG because Chromium does not
 * paint patterns that live inside a display:none SVG (the table view hides the chart).
 */
export function drawDefs(prefix) {
  const dots = (kind) =>
    s('pattern', { id: `${prefix}-dots-${kind}`, patternUnits: 'userSpaceOnUse', width: DOT_TILE, height: DOT_TILE }, [
      s('circle', { cx: DOT_TILE / 4, cy: DOT_TILE / 4, r: DOT_R, class: `dpl-dot k-${kind}` }),
      s('circle', { cx: (3 * DOT_TILE) / 4, cy: (3 * DOT_TILE) / 4, r: DOT_R, class: `dpl-dot k-${kind}` }),
    ]);
  return s('svg', { class: 'dpl-defs', width: 0, height: 0, 'aria-hidden': 'true', focusable: 'false' }, [
    s('defs', {}, [
      ...DOT_KINDS.map(dots),
      s('pattern', { id: `${prefix}-idle`, patternUnits: 'userSpaceOnUse', width: 8, height: 8, patternTransform: 'rotate(-45)' }, [
        s('rect', { width: 8, height: 8, class: 'dpl-idle-bg' }),
        s('line', { x1: 0, y1: 0, x2: 0, y2: 8, class: 'dpl-idle-line' }),
      ]),
      // Exposed communication: the compute stream waiting inside an op.
      s('pattern', { id: `${prefix}-exposed`, patternUnits: 'userSpaceOnUse', width: 5, height: 5, patternTransform: 'rotate(45)' }, [
        s('rect', { width: 5, height: 5, class: 'dpl-exposed-bg' }),
        s('line', { x1: 0, y1: 0, x2: 0, y2: 5, class: 'dpl-exposed-line' }),
      ]),
    ]),
  ]);
}

/** The dot pattern's tile and dot radius (px); the canvas renderer draws the same (timeline-palette.js). */
export const DOT_TILE = 6;
export const DOT_R = 1.1;
const DOT_KINDS = ['F', 'Bi', 'B', 'W'];

/** The CSS class of a part's fill: kind (F, B, Bi = input-gradient B, W) and direction. */
function cellClass(kind, dir) {
  return `dpl-cell k-${kind} d-${dir}`;
}

/** The fill that marks direction 1 on a cell of `kind`. */
export function dotsFor(prefix, kind) {
  return `url(#${prefix}-dots-${kind})`;
}

/** Whether a cell `width` pixels wide has room for `text` in the 11 px monospace label font. */
export const fits = (text, width) => width >= String(text).length * LABEL_CHAR_PX + 4;
export const LABEL_CHAR_PX = 6.7;

function label(x, y, text, kind, dir) {
  return s('text', { x, y, class: `dpl-cell-label k-${kind} d-${dir}`, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, [String(text)]);
}

/** With the stream view's model, what an op of this kind spends computing and waiting. */
function commNote(o, lane, t) {
  const entry = lane.streams?.entryOf(o);
  if (!entry) return '';
  const num = numberFormat(t.lang);
  return t('op.comm', { compute: num(entry.compute), comm: num(entry.comm), exposed: num(entry.exposed) });
}

/** An item of a lane of look 'op': a rect (F, B, W) or a diagonally split shared cell (overlapped F&B pair). */
function drawOp(o, x, y, w, hgt, prefix, t, lane) {
  const g = s('g', {
    class: `dpl-op op-${o.kind}`,
    tabindex: -1,
    role: 'img',
    'aria-label': t.sentences(lane.describe(o, t, numberFormat(t.lang)), commNote(o, lane, t)),
    dataset: lane.dataset(o),
  });
  if (o.kind === 'FB') {
    const fKind = 'F';
    const bKind = 'B';
    const upper = `${x},${y} ${x + w},${y} ${x},${y + hgt}`;
    const lower = `${x + w},${y} ${x + w},${y + hgt} ${x},${y + hgt}`;
    g.append(s('polygon', { points: upper, class: cellClass(fKind, o.fdir) }));
    if (o.fdir === 1) g.append(s('polygon', { points: upper, class: 'dpl-dir-mark', fill: dotsFor(prefix, fKind) }));
    g.append(s('polygon', { points: lower, class: cellClass(bKind, o.bdir) }));
    if (o.bdir === 1) g.append(s('polygon', { points: lower, class: 'dpl-dir-mark', fill: dotsFor(prefix, bKind) }));
    g.append(s('line', { x1: x + w, y1: y, x2: x, y2: y + hgt, class: 'dpl-pair-split' }));
    g.append(s('rect', { x, y, width: w, height: hgt, class: 'dpl-pair-border' }));
    // Forward id in the upper-left triangle, backward id in the lower-right one.
    if (fits(`${o.fmb}${o.bmb}`, w)) {
      g.append(label(x + w * 0.27, y + hgt * 0.3, o.fmb, fKind, o.fdir));
      g.append(label(x + w * 0.73, y + hgt * 0.72, o.bmb, bKind, o.bdir));
    }
    return g;
  }
  const kind = o.kind === 'B' && o.zb ? 'Bi' : o.kind;
  g.append(s('rect', { x, y, width: w, height: hgt, class: cellClass(kind, o.dir) }));
  if (o.dir === 1) g.append(s('rect', { x, y, width: w, height: hgt, class: 'dpl-dir-mark', fill: dotsFor(prefix, kind) }));
  if (fits(o.mb, w)) g.append(label(x + w / 2, y + hgt / 2, o.mb, kind, o.dir));
  return g;
}

/**
 * An item of a lane of look 'part' (a stream part: a trace's range, a modelled pair's part): its
 * pass's colour, pale and outlined when it communicates, its name where it fits.
 */
function drawPart(p, x, y, w, hgt, t, lane) {
  const cls = `k-${p.pass} d-0${p.comm ? ' is-comm' : ''}`;
  const g = s('g', {
    class: `dpl-op dpl-part-item${p.comm ? ' is-comm' : ''}`,
    tabindex: -1,
    role: 'img',
    'aria-label': lane.describe(p, t, numberFormat(t.lang)),
    dataset: lane.dataset(p),
  }, [s('rect', { x, y, width: w, height: hgt, class: `dpl-cell ${cls}` })]);
  const text = partText(p, w, LABEL_CHAR_PX);
  if (text) g.append(s('text', { x: x + w / 2, y: y + hgt / 2, class: `dpl-part-label dpl-part-name ${cls}` }, [text]));
  return g;
}


/**
 * One lane's SVG (a lane of lib/timeline-model.js) for time window `view` under `layout`
 * (lib/timeline-layout.js laneLayout). Returns {svg, element, cells, where, setCursor(t)}:
 * `cells[r]` maps an item's position on row r to its group, for the items drawn, and `where` an
 * item's group to its {rank, seq} (rank: its row).
 */
export function drawLane(lane, { view, layout, makespan, prefix, id, t, streams = false, memoryMax = 0, unit = '' }) {
  const L = layout;
  const num = numberFormat(t.lang); // axis ticks: the page's decimal sign, read left to right in the plot
  const rows = lane.records();
  const expanded = Boolean(streams && lane.streams);
  const drawItem = lane.look === 'part' ? drawPart : (o, x0, y, w, hgt, t, lane) => drawOp(o, x0, y, w, hgt, prefix, t, lane);
  const { width, height, plotWidth } = L;
  const x = (time) => L.left + timeToX(view, plotWidth, time);
  // An op overlapping the view; a zero-length op (a W costing 0) counts where it sits, edges included,
  // so a run still draws every op it has (tests and embeds read them one for one).
  const visible = (o) => (o.end > view.start && o.start < view.end) ||
    (o.start === o.end && o.start >= view.start && o.start <= view.end);

  const svg = s('svg', { class: 'dpl-timeline-svg', width, height, viewBox: `0 0 ${width} ${height}`, role: 'group', 'aria-label': lane.title });
  const clipId = `${prefix}-clip-${id}`;
  svg.append(s('clipPath', { id: clipId }, [s('rect', { x: L.left, y: 0, width: plotWidth, height })]));

  // Time axis along the top, with faint gridlines through the rows.
  const axis = s('g', { class: 'dpl-axis', 'aria-hidden': 'true' });
  for (const v of ticks(view.start, view.end, Math.max(2, Math.floor(plotWidth / 70)))) {
    axis.append(s('line', { x1: x(v), x2: x(v), y1: L.top - 6, y2: height - L.bottom, class: 'dpl-grid' }));
    axis.append(s('text', { x: x(v), y: L.top - 10, class: 'dpl-tick', 'text-anchor': 'middle' }, [num(v)]));
  }
  svg.append(axis);

  // The idle texture behind each row (visible wherever no op covers it).
  const rowsG = s('g', { class: 'dpl-rows', 'aria-hidden': 'true' });
  const memoryG = s('g', { class: 'dpl-memory', 'aria-hidden': 'true', 'clip-path': `url(#${clipId})` });
  rows.forEach((ops, r) => {
    const y = L.rowY(r);
    rowsG.append(s('rect', { x: L.left, y, width: plotWidth, height: L.rowHeight, class: 'dpl-idle', fill: `url(#${prefix}-idle)` }));
    if (L.memoryY >= 0 && lane.memory) {
      const steps = lane.memory[r];
      const top = y + L.memoryY;
      rowsG.append(s('rect', { x: L.left, y: top, width: plotWidth, height: L.memoryHeight, class: 'dpl-mem-track' }));
      const d = memoryPath(steps, view, plotWidth, { x0: L.left, y0: top + L.memoryHeight, height: L.memoryHeight - 1, max: memoryMax });
      memoryG.append(s('path', { d, class: 'dpl-mem-area', dataset: { rank: r, peak: steps.peak, count: steps.peakCount } }));
    }
  });
  svg.append(rowsG);
  const streamsDrawn = expanded ? drawStreams(lane, { x, visible, rowY: (r) => L.rowY(r), layout: L, prefix, lang: t.lang }) : null;
  if (streamsDrawn) svg.append(streamsDrawn.background);

  const opsG = s('g', { class: 'dpl-ops', 'clip-path': `url(#${clipId})` });
  const where = new WeakMap(); // op group -> {rank, seq}
  const cells = rows.map((ops, r) => {
    const drawn = new Map();
    ops.forEach((o, seq) => {
      if (!visible(o)) return;
      const x0 = x(o.start);
      const g = drawItem(o, x0, L.rowY(r), Math.max(1, x(o.end) - x0), L.rowHeight, t, lane);
      opsG.append(g);
      drawn.set(seq, g);
      where.set(g, { rank: r, seq });
    });
    return drawn;
  });
  svg.append(opsG);
  if (streamsDrawn) {
    streamsDrawn.parts.setAttribute('clip-path', `url(#${clipId})`);
    svg.append(streamsDrawn.parts);
  }
  svg.append(memoryG);

  const cursor = cursorLayer(L);
  const element = h('div', { class: 'dpl-lane-plot' }, [svg, cursor.element, drawGutter(lane, L, t, unit), drawIdleColumn(lane, L, t)]);
  const setCursor = (time) => cursor.set(timeToX(view, plotWidth, Math.min(time, makespan)), time >= makespan);
  return { svg, element, cells, where, setCursor };
}
