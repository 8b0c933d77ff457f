// The timeline widget's tooltip: one element over the chart that hover and keyboard focus fill
// with the same details, placed above the thing it describes and kept inside the widget. Op cells
// and a lane's items carry their words in aria-label; stream parts and exposed waits (thousands
// of them, drawn as bare rects) carry data only, worded here when hovered.
import { h } from './dom.js';
import { describePart, partLabel } from '../lib/stream-parts.js';
import { formatNumber } from '../lib/format.js';
import { clamp } from '../lib/scale.js';

/** What the tooltip describes: an item (op cell, trace range), a stream part, an exposed wait. */
export const TIP_TARGETS = '.dpl-op, .dpl-part, .dpl-exposed';

/**
 * The words for `g` (an element matching TIP_TARGETS) among `lanes` (lib/timeline-model.js, each
 * drawn): its aria-label, or a part's or wait's description from its data-*.
 */
export function tipTextOf(g, lanes, t) {
  if (g.classList.contains('dpl-op')) return g.getAttribute('aria-label');
  const d = g.dataset;
  const lane = lanes.find((l) => l.drawn.svg && l.drawn.svg.contains(g));
  const layers = lane.streams.layers; // parts are drawn only by a lane with a stream view
  const part = d.part ? { ...d, label: partLabel(d.part, d.pass) } : { ...d };
  return describePart(part, t, (v) => formatNumber(Number(v), 3, t.lang), layers);
}

/** The tooltip of the widget whose root is `root`: {element, show(text, box), hide()}. */
export function createTooltip(root, id) {
  const element = h('div', { class: 'dpl-tooltip', role: 'tooltip', id, hidden: true });
  return {
    element,
    /** Shows `text` centred above `box` (a client rect), inside the widget. */
    show(text, box) {
      element.textContent = text;
      element.hidden = false;
      const host = root.getBoundingClientRect();
      const width = element.offsetWidth;
      const left = clamp(box.left - host.left + box.width / 2 - width / 2, 0, Math.max(0, host.width - width));
      element.style.left = `${left}px`;
      element.style.top = `${box.top - host.top - element.offsetHeight - 6}px`;
    },
    hide() { element.hidden = true; },
  };
}
