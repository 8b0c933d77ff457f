// Where a published bubble formula holds, in words in the page's language, from core's catalogue
// data (a schedule's reference.region: alternatives of clauses, clauses that always hold, and a
// note), never from core's English condition text: on a Hindi page it reads in Hindi. The
// formulas' symbols (F, B, W, F&B, PP, M) stay as the lesson writes them; the rest are words.
// DOM-free.
import { DEFAULT_LANG } from './locales.js';

/** Symbols said in words (the others are the formulas' own, as the lesson uses them). */
const WORDED = new Set(['p2pLatency', 'ranks']);
const OPS = { '=': '=', '<=': '≤', '>=': '≥' };

/** A symbol or expression as the lesson writes it: "B-W" -> "B − W", "max(F,B)" -> "max(F, B)". */
function expression(text, t) {
  if (WORDED.has(text)) return t(`ref.sym.${text}`);
  return String(text).replace(/,/g, ', ').replace(/(\w)([-+])(\w)/g, (m, a, op, b) => `${a} ${op === '-' ? '−' : '+'} ${b}`);
}

function clause({ left, op, right }, t) {
  // Core's clause for equal stages (stageCosts = equal) is a sentence of its own.
  if (left === 'stageCosts') return t('ref.equalStages');
  // A worded quantity reads as a sentence ("the link latency is 0"), a formula's as an equation.
  if (WORDED.has(left) && op === '=') return t('ref.is', { x: expression(left, t), v: expression(right, t) });
  return `${expression(left, t)} ${OPS[op] ?? op} ${expression(right, t)}`;
}

/** Clauses that all hold, as the language writes a list: "a, b, and c" (t.list). */
const list = (clauses, t) => t.list(clauses.map((c) => clause(c, t)));

/**
 * Alternatives, each a list of clauses, one of which holds: "a; or b", "a; b; or c" (whole
 * messages, since an alternative's own list has commas). More than three would read "a; or b;
 * or c; or d" (core's regions have at most three).
 */
function either(alternatives, t) {
  if (alternatives.length === 3) {
    const [a, b, c] = alternatives;
    return t('ref.any3', { a, b, c });
  }
  return alternatives.reduce((a, b) => t('ref.any2', { a, b }));
}

/**
 * The region `region` ({any: [[clause]], all: [clause], note: {id, text} | null}) in words: the
 * alternatives joined by "or", then what always holds, then the note (the page's own words for its
 * id in a language that has them, else core's English text).
 */
export function regionText(region, t) {
  if (!region) return '';
  const alternatives = (region.any ?? []).map((alternative) => list(alternative, t));
  const any = alternatives.length ? either(alternatives, t) : '';
  const all = (region.all ?? []).length ? list(region.all, t) : '';
  const text = any && all ? t('ref.whenAll', { any, all }) : any || all;
  if (!region.note) return text;
  const key = `ref.note.${region.note.id}`;
  const note = t.lang !== DEFAULT_LANG && t(key) !== key ? t(key) : region.note.text;
  return t('ref.withNote', { text, note });
}
