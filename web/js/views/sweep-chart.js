// Sweep widget: bubble fraction and peak activations of every schedule on shared axes, either
// against micro-batches (ranks fixed) or against ranks (micro-batches fixed). Shapes a schedule
// cannot run are gaps in its line and "n/a" in the table. The schedules the learner picked in the
// explorer are drawn heavier, the rest lighter; each line can be hidden and shown again from the
// legend; lines with the same values (GPipe's bubble is 1F1B's) are drawn a little apart and the
// legend says so. Offers a table view and a CSV download.
// Settings nothing can run (a request core rejects, or a fixed ranks or micro-batch count no
// schedule accepts) are said in plain words with a fix, over the last good sweep, dimmed and
// marked out of date; the error also goes to deps.onError so the form shows it beside its field.
// mount(element, deps) -> { update(state), destroy() }
//   deps.sim.sweep(request) -> Promise<{rows}>   deps.t   deps.onChange?(patch)   deps.onError?(error|null)
// state: { ranks, microbatches, chunks, costs, axis, table, picked?: [schedule] (emphasised) }
import { h, s, clear, uniqueId, errorBox, PLOT_DIR } from '../ui/dom.js';
import { errorText, localizedError } from '../lib/error-text.js';
import { explainError } from '../lib/error-fix.js';
import { setStale } from '../ui/stale.js';
import { icon } from '../ui/icons.js';
import { linearScale, ticks } from '../lib/scale.js';
import { formatNumber, formatPercent } from '../lib/format.js';
import { sweepRequest, seriesFrom, segments, rowsToCsv, coincidentSeries, METRICS } from '../lib/sweep-data.js';
import { SCHEDULE_NAMES, scheduleTitle } from '../lib/schedules.js';
import { seriesStyle, marker, swatch } from '../ui/series-style.js';

const CHART = { height: 250, left: 52, right: 14, top: 14, bottom: 40 };
/** How far apart lines with the same values are drawn, in px per place in their group. */
const DODGE_PX = 3;

