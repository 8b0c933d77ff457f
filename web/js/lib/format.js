// Number formatting shared by every view and by the lesson reader. DOM-free (tested under Node).
// Simulated times are exact multiples of 1e-6, but the formulas in `reference` are computed in
// floating point (4.200000000000001), so everything shown is rounded first. `lang`: the page's
// language, whose decimal sign and percent sign Intl.NumberFormat writes (Spanish "2,4",
// "27,3 %", Turkish "%27,3"); English by default, as the lesson's quotes and core's messages
// write numbers. A view passes its translator's `t.lang` (or a formatter from numberFormat).
//
// Which numbers stay English on purpose: numbers quoted from core's messages (error texts, core's
// derivations and sources) and from the lesson's prose (written in English and Hindi only, both
// with a decimal point: formatLike); code and configs (JSON, CLI lines, formulas); and what
// <input type=number> fields hold (the browser writes their value with a point in every language).
// A number a learner may copy into an answer field round-trips: what these functions and
// lib/plain-number.js write in a language, lib/answer-parse.js reads back on a page in it
// (tests/browser/lib-locale-numbers.test.mjs).
//
// Digits: every language writes Western (ASCII) digits, `-u-nu-latn` (numberLocale, the one
// place this is decided). For Arabic this is a choice: Intl's plain 'ar' writes Arabic-Indic
// digits ("٢٫٥") with some engines' locale data and Western ones with others, so it is pinned.
// The lab's Arabic page writes "2.5" and "27.3%" because (1) everything around those numbers
// uses Western digits and must agree with them: the formulas, the code and JSON, core's
// messages, the lesson's figures, the fields the learner types into; (2) Arabic technical and
// programming text widely writes Western digits (the Maghreb always; recent CLDR data makes them
// the default for 'ar' itself); (3) the answer parser (lib/answer-parse.js) reads ASCII and
// Devanagari digits, so a number copied from the page into a field round-trips. Its decimal sign is then the point, as 'ar' writes it with
// Western digits; the bidi marks Intl adds around the percent and minus signs ("27.3‎%‎") keep
// the sign beside its number in right-to-left text, and the answer parser ignores them.
// Inside a chart (time axis ticks, idle totals, cell labels) numbers are the same strings; the
// chart keeps its own direction left to right, so they read left to right there too.
import { DEFAULT_LANG } from './locales.js';

/** The locale Intl.NumberFormat is given for language `lang`: its own, with Western digits (see above). */
export const numberLocale = (lang = DEFAULT_LANG) => `${lang || DEFAULT_LANG}-u-nu-latn`;

const formats = new Map(); // `${lang} ${kind} ${decimals}` -> Intl.NumberFormat (a canvas frame formats hundreds)

/** A cached Intl.NumberFormat of `lang` with `options` under the key `kind`. */
function formatOf(lang, kind, decimals, options) {
  const key = `${lang} ${kind} ${decimals}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(numberLocale(lang), options);
    formats.set(key, format);
  }
  return format;
}

/** Rounds to at most `decimals` places and drops trailing zeros: 7 -> "7", 2.40 -> "2.4" (no digit grouping). */
export function formatNumber(value, decimals = 3, lang = DEFAULT_LANG) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return String(value);
  if (lang && lang !== DEFAULT_LANG) {
    return formatOf(lang, 'n', decimals, { maximumFractionDigits: decimals, useGrouping: false, signDisplay: 'negative' }).format(value);
  }
  const fixed = value.toFixed(decimals);
  const trimmed = fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
  return trimmed === '-0' ? '0' : trimmed;
}

/** Exactly `decimals` places, zeros kept: 12 -> "12.0" (Spanish "12,0"), for columns of one precision. */
export function formatFixedIn(value, decimals, lang = DEFAULT_LANG) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return String(value);
  if (!lang || lang === DEFAULT_LANG) return value.toFixed(decimals);
  return formatOf(lang, 'f', decimals, { minimumFractionDigits: decimals, maximumFractionDigits: decimals, useGrouping: false }).format(value);
}

/** The decimal sign language `lang` writes ("," in Spanish, "." in English), Western digits as everywhere here. */
export function decimalSign(lang = DEFAULT_LANG) {
  try {
    return formatOf(lang, 'f', 1, { minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: false }).formatToParts(1.5)
      .find((part) => part.type === 'decimal')?.value ?? '.';
  } catch {
    return '.'; // not a language tag Intl knows
  }
}

/** A fraction as a percentage: 0.0909 -> "9.1%" (Spanish "9,1 %", Turkish "%9,1"). */
export function formatPercent(fraction, decimals = 1, lang = DEFAULT_LANG) {
  if (lang && lang !== DEFAULT_LANG && Number.isFinite(fraction)) {
    return formatOf(lang, '%', decimals, { style: 'percent', minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(fraction);
  }
  return `${(fraction * 100).toFixed(decimals)}%`;
}

/**
 * A whole count with the language's digit grouping: 1234567 -> "1,234,567" (Hindi "12,34,567",
 * Russian "1 234 567"). Where the language groups with a point (Spanish, Turkish), a narrow space
 * instead ("1 234 567", as SI and the RAE write it): the answer parser reads a point as a decimal
 * point in every language, so a count copied into an answer field reads back as itself.
 */
export function formatCount(value, lang = DEFAULT_LANG) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return String(value);
  const parts = formatOf(lang || DEFAULT_LANG, 'c', 0, { maximumFractionDigits: 0 }).formatToParts(Math.round(value));
  return parts.map((part) => (part.type === 'group' && part.value === '.' ? '\u202f' : part.value)).join('');
}

/**
 * formatNumber bound to language `lang`: (value, decimals = 3) -> text. What a view hands to the
 * lane adapters (describe, table cells) that format a lane's times.
 */
export const numberFormat = (lang = DEFAULT_LANG) => (value, decimals = 3) => formatNumber(value, decimals, lang);

/**
 * `x` as C's printf("%.<digits>g") writes it: `digits` significant digits, trailing zeros
 * dropped, exponent form (at least two exponent digits) when the exponent is below -4 or at
 * least `digits`. Core writes numbers in its messages this way.
 */
export function formatSignificant(x, digits) {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'nan' : x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const [mantissa, exp] = x.toExponential(digits - 1).split('e');
  const exponent = Number(exp);
  const trim = (text) => (text.includes('.') ? text.replace(/\.?0+$/, '') : text);
  if (exponent < -4 || exponent >= digits) {
    return `${trim(mantissa)}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  return trim(x.toFixed(digits - 1 - exponent));
}

