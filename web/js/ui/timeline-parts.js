// The timeline widget's non-chart parts: legend, transport controls, data table and lane
// heading. Each builder returns plain elements; the view in views/timeline.js wires behaviour.
import { h, s } from './dom.js';
import { icon } from './icons.js';
import { describeOp, opDataset, presentKinds } from '../lib/timeline-data.js';
import { formatNumber, formatPercent } from '../lib/format.js';
import { SPEEDS } from '../state.js';

/** A 28x18 swatch drawn with the same classes and patterns as the chart cells. */
function swatch(kind, dir, prefix) {
  const box = { x: 1, y: 1, width: 26, height: 16 };
  const parts = [];
  if (kind === 'FB') {
    parts.push(s('polygon', { points: '1,1 27,1 1,17', class: `dpl-cell k-F d-${dir}` }));
    parts.push(s('polygon', { points: '27,1 27,17 1,17', class: `dpl-cell k-B d-${dir}` }));
    if (dir === 1) parts.push(s('rect', { ...box, class: 'dpl-hatch', fill: `url(#${prefix}-hatch-light)` }));
    parts.push(s('line', { x1: 27, y1: 1, x2: 1, y2: 17, class: 'dpl-pair-split' }));
    parts.push(s('rect', { ...box, class: 'dpl-pair-border' }));
  } else if (kind === 'idle') {
    parts.push(s('rect', { ...box, class: 'dpl-idle', fill: `url(#${prefix}-idle)` }));
  } else {
    parts.push(s('rect', { ...box, class: `dpl-cell k-${kind} d-${dir}` }));
    const dark = kind === 'B' || kind === 'Bi';
    if (dir === 1) parts.push(s('rect', { ...box, class: 'dpl-hatch', fill: `url(#${prefix}-hatch-${dark ? 'dark' : 'light'})` }));
  }
  return s('svg', { class: 'dpl-swatch', width: 28, height: 18, viewBox: '0 0 28 18', 'aria-hidden': 'true', focusable: 'false' }, parts);
}

/** Legend for the kinds and directions present in the drawn lanes. */
export function buildLegend(lanes, prefix, t) {
  const kinds = new Set();
  const dirs = new Set();
  for (const lane of lanes) {
    const p = presentKinds(lane.rows);
    p.kinds.forEach((k) => kinds.add(k));
    p.dirs.forEach((d) => dirs.add(d));
  }
  const order = ['F', 'B', 'Bi', 'W', 'FB'].filter((k) => kinds.has(k));
  const dirList = [...dirs].sort();
  const items = [];
  for (const kind of order) {
    const sw = dirList.map((d) => swatch(kind, d, prefix));
    items.push(h('li', {}, [h('span', { class: 'dpl-swatches' }, sw), h('span', { text: t(`legend.${kind}`) })]));
  }
  items.push(h('li', {}, [h('span', { class: 'dpl-swatches' }, [swatch('idle', 0, prefix)]), h('span', { text: t('legend.idle') })]));
  const dirNote = dirList.length > 1 ? h('p', { class: 'dpl-legend-note', text: t('legend.dirs') }) : null;
  return h('div', { class: 'dpl-legend' }, [h('ul', { 'aria-label': t('legend.title') }, items), dirNote]);
}

/** Heading above a lane: schedule, shape and headline numbers. */
export function buildLaneHeading(lane, t) {
  const r = lane.result;
  const stats = [
    t('stat.makespan', { v: formatNumber(r.makespan) }),
    t('stat.bubbleMax', { v: formatNumber(r.bubble.max) }),
    t('stat.bubbleFraction', { v: formatPercent(r.bubble.fraction) }),
    t('stat.peak', { v: r.maxPeakActivations }),
  ];
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
  const scrub = h('input', { type: 'range', class: 'dpl-scrub', min: 0, max: 1, step: 'any', value: 1, id: `${idPrefix}-scrub`, 'aria-label': t('ctl.scrub') });
  const speed = h('select', { class: 'dpl-speed', id: `${idPrefix}-speed`, 'aria-label': t('ctl.speed') },
    SPEEDS.map((v) => h('option', { value: String(v), text: `${v}×` })));
  const readout = h('output', { class: 'dpl-readout', for: `${idPrefix}-scrub` });
  const table = h('button', { type: 'button', class: 'dpl-btn dpl-toggle', 'aria-pressed': 'false', dataset: { action: 'table' } }, [icon('table'), h('span', { text: t('ctl.table') })]);
  const bar = h('div', { class: 'dpl-transport', role: 'toolbar', 'aria-label': t('ctl.toolbar') }, [
    h('div', { class: 'dpl-transport-buttons' }, [
      button('start', t('ctl.start'), t('key.home')),
      textButton('prevUnit', '−1', t('ctl.prevUnit'), t('key.shiftLeft')),
      button('prevOp', t('ctl.prevOp'), t('key.left')),
      play,
      button('nextOp', t('ctl.nextOp'), t('key.right')),
      textButton('nextUnit', '+1', t('ctl.nextUnit'), t('key.shiftRight')),
      button('end', t('ctl.end'), t('key.end')),
    ]),
    h('div', { class: 'dpl-scrub-wrap' }, [scrub, readout]),
    h('label', { class: 'dpl-speed-label' }, [h('span', { text: t('ctl.speedShort') }), speed]),
    table,
  ]);
  return { bar, play, scrub, speed, readout, table };
}

/** The data-table view: the same ops as the chart, as text, one table per lane. */
export function buildTables(lanes, t) {
  return lanes.map((lane) => {
    const head = ['col.rank', 'col.seq', 'col.op', 'col.dir', 'col.mb', 'col.stage', 'col.start', 'col.end'];
    const rows = [];
    for (const ops of lane.rows) {
      for (const o of ops) {
        const both = (a, b) => `${a} / ${b}`;
        const fb = o.kind === 'FB';
        const kind = fb ? t('kind.FB') : o.kind === 'B' && o.zb ? t('kind.Bi') : t(`kind.${o.kind}`);
        const cells = [
          o.rank, o.seq + 1, kind,
          fb ? both(o.fdir, o.bdir) : o.dir,
          fb ? both(o.fmb, o.bmb) : o.mb,
          fb ? both(o.fstage, o.bstage) : o.stage,
          formatNumber(o.start), formatNumber(o.end),
        ];
        rows.push(h('tr', { dataset: opDataset(o), title: describeOp(o, t, formatNumber) }, cells.map((c, i) => h(i === 0 ? 'th' : 'td', i === 0 ? { scope: 'row', text: c } : { text: c }))));
      }
    }
    return h('div', { class: 'dpl-table-wrap', tabindex: 0, role: 'region', 'aria-label': lane.title }, [
      h('table', { class: 'dpl-table' }, [
        h('caption', { text: lane.title }),
        h('thead', {}, [h('tr', {}, head.map((k) => h('th', { scope: 'col', text: t(k) })))]),
        h('tbody', {}, rows),
      ]),
    ]);
  });
}
