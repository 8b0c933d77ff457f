// Numbers in the page's language (issue 27), under Node: every formatter the page shows numbers
// with writes the language's own decimal sign and percent form, Western digits in all seven
// (Arabic too: lib/format.js says why), and what the page writes reads back through the answer
// parser of the same language. Then a source check: no call on a learner surface leaves the
// language out (locale-numbers.test.mjs looks at what the explorer and the sweep draw in Spanish).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatNumber, formatPercent, formatFixedIn, formatCount, numberLocale } from '../../web/js/lib/format.js';
import { plainNumber, plainPercent, countWords, scaleWords } from '../../web/js/lib/plain-number.js';
import { parseAnswer, usesDecimalComma } from '../../web/js/lib/answer-parse.js';
import { LOCALES, LANGS } from '../../web/js/lib/locales.js';
import { translator, loadLanguage } from '../../web/js/lib/i18n.js';
import { formatQuantity, ownUnits } from '../../web/js/ui/exercise-fields.js';

// What each language writes (CLDR through Intl, checked by hand against the language's usage):
// decimal comma in Spanish, Russian and Turkish; Russian and Spanish put a no-break space before
// the percent sign, Turkish writes it first; Arabic (Western digits, lib/format.js) keeps the
// point and wraps the percent sign in left-to-right marks so it stays beside its number.
const NBSP = '\u00a0';
const LRM = '\u200e';
const EXPECTED = {
  en: { n: '2.5', pct: '27.3%', fixed: '12.0', count: '8,819,734,528', neg: '-0.25' },
  zh: { n: '2.5', pct: '27.3%', fixed: '12.0', count: '8,819,734,528', neg: '-0.25' },
  hi: { n: '2.5', pct: '27.3%', fixed: '12.0', count: '8,81,97,34,528', neg: '-0.25' },
  es: { n: '2,5', pct: `27,3${NBSP}%`, fixed: '12,0', count: '8\u202f819\u202f734\u202f528', neg: '-0,25' },
  ar: { n: '2.5', pct: `27.3${LRM}%${LRM}`, fixed: '12.0', count: '8,819,734,528', neg: `${LRM}-0.25` },
  ru: { n: '2,5', pct: `27,3${NBSP}%`, fixed: '12,0', count: `8${NBSP}819${NBSP}734${NBSP}528`, neg: '-0,25' },
  tr: { n: '2,5', pct: '%27,3', fixed: '12,0', count: '8\u202f819\u202f734\u202f528', neg: '-0,25' },
};

test('each of the seven languages writes 2.5, 27.3% and a count in its own form, with Western digits', () => {
  assert.deepEqual(Object.keys(EXPECTED).sort(), LOCALES.map((l) => l.code).sort(), 'one row per listed language');
  for (const [lang, want] of Object.entries(EXPECTED)) {
    assert.equal(formatNumber(2.5, 3, lang), want.n, `${lang} formatNumber`);
    assert.equal(formatNumber(2.5000001, 3, lang), want.n, `${lang} formatNumber rounds`);
    assert.equal(plainNumber(2.5, 4, lang), want.n, `${lang} plainNumber`);
    assert.equal(formatPercent(0.273, 1, lang), want.pct, `${lang} formatPercent`);
    assert.equal(plainPercent(0.273, 4, lang), want.pct, `${lang} plainPercent`);
    assert.equal(formatFixedIn(12, 1, lang), want.fixed, `${lang} formatFixedIn`);
    assert.equal(formatCount(8819734528, lang), want.count, `${lang} formatCount`);
    assert.equal(formatNumber(-0.25, 3, lang), want.neg, `${lang} negative`);
    assert.equal(formatNumber(-0.0001, 3, lang), '0', `${lang}: no "-0"`);
    // Never another digit system: Arabic-Indic (U+0660..) or Devanagari (U+0966..).
    assert.doesNotMatch(`${formatNumber(1234.5, 3, lang)}${formatPercent(0.5, 1, lang)}${plainNumber(0.000123, 4, lang)}`, /[\u0660-\u0669\u06f0-\u06f9\u0966-\u096f]/, lang);
  }
  // One place decides the digits: every language's locale asks for 'latn'.
  for (const { code } of LOCALES) assert.equal(new Intl.NumberFormat(numberLocale(code)).resolvedOptions().numberingSystem, 'latn', code);
});

test('the translator\'s own numbers (t.number, t.plural) follow the same locale', async () => {
  for (const lang of LANGS) {
    await loadLanguage(lang);
    const t = translator(lang);
    assert.equal(t.number(2.5), EXPECTED[lang].n, lang);
    assert.doesNotMatch(t.number(1234567.5), /[\u0660-\u0669]/, lang);
  }
});

