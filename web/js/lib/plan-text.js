// What the planner says (its reasoning steps, reject and refusal messages, kernel advice and
// rollback trigger), in the page's language, from the phrase's id and params (never from its
// English text). English is the phrase's template from core's catalogue (`planTexts`, core's
// pipesim/plan_texts.h); another language's is the same id in its message catalogue
// (web/locales/<code>.json, loaded by i18n.js loadLanguage), with the same placeholders. A placeholder may name a format after a colon,
// written here exactly as core writes it, so English rendered here is core's own text. DOM-free.
import CATALOGUE from '../../generated/catalogue.js';
import { catalogueText } from './i18n.js';
import { DEFAULT_LANG } from './locales.js';
import { scheduleTitle } from './schedules.js';
import { formatFixed, formatSignificant } from './format.js';

const ENGLISH = new Map(CATALOGUE.planTexts.map((text) => [text.id, text.message]));
const PLACEHOLDER = /\{(\w+)(?::(\w+))?\}/g;
const SCALES = [[1e12, 'T'], [1e9, 'B'], [1e6, 'M']];

/** The template of phrase `id` in `lang` (English when the language has none), or null. */
export function planTemplate(id, lang = DEFAULT_LANG) {
  return catalogueText(lang, id) ?? ENGLISH.get(id) ?? null;
}

/** The placeholder names of a plan template, without their formats, in order of first use. */
export function planPlaceholders(template) {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]))];
}

/**
 * `value` in the placeholder format `format` (plan_texts.h): "" %.15g, f0-f2 fixed decimals,
 * pct a fraction as a percentage with two decimals, si %.4g with T/B/M, k0/k1 thousands with K.
 */
export function planNumber(value, format = '') {
  const fixed = /^[fk](\d)$/.exec(format);
  if (format.startsWith('f') && fixed) return formatFixed(value, Number(fixed[1]));
  if (format.startsWith('k') && fixed) return `${formatFixed(value / 1e3, Number(fixed[1]))}K`;
  if (format === 'pct') return `${formatFixed(100 * value, 2)}%`;
  if (format === 'si') {
    const [scale, unit] = SCALES.find(([s]) => value >= s) ?? [1, ''];
    return `${formatSignificant(value / scale, 4)}${unit}`;
  }
  return formatSignificant(value, 15);
}

function paramText(value, format, t) {
  if (typeof value === 'number') return planNumber(value, format);
  if (Array.isArray(value)) return value.map((phrase) => planText(phrase, t)).join('; ');
  return format === 'title' ? scheduleTitle(value, t) : String(value);
}

/**
 * `phrase` ({id, params}) in the language of translator `t` (English without one): schedule
 * names as the page titles them, clauses and lists said from their own templates. Null for an
 * id this page has no template for (a newer core): the caller shows core's English instead.
 */
export function planText(phrase, t) {
  const template = phrase?.id ? planTemplate(phrase.id, t?.lang ?? DEFAULT_LANG) : null;
  if (template === null) return null;
  const params = phrase.params || {};
  return template.replace(PLACEHOLDER, (whole, name, format = '') => (name in params ? paramText(params[name], format, t) : whole));
}