/**
 * `x` as C's printf("%.<decimals>f") writes it. toFixed agrees except on an exact tie (2.25 to
 * one decimal), which it rounds away from zero and printf to even ("2.2").
 */
export function formatFixed(x, decimals) {
  const rounded = x.toFixed(decimals);
  const exact = x.toFixed(decimals + 25); // a tie's expansion ends right after the kept digits
  const cut = exact.length - 25;
  if (!/^50*$/.test(exact.slice(cut))) return rounded;
  const down = exact.slice(0, decimals ? cut : cut - 1);
  return Number(down.at(-1)) % 2 === 0 ? down : rounded;
}

/**
 * Units a quote may carry after its number, each a power of ten of the value it quotes: "B"
 * (attached, as the lesson writes "671B") counts billions of parameters, " GB" bytes in 1e9.
 */
export const QUOTE_UNITS = Object.freeze({ B: 1e9, ' GB': 1e9 });

/** How a quoted number is written: percent, a unit of QUOTE_UNITS or plain, and with how many decimals. */
export function quotedShape(quoted) {
  const text = String(quoted).trim();
  const match = /^-?\d+(?:\.(\d+))?(%|B| GB)?$/.exec(text);
  if (!match) return null;
  const unit = match[2] && match[2] !== '%' ? match[2] : '';
  return { decimals: match[1] ? match[1].length : 0, percent: match[2] === '%', unit, scale: unit ? QUOTE_UNITS[unit] : 1 };
}

/** Decimal places the simulator's own precision (its 1e-6 tick) needs for `value`: 4.2 -> 1. */
export function simDecimals(value) {
  const text = formatNumber(value, 6);
  return text.includes('.') ? text.length - text.indexOf('.') - 1 : 0;
}

/**
 * Formats `value` the way `quoted` is written, so "30.4%" and 0.30434 compare as equal strings;
 * a plain number keeps the digits the simulator gives when the quote has fewer (quoted "6",
 * simulated 4.2: "4.2", never "4"). Percentages are ratios, shown at the quote's precision.
 * Without a usable quote, fractions (0..1 named *fraction or utilization) become percentages.
 * `estimate`: the value rests on estimated inputs (a run on a layer split's per-stage costs,
 * themselves counted to 6 decimals), so it too is shown at the quote's precision.
 */
export function formatLike(value, quoted, field = '', { estimate = false } = {}) {
  const shape = quoted ? quotedShape(quoted) : null;
  if (shape) {
    if (shape.percent) return formatPercent(value, shape.decimals);
    // A quantity in a unit (bytes, parameters) is an estimate, shown at the quote's precision.
    if (shape.unit) return `${(value / shape.scale).toFixed(shape.decimals)}${shape.unit}`;
    if (estimate) return value.toFixed(shape.decimals);
    return value.toFixed(Math.max(shape.decimals, simDecimals(value)));
  }
  if (/(fraction|utilization)$/i.test(field)) return formatPercent(value, 1);
  return formatNumber(value, 6);
}

/** Reads a dotted path ("bubble.max") from a result object; undefined when absent. */
export function readPath(object, path) {
  return String(path)
    .split('.')
    .filter(Boolean)
    .reduce((node, key) => (node == null ? undefined : node[key]), object);
}

