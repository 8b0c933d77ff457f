// Which language the page starts in, and remembering the learner's choice. The URL wins
// (`#lang=hi` in the hash, then `?lang=hi` in the query string), then the choice remembered in
// localStorage under the course's own key ("lang", as its lang-picker.js stores it), then English.
// DOM-free: storage and URL parts are passed in (localStore() finds the browser's).

import { LANGS, DEFAULT_LANG } from './locales.js';

export const LANG_STORAGE_KEY = 'lang';
/** The languages the page offers: lib/locales.js's list of those the lab speaks. */
export const SUPPORTED_LANGS = LANGS;

const fromParams = (text) => new URLSearchParams(String(text || '').replace(/^[#?]/, '')).get('lang');

/** The starting language: {lang, source: 'hash'|'query'|'stored'|'default'}. */
export function initialLang({ hash = '', search = '', storage = null } = {}) {
  const inHash = fromParams(hash);
  if (inHash !== null) return { lang: SUPPORTED_LANGS.includes(inHash) ? inHash : DEFAULT_LANG, source: 'hash' };
  const inQuery = fromParams(search);
  if (SUPPORTED_LANGS.includes(inQuery)) return { lang: inQuery, source: 'query' };
  let stored = null;
  try {
    stored = storage ? storage.getItem(LANG_STORAGE_KEY) : null;
  } catch {
    stored = null;
  }
  if (SUPPORTED_LANGS.includes(stored)) return { lang: stored, source: 'stored' };
  return { lang: DEFAULT_LANG, source: 'default' };
}

/** The browser's localStorage, or null where there is none or it is forbidden (progress and the language choice then last for the visit). */
export function localStore() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** Remembers `lang`; storage that is full or disabled is ignored. */
export function rememberLang(storage, lang) {
  if (!SUPPORTED_LANGS.includes(lang)) return;
  try {
    storage?.setItem(LANG_STORAGE_KEY, lang);
  } catch {
    /* nothing to do: the URL still carries the choice */
  }
}
