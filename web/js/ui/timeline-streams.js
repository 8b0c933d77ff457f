// The stream view of a timeline lane: under each rank's op row, two sub-rows, its compute
// stream and its communication stream, with every op's parts (attention, all-to-all dispatch,
// MLP, all-to-all combine: the lane's streams.partsOf, lib/stream-parts.js placing a simulated
// op's) drawn as one SVG rect each, and the stretches where the compute stream waits for an
// all-to-all (streams.exposedOf) marked as exposed. Parts carry data-* attributes and no
// listeners: the view delegates hover to the chart.
import { s } from './dom.js';
import { partClass, partText, partDataset } from '../lib/stream-parts.js';
import { numberFormat } from '../lib/format.js';
import { SUB_ROWS } from '../lib/timeline-layout.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

// Tens of thousands of parts at 16 x 64: built with bare DOM calls, not dom.js's general s().
function rect(x, y, width, cls, data) {
  const el = document.createElementNS(SVG_NS, 'rect');
  el.setAttribute('x', x);
  el.setAttribute('y', y);
  el.setAttribute('width', width);
  el.setAttribute('height', SUB_ROWS.height);
  el.setAttribute('class', cls);
  for (const key in data) el.setAttribute(`data-${key}`, data[key]);
  return el;
}

function label(x, y, cls, text) {
  const el = document.createElementNS(SVG_NS, 'text');
  el.setAttribute('x', x);
  el.setAttribute('y', y);
  el.setAttribute('class', cls);
  el.textContent = text;
  return el;
}

/**
 * Draws the sub-rows of every rank, for the ops `visible(o)` says are in view. `rowY(r)` is the
 * top of rank r's op row, `x` the time scale. Returns {background, parts}: the tracks (behind
 * the ops) and the parts on top.
 */
export function drawStreams(lane, { x, visible, rowY, layout: L, prefix, lang }) {
  const num = numberFormat(lang);
  const streams = lane.streams;
  const { plotWidth, width } = L;
  const background = s('g', { class: 'dpl-stream-rows', 'aria-hidden': 'true' });
  const parts = s('g', { class: 'dpl-parts', 'aria-hidden': 'true' });
  const gapsByKey = new Map();
  const subY = (r, stream) => rowY(r) + L.streamsY + SUB_ROWS.gap + (stream === 'comm' ? SUB_ROWS.height + SUB_ROWS.gap : 0);
  const mid = SUB_ROWS.height / 2;
  const exposedFill = `url(#${prefix}-exposed)`;

  lane.records().forEach((ops, r) => {
    for (const stream of ['compute', 'comm']) {
      const y = subY(r, stream);
      background.append(
        s('rect', { x: L.left, y, width: plotWidth, height: SUB_ROWS.height, class: 'dpl-idle dpl-stream-track', fill: `url(#${prefix}-idle)` }),
      );
    }
    const exposed = streams.exposedTotal(r);
    if (typeof exposed === 'number') {
      background.append(s('text', { x: width - L.right / 2 + 4, y: subY(r, 'compute') + mid, class: 'dpl-exposed-total', 'text-anchor': 'middle', 'dominant-baseline': 'central' }, [num(exposed)]));
    }
    const yCompute = subY(r, 'compute');
    for (const o of ops) {
      if (!visible(o)) continue;
      for (const gap of streams.exposedOf(o, gapsByKey)) {
        const x0 = x(gap.start);
        const el = rect(x0, yCompute, Math.max(1, x(gap.end) - x0), 'dpl-exposed', gap);
        el.setAttribute('fill', exposedFill);
        parts.appendChild(el);
      }
      for (const p of streams.partsOf(o)) {
        const x0 = x(p.start);
        const w = Math.max(1, x(p.end) - x0);
        const y = subY(r, p.stream);
        const cls = partClass(p, p.dir);
        parts.appendChild(rect(x0, y, w, `dpl-part dpl-cell ${cls}`, partDataset(p)));
        const text = partText(p, w, SUB_ROWS.charPx);
        if (text) parts.appendChild(label(x0 + w / 2, y + mid, `dpl-part-label ${cls}`, text));
      }
    }
  });
  return { background, parts };
}