test('what the page writes in a language reads back through that language\'s answer field', async () => {
  // Values of the shapes exercises show: 4 significant digits (1.667 is "1,667" in Spanish: a
  // comma before three digits is a decimal comma on such a page), fractions with their
  // percentage, parameter counts grouped and in words, negatives, GB.
  for (const lang of LANGS) {
    await loadLanguage(lang);
    const t = translator(lang);
    const opts = { decimalComma: usesDecimalComma(lang), scales: scaleWords(t) };
    const back = (text, kind, value) => {
      const parsed = parseAnswer(text, kind, opts);
      assert.ok(parsed.ok, `${lang} ${kind}: "${text}" ${JSON.stringify(parsed)}`);
      assert.ok(Math.abs(parsed.value - value) <= 1e-9 * Math.max(1, Math.abs(value)), `${lang} ${kind}: "${text}" -> ${parsed.value}, not ${value}`);
    };
    for (const v of [1.667, 2.5, 0.1932, 12.34, 1234, 0.00012, 4.2]) back(plainNumber(v, 4, lang), 'plain', v);
    for (const v of [-0.25, -2.5]) back(formatNumber(v, 3, lang), 'plain', v);
    for (const v of [0.1932, 0.273, 0.05]) back(plainPercent(v, 4, lang), 'fraction', v);
    for (const v of [0.1932, 0.273]) back(plainNumber(v, 4, lang), 'fraction', v);
    for (const v of [8819734528, 1234567, 671026419200]) back(formatCount(v, lang), 'params', v);
    for (const v of [8819213312, 671026000000, 1234000000]) back(countWords(v, t, 4), 'params', Number(plainNumber(v / 1e9, 4).replace(',', '.')) * 1e9);
    back(`${plainNumber(17.64, 4, lang)} GB`, 'bytes', 17.64e9);
  }
});

test('an exercise\'s value, as its solution and feedback write it, reads back through its field whole', async () => {
  // formatQuantity: what "Correct: the simulator gives ..." and the solution table show. A
  // fraction is "0.1932 (19.32%)": either half reads back; other kinds whole, unit word included.
  for (const lang of LANGS) {
    await loadLanguage(lang);
    const t = translator(lang);
    for (const [kind, value] of [['fraction', 0.1932], ['gpuHours', 0.05], ['params', 1.102e9], ['bytes', 6.89e9], ['plain', 4.2]]) {
      const text = formatQuantity(value, kind, t);
      const opts = { decimalComma: usesDecimalComma(lang), scales: scaleWords(t), units: ownUnits(kind, t) };
      for (const part of kind === 'fraction' ? text.split(' (').map((p) => p.replace(/\)$/, '')) : [text]) {
        const parsed = parseAnswer(part, kind, opts);
        assert.ok(parsed.ok, `${lang} ${kind}: "${part}" ${JSON.stringify(parsed)}`);
        assert.ok(Math.abs(parsed.value - value) <= 1e-9 * value, `${lang} ${kind}: "${part}" -> ${parsed.value}`);
      }
    }
  }
});

// ---- every call on a learner surface passes the language ------------------------------------------
const WEB_JS = fileURLToPath(new URL('../../web/js/', import.meta.url));
/** Formatter -> the argument count that includes the language. */
const NEEDS = { formatNumber: 3, formatPercent: 3, formatFixedIn: 3, formatCount: 2, plainNumber: 3, plainPercent: 3, sigIn: 3, numberFormat: 1 };
/**
 * Files whose English numbers are deliberate: format.js's formatLike writes the lesson's quotes
 * (English and Hindi prose, both with a decimal point).
 */
const EXEMPT = new Set(['lib/format.js']);

function sources(dir) {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.js') ? [p] : [];
  });
}

/** How many arguments the call whose '(' is at `open` passes (0 for none). */
function argumentCount(src, open) {
  let depth = 0;
  let count = 1;
  let empty = true;
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) {
      if (--depth === 0) break;
    } else if (c === ',' && depth === 1) count++;
    else if (depth >= 1 && !/\s/.test(c)) empty = false;
  }
  return empty ? 0 : count;
}

test('no formatter call in web/js leaves the page\'s language out, and no number is formatted in a fixed locale', () => {
  const missing = [];
  for (const file of sources(WEB_JS)) {
    const name = path.relative(WEB_JS, file).split(path.sep).join('/');
    if (EXEMPT.has(name)) continue;
    const src = readFileSync(file, 'utf8');
    const line = (at) => src.slice(0, at).split('\n').length;
    for (const m of src.matchAll(/\b(formatNumber|formatPercent|formatFixedIn|formatCount|plainNumber|plainPercent|sigIn|numberFormat)\(/g)) {
      if (/function\s+$/.test(src.slice(Math.max(0, m.index - 10), m.index))) continue; // its definition
      if (argumentCount(src, m.index + m[1].length) < NEEDS[m[1]]) missing.push(`${name}:${line(m.index)} ${m[1]}`);
    }
    // Intl.NumberFormat only through numberLocale (answer-parse.js asks Intl which sign a language uses).
    for (const m of src.matchAll(/toLocaleString\(|new Intl\.NumberFormat\((?!numberLocale\()/g)) {
      if (name !== 'lib/answer-parse.js') missing.push(`${name}:${line(m.index)} ${m[0]}`);
    }
  }
  assert.deepEqual(missing, []);
});
