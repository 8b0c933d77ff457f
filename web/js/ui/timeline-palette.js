// The canvas renderers' colours, read from the same CSS as the SVG cells (widgets.css: the
// classes k-F/k-Bi/k-B/k-W x d-0/d-1 and the theme variables), so a canvas timeline follows the
// light and dark themes and a course's own variables exactly as the SVG one does. Probe elements
// inside the widget get the classes; their computed colours are written as rgba(r, g, b, a), the
// form the canvas renderer reads (timeline-canvas.js). What a browser computes (rgb(), rgba(),
// #hex in custom properties, color(srgb ...) for a color-mix()) is converted here; anything else
// is drawn on a 1x1 canvas and read back, which on a page's first draw costs tens of ms.
import { s } from './dom.js';
import { CATEGORY_KINDS, CATEGORY_COUNT, PART_PASSES, PART_BASE, FB_BASE, categoryParts } from '../lib/timeline-lod.js';
import { rgbaOf, rgbaText } from '../lib/css-colour.js';
import { DOT_TILE, DOT_R } from './timeline-draw.js';

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
 * The palette in effect inside `root` (an element of the widget): cell fills and label colours by
 * kind and direction (`cell[kind][dir]`, `label`), the dots that mark direction 1 on each kind
 * (`dot[kind]`), the colour of grouped sub-pixel ops (`solid`), and the chart's neutral tones;
 * with `parts` (lanes of look 'part' are drawn), the stream parts' fills and label colours by
 * category (`part[cat - PART_BASE]`, `partLabel`). `fill[cat]`: one solid colour per category,
 * what the overview strip paints (a pair: its backward's; a communication part: its outline's).
 */
export function readPalette(root, { parts = false } = {}) {
  const probe = s('svg', { class: 'dpl-probe', width: 0, height: 0, 'aria-hidden': 'true' });
  const cells = {};
  for (const kind of CATEGORY_KINDS) {
    for (const dir of [0, 1]) {
      const rect = s('rect', { class: `dpl-cell k-${kind} d-${dir}` });
      probe.append(rect);
      cells[`${kind}${dir}`] = rect;
    }
  }
  const partCells = parts ? PART_PASSES.flatMap((pass) => [false, true].map((comm) => {
    const rect = s('rect', { class: `dpl-cell k-${pass} d-0${comm ? ' is-comm' : ''}` });
    probe.append(rect);
    return rect;
  })) : [];
  const named = {};
  for (const [key, cls] of [['idle', 'dpl-idle-bg'], ['grid', 'dpl-grid'], ['tick', 'dpl-tick'],
    ['memory', 'dpl-mem-area'], ['memoryTrack', 'dpl-mem-track']]) {
    named[key] = s('rect', { class: cls });
    probe.append(named[key]);
  }
  root.append(probe);
  const palette = { cell: {}, label: {}, solid: {}, dot: {} };
  for (const kind of CATEGORY_KINDS) {
    palette.cell[kind] = [];
    palette.label[kind] = [];
    palette.solid[kind] = [];
    for (const dir of [0, 1]) {
      const style = getComputedStyle(cells[`${kind}${dir}`]);
      palette.cell[kind][dir] = normalise(style.fill);
      palette.label[kind][dir] = normalise(style.getPropertyValue('--dpl-label').trim() || style.color);
      palette.solid[kind][dir] = palette.cell[kind][dir];
    }
    // Direction 1's dots, in the kind's text colour at the opacity the SVG dots have (widgets.css .dpl-dot).
    const [r, g, b, a] = palette.label[kind][0].match(/[\d.]+/g).map(Number);
    palette.dot[kind] = rgbaText(r, g, b, a * DOT_OPACITY);
  }
  const read = (key, prop) => normalise(getComputedStyle(named[key])[prop]);
  Object.assign(palette, {
    idle: read('idle', 'fill'),
    grid: read('grid', 'stroke'),
    tick: read('tick', 'fill'),
    memory: read('memory', 'fill'),
    memoryTrack: read('memoryTrack', 'fill'),
    font: getComputedStyle(named.tick).fontFamily,
  });
  palette.part = partCells.map((rect) => normalise(getComputedStyle(rect).fill));
  palette.partLabel = partCells.map((rect) => {
    const style = getComputedStyle(rect);
    return normalise(style.getPropertyValue('--dpl-label').trim() || style.color);
  });
  // On the overview strip a communication part takes its outline's colour: its pale fill would
  // not show in a band a few pixels tall.
  const solidPart = partCells.map((rect, i) => normalise(i & 1 ? getComputedStyle(rect).stroke : getComputedStyle(rect).fill));
  palette.fill = Array.from({ length: CATEGORY_COUNT }, (_, cat) => {
    if (cat >= PART_BASE) return solidPart[cat - PART_BASE] ?? palette.idle;
    const shown = categoryParts(cat)[cat >= FB_BASE ? 1 : 0];
    return palette.solid[shown.kind][shown.dir];
  });
  probe.remove();
  return palette;
}

/** The dots' opacity, as widgets.css's .dpl-dot gives the SVG ones. */
const DOT_OPACITY = 0.75;

/** The dots of direction 1 in `color`, on the same tile as the SVG pattern (timeline-draw.js). */
export function dotPattern(ctx, color) {
  const tile = document.createElement('canvas');
  tile.width = DOT_TILE;
  tile.height = DOT_TILE;
  const g = tile.getContext('2d');
  g.fillStyle = color;
  for (const c of [DOT_TILE / 4, (3 * DOT_TILE) / 4]) {
    g.beginPath();
    g.arc(c, c, DOT_R, 0, 2 * Math.PI);
    g.fill();
  }
  return ctx.createPattern(tile, 'repeat');
}
