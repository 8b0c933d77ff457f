// Numbers as a learner reads and types them: no e-notation. Large counts in words ("671.026
// billion", Hindi "671.026 बिलियन", Spanish "671,026 mil millones"), other values with at most a
// few significant digits and never an exponent ("0.00012", not "1.2e-4"), in the page's language
// (its decimal sign: lib/format.js numberLocale, which also fixes Western digits). DOM-free
// (tested under Node); reading typed text back is lib/answer-parse.js's parseAnswer, which reads
// every form written here in the same language (a decimal comma where the language writes one).
import { numberLocale } from './format.js';
import { DEFAULT_LANG } from './locales.js';

/** The scales a count is said in, largest first: [value, i18n key]. */
const SCALES = [[1e12, 'num.trillion'], [1e9, 'num.billion'], [1e6, 'num.million']];

/** `value` with at most `digits` significant digits, trailing zeros dropped, never in e-notation, as language `lang` writes it. */
export function plainNumber(value, digits = 4, lang = DEFAULT_LANG) {
  if (!Number.isFinite(value)) return String(value);
  return new Intl.NumberFormat(numberLocale(lang), { maximumSignificantDigits: digits, useGrouping: false }).format(value);
}

/** A fraction as a percentage with at most `digits` significant digits: 0.1932 -> "19.32%" (Spanish "19,32 %", Turkish "%19,32"). */
export function plainPercent(fraction, digits = 4, lang = DEFAULT_LANG) {
  if (!Number.isFinite(fraction)) return String(fraction);
  return new Intl.NumberFormat(numberLocale(lang), { style: 'percent', maximumSignificantDigits: digits, useGrouping: false }).format(fraction);
}

/**
 * The scale words countWords writes in the language of `t`, lower case -> factor ("mil millones"
 * -> 1e9 in Spanish), for reading them back (lib/answer-parse.js parseAnswer's `scales`).
 */
export function scaleWords(t) {
  const words = {};
  for (const [factor, key] of SCALES) {
    const word = t(key, { v: '' }).trim().toLowerCase();
    if (word && word !== key) words[word] = factor;
  }
  return words;
}

/** A count in words from a million up ("671.026 billion"), else as digits; `t` is the page's translator (its language's decimal sign). */
export function countWords(value, t, digits = 6) {
  const scale = SCALES.find(([v]) => Math.abs(value) >= v);
  if (!scale) return plainNumber(value, Math.max(digits, 15), t.lang);
  return t(scale[1], { v: plainNumber(value / scale[0], digits, t.lang) });
}
