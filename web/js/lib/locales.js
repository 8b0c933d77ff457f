// The one list of languages. The course the lab is embedded in publishes every lesson in these
// seven (its languages.json: English the source, and the six it builds on every push); each entry
// says what drawing it takes: its direction and the web font of its script (lib/font-sets.js,
// null where the system's Latin fonts do). `strings` says whether the lab speaks it: whether its
// message catalogue exists (web/locales/<code>.json; the build lists them, scripts/build-site.mjs,
// and lib/i18n.js loads them); `lesson`, whether the lesson's own text exists in it.
// LANGS, the languages the page, the embeds and the tests offer, is read from here; a figure
// inside the course in a language the lab does not speak yet speaks English. DOM-free.
//
// Adding a language: its catalogue web/locales/<code>.json (every key of en.json, core's rule
// templates, the planner's phrases, field names, exercise and quiz texts: tests/browser/
// lib-i18n.test.mjs lists what is missing), its glossary lessons/glossary.<code>.json, and its
// line here (and, for a script no entry uses yet, a font set in lib/font-sets.js).
import { CATALOGUE_LANGS } from '../../generated/strings/langs.js';

/**
 * @typedef {object} Locale
 * @property {string} code BCP 47 tag, as the course writes it in its URLs and in <html lang>
 * @property {string} native the language's name in itself
 * @property {'ltr'|'rtl'} dir
 * @property {string} script its script, ISO 15924 (Latn, Hans, Deva, Arab, Cyrl): the page and each widget
 *   carry it as data-script, for the CSS a script's letters need (css/: no tracking where letters join)
 * @property {string|null} font the key of its script's font set in FONT_SETS, or null
 * @property {boolean} strings whether the lab's strings exist in it (its catalogue does)
 * @property {boolean} lesson whether the lesson's text exists in it (lessons/dualpipe.<code>.md)
 */

/** @type {readonly Locale[]} in the course's order (languages.json) */
export const LOCALES = Object.freeze([
  { code: 'en', native: 'English', dir: 'ltr', script: 'Latn', font: null, lesson: true },
  { code: 'zh', native: '简体中文', dir: 'ltr', script: 'Hans', font: 'sc', lesson: false },
  { code: 'hi', native: 'हिन्दी', dir: 'ltr', script: 'Deva', font: 'devanagari', lesson: true },
  { code: 'es', native: 'Español', dir: 'ltr', script: 'Latn', font: null, lesson: false },
  { code: 'ar', native: 'العربية', dir: 'rtl', script: 'Arab', font: 'arabic', lesson: false },
  { code: 'ru', native: 'Русский', dir: 'ltr', script: 'Cyrl', font: 'cyrillic', lesson: false },
  { code: 'tr', native: 'Türkçe', dir: 'ltr', script: 'Latn', font: 'latin', lesson: false },
].map((locale) => Object.freeze({ ...locale, strings: CATALOGUE_LANGS.includes(locale.code) })));

/** The language everything falls back to. */
export const DEFAULT_LANG = 'en';

/** The languages the lab speaks (its strings exist), in the course's order. */
export const LANGS = Object.freeze(LOCALES.filter((locale) => locale.strings).map((locale) => locale.code));

/** The languages the lesson's text is written in (lessons/dualpipe.<code>.md). */
export const LESSON_LANGS = Object.freeze(LOCALES.filter((locale) => locale.lesson).map((locale) => locale.code));

/** The language the lesson's text is shown in on a page in `lang`: its own, else English. */
export const lessonLang = (lang) => (LESSON_LANGS.includes(lang) ? lang : DEFAULT_LANG);

/**
 * The name of language `code` in language `inLang` (by default in itself: "español"), as the
 * browser's Intl.DisplayNames says it; the list's own `native` name where it cannot.
 */
export function languageName(code, inLang = code) {
  try {
    return new Intl.DisplayNames([inLang, DEFAULT_LANG], { type: 'language' }).of(code) ?? localeOf(code)?.native ?? code;
  } catch {
    return localeOf(code)?.native ?? code;
  }
}

/** The script (ISO 15924) of language `code`; Latin for a language not listed. */
export const scriptOf = (code) => localeOf(code)?.script ?? 'Latn';

/** The entry of `code` (exactly as listed), or undefined. */
export const localeOf = (code) => LOCALES.find((locale) => locale.code === code);

/**
 * The listed locale a language tag means: the tag itself, else its primary language ("hi-IN" ->
 * hi), case-insensitively; null for anything else (an unknown tag, an empty or non-string value).
 */
export function matchLocale(tag) {
  if (typeof tag !== 'string' || tag === '') return null;
  const lower = tag.trim().toLowerCase();
  const exact = LOCALES.find((locale) => locale.code.toLowerCase() === lower);
  if (exact) return exact;
  const primary = lower.split(/[-_]/)[0];
  return LOCALES.find((locale) => locale.code.toLowerCase() === primary) ?? null;
}

/** The language the lab speaks for `tag`: its locale when the lab has its strings, else DEFAULT_LANG. */
export function spokenLang(tag) {
  const locale = matchLocale(tag);
  return locale && locale.strings ? locale.code : DEFAULT_LANG;
}
