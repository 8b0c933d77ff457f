// What core says in prose: the planner's reasoning steps, reject and refusal messages, kernel
// advice and rollback trigger, and the trace reader's derivations, in the page's language, from
// the phrase's id and params (never from its English text). English is the phrase's template
// from core's catalogue (`planTexts`, core's pipesim/plan_texts.h); another language's is the
// same id in its message catalogue (web/locales/<code>.json, loaded by i18n.js loadLanguage),
// with the same placeholders. Every template is a whole message; a phrase whose words depend on
// a count is a plural family (rows `<id>.one` and `<id>.other` in core, a phrase of id `<id>`
// with the count as {n}): each language says it in the form its CLDR rules pick for n
// (Intl.PluralRules), its catalogue holding exactly its language's forms. A placeholder may name
// a format after a colon, written here exactly as core writes it, so English rendered here is
// core's own text. DOM-free.
import CATALOGUE from '../../generated/catalogue.js';
import { catalogueText } from './i18n.js';
import { DEFAULT_LANG } from './locales.js';
import { scheduleTitle } from './schedules.js';
import { formatFixed, formatSignificant } from './format.js';

const ENGLISH = new Map(CATALOGUE.planTexts.map((text) => [text.id, text.message]));
const PLACEHOLDER = /\{(\w+)(?::(\w+))?\}/g;
const SCALES = [[1e12, 'T'], [1e9, 'B'], [1e6, 'M']];

const PLURAL_RULES = new Map(); // lang -> Intl.PluralRules
const pluralRules = (lang) => {
  if (!PLURAL_RULES.has(lang)) PLURAL_RULES.set(lang, new Intl.PluralRules(lang));
  return PLURAL_RULES.get(lang);
};

/** Whether `id` names a plural family of core's phrases (rows `<id>.one`, `<id>.other`). */
export const isPluralFamily = (id) => !ENGLISH.has(id) && ENGLISH.has(`${id}.other`);

/**
 * The template of phrase `id` in `lang` (English when the language has none), or null; for a
 * plural family, the form `lang`'s rules pick for `params.n` (`.other` when its catalogue lacks
 * that form).
 */
export function planTemplate(id, lang = DEFAULT_LANG, params = {}) {
  if (!isPluralFamily(id)) return catalogueText(lang, id) ?? ENGLISH.get(id) ?? null;
  const own = catalogueText(lang, `${id}.other`) !== undefined;
  const form = `${id}.${pluralRules(own ? lang : DEFAULT_LANG).select(Number(params.n))}`;
  if (own) return catalogueText(lang, form) ?? catalogueText(lang, `${id}.other`);
  return ENGLISH.get(form) ?? ENGLISH.get(`${id}.other`);
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
 * names as the page titles them, a sentence said inside another from its own template. Null for an
 * id this page has no template for (a newer core): the caller shows core's English instead.
 */
export function planText(phrase, t) {
  const params = phrase?.params || {};
  const template = phrase?.id ? planTemplate(phrase.id, t?.lang ?? DEFAULT_LANG, params) : null;
  if (template === null) return null;
  return template.replace(PLACEHOLDER, (whole, name, format = '') => (name in params ? paramText(params[name], format, t) : whole));
}
