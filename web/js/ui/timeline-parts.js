// The timeline widget's non-chart parts: legend, transport controls, the zoom bar around the
// overview strip, data table and lane heading (each from the lanes of lib/timeline-model.js,
// whatever their source), and where the arrow keys move between cells.
// Each builder returns plain elements; the view in views/timeline.js wires behaviour.
import { h, s, PLOT_DIR } from './dom.js';
import { icon } from './icons.js';
import { dotsFor } from './timeline-draw.js';
import { presentKinds, firstAfter, SVG_MAX_OPS, SVG_MAX_PARTS, PART_PASSES } from '../lib/timeline-lod.js';
import { partDataset, describePart, PART_NAMES } from '../lib/stream-parts.js';
import { formatNumber, numberFormat } from '../lib/format.js';
import { SPEEDS } from '../state.js';
import { clamp } from '../lib/scale.js';

/** A 22x14 swatch drawn with the same classes and patterns as the chart cells. */
function swatch(kind, dir, prefix) {
  const box = { x: 1, y: 1, width: 20, height: 12 };
  const parts = [];
  const dots = (k, shape) => (dir === 1 ? [s(shape.tag, { ...shape.attrs, class: 'dpl-dir-mark', fill: dotsFor(prefix, k) })] : []);
  if (kind === 'FB') {
    const upper = { tag: 'polygon', attrs: { points: '1,1 21,1 1,13' } };
    const lower = { tag: 'polygon', attrs: { points: '21,1 21,13 1,13' } };
    parts.push(s('polygon', { ...upper.attrs, class: `dpl-cell k-F d-${dir}` }), ...dots('F', upper));
    parts.push(s('polygon', { ...lower.attrs, class: `dpl-cell k-B d-${dir}` }), ...dots('B', lower));
    parts.push(s('line', { x1: 21, y1: 1, x2: 1, y2: 13, class: 'dpl-pair-split' }));
    parts.push(s('rect', { ...box, class: 'dpl-pair-border' }));
  } else if (kind === 'idle') {
    parts.push(s('rect', { ...box, class: 'dpl-idle', fill: `url(#${prefix}-idle)` }));
  } else if (kind === 'memory') {
    parts.push(s('rect', { ...box, class: 'dpl-mem-track' }));
    parts.push(s('path', { d: 'M1 13V10H6V6H11V3H16V8H21V13Z', class: 'dpl-mem-area' }));
  } else if (kind === 'exposed') {
    parts.push(s('rect', { ...box, class: 'dpl-exposed', fill: `url(#${prefix}-exposed)` }));
  } else if (kind.startsWith('pass-')) {
    // A trace's or a modelled pair's part: its pass's colour (X: a range with no pass), or outlined.
    const pass = kind.slice(5);
    const cls = pass === 'comm' ? 'k-B d-0 is-comm' : `k-${pass} d-0`;
    parts.push(s('rect', { ...box, class: `dpl-part dpl-cell ${cls}` }));
  } else if (PART_NAMES.includes(kind)) {
    // A stream part: solid for compute, outlined for communication, with its letter.
    const comm = kind === 'dispatch' || kind === 'combine';
    const cls = `k-B d-${dir}${comm ? ' is-comm' : ''}`;
    parts.push(s('rect', { ...box, class: `dpl-part dpl-cell ${cls}` }));
    parts.push(s('text', { x: 11, y: 7.5, class: `dpl-part-label ${cls}`, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, [kind[0].toUpperCase()]));
  } else {
    parts.push(s('rect', { ...box, class: `dpl-cell k-${kind} d-${dir}` }), ...dots(kind, { tag: 'rect', attrs: box }));
  }
  return s('svg', { class: 'dpl-swatch', width: 22, height: 14, viewBox: '0 0 22 14', 'aria-hidden': 'true', focusable: 'false' }, parts);
}

/**
 * Legend of what the drawn lanes hold, one entry per mark: each op kind present (one swatch:
 * colour is the kind), idle (the hatch), and, when both directions run, the dots of direction 1;
 * then memory and the stream parts when they are drawn. One row where it fits (widgets.css).
 */
export function buildLegend(lanes, prefix, t, { streams = false, memory = false } = {}) {
  const kinds = new Set();
  const dirs = new Set();
  const passes = new Set();
  let comm = false;
  let idle = false;
  for (const lane of lanes) {
    const p = presentKinds(lane.tracks);
    p.kinds.forEach((k) => kinds.add(k));
    p.dirs.forEach((d) => dirs.add(d));
    p.passes.forEach((pass) => passes.add(pass));
    comm ||= p.comm;
    idle ||= lane.hasIdle;
  }
  const order = LEGEND_KINDS.filter((k) => kinds.has(k));
  const item = (sw, key, attrs = {}) => h('li', attrs, [sw, h('span', { text: t(key) })]);
  const items = order.map((kind) => item(swatch(kind, 0, prefix), `legend.${kind}`, { dataset: { kind } }));
  if (idle) items.push(item(swatch('idle', 0, prefix), 'legend.idle', { dataset: { kind: 'idle' } }));
  if (dirs.has(1) && order.length) items.push(item(swatch(order.find((k) => k !== 'FB') ?? 'F', 1, prefix), 'legend.dir1', { dataset: { kind: 'dir1' } }));
  // Stream parts drawn as a lane's items (a trace, a modelled pair): by pass, and communication.
  // Named by the suffix DeepSeek's ranges carry, "(F) forward".
  const passText = (pass) => (pass === 'X' ? t('legend.otherRange') : `(${pass}) ${t(`kind.${pass}`)}`);
  for (const pass of PART_PASSES.filter((p) => passes.has(p))) {
    items.push(h('li', { dataset: { pass } }, [swatch(`pass-${pass}`, 0, prefix), h('span', { text: passText(pass) })]));
  }
  if (comm) items.push(item(swatch('pass-comm', 0, prefix), 'part.stream.comm', { dataset: { pass: 'comm' } }));
  // In GB when a run carries core's memory model with activations (lib/timeline-memory.js).
  const gb = lanes.some((l) => l.memoryUnit === 'GB');
  if (memory) items.push(item(swatch('memory', 0, prefix), gb ? 'legend.memoryGb' : 'legend.memory', { class: 'dpl-legend-memory', dataset: { kind: 'memory' } }));
  const legend = h('div', { class: 'dpl-legend' }, [h('ul', { 'aria-label': t('legend.title') }, items)]);
  if (streams && lanes.some((l) => l.streams)) {
    const partItems = PART_NAMES.map((part) => item(swatch(part, 0, prefix), `legend.part.${part}`, { dataset: { part } }));
    partItems.push(item(swatch('exposed', 0, prefix), 'legend.exposed'));
    legend.append(
      h('ul', { class: 'dpl-legend-parts', 'aria-label': t('legend.parts') }, partItems),
      h('p', { class: 'dpl-legend-note', text: t('legend.streams') }),
    );
  }
  return legend;
}

/** The order op kinds are listed in a legend. */
const LEGEND_KINDS = ['F', 'B', 'Bi', 'W', 'FB'];

/** Heading above a lane: its title and headline numbers (the lane's stats). */
export function buildLaneHeading(lane, t) {
  const stats = lane.stats.map((stat) => t(stat.key, stat.vars));
  return h('div', { class: 'dpl-lane-heading' }, [
    h('span', { class: 'dpl-lane-title', text: lane.title }),
    h('span', { class: 'dpl-lane-stats', text: stats.join(' · ') }),
  ]);
}

/** The transport bar; returns the elements the view needs to wire and update. */
export function buildTransport(t, idPrefix) {
  const button = (name, label, key) =>
    h('button', { type: 'button', class: 'dpl-btn dpl-icon-btn', 'aria-label': label, title: `${label} (${key})`, dataset: { action: name } }, [icon(name)]);
  // Visible text stays part of the accessible name ("+1 Forward one time unit"), as WCAG 2.5.3 asks.
  const textButton = (name, text, label, key) =>
    h('button', { type: 'button', class: 'dpl-btn dpl-unit-btn', title: `${label} (${key})`, dataset: { action: name } }, [
      text, h('span', { class: 'dpl-visually-hidden', text: ` ${label}` }),
    ]);
  const play = button('play', t('ctl.play'), t('key.space'));
  // The scrubber and the step buttons move along the plot's time axis, so they run its way (ui/dom.js
  // PLOT_DIR): on a right-to-left page "earlier" stays on the left, beside the chart's start.
  const scrub = h('input', { type: 'range', class: 'dpl-scrub', dir: PLOT_DIR, min: 0, max: 1, step: 'any', value: 1, id: `${idPrefix}-scrub`, 'aria-label': t('ctl.scrub') });
  const speed = h('select', { class: 'dpl-speed', id: `${idPrefix}-speed`, 'aria-label': t('ctl.speed') },
    SPEEDS.map((v) => h('option', { value: String(v), text: `${formatNumber(v, 2, t.lang)}×` })));
  const readout = h('output', { class: 'dpl-readout', for: `${idPrefix}-scrub` });
  const table = h('button', { type: 'button', class: 'dpl-btn dpl-toggle', 'aria-pressed': 'false', dataset: { action: 'table' } }, [icon('table'), h('span', { text: t('ctl.table') })]);
  // Stays focusable when unavailable (aria-disabled), so pressing it can say what it needs.
  const streams = h('button', { type: 'button', class: 'dpl-btn dpl-toggle', 'aria-pressed': 'false', 'aria-describedby': `${idPrefix}-streams-hint`, dataset: { action: 'streams' } }, [icon('streams'), h('span', { text: t('ctl.streams') })]);
  const streamsHint = h('p', { class: 'dpl-streams-hint', id: `${idPrefix}-streams-hint`, hidden: true });
  const memory = h('button', { type: 'button', class: 'dpl-btn dpl-toggle', 'aria-pressed': 'false', title: t('ctl.memoryTitle'), dataset: { action: 'memory' } }, [icon('memory'), h('span', { text: t('ctl.memory') })]);
  // The keyboard help, shown on request only (the chart's accessible description either way).
  const help = h('button', { type: 'button', class: 'dpl-btn dpl-icon-btn dpl-help-btn', 'aria-expanded': 'false', 'aria-controls': `${idPrefix}-help`, 'aria-label': t('ctl.help'), title: t('ctl.help'), dataset: { action: 'help' } }, ['?']);
  const bar = h('div', { class: 'dpl-transport', role: 'toolbar', 'aria-label': t('ctl.toolbar') }, [
    h('div', { class: 'dpl-transport-buttons', dir: PLOT_DIR }, [
      button('start', t('ctl.start'), t('key.home')),
      textButton('prevUnit', '−1', t('ctl.prevUnit'), t('key.shiftLeft')),
      button('prevOp', t('ctl.prevOp'), t('key.left')),
      play,
      button('nextOp', t('ctl.nextOp'), t('key.right')),
      textButton('nextUnit', '+1', t('ctl.nextUnit'), t('key.shiftRight')),
      button('end', t('ctl.end'), t('key.end')),
    ]),
    h('div', { class: 'dpl-scrub-wrap' }, [scrub, readout]),
    speed, help,
  ]);
  // How to look rather than when: with the zoom bar, under the chart (buildViewBar).
  const toggles = h('div', { class: 'dpl-transport-toggles' }, [memory, streams, table]);
  return { bar, play, scrub, speed, readout, table, streams, streamsHint, memory, help, toggles };
}

/**
 * The zoom bar under the chart: zoom out, the overview strip (ui/timeline-overview.js, passed
 * in), zoom in, back to the whole run, how far it is zoomed, then the view toggles (`extra`:
 * memory, streams, table).
 */
export function buildViewBar(t, strip, extra = null) {
  const button = (name, label, key, content) =>
    h('button', { type: 'button', class: 'dpl-btn dpl-icon-btn', 'aria-label': label, title: `${label} (${key})`, dataset: { action: name } }, content);
  const zoomOut = button('zoomOut', t('zoom.out'), '-', [icon('zoomOut')]);
  const zoomIn = button('zoomIn', t('zoom.in'), '+', [icon('zoomIn')]);
  const fit = h('button', { type: 'button', class: 'dpl-btn dpl-fit-btn', title: `${t('zoom.fitTitle')} (0)`, dataset: { action: 'fit' } }, [icon('fit'), h('span', { text: t('zoom.fit') })]);
  const level = h('span', { class: 'dpl-zoom-level', 'aria-hidden': 'true' });
  const zoom = h('div', { class: 'dpl-zoom', role: 'group', 'aria-label': t('zoom.group') }, [zoomOut, strip, zoomIn, fit, level]);
  const bar = h('div', { class: 'dpl-viewbar' }, [zoom, extra]);
  return { bar, zoom, zoomOut, zoomIn, fit, level };
}

/**
 * Why no lane can expand into streams ('' when one can): no communication model, or a chart too
 * large for the SVG renderer, the only one that draws parts (`svgFits`: rendererFor said 'svg').
 */
export function streamsBlockerOf(lanes, svgFits, t) {
  if (!lanes.some((l) => l.streams)) return t('tl.streamsNeedComm');
  if (svgFits) return '';
  const n = (v) => t.number(v);
  return t('tl.streamsTooMany', {
    n: n(lanes.reduce((sum, l) => sum + (l.streams?.partCount ?? 0), 0)), ops: n(lanes.reduce((sum, l) => sum + l.itemCount, 0)), maxOps: n(SVG_MAX_OPS), maxParts: n(SVG_MAX_PARTS),
  });
}

/**
 * The Streams toggle's state. While something blocks it, it stays focusable but aria-disabled,
 * and its hint shows once the streams were asked for (the address) or the toggle was pressed.
 */
export function showStreamsToggle({ streams: button, streamsHint: hint }, { wanted, blocker, pressed }, t) {
  button.setAttribute('aria-pressed', String(wanted && !blocker));
  if (blocker) button.setAttribute('aria-disabled', 'true');
  else button.removeAttribute('aria-disabled');
  button.title = blocker || t('ctl.streamsTitle');
  hint.textContent = blocker;
  hint.hidden = !(blocker && (wanted || pressed || !hint.hidden));
}

/** A canvas run's table lists at most this many ops (those in view): more is not readable. */
export const TABLE_MAX_ROWS = 2000;

/** A lane's items for its table: all of them (`all`: the SVG renderer built them), or those in `view`. */
function tableOps(lane, view, all) {
  if (all) return { ops: lane.records().flat() };
  const ops = [];
  let total = 0;
  lane.tracks.forEach((tr, rank) => {
    const to = firstAfter(tr.start, view.end - 1e-9);
    for (let i = firstAfter(tr.end, view.start); i < to; i++) {
      if (ops.length < TABLE_MAX_ROWS) ops.push(lane.itemAt(rank, i));
      total++;
    }
  });
  return { ops, total };
}

/** The data-table view: the same ops as the chart, as text, one table per lane; with the
 *  streams expanded, each op is followed by its parts and its exposed waits. A run drawn on
 *  canvas lists the ops in `view` (at most TABLE_MAX_ROWS), and says so in its caption. */
export function buildTables(lanes, t, { view, streams = false, all = false }) {
  const num = numberFormat(t.lang);
  return lanes.map((lane) => {
    const parts = streams ? lane.streams : null;
    const head = [...lane.table.head];
    if (parts) head.push('col.stream');
    const row = (cells, attrs) => h('tr', attrs, cells.map((c, i) => h(i === 0 ? 'th' : 'td', i === 0 ? { scope: 'row', text: c } : { text: c })));
    const rows = [];
    const gapsByKey = new Map();
    const { ops, total } = tableOps(lane, view, all);
    for (const o of ops) {
      const cells = lane.table.cells(o, t, num);
      if (parts) cells.push('');
      rows.push(row(cells, { dataset: lane.dataset(o), title: lane.describe(o, t, num) }));
      if (!parts) continue;
      // An op's parts and waits (the stream view: a simulated run's), in time order; a wait sorts
      // before a part that starts with it.
      const sub = [...parts.exposedOf(o, gapsByKey), ...parts.partsOf(o)].sort((a, b) => a.start - b.start || (a.part ? 1 : -1));
      for (const p of sub) {
        const name = p.part ? `${p.label}${parts.layers > 1 ? ` · ${t('part.layerShort', { layer: p.layer + 1 })}` : ''}` : t('part.exposed');
        const stream = t(`part.stream.${p.part ? p.stream : 'compute'}`);
        rows.push(row([o.rank, o.seq + 1, name, p.part ? p.dir : '', p.part ? p.mb : '', '', num(p.start), num(p.end), stream], {
          class: p.part ? 'is-part' : 'is-part is-exposed', dataset: p.part ? partDataset(p) : p, title: describePart(p, t, num, parts.layers),
        }));
      }
    }
    return h('div', { class: 'dpl-table-wrap', tabindex: 0, role: 'region', 'aria-label': lane.title }, [
      h('table', { class: 'dpl-table dpl-ops-table' }, [
        h('caption', { text: total === undefined ? lane.title : `${lane.title} · ${t('tl.tableWindow', { n: ops.length, total, from: num(view.start, 1), to: num(view.end, 1) })}` }),
        h('thead', {}, [h('tr', {}, head.map((k) => h('th', { scope: 'col', text: t(k) })))]),
        h('tbody', {}, rows),
      ]),
    ]);
  });
}

/**
 * The op an arrow, Home or End key moves to from op `from` ({rank, seq}) in a lane's `rows` (op
 * records by rank): along its rank, or to the op nearest in time on the rank above or below, as
 * {rank, seq}. null at an edge; undefined for any other key.
 */
export function cellTarget(rows, from, key) {
  const row = rows[from.rank];
  const mid = (o) => (o.start + o.end) / 2;
  const here = mid(row[from.seq]);
  const along = (seq) => ({ rank: from.rank, seq: clamp(seq, 0, row.length - 1) });
  const nearestIn = (r) => {
    // The nearest row that has items (a trace's stream may have none) in that direction.
    const step = r > from.rank ? 1 : -1;
    while (rows[r] && !rows[r].length) r += step;
    const target = rows[r];
    if (!target) return null;
    let best = 0;
    for (let i = 1; i < target.length; i++) if (Math.abs(mid(target[i]) - here) < Math.abs(mid(target[best]) - here)) best = i;
    return { rank: r, seq: best };
  };
  const moves = {
    ArrowRight: () => along(from.seq + 1),
    ArrowLeft: () => along(from.seq - 1),
    ArrowDown: () => nearestIn(from.rank + 1),
    ArrowUp: () => nearestIn(from.rank - 1),
    Home: () => along(0),
    End: () => along(row.length - 1),
  };
  if (!moves[key]) return undefined;
  const to = moves[key]();
  return to && !(to.rank === from.rank && to.seq === from.seq) ? to : null;
}
