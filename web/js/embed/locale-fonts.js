// The web font of a language's script, for a widget on someone else's page (the course figure).
// A font face cannot be declared inside a shadow root, so the widget adds its font set's
// stylesheet (fonts/<set>.css, written by scripts/font-sets.mjs) to the host document, once, and
// puts the set's family first in its own stack. The faces keep their unicode-range, so a file is
// downloaded only when text in its range is drawn: a language without such text costs one small
// stylesheet. Nothing here for a language drawn in the system's Latin fonts (lib/locales.js).
import { FONT_SETS, fontSetStylesheet } from '../lib/font-sets.js';
import { matchLocale } from '../lib/locales.js';

/** The font a language tag needs: {family, href} (href resolved against `fontsBase`), or null. */
export function fontFor(tag, fontsBase) {
  const name = matchLocale(tag)?.font;
  if (!name) return null;
  return { family: FONT_SETS[name].family, href: new URL(fontSetStylesheet(name), fontsBase).href };
}

/** The value of a stack's first entry for `font` (a family name and its comma), '' for none. */
export const stackEntry = (font) => (font ? `"${font.family}",` : '');

/**
 * Adds the stylesheet `href` to `doc` unless it is there already; resolves once it has loaded
 * (or failed: the text is then drawn in the fallback fonts, and the widget is drawn all the same).
 */
export function addFontStylesheet(href, doc = document) {
  let link = [...doc.querySelectorAll('link[rel="stylesheet"]')].find((l) => l.href === href);
  if (link?.sheet) return Promise.resolve();
  if (!link) {
    link = doc.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    link.dataset.dualpipeLab = '';
    doc.head.append(link);
  }
  return new Promise((resolve) => {
    link.addEventListener('load', resolve, { once: true });
    link.addEventListener('error', resolve, { once: true });
  });
}

/**
 * Resolves once the faces of `font` that draw `text` have loaded, in the weights a widget uses,
 * or after `ms`: a widget drawn before its faces arrive would draw a letter of a script the
 * machine has no font for as a box, then lay itself out again. The wait is capped, so a slow
 * font costs at most `ms`; the text then swaps to it when it comes (font-display: swap).
 */
export function fontLoaded(font, text, ms = 1000, doc = document) {
  if (!font || !doc.fonts) return Promise.resolve();
  const loads = [400, 700].map((weight) => doc.fonts.load(`${weight} 16px "${font.family}"`, text).catch(() => []));
  let timer;
  const cap = new Promise((resolve) => { timer = setTimeout(resolve, ms); });
  return Promise.race([Promise.all(loads), cap]).then(() => clearTimeout(timer));
}
