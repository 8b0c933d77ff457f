// Left-to-right text inside a right-to-left sentence (Arabic), kept in its own order with Unicode
// isolates (UAX #9: FSI/RLI ... PDI). Without them the bidi algorithm lays out a formula, a unit
// after a number or a schedule's name by the Arabic around it: "W <= F" is drawn "F => W",
// "2 B" as "B 2", "2048 / 64 = 32" backwards. lib/i18n.js applies both helpers to the messages of
// a right-to-left language: isolateValue to each placeholder's value, isolateTemplate to the
// Latin and maths its template writes itself ("ZeRO-{zero}", "TP {tp} × PP {pp}", "{w} B").
// DOM-free.

/** First strong isolate, right-to-left isolate and pop directional isolate. */
export const FSI = '\u2068';
export const RLI = '\u2067';
export const PDI = '\u2069';

// (With the tatweel, U+0640, which Unicode counts as common to scripts: "لـ{schedule}".)
const RTL_SCRIPTS = String.raw`\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\u0640`;
const RTL_LETTER = new RegExp(`[${RTL_SCRIPTS}]`, 'u');
const LTR = String.raw`(?:(?![${RTL_SCRIPTS}])\p{L})`;
const LTR_LETTER = new RegExp(LTR, 'u');

/**
 * A placeholder's value as a right-to-left sentence embeds it: with left-to-right letters,
 * isolated (FSI); in the sentence's own script (a nested message), isolated right to left (RLI),
 * whatever word it starts with; a bare number as it is (the bidi algorithm keeps it in place, and
 * beside Latin in the template, "ZeRO-{zero}", it stays with it where an isolate would move away).
 */
export function isolateValue(value) {
  const text = String(value);
  if (RTL_LETTER.test(text)) return `${RLI}${text}${PDI}`;
  return LTR_LETTER.test(text) ? `${FSI}${text}${PDI}` : text;
}

// A run of the template's own left-to-right text: words, numbers and placeholders, joined by
// spaces, operators and brackets; never across the sentence's own letters or punctuation (، ؛ :).
const TOKEN = String.raw`(?:\{\w+\}|${LTR}|[0-9])(?:\{\w+\}|${LTR}|[0-9]|[._\-/&%'’]|,(?=[0-9]))*`;
const RUN = new RegExp(String.raw`(?<![\u2066-\u2069])${TOKEN}(?:[ \u00a0=×+−<>≤≥*^()]+${TOKEN})*\)*`, 'gu');
const OPERATOR = /[=×+−<>≤≥/]/;

/** `run` cut before a bracket it does not close, and without a closing bracket it did not open. */
function balanced(run) {
  let depth = 0;
  for (let i = 0; i < run.length; i++) {
    if (run[i] === '(') depth++;
    else if (run[i] === ')' && --depth < 0) return run.slice(0, i);
  }
  return depth > 0 ? run.slice(0, run.lastIndexOf('(', run.length)) : run;
}

/**
 * `template` (a message with {placeholders}) with each run of its own left-to-right text isolated:
 * a run with a Latin letter of the template's own, or a formula (an operator between numbers or
 * placeholders). A run that is one placeholder alone is left to isolateValue.
 */
export function isolateTemplate(template) {
  return template.replace(RUN, (match) => {
    let run = match;
    // Unbalanced brackets stay outside (the sentence's own), as do trailing spaces and full stops.
    for (let before = ''; before !== run;) { before = run; run = balanced(run).replace(/[ \u00a0(._\-/&%'’]+$/u, ''); }
    const own = run.replace(/\{\w+\}/g, '');
    const isolate = LTR_LETTER.test(own) || (OPERATOR.test(own) && /[0-9}]\s*[=×+−<>≤≥/]\s*[0-9{]/.test(run));
    return isolate ? `${FSI}${run}${PDI}${match.slice(run.length)}` : match;
  });
}

/** `text` without isolates: for comparing text. */
export const withoutIsolates = (text) => String(text).replace(/[\u2066-\u2069]/g, '');
