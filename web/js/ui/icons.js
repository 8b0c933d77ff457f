// Small inline SVG icons for the transport buttons, drawn with currentColor so they follow the
// theme. Text glyphs (⏯ ⏮) render as colour emoji on some systems, hence paths.
import { s } from './dom.js';

const PATHS = {
  play: 'M5 3l11 7-11 7z',
  pause: 'M5 3h4v14H5zM11 3h4v14h-4z',
  start: 'M3 3h2v14H3zM17 3v14L7 10z',
  end: 'M15 3h2v14h-2zM3 3v14l10-7z',
  prevOp: 'M16 3v14L6 10zM4 3h2v14H4z',
  nextOp: 'M4 3v14l10-7zM14 3h2v14h-2z',
  table: 'M2 3h16v14H2zM4 5v3h5V5zm7 0v3h5V5zM4 10v5h5v-5zm7 0v5h5v-5z',
  streams: 'M2 3h16v5H2zM2 10h7v3H2zm9 0h7v3h-7zM5 15h9v3H5z',
  chart: 'M2 4h9v4H2zM8 10h10v4H8z',
  download: 'M9 2h2v8l3-3 1.4 1.4L10 13.8 4.6 8.4 6 7l3 3zM3 15h14v2H3z',
  zoomIn: 'M8.5 2a6.5 6.5 0 0 1 5.2 10.4l4.2 4.2-1.4 1.4-4.2-4.2A6.5 6.5 0 1 1 8.5 2zm0 2a4.5 4.5 0 1 0 0 9 4.5 4.5 0 0 0 0-9zM7.5 5.5h2v2h2v2h-2v2h-2v-2h-2v-2h2z',
  zoomOut: 'M8.5 2a6.5 6.5 0 0 1 5.2 10.4l4.2 4.2-1.4 1.4-4.2-4.2A6.5 6.5 0 1 1 8.5 2zm0 2a4.5 4.5 0 1 0 0 9 4.5 4.5 0 0 0 0-9zM5.5 7.5h6v2h-6z',
  fit: 'M2 3h2v14H2zM16 3h2v14h-2zM5 9h10v2H5zM8 6v8L5 10zM12 6v8l3-4z',
  memory: 'M2 17V13h4V9h4V5h4v6h4v6z',
};

/** An aria-hidden 20x20 icon; the button around it carries the accessible name. */
export function icon(name) {
  return s('svg', { class: 'dpl-icon', viewBox: '0 0 20 20', width: 20, height: 20, 'aria-hidden': 'true', focusable: 'false' }, [
    s('path', { d: PATHS[name], fill: 'currentColor', 'fill-rule': 'evenodd' }),
  ]);
}
