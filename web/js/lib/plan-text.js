// What core says in prose: the planner's reasoning steps, reject and refusal messages, kernel
// advice and rollback trigger, and the trace reader's derivations, in the page's language, from
// the phrase's id and params (never from its English text). English is the phrase's template
// from core's catalogue (`planTexts`, core's pipesim/plan_texts.h); another language's is the
// same id in its message catalogue (web/locales/<code>.json, loaded by i18n.js loadLanguage),
// with the same placeholders, and its numbers in that language's form (English's are core's
// own printf forms, so English rendered here is core's text). Every template is a whole message; a phrase whose words depend on
// a count is a plural family (rows `<id>.one` and `<id>.other` in core, a phrase of id `<id>`
// with the count as {n}): each language says it in the form its CLDR rules pick for n
// (Intl.PluralRules), its catalogue holding exactly its language's forms. A placeholder may name
// a format after a colon, written here as core writes it. DOM-free.
import CATALOGUE from '../../generated/catalogue.js';
import { catalogueText } from './i18n.js';
import { DEFAULT_LANG } from './locales.js';
import { scheduleTitle } from './schedules.js';
import { decimalSign, formatFixed, formatPercent, formatSignificant } from './format.js';

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
 * English is exactly core's printf text; another language has the same digits (rounded as printf
 * rounds, so every language says the same number) with its own decimal sign and percent form.
 */
export function planNumber(value, format = '', lang = DEFAULT_LANG) {
  const english = !lang || lang === DEFAULT_LANG;
  const local = (text) => (english || /e/.test(text) ? text : text.replace('.', decimalSign(lang)));
  const fixed = /^[fk](\d)$/.exec(format);
  if (format.startsWith('f') && fixed) return local(formatFixed(value, Number(fixed[1])));
  if (format.startsWith('k') && fixed) return `${local(formatFixed(value / 1e3, Number(fixed[1])))}K`;
  if (format === 'pct') {
    const percent = formatFixed(100 * value, 2);
    return english ? `${percent}%` : formatPercent(Number(percent) / 100, 2, lang);
  }
  if (format === 'si') {
    const [scale, unit] = SCALES.find(([s]) => value >= s) ?? [1, ''];
    return `${local(formatSignificant(value / scale, 4))}${unit}`;
  }
  return local(formatSignificant(value, 15));
}

function paramText(value, format, t) {
  if (typeof value === 'number') return planNumber(value, format, t?.lang);
  if (Array.isArray(value)) {
    const said = value.map((phrase) => planText(phrase, t));
    return t?.series ? t.series(said) : said.join('; ');
  }
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
