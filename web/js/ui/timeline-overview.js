// The overview strip under a timeline (speedscope's minimap, perfetto's overview track): the
// whole run drawn small, every row (rank, GPU stream) of every lane as a thin band, with a window marking the
// part the chart shows. Dragging the window pans, pressing elsewhere centres the view there,
// and with focus (it is a slider) arrows pan, Page Up/Down move a whole view, Home/End go to
// the ends, + and - zoom and 0 fits the run. The strip is painted once per run, size and theme;
// moving the window is a CSS transform.
import { h, PLOT_DIR } from './dom.js';
import { lodRuns, createRuns } from '../lib/timeline-lod.js';
import { fitView, overviewWindow, xToTime, centerOn, spanOf } from '../lib/timeline-viewport.js';
import { formatNumber } from '../lib/format.js';

const HEIGHT = 28;
const runs = createRuns(2048);

/**
 * deps.t: translator; deps.onView(view): the strip asks for a view (pan, centre);
 * deps.onKey(event): keys the strip does not handle itself go back to the widget.
 */
export function createOverview({ t, onView, onKey }) {
  const canvas = h('canvas', { class: 'dpl-overview-canvas', 'aria-hidden': 'true' });
  const windowEl = h('div', { class: 'dpl-overview-window', 'aria-hidden': 'true' });
  const element = h('div', {
    class: 'dpl-overview', tabindex: 0, role: 'slider', 'aria-label': t('zoom.overview'),
    dir: PLOT_DIR, // a miniature of the plot: its time runs left to right too
    // Before its first run (a lesson widget waits to be scrolled near) the slider is at 0 of 0.
    'aria-valuemin': 0, 'aria-valuemax': 0, 'aria-valuenow': 0, title: t('zoom.overviewTitle'),
  }, [canvas, windowEl]);
  let limits = { makespan: 1, minSpan: 1 };
  let view = { start: 0, end: 1 };
  let width = 0;
  let drag = null;
  let painted = null; // the last paint's lanes and palette, to paint again at a new width

  let laidOut = 0; // the strip's width at its last layout (ResizeObserver), 0 before the first

  /**
   * Paints the whole run: `lanes` with tracks, stacked; `palette` from timeline-palette.js. At the
   * strip's width as last laid out; a strip not laid out yet is painted when it is, before that
   * frame is shown (below), so a widget's first draw does not force a layout of its own.
   */
  function paint(lanes, nextLimits, palette) {
    painted = { lanes, palette };
    limits = nextLimits;
    if (resized && !laidOut) {
      setView(view);
      return;
    }
    paintAt(laidOut || element.clientWidth);
  }

  function paintAt(laidOutWidth) {
    const { lanes, palette } = painted;
    width = Math.max(40, laidOutWidth || 300);
    const dpr = Math.min(2, globalThis.devicePixelRatio || 1);
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(HEIGHT * dpr);
    canvas.style.width = `${width}px`;
    canvas.style.height = `${HEIGHT}px`;
    const ctx = canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, HEIGHT);
    const bands = lanes.reduce((n, l) => n + l.tracks.length, 0) + lanes.length - 1;
    const band = HEIGHT / Math.max(1, bands);
    const fit = fitView(limits);
    let y = 0;
    for (const lane of lanes) {
      for (const track of lane.tracks) {
        const n = lodRuns(track, fit, width, runs, Infinity);
        for (let j = 0; j < n; j++) {
          ctx.globalAlpha = runs.alpha[j];
          ctx.fillStyle = palette.fill[runs.cat[j]];
          ctx.fillRect(runs.x0[j], y, runs.x1[j] - runs.x0[j], Math.max(band, 0.5));
        }
        y += band;
      }
      y += band; // a gap between compared lanes
    }
    ctx.globalAlpha = 1;
    setView(view);
  }

  function setView(next) {
    view = next;
    // The exact window, for tests and embeds (aria-valuetext rounds it).
    element.dataset.start = String(view.start);
    element.dataset.end = String(view.end);
    // The slider's value does not depend on the strip's width: a strip laid out at zero width
    // (a hidden or not yet displayed widget) still states where the view is.
    element.setAttribute('aria-valuemax', String(limits.makespan));
    element.setAttribute('aria-valuenow', String(view.start));
    element.setAttribute('aria-valuetext', t('zoom.window', { from: formatNumber(view.start, 1, t.lang), to: formatNumber(view.end, 1, t.lang), end: formatNumber(limits.makespan, 3, t.lang) }));
    if (!width) return;
    const w = overviewWindow(view, limits, width);
    windowEl.style.transform = `translateX(${w.x}px)`;
    windowEl.style.width = `${w.width}px`;
  }

  const timeAt = (clientX) => xToTime(fitView(limits), width, clientX - canvas.getBoundingClientRect().left);

  element.addEventListener('pointerdown', (event) => {
    if (event.button !== 0) return;
    event.preventDefault();
    element.focus({ preventScroll: true });
    const at = timeAt(event.clientX);
    // Pressing inside the window drags it; anywhere else centres the view there first.
    const inside = at >= view.start && at <= view.end;
    const start = inside ? view : centerOn(view, at, limits);
    if (!inside) onView(start);
    drag = { id: event.pointerId, from: at, view: start };
    element.setPointerCapture(event.pointerId);
  });
  element.addEventListener('pointermove', (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    const dt = timeAt(event.clientX) - drag.from;
    onView(centerOn(drag.view, (drag.view.start + drag.view.end) / 2 + dt, limits));
  });
  const end = (event) => { if (drag && event.pointerId === drag.id) drag = null; };
  element.addEventListener('pointerup', end);
  element.addEventListener('pointercancel', end);
  element.addEventListener('keydown', (event) => onKey(event, true));

  // The strip's width is settled by the row it shares (the zoom level's text is set after the
  // first paint; web fonts arrive; the row wraps): whenever it changes, the run is painted again
  // to fill it (painted at a stale width, the end of the run was cut off or a gap was left). The
  // level's text has a fixed width (widgets.css), so zooming itself never repaints the strip.
  // Observers are told after layout and before the frame is painted: a run waiting for its first
  // layout is painted there, and shown in the same frame as the chart.
  const resized = typeof ResizeObserver === 'function' ? new ResizeObserver(() => {
    laidOut = element.clientWidth;
    if (painted && laidOut && Math.max(40, laidOut) !== width) paintAt(laidOut);
  }) : null;
  resized?.observe(element);

  return {
    element, paint, setView,
    get span() { return spanOf(view); },
    destroy() { resized?.disconnect(); },
  };
}
