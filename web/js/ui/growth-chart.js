// Exercise 5's evidence: idle time per rank and peak in-flight activations against the
// micro-batch count, for DualPipe and Chimera at P = 4, from one pipesim sweep. Shapes a schedule
// rejects (Chimera at M = 10: not a multiple of P) are gaps, listed with core's message. Series
// differ by colour, marker shape and dash; a table below holds every value. Also words the
// simulation's verdict on the two properties, shown when the learner picks them right.
import { h, s, PLOT_DIR } from './dom.js';
import { labelCells } from './table-labels.js';
import { linearScale, ticks } from '../lib/scale.js';
import { seriesFrom } from '../lib/sweep-data.js';
import { sig as sigIn } from './exercise-fields.js';
import { seriesStyle, marker, swatch } from './series-style.js';
import { scheduleTitle } from '../lib/schedules.js';
import { DEFAULT_COSTS } from '../state.js';
import { errorText } from '../lib/error-text.js';

const CHART = { width: 420, height: 236, left: 44, right: 12, top: 12, bottom: 50 };
// Activations in per-GPU units (core's maxPeakActivationMemory), so the two schedules compare.
const METRICS = ['bubbleMax', 'maxPeakActivationMemory'];

/** createGrowthChart({t, sim, ranks, schedules}) -> {element, ready: Promise, evidence(answerId)} */
export function createGrowthChart({ t, sim, ranks = 4, schedules = ['dualpipe', 'chimera'], costs }) {
  const microbatches = Array.from({ length: 15 }, (_, i) => 4 + 2 * i); // 4, 6, ..., 32
  const charts = h('div', { class: 'dpl-sweep-charts dpl-growth-charts' });
  const legend = h('ul', { class: 'dpl-sweep-legend', 'aria-label': t('legend.title') });
  const rejected = h('ul', { class: 'dpl-growth-rejected' });
  const tableWrap = h('div', { class: 'dpl-table-wrap', tabindex: 0, role: 'region', 'aria-label': t('ex.growth.table') });
  const name = (schedule) => scheduleTitle(schedule, t);
  const sig = (v, digits = 4) => sigIn(v, digits, t.lang);
  const runCosts = costs || DEFAULT_COSTS; // core's defaults when the exercise gives none
  const caption = t('ex.growth.caption', { r: ranks, f: sig(runCosts.forward, 6), b: sig(runCosts.backward, 6), w: sig(runCosts.weight, 6), fb: sig(runCosts.overlapped, 6) });
  const element = h('div', { class: 'dpl-growth' }, [
    h('p', { class: 'dpl-sweep-caption', text: caption }), legend, charts,
    h('details', { class: 'dpl-growth-details' }, [h('summary', { text: t('ex.growth.table') }), tableWrap, rejected]),
  ]);
  let rows = [];

  function chart(metric) {
    const { width, height, left, right, top, bottom } = CHART;
    const ok = rows.filter((r) => r.ok);
    const yMax = Math.max(1, ...ok.map((r) => r[metric])) * 1.1;
    const x = linearScale([microbatches[0], microbatches[microbatches.length - 1]], [left, width - right]);
    const y = linearScale([0, yMax], [height - bottom, top]);
    const title = t(`ex.growth.${metric}`);
    const svg = s('svg', { class: 'dpl-sweep-svg', direction: PLOT_DIR, viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', 'aria-label': t('ex.growth.chartLabel', { metric: title }) });
    for (const v of ticks(0, yMax, 4, { integer: true })) {
      svg.append(s('line', { x1: left, x2: width - right, y1: y(v), y2: y(v), class: 'dpl-grid' }),
        s('text', { x: left - 6, y: y(v), class: 'dpl-tick', 'text-anchor': 'end', 'dominant-baseline': 'central', text: sig(v) }));
    }
    for (const v of microbatches.filter((m) => m % 4 === 0)) {
      svg.append(s('text', { x: x(v), y: height - bottom + 16, class: 'dpl-tick', 'text-anchor': 'middle', text: String(v) }));
    }
    svg.append(s('text', { x: (left + width - right) / 2, y: height - 2, class: 'dpl-tick dpl-axis-name', 'text-anchor': 'middle', text: t('sw.axisName.microbatches') }));
    for (const { schedule, points } of seriesFrom(rows, 'microbatches', metric)) {
      const style = seriesStyle(schedule);
      const g = s('g', { class: style.className, dataset: { schedule } });
      // The line joins the counts the schedule runs (Chimera only runs multiples of P, so a gap
      // at every other count would leave it without a line); a count it rejects is an × under the axis.
      const valid = points.filter((p) => p.y !== null);
      if (valid.length > 1) g.append(s('polyline', { points: valid.map((p) => `${x(p.x)},${y(p.y)}`).join(' '), class: 'dpl-series-line', 'stroke-dasharray': style.dash }));
      const row = schedules.indexOf(schedule);
      for (const p of points) {
        if (p.y === null) {
          const cx = x(p.x);
          const cy = height - bottom + 24 + 6 * row;
          const cross = s('path', { d: `M${cx - 2.5} ${cy - 2.5}L${cx + 2.5} ${cy + 2.5}M${cx - 2.5} ${cy + 2.5}L${cx + 2.5} ${cy - 2.5}`, class: 'dpl-series-marker is-stroke dpl-rejected' });
          cross.append(s('title', { text: t('ex.growth.rejectedAt', { schedule: name(schedule), m: p.x }) }));
          g.append(cross);
          continue;
        }
        const m = marker(style.marker, x(p.x), y(p.y));
        m.append(s('title', { text: `${name(schedule)}, M = ${p.x}: ${sig(p.y)}` }));
        g.append(m);
      }
      svg.append(g);
    }
    return h('figure', { class: 'dpl-sweep-figure' }, [h('figcaption', { text: title }), svg]);
  }

  function render() {
    legend.replaceChildren(...schedules.map((schedule) => h('li', {}, [swatch(schedule), h('span', { text: name(schedule) })])),
      h('li', { text: t('ex.growth.crossNote') }));
    charts.replaceChildren(...METRICS.map(chart));
    const cols = ['schedule', 'microbatches', 'bubbleMax', 'maxPeakActivationMemory'];
    tableWrap.replaceChildren(labelCells(h('table', { class: 'dpl-table dpl-ex-table' }, [
      h('caption', { text: caption }),
      h('thead', {}, [h('tr', {}, cols.map((c) => h('th', { scope: 'col', text: t(`sw.col.${c}`) })))]),
      h('tbody', {}, rows.map((row) => h('tr', { class: row.ok ? '' : 'is-na' }, cols.map((c, i) => h(i ? 'td' : 'th', {
        scope: i ? null : 'row', text: c === 'schedule' ? name(row.schedule) : c === 'microbatches' ? String(row.microbatches) : row.ok ? sig(row[c]) : t('sw.na'),
      }))))),
    ])));
    const firsts = schedules.map((name) => rows.find((r) => r.schedule === name && !r.ok && r.microbatches >= 2 * ranks)).filter(Boolean);
    rejected.replaceChildren(...firsts.map((r) => h('li', { text: t('ex.growth.rejects', { schedule: name(r.schedule), m: r.microbatches, message: errorText(r.error, t.lang) }) })));
  }

  const ready = sim.sweep({ schedules, ranks: [ranks], microbatches, costs }).then((result) => {
    rows = result.rows;
    render();
  }).catch((err) => {
    charts.replaceChildren(h('div', { class: 'dpl-error', role: 'alert' }, [h('p', { text: errorText(err, t.lang) })]));
  });

  const at = (name, m) => rows.find((r) => r.schedule === name && r.microbatches === m && r.ok);
  const range = (name, metric) => {
    const vals = rows.filter((r) => r.schedule === name && r.ok && r.microbatches >= 2 * ranks);
    return vals.length ? { from: vals[0], to: vals[vals.length - 1], min: Math.min(...vals.map((v) => v[metric])), max: Math.max(...vals.map((v) => v[metric])) } : null;
  };

  return {
    element,
    ready,
    /** The simulation's words on a property answer, or ''. */
    evidence(answerId) {
      if (!rows.length) return '';
      if (/divisib/.test(answerId)) {
        const m = microbatches.find((v) => v >= 2 * ranks && at('dualpipe', v) && !at('chimera', v));
        const row = m && rows.find((r) => r.schedule === 'chimera' && r.microbatches === m);
        return row ? t('ex.growth.evidenceShape', { m, message: errorText(row.error, t.lang) }) : '';
      }
      if (/growth/.test(answerId)) {
        const dp = range('dualpipe', 'bubbleMax');
        const ch = range('chimera', 'bubbleMax');
        const dpPeak = range('dualpipe', 'maxPeakActivationMemory');
        if (!dp || !dpPeak) return '';
        return t('ex.growth.evidenceGrowth', {
          from: dp.from.microbatches, to: dp.to.microbatches, dpIdle: sig(dp.max), dpPeak: sig(dpPeak.max),
          chFrom: ch ? sig(ch.from.bubbleMax) : '—', chTo: ch ? sig(ch.to.bubbleMax) : '—',
        });
      }
      return '';
    },
    destroy() {},
  };
}
