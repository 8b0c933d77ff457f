// lib/locales.js, the one list of languages, and lib/font-sets.js with the build's reading of the
// font packages (scripts/font-sets.mjs). DOM-free, under Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { LOCALES, LANGS, LESSON_LANGS, DEFAULT_LANG, localeOf, matchLocale, spokenLang } from '../../web/js/lib/locales.js';
import { FONT_SETS } from '../../web/js/lib/font-sets.js';
import { loadLanguage, isLoaded, translator } from '../../web/js/lib/i18n.js';
import { parseFaces, weightRange } from '../../scripts/font-sets.mjs';

const root = new URL('../../', import.meta.url);

test('the list is the course\'s seven languages, in its order, English first', () => {
  // The course's languages.json: English, the source, and the six it builds on every push (ci: true).
  assert.deepEqual(LOCALES.map((l) => l.code), ['en', 'zh', 'hi', 'es', 'ar', 'ru', 'tr']);
  assert.equal(DEFAULT_LANG, 'en');
  assert.equal(LANGS[0], DEFAULT_LANG);
  assert.deepEqual(LANGS, LOCALES.filter((l) => l.strings).map((l) => l.code));
  for (const locale of LOCALES) assert.ok(Object.isFrozen(locale), locale.code);
});

test('every language the lab speaks has its strings, and they load', async () => {
  for (const lang of LANGS) {
    await loadLanguage(lang);
    assert.equal(isLoaded(lang), true, lang);
    assert.equal(translator(lang).lang, lang, lang);
  }
});

test('the lesson\'s languages are exactly those with a lesson file', () => {
  const files = readdirSync(new URL('lessons/', root)).map((f) => /^dualpipe\.([\w-]+)\.md$/.exec(f)?.[1]).filter(Boolean).sort();
  assert.deepEqual([...LESSON_LANGS].sort(), files);
});

test('Arabic runs right to left, the others left to right (the course\'s picker sets <html dir> so)', () => {
  for (const locale of LOCALES) assert.equal(locale.dir, locale.code === 'ar' ? 'rtl' : 'ltr', locale.code);
});

test('every font a language names is a shipped set, every set is used, and each comes from a package in package.json', () => {
  const used = new Set(LOCALES.map((l) => l.font).filter(Boolean));
  for (const name of used) assert.ok(FONT_SETS[name], name);
  assert.deepEqual([...used].sort(), Object.keys(FONT_SETS).sort());
  const { devDependencies } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
  for (const set of Object.values(FONT_SETS)) assert.ok(devDependencies[set.package], set.package);
  assert.equal(new Set(Object.values(FONT_SETS).map((s) => s.family)).size, Object.keys(FONT_SETS).length, 'one family name per set');
});

test('a language tag finds its locale by itself or its primary language; anything else finds none', () => {
  assert.equal(matchLocale('hi'), localeOf('hi'));
  assert.equal(matchLocale('hi-IN'), localeOf('hi'));
  assert.equal(matchLocale('HI'), localeOf('hi'));
  assert.equal(matchLocale('ar_EG'), localeOf('ar'));
  for (const tag of ['xx', 'english', '', '  ', null, undefined, 42, {}]) assert.equal(matchLocale(tag), null, String(tag));
  // The lab speaks a language when its strings exist, else English.
  for (const locale of LOCALES) assert.equal(spokenLang(locale.code), locale.strings ? locale.code : 'en', locale.code);
  assert.equal(spokenLang('xx'), 'en');
});

test('the build reads faces from a package\'s stylesheet and spreads the weights between the files', () => {
  const css = `/* pkg-[3]-400-normal */
@font-face { font-family: 'Pkg'; font-weight: 400; src: url(./files/pkg-3-400-normal.woff2) format('woff2'), url(./files/pkg-3-400-normal.woff) format('woff'); unicode-range: U+4e00-4e10,U+4e2d; }
@font-face { font-family: 'Pkg'; font-weight: 400; src: url(./files/pkg-latin-400-normal.woff2) format('woff2'); unicode-range: U+0000-00FF; }
@font-face { font-family: 'Pkg'; font-weight: 400; src: url(./files/other-latin-400-normal.woff2) format('woff2'); unicode-range: U+0000-00FF; }`;
  assert.deepEqual(parseFaces(css, 'pkg', 400), [
    { subset: '3', file: 'pkg-3-400-normal.woff2', unicodeRange: 'U+4e00-4e10,U+4e2d' },
    { subset: 'latin', file: 'pkg-latin-400-normal.woff2', unicodeRange: 'U+0000-00FF' },
  ]);
  assert.deepEqual(parseFaces(css, 'pkg', 700), []);
  // Two files: the regular draws up to 550 (400, 500), the bold from 551 (600, 700).
  assert.equal(weightRange([400, 700], 0), '100 550');
  assert.equal(weightRange([400, 700], 1), '551 900');
  assert.equal(weightRange([400], 0), '400');
});
