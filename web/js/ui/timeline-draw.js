// Draws simulated timelines as SVG (light DOM): one row per rank, one group per op, a time axis,
// idle background, and a translucent veil over everything after the time cursor (the future
// stays faintly visible and hoverable). Several lanes (compared schedules) share one x scale so
// their lengths compare directly. The veil and cursor are HTML layers moved by CSS transform, so
// playing never repaints the SVG (thousands of ops at 16 x 64) and frames stay cheap. With the
// communication model, a lane can also show each rank's compute and communication streams
// (ui/timeline-streams.js) under its op row.
import { h, s } from './dom.js';
import { linearScale, ticks, timelinePerUnit } from '../lib/scale.js';
import { opDataset, describeOp } from '../lib/timeline-data.js';
import { commKey, partCount } from '../lib/stream-parts.js';
import { formatNumber } from '../lib/format.js';
import { drawStreams, streamsHeight, SUB_ROWS } from './timeline-streams.js';

export const LAYOUT = Object.freeze({ rowHeight: 26, rowGap: 6, left: 64, right: 60, top: 26, bottom: 8 });

/**
 * The defs every timeline of a widget references: hatch patterns for direction 1 (one for light
 * fills, one for dark fills) and the idle texture. Kept in their own always-rendered SVG because
 * Chromium does not paint patterns that live inside a display:none SVG (the table view hides the
 * chart).
 */
