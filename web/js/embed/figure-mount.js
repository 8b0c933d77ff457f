// The ES-module half of the course figure widget: figure-widget.js (a classic script) imports
// this on first use and calls mountFigure for each ```figure dualpipe-schedule {...}``` block.
import { mountWidget, ensureStylesheet } from './widget-kit.js';

ensureStylesheet(import.meta.url);

/** kind: 'timeline' | 'sweep'; config: the fence's JSON ({"ranks":8,"microbatches":20}). */
export function mountFigure(kind, element, config) {
  const lang = (document.documentElement.lang || 'en').toLowerCase().startsWith('hi') ? 'hi' : 'en';
  return mountWidget(element, { lang, ...(config || {}), widget: kind });
}
