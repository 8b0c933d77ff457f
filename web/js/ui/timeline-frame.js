// What a timeline lane looks like around its ops, whichever renderer draws them (SVG for small
// runs, canvas for large ones): the rank gutter on the left (rank names, and the names of the
// stream and memory sub-rows), the idle column on the right (idle totals, peak activations), the
// time cursor and the veil over the future as HTML layers moved by CSS transform (so playing
// never repaints the chart), and the memory lane's step path.
import { h, s } from './dom.js';
import { memoryEnvelope, createSteps } from '../lib/timeline-memory.js';
import { SUB_ROWS } from '../lib/timeline-layout.js';
import { numberFormat } from '../lib/format.js';

/**
 * The gutter: one SVG as tall as the lane, with a name per row (the lane's rowLabels: a rank, a
 * GPU stream) and per sub-row; the memory row's in GB for a lane whose memory is counted in GB
 * (lib/timeline-memory.js). `unit`: the axis's time unit ('ms', named over the gutter in place
 * of "time"), or '' for the simulator's cost units.
 */
export function drawGutter(lane, layout, t, unit = '') {
  const L = layout;
  const gutter = s('svg', { class: 'dpl-gutter-svg', width: L.left, height: L.height, viewBox: `0 0 ${L.left} ${L.height}` });
  gutter.append(s('text', { x: L.left - 8, y: L.top - 10, class: 'dpl-tick dpl-axis-name', 'text-anchor': 'end' }, [unit || t('axis.time')]));
  const small = L.rowHeight < 16 ? ' is-small' : '';
  const memoryUnit = lane.memory?.[0]?.unit;
  lane.rowLabels.forEach((label, r) => {
    const y = L.rowY(r);
    gutter.append(s('text', { x: L.left - 8, y: y + L.rowHeight / 2, class: `dpl-rank-label${small}`, 'text-anchor': 'end', 'dominant-baseline': 'central' }, [t(label.key, label.vars)]));
    if (L.streamsY >= 0) {
      ['compute', 'comm'].forEach((stream, i) => {
        const sy = y + L.streamsY + SUB_ROWS.gap + i * (SUB_ROWS.height + SUB_ROWS.gap) + SUB_ROWS.height / 2;
        gutter.append(s('text', { x: L.left - 8, y: sy, class: 'dpl-stream-label', 'text-anchor': 'end', 'dominant-baseline': 'central' }, [t(`stream.${stream}.short`)]));
      });
    }
    if (L.memoryY >= 0 && !L.compact) {
      gutter.append(s('text', { x: L.left - 8, y: y + L.memoryY + L.memoryHeight / 2, class: 'dpl-stream-label', 'text-anchor': 'end', 'dominant-baseline': 'central' }, [t(memoryUnit === 'GB' ? 'memory.shortGb' : 'memory.short')]));
    }
  });
  return h('div', { class: 'dpl-gutter', 'aria-hidden': 'true' }, [gutter]);
}

/**
 * The idle column on the right: its name above the rows, each row's idle total (the lane's
 * `idle`) and, beside the memory rows, its peak activations (in per-GPU units). One SVG as tall as the lane: none of it
 * depends on the view, so it is drawn once, not with each view.
 */
export function drawIdleColumn(lane, layout, t) {
  const L = layout;
  const num = numberFormat(t.lang);
  const x = L.right / 2 + 4; // centred in the column, clear of the last tick's label
  const column = s('svg', { class: 'dpl-idle-svg', width: L.right, height: L.height, viewBox: `0 0 ${L.right} ${L.height}` });
  // The column's name ends at the column's edge: a phone's column (44 px) is narrower than the
  // name in some languages ("простой", "ocioso"), which centred ran past the widget and was cut;
  // longer, it reaches back over the plot's top margin (css: the column's SVG does not clip).
  if (lane.idle.some((v) => typeof v === 'number')) column.append(s('text', { x: L.right - 2, y: L.top - 10, class: 'dpl-tick dpl-axis-name', 'text-anchor': 'end' }, [t('axis.idle')]));
  const small = L.rowHeight < 16 ? ' is-small' : '';
  lane.idle.forEach((idle, r) => {
    const y = L.rowY(r);
    if (typeof idle === 'number') {
      column.append(s('text', { x, y: y + L.rowHeight / 2, class: `dpl-idle-total${small}`, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, [num(idle)]));
    }
    if (L.memoryY >= 0 && lane.memory && !L.compact) {
      column.append(s('text', { x, y: y + L.memoryY + L.memoryHeight / 2, class: 'dpl-mem-peak', 'text-anchor': 'middle', 'dominant-baseline': 'central' }, [lane.memory[r].label ?? num(lane.memory[r].peak)]));
    }
  });
  const element = h('div', { class: 'dpl-idle-column', 'aria-hidden': 'true' }, [column]);
  element.style.marginLeft = `${L.width - L.right}px`;
  return element;
}

/**
 * The cursor and veil over the plot area: {element, set(x, atEnd)}, x in pixels from the
 * plot's left edge (outside [0, plotWidth] when the cursor is outside the view).
 */
export function cursorLayer(layout) {
  const L = layout;
  const veil = h('div', { class: 'dpl-veil', 'aria-hidden': 'true' });
  const cursor = h('div', { class: 'dpl-cursor', 'aria-hidden': 'true' });
  const element = h('div', { class: 'dpl-plot-window' }, [veil, cursor]);
  Object.assign(element.style, { left: `${L.left}px`, top: `${L.top - 4}px`, width: `${L.plotWidth}px`, height: `${L.height - L.top - L.bottom + 6}px` });
  const limit = L.plotWidth + 4;
  return {
    element,
    set(x, atEnd) {
      const cx = Math.max(-4, Math.min(limit, x));
      veil.style.transform = `translateX(${cx}px)`;
      cursor.style.transform = `translateX(${cx - 1}px)`;
      // At the very end the cursor would sit on the last op's edge; hide it to keep the still clean.
      cursor.classList.toggle('is-end', atEnd);
    },
  };
}

const scratch = createSteps();

/**
 * The memory lane of one rank as an SVG path `d` (a filled step area) or through `ctx` (a
 * canvas path), for steps in `view` on a plot `width` wide whose left edge is at x0, bottom at
 * y0, `height` tall for `max` activations.
 */
export function memoryPath(steps, view, width, { x0, y0, height, max }, ctx = null) {
  const n = memoryEnvelope(steps, view, width, scratch);
  const k = max > 0 ? height / max : 0;
  const parts = ctx ? null : [`M${x0} ${y0}`];
  const line = ctx ? (x, y) => ctx.lineTo(x, y) : (x, y) => parts.push(`L${round(x)} ${round(y)}`);
  if (ctx) ctx.moveTo(x0, y0);
  for (let j = 0; j < n; j++) {
    const y = y0 - scratch.y[j] * k;
    const xa = x0 + Math.max(0, scratch.x[j]);
    const xb = x0 + (j + 1 < n ? scratch.x[j + 1] : width);
    line(xa, y);
    line(xb, y);
  }
  line(x0 + width, y0);
  if (ctx) {
    ctx.closePath();
    return '';
  }
  parts.push('Z');
  return parts.join('');
}

const round = (v) => Math.round(v * 10) / 10;
