// The canvas renderers' colours, read from the same CSS as the SVG cells (widgets.css: the
// classes k-F/k-Bi/k-B/k-W x d-0/d-1 and the theme variables), so a canvas timeline follows the
// light and dark themes and a course's own variables exactly as the SVG one does. Probe elements
// inside the widget get the classes; their computed colours are written as rgba(r, g, b, a), the
// form the canvas renderer reads (timeline-canvas.js). What a browser computes (rgb(), rgba(),
// #hex in custom properties, color(srgb ...) for a color-mix()) is converted here; anything else
// is drawn on a 1x1 canvas and read back, which on a page's first draw costs tens of ms.
import { s } from './dom.js';
import { CATEGORY_KINDS } from '../lib/timeline-lod.js';
import { rgbaOf, rgbaText } from '../lib/css-colour.js';

let pixel = null;
/** Any CSS colour as a canvas-ready rgba() string. */
function normalise(color) {
  const parsed = rgbaOf(color);
  if (parsed) return parsed;
  pixel ??= document.createElement('canvas').getContext('2d', { willReadFrequently: true });
  pixel.clearRect(0, 0, 1, 1);
  pixel.fillStyle = '#000';
  pixel.fillStyle = color;
  pixel.fillRect(0, 0, 1, 1);
  const [r, g, b, a] = pixel.getImageData(0, 0, 1, 1).data;
  return rgbaText(r, g, b, a / 255);
}

/**
 * The palette in effect inside `root` (an element of the widget): cell fills, outlines and label
 * colours by kind and direction (`cell[kind][dir]`, `stroke`, `label`), the colour of grouped
 * sub-pixel ops (`solid`), and the chart's neutral tones.
 */
export function readPalette(root) {
  const probe = s('svg', { class: 'dpl-probe', width: 0, height: 0, 'aria-hidden': 'true' });
  const cells = {};
  for (const kind of CATEGORY_KINDS) {
    for (const dir of [0, 1]) {
      const rect = s('rect', { class: `dpl-cell k-${kind} d-${dir}` });
      probe.append(rect);
      cells[`${kind}${dir}`] = rect;
    }
  }
  const named = {};
  for (const [key, cls] of [['idle', 'dpl-idle-bg'], ['grid', 'dpl-grid'], ['tick', 'dpl-tick'], ['hatchLight', 'dpl-hatch-on-light'],
    ['hatchDark', 'dpl-hatch-on-dark'], ['memory', 'dpl-mem-area'], ['memoryTrack', 'dpl-mem-track']]) {
    named[key] = s('rect', { class: cls });
    probe.append(named[key]);
  }
  root.append(probe);
  const palette = { cell: {}, label: {}, stroke: {}, solid: {} };
  for (const kind of CATEGORY_KINDS) {
    palette.cell[kind] = [];
    palette.label[kind] = [];
    palette.stroke[kind] = [];
    palette.solid[kind] = [];
    for (const dir of [0, 1]) {
      const style = getComputedStyle(cells[`${kind}${dir}`]);
      palette.cell[kind][dir] = normalise(style.fill);
      palette.label[kind][dir] = normalise(style.getPropertyValue('--dpl-label').trim() || style.color);
      palette.stroke[kind][dir] = normalise(style.getPropertyValue('--dpl-c').trim() || style.stroke);
      // A W cell is a pale fill told apart by its dashed outline; in a column too narrow for
      // the outline, it shows in the outline's colour instead, or it would look idle.
      palette.solid[kind][dir] = kind === 'W' ? palette.stroke[kind][dir] : palette.cell[kind][dir];
    }
  }
  const read = (key, prop) => normalise(getComputedStyle(named[key])[prop]);
  Object.assign(palette, {
    idle: read('idle', 'fill'),
    grid: read('grid', 'stroke'),
    tick: read('tick', 'fill'),
    hatchLight: read('hatchLight', 'stroke'),
    hatchDark: read('hatchDark', 'stroke'),
    memory: read('memory', 'fill'),
    memoryTrack: read('memoryTrack', 'fill'),
    font: getComputedStyle(named.tick).fontFamily,
  });
  probe.remove();
  return palette;
}

/** A repeating diagonal hatch (direction 1) in `color`, as the SVG patterns draw it. */
export function hatchPattern(ctx, color) {
  const tile = document.createElement('canvas');
  tile.width = 6;
  tile.height = 6;
  const g = tile.getContext('2d');
  g.strokeStyle = color;
  g.lineWidth = 1.4;
  g.beginPath();
  for (const o of [-6, 0, 6]) {
    g.moveTo(o, 6);
    g.lineTo(o + 6, 0);
  }
  g.stroke();
  return ctx.createPattern(tile, 'repeat');
}
