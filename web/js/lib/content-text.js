// The texts a learner reads in the lesson's data files (lessons/exercises/<id>.json, lessons/
// quiz.json), which are written in English only: which of their strings are text, the catalogue
// key of each (`exercise.<id>.<path>`, `quiz.<path>`: the JSON path joined with '.', array
// indices as numbers), and a copy of a file with its texts in the page's language. Everything
// else in those files (ids, quantities, calculator names, CLI lines) is data and never
// translated. tests/browser/lib-i18n.test.mjs checks that every catalogue has every key. DOM-free.
import { DEFAULT_LANG } from './locales.js';

/** Keys whose string value is text a learner reads. */
const TEXT_FIELDS = new Set(['title', 'prompt', 'hint', 'solution', 'label', 'question', 'explanation']);
/** Keys whose value is a list of texts (an answer's choices, a question's options). */
const TEXT_LISTS = new Set(['choices', 'options']);

/** The catalogue key prefix of an exercise definition or of the quiz. */
export const exercisePrefix = (definition) => `exercise.${definition.id}`;
export const QUIZ_PREFIX = 'quiz';

/** Calls visit(key, text, replace) for every text of `data`, keys under `prefix`. */
function walk(data, prefix, visit) {
  const step = (node, path) => {
    if (Array.isArray(node)) node.forEach((child, i) => step(child, `${path}.${i}`));
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        const at = `${path}.${key}`;
        if (typeof value === 'string' && TEXT_FIELDS.has(key)) visit(at, value, (text) => { node[key] = text; });
        else if (Array.isArray(value) && TEXT_LISTS.has(key) && value.every((v) => typeof v === 'string')) {
          value.forEach((text, i) => visit(`${at}.${i}`, text, (next) => { value[i] = next; }));
        } else step(value, at);
      }
    }
  };
  step(data, prefix);
}

/** Every text of `data` as [key, English text], in file order. */
export function contentTexts(data, prefix) {
  const texts = [];
  walk(data, prefix, (key, text) => texts.push([key, text]));
  return texts;
}

/**
 * A deep copy of `data` with every text in the language of translator `t` where its catalogue
 * has one (t.has), else as the file writes it (English).
 */
export function localizeContent(data, prefix, t) {
  const copy = structuredClone(data);
  if (!t || t.lang === DEFAULT_LANG) return copy;
  walk(copy, prefix, (key, text, replace) => { if (t.has(key)) replace(t(key)); });
  return copy;
}
