// A slot-by-slot trace (lib/trace-text.js) laid out as tables of as many slots as the width
// holds, one after another, each with the rank numbers down its side: on a phone the lesson's
// eleven-slot trace reads in two or three blocks instead of a box that scrolls sideways. Redrawn
// when its width changes. Used by the lesson reader (its trace text blocks) and exercise 2.
import { h, PLOT_DIR } from './dom.js';
import { chunkTrace } from '../lib/trace-text.js';

/** createTraceGrid(trace, {t, label?}) -> {element, destroy()} */
export function createTraceGrid(trace, { t, label = '' }) {
  const element = h('div', { class: 'dpl-trace', role: 'group', 'aria-label': label || t('trace.label') });
  const widest = Math.max(...trace.rows.flatMap((r) => r.cells.map((c) => c.length)), String(Math.max(...trace.slots)).length);
  let perRow = 0;

  function render() {
    const width = element.clientWidth;
    if (!width) return;
    // One character of the grid's monospace font, measured once it is laid out.
    const probe = h('span', { class: 'dpl-trace-probe', text: '0000000000' });
    element.append(probe);
    const ch = probe.getBoundingClientRect().width / 10 || 8;
    probe.remove();
    const cell = (widest + 2) * ch; // a cell's text and its padding
    const side = (t('trace.slot').length + 2) * ch; // the rank column, headed "slot"
    const next = Math.max(1, Math.min(trace.slots.length, Math.floor((width - side) / cell)));
    if (next === perRow) return;
    perRow = next;
    // Its slots are time, as the timeline's x axis is: they run left to right in every language.
    element.replaceChildren(...chunkTrace(trace, perRow).map((part) => h('table', { class: 'dpl-trace-table', dir: PLOT_DIR }, [
      h('caption', { class: 'dpl-visually-hidden', text: t('trace.slots', { from: part.slots[0], to: part.slots[part.slots.length - 1] }) }),
      h('thead', {}, [h('tr', {}, [h('th', { scope: 'col', text: t('trace.slot') }), ...part.slots.map((s) => h('th', { scope: 'col', text: String(s) }))])]),
      h('tbody', {}, part.rows.map((row) => h('tr', {}, [
        h('th', { scope: 'row' }, [h('span', { 'aria-hidden': 'true', text: String(row.rank) }), h('span', { class: 'dpl-visually-hidden', text: t('trace.rank', { r: row.rank }) })]),
        ...row.cells.map((c) => h('td', { class: c === '.' ? 'is-idle' : null, text: c })),
      ]))),
    ])));
  }

  const resize = new ResizeObserver(render);
  resize.observe(element);
  return { element, destroy: () => resize.disconnect() };
}
