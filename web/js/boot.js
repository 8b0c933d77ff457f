// The page's first script (index.html loads its bundle async, before app.js). Its bundle is one
// small file, so it runs as soon as it arrives, well before app.js has been compiled and run, and
// asks then for what the first screen will need: on the lesson, the lesson's text (app.js takes
// the response over with takeLessonText()); on a Hindi page, the Hindi strings and font.

import { viewOf, lessonTextPath } from './lib/first-view.js';
import { initialLang, localStore } from './lib/lang-pref.js';
import { localeOf } from './lib/locales.js';
import { FONT_SETS } from './lib/font-sets.js';

const { lang } = initialLang({ hash: location.hash, search: location.search, storage: localStore() });

// The lesson's text, when the page opens on the lesson: asked for now, while app.js loads,
// rather than once app.js has run (measured: it then arrived ~200 ms after the page could use it).
let lessonText = null;
if (viewOf(location.hash) === 'lesson') {
  const url = new URL(lessonTextPath(lang), document.baseURI).href;
  lessonText = { url, response: fetch(url) };
  lessonText.response.catch(() => {});  // app.js reports a failure, when it asks for the text
}

// The page's strings in another language than English: app.js imports them (a file of their own)
// and renders nothing before they are there; asked for now, not once app.js has run. LANG_PACKS
// (language -> file) is defined in this file's bundle by scripts/bundle-page.mjs.
const pack = typeof LANG_PACKS === 'undefined' ? undefined : LANG_PACKS[lang];
if (pack) {
  const link = document.createElement('link');
  link.rel = 'modulepreload';
  link.href = new URL(pack, import.meta.url).href;
  document.head.append(link);
}

// A Hindi page (a language whose script has a web font, lib/locales.js) draws in the
// Devanagari web font (css/fonts.css, the page's only one): fetched
// once the stylesheets declaring it have loaded, not once the first Hindi text is laid out; and
// app.js renders the page only once it has loaded (pageFontsReady), as it waits for its strings.
// Rendered before, the page was laid out in system fonts first: Chromium looked up a fallback for
// every Devanagari letter it drew (traced: 81-122 lookups on the lesson, 66 on the explorer), then
// laid the text out again once the font came. The wait is capped, so a font that is slow to
// come costs the first render at most FONT_WAIT_MS; then the text swaps to it when it comes.
const FONT_WAIT_MS = 1000;
let fontsReady = Promise.resolve();
// Only the faces of the language's own set: the page declares Devanagari's alone (css/fonts.css),
// which a page in another script (Chinese, say) must not download.
const family = FONT_SETS[localeOf(lang)?.font]?.family;
if (family) {
  const loaded = new Promise((resolve) => {
    const own = () => [...document.fonts].filter((face) => face.family.replace(/^["']|["']$/g, '') === family);
    const loadFonts = () => resolve(Promise.allSettled(own().map((face) => face.load())));
    const pending = [...document.querySelectorAll('link[rel="stylesheet"]')].filter((link) => !link.sheet);
    let waiting = pending.length;
    if (waiting === 0) loadFonts();
    for (const link of pending) {
      const done = () => { if (--waiting === 0) loadFonts(); };
      link.addEventListener('load', done, { once: true });
      link.addEventListener('error', done, { once: true });
    }
  });
  fontsReady = Promise.race([loaded, new Promise((resolve) => { setTimeout(resolve, FONT_WAIT_MS); })]).then(() => {});
}

/** Resolves once the page's web fonts have loaded (or failed), or FONT_WAIT_MS after this script ran. */
export function pageFontsReady() {
  return fontsReady;
}

/** The response (a promise) for `url` if this script already asked for it, once; else null. */
export function takeLessonText(url) {
  if (lessonText?.url !== url) return null;
  const { response } = lessonText;
  lessonText = null;
  return response;
}
