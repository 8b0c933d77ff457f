// One lane of a timeline widget behind one interface, whichever renderer lib/timeline-lod.js's
// rendererFor() picked: {element, render(view, {draft?}), setCursor(t), hit(x, y), reveal(), cells, where,
// svg}; reveal() follows a scroll or resize (a canvas holds only the rows on screen, an SVG lane is
// drawn whole). The SVG renderer is redrawn for each view (only the ops in view) inside a stable container, keeping
// keyboard focus on the same op; the canvas renderer repaints. The canvas renderer is fetched on
// first use (loadCanvas): the lesson and most explorer runs are SVG and never need it.
import { h, PLOT_DIR } from './dom.js';
import { drawLane } from './timeline-draw.js';

let canvasLane = null;
let canvasLoad = null;

/** Fetches the canvas renderer; mountLane('canvas', ...) works once this has resolved. */
export function loadCanvas() {
  canvasLoad ??= import('./timeline-canvas.js').then(
    (module) => { canvasLane = module.canvasLane; },
    (error) => { canvasLoad = null; throw error; },
  );
  return canvasLoad;
}

export const canvasReady = () => canvasLane !== null;

/**
 * `kind`: 'svg' | 'canvas'; `opts`: what the renderer needs (layout, makespan, prefix, id, t,
 * streams, memoryMax, palette). One op per widget is in the tab order (roving tabindex):
 * `focus.get()` gives it ({rank, seq}) when it is in this lane, else null, and `focus.fallback`
 * says whether this lane's first op in view takes the tab stop when none is set.
 */
export function mountLane(kind, lane, opts, focus) {
  if (kind === 'canvas') {
    const drawn = canvasLane(lane, opts);
    drawn.element.dir = PLOT_DIR; // a time plot: LTR in every language (ui/dom.js)
    return { ...drawn, kind, cells: null, where: null, svg: null };
  }
  const element = h('div', { class: 'dpl-lane-body', dir: PLOT_DIR });
  const api = { kind, element, cells: [], where: new WeakMap(), svg: null, setCursor: () => {}, hit: () => null, reveal: () => {} };
  let cursorAt = 0;
  api.render = (view) => {
    const active = element.contains(document.activeElement) && document.activeElement.classList.contains('dpl-op');
    const drawn = drawLane(lane, { ...opts, view });
    element.replaceChildren(drawn.element);
    Object.assign(api, { cells: drawn.cells, where: drawn.where, svg: drawn.svg, setCursor: (t) => { cursorAt = t; drawn.setCursor(t); } });
    drawn.setCursor(cursorAt);
    const mine = focus.get();
    const target = (mine && drawn.cells[mine.rank]?.get(mine.seq)) || (mine || focus.fallback ? firstCell(drawn.cells) : null);
    if (target) {
      target.setAttribute('tabindex', '0');
      if (active && mine && target === drawn.cells[mine.rank]?.get(mine.seq)) target.focus({ preventScroll: true });
    }
  };
  return api;
}

function firstCell(cells) {
  for (const row of cells) for (const g of row.values()) return g;
  return null;
}
