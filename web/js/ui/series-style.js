// How a schedule's line looks in the sweep and growth charts: colour, marker shape and dash from
// one ordered palette, picked by the schedule's position in core's catalogue, so lines differ by
// more than colour and a schedule added in core gets a style without a change here. Colours are
// the CSS variables --dpl-series-0..8 (widgets.css), set for the light and dark themes.
// The three cycles have pairwise coprime lengths (9 colours, 8 markers, 7 dashes): by the Chinese
// remainder theorem the first 9 x 8 x 7 = 504 positions all get different triples, and any two
// neighbours differ in all three: a new schedule never repeats an earlier one's style.
import { s } from './dom.js';
import { scheduleIndex } from '../lib/schedules.js';

/** Colours defined in CSS (.is-series-N and --dpl-series-N for each theme, widgets.css). */
export const COLOURS = 9;
export const MARKERS = ['circle', 'square', 'triangle', 'diamond', 'cross', 'triangle-down', 'plus', 'ring'];
// GPipe (first) dashed over 1F1B (second, solid): their bubble lines coincide.
export const DASHES = ['6 4', '', '2 3', '9 3 2 3', '14 4', '3 6', '10 2 2 2 2 2'];

/** {className, marker, dash} of palette position `index` (>= 0). */
export function paletteStyle(index) {
  const colour = index % COLOURS;
  return { className: `dpl-series is-series-${colour}`, marker: MARKERS[index % MARKERS.length], dash: DASHES[index % DASHES.length] };
}

/** {className, marker, dash} of schedule `name`; a name not in the catalogue is drawn in ink. */
export function seriesStyle(name) {
  const index = scheduleIndex(name);
  if (index < 0) return { className: 'dpl-series', marker: 'circle', dash: '' };
  return paletteStyle(index);
}

/** A marker of `kind` centred on (x, y), with the class `cls`. */
export function marker(kind, x, y, cls = 'dpl-series-marker') {
  const r = 4.5;
  if (kind === 'square') return s('rect', { x: x - r, y: y - r, width: 2 * r, height: 2 * r, class: cls });
  if (kind === 'triangle') return s('polygon', { points: `${x},${y - r - 1} ${x + r + 1},${y + r} ${x - r - 1},${y + r}`, class: cls });
  if (kind === 'triangle-down') return s('polygon', { points: `${x},${y + r + 1} ${x + r + 1},${y - r} ${x - r - 1},${y - r}`, class: cls });
  if (kind === 'diamond') return s('polygon', { points: `${x},${y - r - 1} ${x + r + 1},${y} ${x},${y + r + 1} ${x - r - 1},${y}`, class: cls });
  if (kind === 'cross') return s('path', { d: `M${x - r} ${y - r}L${x + r} ${y + r}M${x - r} ${y + r}L${x + r} ${y - r}`, class: `${cls} is-stroke` });
  if (kind === 'plus') return s('path', { d: `M${x - r - 1} ${y}H${x + r + 1}M${x} ${y - r - 1}V${y + r + 1}`, class: `${cls} is-stroke` });
  if (kind === 'ring') return s('circle', { cx: x, cy: y, r: r - 0.5, class: `${cls} is-stroke` });
  return s('circle', { cx: x, cy: y, r, class: cls });
}

/** A 30x14 legend swatch: a short line with the schedule's dash and marker. */
export function swatch(name) {
  const style = seriesStyle(name);
  return s('svg', { class: 'dpl-swatch', width: 30, height: 14, viewBox: '0 0 30 14', 'aria-hidden': 'true', focusable: 'false' }, [
    s('g', { class: style.className, dataset: { schedule: name } }, [
      s('line', { x1: 1, x2: 29, y1: 7, y2: 7, class: 'dpl-series-line', 'stroke-dasharray': style.dash }),
      marker(style.marker, 15, 7),
    ]),
  ]);
}
