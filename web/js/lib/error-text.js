// The words a learner reads for a SimError, in the page's language, built from the error's rule
// id and params (never from its English text): English is the rule's template from core's
// catalogue, another language's is `rule.<id>` in its message catalogue (web/locales/<code>.json,
// loaded by i18n.js loadLanguage), with the same {placeholders}, and the input fields it names are
// `fieldName.<name>` there. Numbers are written as core writes them (C's %.15g), so the English
// rendering is exactly core's message. An error without a rule (a load failure, a plain Error)
// keeps its own message. DOM-free.
import CATALOGUE from '../../generated/catalogue.js';
import { catalogueText } from './i18n.js';
import { DEFAULT_LANG } from './locales.js';
import { scheduleInfo } from './schedules.js';
import { formatSignificant } from './format.js';

const ENGLISH = new Map(CATALOGUE.rules.map((rule) => [rule.id, rule.message]));
// Params that name an input field (ranks, costs.forward): said in the page's words where it has them.
const FIELD_PARAMS = new Set(['field', 'target', 'other']);

/**
 * The input fields the page labels in its own words when a message names them (every catalogue
 * but English has `fieldName.<name>` for each; the symbol stays beside a cost, as on the form).
 * Any other name, and every name in English, is shown as core writes it.
 */
export const NAMED_FIELDS = Object.freeze(['ranks', 'microbatches', 'schedule', 'costs.forward', 'costs.backward',
  'costs.weight', 'costs.overlapped', 'costs.p2pLatency', 'costs.comm.ratio', 'costs.comm.attnShare', 'costs.comm.layers']);

/** `x` as C's printf("%.15g") writes it, as core writes numbers in its messages. */
export const formatG15 = (x) => formatSignificant(x, 15);

/** The template of rule `id` in `lang` (English when the language has none), or null. */
export function ruleTemplate(id, lang = DEFAULT_LANG) {
  return catalogueText(lang, `rule.${id}`) ?? ENGLISH.get(id) ?? null;
}

/** The {placeholder} names of a template, in order of first use. */
export function placeholders(template) {
  return [...new Set([...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))];
}

/**
 * One param of `error` as text in `lang`: numbers like core; in another language than core's,
 * field names in the page's words, a schedule by its title (DualPipe, not dualpipe), and the
 * message of a wrapped error (csv.schedule's {detail}, whose English is the inner error's message)
 * said from the inner rule's own template, which core sends structured as `cause`.
 */
function paramText(name, value, lang, error) {
  if (typeof value === 'number') return formatG15(value);
  const text = String(value);
  if (lang === DEFAULT_LANG) return text;
  if (name === 'detail' && error.cause?.rule && ruleTemplate(error.cause.rule, lang)) return errorText(error.cause, lang);
  if (FIELD_PARAMS.has(name) && NAMED_FIELDS.includes(text)) return catalogueText(lang, `fieldName.${text}`) ?? text;
  if (name === 'schedule') return scheduleInfo(text)?.title ?? text;
  return text;
}

/** `error`'s message in `lang`, from its rule and params; its own message when it has no rule. */
export function errorText(error, lang = DEFAULT_LANG) {
  if (error === null || error === undefined) return '';
  if (typeof error !== 'object') return String(error);
  const template = error.rule ? ruleTemplate(error.rule, lang) : null;
  if (!template) return String(error.message ?? error);
  const params = error.params || {};
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? paramText(name, params[name], lang, error) : whole));
}

/** A copy of `error` with its message in `lang` (for errorBox), keeping code, path and rule. */
export function localizedError(error, lang = DEFAULT_LANG) {
  if (!error || typeof error !== 'object') return error;
  return { code: error.code, path: error.path ?? '', rule: error.rule, message: errorText(error, lang) };
}
