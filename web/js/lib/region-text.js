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

/** Clauses joined as a list: "a, b and c". */
function list(clauses, t) {
  const said = clauses.map((c) => clause(c, t));
  return said.length < 2 ? said.join('') : `${said.slice(0, -1).join(', ')}${t('ref.and')}${said[said.length - 1]}`;
}

/**
 * The region `region` ({any: [[clause]], all: [clause], note: {id, text} | null}) in words: the
 * alternatives joined by "or", then what always holds, then the note (the page's own words for its
 * id in a language that has them, else core's English text).
 */
export function regionText(region, t) {
  if (!region) return '';
  const any = (region.any ?? []).map((alternative) => list(alternative, t)).join(t('ref.or'));
  const all = list(region.all ?? [], t);
  let text = any && all ? t('ref.whenAll', { any, all }) : any || all;
  if (region.note) {
    const key = `ref.note.${region.note.id}`;
    const note = t.lang !== DEFAULT_LANG && t(key) !== key ? t(key) : region.note.text;
    text += ` (${note})`;
  }
  return text;
}