export function mount(element, deps) {
  const t = deps.t;
  const prefix = uniqueId('dpl-sw');
  const root = h('div', { class: 'dpl dpl-sweep' });
  const axisGroup = h('div', { class: 'dpl-segmented', role: 'radiogroup', 'aria-label': t('sw.axis') });
  const axisButtons = ['microbatches', 'ranks'].map((axis) =>
    h('button', { type: 'button', class: 'dpl-btn dpl-seg', role: 'radio', 'aria-checked': 'false', dataset: { axis } }, [t(`sw.axis.${axis}`)]));
  axisGroup.append(...axisButtons);
  const tableButton = h('button', { type: 'button', class: 'dpl-btn dpl-toggle', 'aria-pressed': 'false' }, [icon('table'), h('span', { text: t('ctl.table') })]);
  const csvLink = h('a', { class: 'dpl-btn dpl-link-btn', download: 'dualpipe-sweep.csv', href: '#' }, [icon('download'), h('span', { text: t('sw.csv') })]);
  const caption = h('p', { class: 'dpl-sweep-caption' });
  const charts = h('div', { class: 'dpl-sweep-charts' });
  const tableWrap = h('div', { class: 'dpl-table-wrap', tabindex: 0, role: 'region', 'aria-label': t('sw.tableLabel'), hidden: true });
  const legend = h('ul', { class: 'dpl-sweep-legend', 'aria-label': t('sw.legendLabel') });
  const same = h('p', { class: 'dpl-sweep-same' });
  const result = h('div', { class: 'dpl-sweep-result' }, [caption, legend, same, charts, tableWrap]);
  root.append(h('div', { class: 'dpl-sweep-bar' }, [axisGroup, tableButton, csvLink]), result);
  element.append(root);

  let current = null; // { request, rows, state }
  let key = '';
  let token = 0;
  let csvUrl = '';
  let tableMode = false;
  let axis = 'microbatches';
  let lastWidth = 0;
  let picked = []; // the explorer's schedules: drawn heavier
  const hidden = new Set(); // lines the learner switched off in the legend

  /** Draws one chart into `figure`, sized to the width the grid gave that figure. */
  function chart(figure, metric, rows) {
    const width = Math.max(260, Math.floor(figure.clientWidth || 600) - 18);
    const series = seriesFrom(rows, axis, metric);
    const together = coincidentSeries(series);
    const xs = [...new Set(rows.map((r) => (axis === 'ranks' ? r.ranks : r.microbatches)))].sort((a, b) => a - b);
    const ys = rows.filter((r) => r.ok).map((r) => r[metric]);
    const yMax = Math.max(metric === 'bubbleFraction' ? 0.1 : 1, ...ys) * 1.05;
    const x = linearScale([xs[0], xs[xs.length - 1]], [CHART.left, width - CHART.right]);
    const y = linearScale([0, yMax], [CHART.height - CHART.bottom, CHART.top]);
    const title = t(`sw.metric.${metric}`);
    const svg = s('svg', { class: 'dpl-sweep-svg', direction: PLOT_DIR, width, height: CHART.height, viewBox: `0 0 ${width} ${CHART.height}`, role: 'img', 'aria-label': t('sw.chartLabel', { metric: title, axis: t(`sw.axisName.${axis}`) }) });
    const grid = s('g', { class: 'dpl-axis' });
    for (const v of ticks(0, yMax, 5, { integer: metric !== 'bubbleFraction' })) {
      grid.append(s('line', { x1: CHART.left, x2: width - CHART.right, y1: y(v), y2: y(v), class: 'dpl-grid' }));
      grid.append(s('text', { x: CHART.left - 6, y: y(v), class: 'dpl-tick', 'text-anchor': 'end', 'dominant-baseline': 'central' }, [metric === 'bubbleFraction' ? formatPercent(v, 0, t.lang) : formatNumber(v, 3, t.lang)]));
    }
    for (const v of ticks(xs[0], xs[xs.length - 1], Math.max(3, Math.floor(width / 70)), { integer: true })) {
      grid.append(s('line', { x1: x(v), x2: x(v), y1: CHART.height - CHART.bottom, y2: CHART.height - CHART.bottom + 4, class: 'dpl-axis-line' }));
      grid.append(s('text', { x: x(v), y: CHART.height - CHART.bottom + 16, class: 'dpl-tick', 'text-anchor': 'middle' }, [formatNumber(v, 3, t.lang)]));
    }
    grid.append(s('line', { x1: CHART.left, x2: width - CHART.right, y1: y(0), y2: y(0), class: 'dpl-axis-line' }));
    grid.append(s('text', { x: (CHART.left + width - CHART.right) / 2, y: CHART.height - 4, class: 'dpl-tick dpl-axis-name', 'text-anchor': 'middle' }, [t(`sw.axisName.${axis}`)]));
    svg.append(grid);
    // Drawn in reverse catalogue order, the picked ones last (on top); lines with the same values
    // a few px apart, so each shows.
    const emphasis = picked.some((name) => series.some((l) => l.schedule === name));
    const order = [...series].reverse().sort((a, b) => Number(picked.includes(a.schedule)) - Number(picked.includes(b.schedule)));
    for (const { schedule, points } of order) {
      if (hidden.has(schedule)) continue;
      const style = seriesStyle(schedule);
      const level = !emphasis ? '' : picked.includes(schedule) ? ' is-picked' : ' is-other';
      const g = s('g', { class: `${style.className}${level}`, dataset: { schedule } });
      const dodge = (together[schedule]?.offset ?? 0) * DODGE_PX;
      const py = (v) => y(v) + dodge;
      for (const run of segments(points)) {
        g.append(s('polyline', { points: run.map((p) => `${x(p.x)},${py(p.y)}`).join(' '), class: 'dpl-series-line', 'stroke-dasharray': style.dash }));
      }
      for (const p of points) {
        if (p.y === null) continue;
        const m = marker(style.marker, x(p.x), py(p.y));
        const value = metric === 'bubbleFraction' ? formatPercent(p.y, 1, t.lang) : formatNumber(p.y, 3, t.lang);
        m.append(s('title', {}, [t(`sw.point.${axis}`, { schedule: scheduleTitle(schedule, t), x: p.x, value })]));
        g.append(m);
      }
      svg.append(g);
    }
    figure.append(h('figcaption', { text: title }), svg);
  }

  /**
   * One button per schedule: pressed while its line is drawn (press to hide it, again to show it),
   * marked when the learner picked it and when its line has gaps; then one line naming the lines
   * that have the same values, per chart (drawn a little apart).
   */
  function legendItems(rows) {
    const names = SCHEDULE_NAMES.filter((n) => rows.some((r) => r.schedule === n));
    clear(legend).append(...names.map((name) => {
      const valid = rows.filter((r) => r.schedule === name && r.ok).length;
      const gaps = valid < rows.filter((r) => r.schedule === name).length;
      const button = h('button', { type: 'button', class: `dpl-sweep-toggle${picked.includes(name) ? ' is-picked' : ''}`, 'aria-pressed': String(!hidden.has(name)), dataset: { schedule: name } }, [
        swatch(name), h('span', { text: scheduleTitle(name, t) }), gaps ? h('span', { class: 'dpl-sweep-note', text: t('sw.gaps') }) : null,
      ]);
      return h('li', {}, [button]);
    }));
    const said = METRICS.map((metric) => {
      const together = coincidentSeries(seriesFrom(rows, axis, metric));
      const groups = [...new Set(Object.entries(together).map(([name, g]) => [name, ...g.with].sort().join()))]
        .map((key) => SCHEDULE_NAMES.filter((n) => key.split(',').includes(n)).map((n) => scheduleTitle(n, t)).join(' = '));
      return groups.length ? t('sw.sameIn', { metric: t(`sw.metricShort.${metric}`), groups: t.list(groups) }) : '';
    }).filter(Boolean);
    same.textContent = said.length ? t('sw.same', { list: said.join(' · ') }) : '';
  }

  function table(rows) {
    // Peak activation memory per GPU compares schedules; the raw stage count stays as a detail.
    const cols = ['schedule', 'ranks', 'microbatches', 'bubbleMax', 'bubbleFraction', 'maxPeakActivationMemory', 'maxPeakActivations', 'makespan'];
    const fmt = (row, c) => {
      if (c === 'schedule') return scheduleTitle(row.schedule, t);
      if (c === 'ranks' || c === 'microbatches') return String(row[c]);
      if (!row.ok) return t('sw.na');
      return c === 'bubbleFraction' ? formatPercent(row[c], 1, t.lang) : formatNumber(row[c], 3, t.lang);
    };
    return h('table', { class: 'dpl-table' }, [
      h('caption', { text: caption.textContent }),
      h('thead', {}, [h('tr', {}, cols.map((c) => h('th', { scope: 'col', text: t(`sw.col.${c}`) })))]),
      h('tbody', {}, rows.map((row) => h('tr', { class: row.ok ? '' : 'is-na', title: row.ok ? null : errorText(row.error, t.lang), dataset: { schedule: row.schedule, ok: row.ok ? 1 : 0 } },
        cols.map((c, i) => h(i === 0 ? 'th' : 'td', { scope: i === 0 ? 'row' : null, text: fmt(row, c), dataset: { col: c } }))))),
    ]);
  }

  function render() {
    if (!current) return;
    const { rows, state } = current;
    lastWidth = charts.clientWidth;
    caption.textContent = axis === 'ranks'
      ? t('sw.caption.ranks', { m: state.microbatches })
      : t('sw.caption.microbatches', { r: state.ranks });
    legendItems(rows);
    // Lay the empty figures out first so each chart can be drawn at its real width.
    const figures = METRICS.map(() => h('figure', { class: 'dpl-sweep-figure' }));
    clear(charts).append(...figures);
    figures.forEach((figure, i) => chart(figure, METRICS[i], rows));
    clear(tableWrap).append(table(rows));
    if (csvUrl) URL.revokeObjectURL(csvUrl);
    csvUrl = URL.createObjectURL(new Blob([rowsToCsv(rows)], { type: 'text/csv' }));
    csvLink.href = csvUrl;
    applyMode();
  }

  function applyMode() {
    charts.hidden = tableMode;
    legend.hidden = tableMode;
    tableWrap.hidden = !tableMode;
    tableButton.setAttribute('aria-pressed', String(tableMode));
    axisButtons.forEach((b) => {
      const on = b.dataset.axis === axis;
      b.setAttribute('aria-checked', String(on));
      b.tabIndex = on ? 0 : -1;
    });
  }

  const keyOf = (state) => JSON.stringify([state.ranks, state.microbatches, state.chunks, state.costs, axis]);

  /**
   * What keeps a sweep from showing anything: core's rejection of the request, or, when no row
   * ran, the first row's error (ranks or micro-batches no schedule accepts). Paths name the
   * form's field (/ranks, not /ranks/0).
   */
  function blocking(rows) {
    if (rows.some((r) => r.ok)) return null;
    const row = rows[0];
    return row ? { ...row.error, about: { schedule: row.schedule, ranks: row.ranks, microbatches: row.microbatches } } : null;
  }

  function showError(error, state) {
    const shape = { schedule: SCHEDULE_NAMES[0], ranks: state.ranks, microbatches: state.microbatches, costs: state.costs };
    const plain = { ...error, path: String(error.path || '').replace(/^\/(ranks|microbatches)\/\d+$/, '/$1') };
    const info = explainError(plain, error.about || shape, t);
    deps.onError?.(plain, 0);
    // A form field the error names shows it with its own fix (deps.onError): one fix on screen.
    const fieldShowsIt = deps.onError && /^\/(ranks|microbatches)$/.test(plain.path);
    const fix = info.fix && deps.onChange && !fieldShowsIt
      ? h('button', { type: 'button', class: 'dpl-fix', onclick: () => deps.onChange(info.fix.patch) }, [info.fixLabel])
      : null;
    if (current) {
      // The last good sweep stays, dimmed, under the reason.
      setStale(result, t('stale.sweepWhy', { why: info.text }), t, fix);
      return;
    }
    clear(charts).append(errorBox(localizedError(plain, t.lang), t('error.heading'), info.text, fix));
    charts.hidden = false;
    clear(legend);
    clear(tableWrap);
    caption.textContent = '';
  }

  async function run(state) {
    const mine = ++token;
    root.classList.add('is-loading');
    try {
      const request = sweepRequest({ ...state, axis });
      const { rows } = await deps.sim.sweep(request);
      if (mine !== token) return;
      root.classList.remove('is-loading');
      const error = blocking(rows);
      if (error) {
        showError(error, state);
        return;
      }
      current = { request, rows, state };
      setStale(result, null, t);
      deps.onError?.(null);
      render();
    } catch (error) {
      if (mine !== token) return;
      root.classList.remove('is-loading');
      showError(error, state);
    }
  }

  function setAxis(next) {
    if (next === axis) return;
    axis = next;
    if (current) {
      key = keyOf(current.state);
      run(current.state);
    }
    if (deps.onChange) deps.onChange({ axis });
  }

  axisGroup.addEventListener('click', (e) => {
    const b = e.target.closest('button[data-axis]');
    if (b) setAxis(b.dataset.axis);
  });
  // Radio-group keyboard pattern: arrows move the choice.
  axisGroup.addEventListener('keydown', (e) => {
    if (!['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].includes(e.key)) return;
    e.preventDefault();
    const next = axis === 'ranks' ? 'microbatches' : 'ranks';
    setAxis(next);
    axisButtons.find((b) => b.dataset.axis === next).focus();
  });
  legend.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-schedule]');
    if (!button) return;
    const name = button.dataset.schedule;
    if (hidden.has(name)) hidden.delete(name); else hidden.add(name);
    render();
    legend.querySelector(`button[data-schedule="${name}"]`)?.focus();
  });
  tableButton.addEventListener('click', () => {
    tableMode = !tableMode;
    applyMode();
    if (deps.onChange) deps.onChange({ table: tableMode });
  });

  const resize = new ResizeObserver(() => {
    if (current && !tableMode && Math.abs(charts.clientWidth - lastWidth) > 24) render();
  });
  resize.observe(element);

  return {
    update(state) {
      if (state.axis && state.axis !== axis) axis = state.axis;
      const nextPicked = (state.picked ?? []).filter(Boolean);
      if (nextPicked.join() !== picked.join()) {
        picked = nextPicked;
        if (current) render();
      }
      if (typeof state.table === 'boolean') tableMode = state.table;
      const next = keyOf(state);
      if (next !== key) {
        key = next;
        run(state);
      } else {
        applyMode();
      }
    },
    destroy() {
      token += 1;
      resize.disconnect();
      if (csvUrl) URL.revokeObjectURL(csvUrl);
      root.remove();
    },
  };
}
