// What the address asks the page to show first, read without the page's own code: boot.js
// fetches the lesson's text with it while app.js is still arriving, and state.js and the lesson
// reader take the view names and the text's address from here. DOM-free.
import { lessonLang } from './locales.js';

/** The page's views, in the order of its navigation; the first is the default. */
export const VIEWS = ['lesson', 'timeline', 'sweep', 'planner'];

/**
 * Where the lesson's text for a page in `lang` is, relative to the page (scripts/build-site.mjs
 * writes it): in `lang` when the lesson is written in it, else in English (lib/locales.js lessonLang).
 */
export const lessonTextPath = (lang, lesson = 'dualpipe') => `generated/lessons/${lesson}.${lessonLang(lang)}.html`;

/** The view a location hash ("#view=timeline&...") names: the default when none or an unknown one. */
export function viewOf(hash) {
  const view = new URLSearchParams(String(hash || '').replace(/^#/, '')).get('view');
  return VIEWS.includes(view) ? view : VIEWS[0];
}
