// `make bench` (page-timing.mjs): the reference page's app.js. The reference is the page's own
// index.html, stylesheet, boot.js and fonts, served with this file in place of generated/app.js:
// like app.js it waits for the page's fonts (a Hindi page's Devanagari face), then draws one op
// where the first widget goes. Its first draw is what the page costs on this machine before any
// of our app's code runs (a new renderer, the document, the styles, boot.js and what it fetches),
// so the page's first draw less this one is what app.js adds.
import { pageFontsReady } from './boot.js';
import { viewOf } from '../web/js/lib/first-view.js'; // bundled in (page-timing.mjs)

const SVG_NS = 'http://www.w3.org/2000/svg';

pageFontsReady().then(() => {
  const view = viewOf(location.hash);
  for (const section of document.querySelectorAll('section.view')) section.hidden = section.dataset.view !== view;
  document.getElementById('layout').dataset.view = view;
  const widget = document.createElement('div');
  widget.className = 'sim-widget';
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('width', '640');
  svg.setAttribute('height', '40');
  const op = document.createElementNS(SVG_NS, 'rect');
  op.setAttribute('class', 'dpl-op');
  op.setAttribute('width', '20');
  op.setAttribute('height', '20');
  svg.append(op);
  widget.append(svg);
  document.getElementById(`${view}-root`).append(widget);
});