export function drawDefs(prefix) {
  const hatch = (id, cls) =>
    s('pattern', { id, patternUnits: 'userSpaceOnUse', width: 6, height: 6, patternTransform: 'rotate(45)' }, [
      s('line', { x1: 0, y1: 0, x2: 0, y2: 6, class: cls }),
    ]);
  return s('svg', { class: 'dpl-defs', width: 0, height: 0, 'aria-hidden': 'true', focusable: 'false' }, [
    s('defs', {}, [
      hatch(`${prefix}-hatch-light`, 'dpl-hatch-line dpl-hatch-on-light'),
      hatch(`${prefix}-hatch-dark`, 'dpl-hatch-line dpl-hatch-on-dark'),
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

/** The CSS class of a part's fill: kind (F, B, Bi = input-gradient B, W) and direction. */
function cellClass(kind, dir) {
  return `dpl-cell k-${kind} d-${dir}`;
}

/** Dark fills (full and input-gradient B) take the light hatch, the rest the dark one. */
function hatchFor(prefix, kind) {
  return `url(#${prefix}-hatch-${kind === 'B' || kind === 'Bi' ? 'dark' : 'light'})`;
}

function label(x, y, text, kind, dir) {
  return s('text', { x, y, class: `dpl-cell-label k-${kind} d-${dir}`, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, [String(text)]);
}

/** With the communication model, what an op of this kind spends computing and waiting. */
function commNote(o, comm, t) {
  const entry = comm && comm.ops && comm.ops[commKey(o)];
  if (!entry) return '';
  return ` ${t('op.comm', { compute: formatNumber(entry.compute), comm: formatNumber(entry.comm), exposed: formatNumber(entry.exposed) })}`;
}

/** One op: a rect (F, B, W) or a diagonally split shared cell (overlapped F&B pair). */
function drawOp(o, x, y, w, hgt, prefix, t, comm) {
  const g = s('g', {
    class: `dpl-op op-${o.kind}`,
    tabindex: -1,
    role: 'img',
    'aria-label': describeOp(o, t, formatNumber) + commNote(o, comm, t),
    dataset: opDataset(o),
  });
  if (o.kind === 'FB') {
    const fKind = 'F';
    const bKind = 'B';
    const upper = `${x},${y} ${x + w},${y} ${x},${y + hgt}`;
    const lower = `${x + w},${y} ${x + w},${y + hgt} ${x},${y + hgt}`;
    g.append(s('polygon', { points: upper, class: cellClass(fKind, o.fdir) }));
    if (o.fdir === 1) g.append(s('polygon', { points: upper, class: 'dpl-hatch', fill: hatchFor(prefix, fKind) }));
    g.append(s('polygon', { points: lower, class: cellClass(bKind, o.bdir) }));
    if (o.bdir === 1) g.append(s('polygon', { points: lower, class: 'dpl-hatch', fill: hatchFor(prefix, bKind) }));
    g.append(s('line', { x1: x + w, y1: y, x2: x, y2: y + hgt, class: 'dpl-pair-split' }));
    g.append(s('rect', { x, y, width: w, height: hgt, class: 'dpl-pair-border' }));
    // Forward id in the upper-left triangle, backward id in the lower-right one.
    g.append(label(x + w * 0.27, y + hgt * 0.3, o.fmb, fKind, o.fdir));
    g.append(label(x + w * 0.73, y + hgt * 0.72, o.bmb, bKind, o.bdir));
    return g;
  }
  const kind = o.kind === 'B' && o.zb ? 'Bi' : o.kind;
  g.append(s('rect', { x, y, width: w, height: hgt, class: cellClass(kind, o.dir) }));
  if (o.dir === 1) g.append(s('rect', { x, y, width: w, height: hgt, class: 'dpl-hatch', fill: hatchFor(prefix, kind) }));
  g.append(label(x + w / 2, y + hgt / 2, o.mb, kind, o.dir));
  return g;
}

/**
 * One lane's SVG. Returns the element, its op groups by rank, and setCursor(t). With `streams`
 * (and a result that has `comm`), each rank also shows its compute and communication streams.
 * @param {{rows: object[][], result: object}} lane
 * @param {{makespan: number, perUnit: number, prefix: string, t: Function, streams?: boolean}} opts
 */
export function drawLane(lane, { makespan, perUnit, prefix, t, streams = false }) {
  const L = LAYOUT;
  const comm = lane.result.comm;
  const expanded = Boolean(streams && comm);
  const block = L.rowHeight + (expanded ? streamsHeight() : 0);
  const gap = L.rowGap + (expanded ? 6 : 0); // expanded ranks need a clearer break between them
  const plotWidth = Math.max(1, makespan * perUnit);
  const width = L.left + plotWidth + L.right;
  const height = L.top + lane.rows.length * (block + gap) - gap + L.bottom;
  const x = linearScale([0, makespan || 1], [L.left, L.left + plotWidth]);
  const rowY = (r) => L.top + r * (block + gap);

  const svg = s('svg', {
    class: 'dpl-timeline-svg',
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    role: 'group',
    'aria-label': lane.title,
  });

  // Time axis along the top, with faint gridlines through the rows.
  const axis = s('g', { class: 'dpl-axis', 'aria-hidden': 'true' });
  for (const v of ticks(0, makespan, Math.max(2, Math.floor(plotWidth / 70)))) {
    axis.append(s('line', { x1: x(v), x2: x(v), y1: L.top - 6, y2: height - L.bottom, class: 'dpl-grid' }));
    axis.append(s('text', { x: x(v), y: L.top - 10, class: 'dpl-tick', 'text-anchor': 'middle' }, [formatNumber(v)]));
  }
  // The idle column is centred in the right gutter, clear of the last tick's label.
  axis.append(s('text', { x: width - L.right / 2 + 4, y: L.top - 10, class: 'dpl-tick dpl-axis-name', 'text-anchor': 'middle' }, [t('axis.idle')]));
  svg.append(axis);

  // Row names live in their own narrow SVG, frozen at the left edge while a wide chart scrolls
  // sideways (CSS: .dpl-gutter is sticky), so a learner always knows which rank a row is.
  const gutter = s('svg', { class: 'dpl-gutter-svg', width: L.left, height, viewBox: `0 0 ${L.left} ${height}` });
  gutter.append(s('rect', { x: 0, y: 0, width: L.left, height, class: 'dpl-gutter-bg' }));
  gutter.append(s('text', { x: L.left - 8, y: L.top - 10, class: 'dpl-tick dpl-axis-name', 'text-anchor': 'end' }, [t('axis.time')]));

  // The idle texture behind each row (visible wherever no op covers it), idle totals.
  const rowsG = s('g', { class: 'dpl-rows', 'aria-hidden': 'true' });
  lane.rows.forEach((ops, r) => {
    const y = rowY(r);
    gutter.append(s('text', { x: L.left - 8, y: y + L.rowHeight / 2, class: 'dpl-rank-label', 'text-anchor': 'end', 'dominant-baseline': 'central' }, [t('axis.rank', { rank: r })]));
    rowsG.append(s('rect', { x: L.left, y, width: plotWidth, height: L.rowHeight, class: 'dpl-idle', fill: `url(#${prefix}-idle)` }));
    const idle = lane.result.perRank && lane.result.perRank[r] ? lane.result.perRank[r].idle : null;
    if (idle !== null) {
      rowsG.append(s('text', { x: width - L.right / 2 + 4, y: y + L.rowHeight / 2, class: 'dpl-idle-total', 'text-anchor': 'middle', 'dominant-baseline': 'central' }, [formatNumber(idle)]));
    }
  });
  svg.append(rowsG);
  const streamsDrawn = expanded ? drawStreams(lane, { x, rowY, layout: L, plotWidth, width, prefix, t }) : null;
  if (streamsDrawn) {
    svg.append(streamsDrawn.background);
    gutter.append(streamsDrawn.labels);
  }

  const opsG = s('g', { class: 'dpl-ops' });
  const cells = lane.rows.map((ops, r) =>
    ops.map((o) => {
      const x0 = x(o.start);
      const g = drawOp(o, x0, rowY(r), Math.max(1, x(o.end) - x0), L.rowHeight, prefix, t, comm);
      opsG.append(g);
      return g;
    }),
  );
  svg.append(opsG);
  if (streamsDrawn) svg.append(streamsDrawn.parts);

  // Everything after the cursor sits under a veil: not yet run, but still readable on hover.
  // The plot window clips veil and cursor to the plot area; only their transforms change.
  const veil = h('div', { class: 'dpl-veil', 'aria-hidden': 'true' });
  const cursor = h('div', { class: 'dpl-cursor', 'aria-hidden': 'true' });
  const windowEl = h('div', { class: 'dpl-plot-window' }, [veil, cursor]);
  Object.assign(windowEl.style, { left: `${L.left}px`, top: `${L.top - 4}px`, width: `${plotWidth + 2}px`, height: `${height - L.top - L.bottom + 6}px` });
  const element = h('div', { class: 'dpl-lane-plot' }, [svg, windowEl, h('div', { class: 'dpl-gutter', 'aria-hidden': 'true' }, [gutter])]);

  function setCursor(time) {
    const cx = x(Math.min(time, makespan)) - L.left;
    veil.style.transform = `translateX(${cx}px)`;
    cursor.style.transform = `translateX(${cx - 1}px)`;
    // At the very end the cursor would sit on the last op's edge; hide it to keep the still clean.
    cursor.classList.toggle('is-end', time >= makespan);
  }

  return { svg, element, cells, setCursor, streams: expanded };
}

/**
 * Up to this many parts, the stream view widens the chart so every part shows its letter; above
 * it, text for every part costs more to lay out than it helps (16 x 64 has 10,240 parts), so
 * only parts that are wide anyway are labelled and the tooltips name the rest.
 */
export const LETTERED_PARTS = 6000;

/**
 * Pixels per time unit for these lanes in `available` pixels (see timelinePerUnit). With
 * `streams` and at most LETTERED_PARTS parts, the shortest part also gets room for its letter.
 */
export function pixelsPerUnit(lanes, makespan, available, { streams = false } = {}) {
  let shortestOp = Infinity;
  for (const lane of lanes) for (const ops of lane.rows) for (const o of ops) shortestOp = Math.min(shortestOp, o.end - o.start);
  let perUnit = timelinePerUnit({ makespan, plot: Math.max(120, available - LAYOUT.left - LAYOUT.right), shortestOp });
  const lettered = streams && lanes.reduce((n, l) => n + partCount(l.rows, l.result.comm), 0) <= LETTERED_PARTS;
  for (const lane of lettered ? lanes : []) {
    const comm = lane.result.comm;
    if (!comm) continue;
    const keys = new Set(lane.rows.flatMap((ops) => ops.map(commKey)));
    for (const key of keys) {
      for (const p of comm.ops[key]?.parts || []) {
        if (p.end > p.start) perUnit = Math.max(perUnit, timelinePerUnit({ makespan, plot: 0, shortestOp: p.end - p.start, minCellPx: SUB_ROWS.charPx + 6 }));
      }
    }
  }
  return perUnit;
}
