// The Devanagari web font for widgets on other people's pages (the course figure, the custom
// element): @font-face only works at document level (not inside a shadow root), so a Hindi widget
// adds css/fonts.css to the host document once. Its unicode-range keeps the download to pages
// that draw Devanagari text.
const FONTS_CSS = new URL('../../css/fonts.css', import.meta.url).href;

/** Adds css/fonts.css to `doc` unless it is already there. */
export function ensureDevanagariFont(doc = document) {
  if ([...doc.querySelectorAll('link[rel="stylesheet"]')].some((l) => l.href === FONTS_CSS)) return;
  const link = doc.createElement('link');
  link.rel = 'stylesheet';
  link.href = FONTS_CSS;
  link.dataset.dualpipeLab = '';
  doc.head.append(link);
}
