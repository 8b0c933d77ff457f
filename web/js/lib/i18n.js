// The page's words in every language the lab speaks, from the message catalogues (web/locales/
// <code>.json: flat key -> text, one per language, with {name} placeholders), which the build
// turns into modules (scripts/build-site.mjs, generated/strings/). English is always here; another
// language is loaded on demand (loadLanguage), so a page fetches only its own catalogue. A
// catalogue holds the UI strings and, in every language but English, core's error-rule templates
// (`rule.<id>`), the planner's phrases (`plan.*`), field names (`fieldName.<name>`) and the
// exercises' and quiz's texts (`exercise.*`, `quiz.*`: lib/content-text.js), whose English stays
// in core's catalogue and in the lesson's data files. A key a catalogue lacks falls back to
// English (tests/browser/lib-i18n.test.mjs checks that none does). DOM-free.
import EN from '../../generated/strings/i18n-en.js';
import { PACKS } from '../../generated/strings/packs.js';
import { DEFAULT_LANG, localeOf } from './locales.js';
import { numberLocale } from './format.js';
import { isolateValue, isolateTemplate } from './bidi.js';

/** The isolates a right-to-left language's messages carry (lib/bidi.js), for tests comparing text. */
export { FSI, RLI, PDI, withoutIsolates } from './bidi.js';

/** Every loaded catalogue by language: English from the start, the others once loaded. */
export const STRINGS = { [DEFAULT_LANG]: EN };

/**
 * What a reader of a language is told in it when its catalogue fails to load, beside the English
 * (page.langFailed, page.langRetry, with {language} to fill): it cannot come from the catalogue
 * that failed, so the build copies each language's two strings into a small table loaded with
 * the English.
 */
export { LOAD_FAILED } from '../../generated/strings/langs.js';

const loaded = new Map(); // lang -> Promise<void>

/**
 * Loads the strings of `lang` (English is always there; an unknown language resolves as English).
 * A page awaits this before translator(lang): until then a language falls back to English.
 */
export function loadLanguage(lang) {
  if (!PACKS[lang]) return Promise.resolve();
  if (!loaded.has(lang)) {
    loaded.set(lang, PACKS[lang]().then((module) => {
      STRINGS[lang] = module.default;
    }));
    loaded.get(lang).catch(() => loaded.delete(lang)); // a failed fetch is retried next time
  }
  return loaded.get(lang).then(() => undefined);
}

/** Whether translator(lang) speaks `lang` yet (English always does; a language without a catalogue never will). */
export const isLoaded = (lang) => Boolean(STRINGS[lang]) || !PACKS[lang];

/**
 * The text of `key` in `lang`'s own catalogue (no English fallback), or undefined: for texts whose
 * English is not in the catalogues (core's rule templates and planner phrases, the exercises').
 */
export const catalogueText = (lang, key) => (lang === DEFAULT_LANG ? undefined : STRINGS[lang]?.[key]);

/**
 * A translator for `lang`: t('key', {name: value}). A key its catalogue lacks is said in English;
 * an unknown key comes back as itself. A language not loaded (or without a catalogue) is English.
 */
export function translator(lang) {
  const own = STRINGS[lang];
  const table = own || STRINGS[DEFAULT_LANG];
  const spoken = own ? lang : DEFAULT_LANG;
  // In a right-to-left language the Latin and maths of a message keep their own order inside the
  // sentence (lib/bidi.js): each placeholder's value with Latin letters is isolated, and so is each
  // run of the template's own ("TP {tp} × PP {pp}", "{w} B"). Not in the pieces t.sentences and
  // t.series run on: each is already a sentence or item of the language.
  const rtl = localeOf(spoken)?.dir === 'rtl';
  const isolate = rtl ? isolateValue : String;
  const templates = new Map(); // key -> its template with its own runs isolated
  const templateOf = (key) => {
    const template = table[key] ?? STRINGS[DEFAULT_LANG][key];
    if (template === undefined) return key;
    if (!rtl) return template;
    if (!templates.has(key)) templates.set(key, isolateTemplate(template));
    return templates.get(key);
  };
  const fill = (key, vars, value) => templateOf(key).replace(/\{(\w+)\}/g, (m, name) => (name in vars ? value(vars[name]) : m));
  const t = (key, vars = {}) => fill(key, vars, isolate);
  t.lang = spoken;  // for texts that do not come from this table (simulator messages)
  /** `text` isolated as a placeholder's value is (in a right-to-left language only): for a formula built in code. */
  t.isolate = (text) => isolate(String(text));
  /** Whether this language's own catalogue has `key` (English always has its own). */
  t.has = (key) => Object.hasOwn(table, key);
  const rules = new Intl.PluralRules(t.lang);
  const numbers = new Intl.NumberFormat(numberLocale(t.lang));
  /** `x` as the language writes a number (its decimal sign and digit grouping: Intl.NumberFormat; Western digits: lib/format.js). */
  t.number = (x, options) => (options ? new Intl.NumberFormat(numberLocale(t.lang), options) : numbers).format(x);
  /**
   * `items` as the language writes a list in a sentence (Intl.ListFormat): 'conjunction'
   * "a, b and c", 'disjunction' "a, b or c". (Not 'unit': Chinese writes that without separators.)
   */
  t.list = (items, type = 'conjunction') => new Intl.ListFormat(t.lang, { type }).format(items.map(String));
  /**
   * Whole sentences, each already ending in its full stop, one after another as the language
   * runs them on (`text.sentences`: a space, none in Chinese); empty ones are left out. Never for
   * pieces of one sentence: those are one message, or a list (t.list).
   */
  t.sentences = (...texts) => {
    const said = texts.filter(Boolean);
    return said.length ? said.reduce((first, next) => fill('text.sentences', { first, next }, String)) : '';
  };
  /**
   * Items that each hold commas of their own ("m = 8: T_F 1, T_B 2"), one after another as the
   * language separates them (`text.series`: "; ", Arabic "؛ ", Chinese "；"), where t.list's
   * commas would blur which item a comma belongs to. Empty ones are left out.
   */
  t.series = (items) => {
    const said = items.filter(Boolean).map(String);
    return said.length ? said.reduce((first, next) => fill('text.series', { first, next }, String)) : '';
  };
  /**
   * The plural form of `key` for the count `n`: `key.<category>` by the language's CLDR rules
   * (Intl.PluralRules: English one/other, Hindi counts 0 and 1 as one, Spanish one/many/other,
   * Chinese other only; a catalogue carries exactly its language's categories), with {n} filled
   * in as the language writes the number. A form the catalogue lacks falls back to `key.other`.
   */
  t.plural = (key, n, vars = {}) => {
    const form = `${key}.${rules.select(Number(n))}`;
    return t(Object.hasOwn(table, form) ? form : `${key}.other`, { n: numbers.format(Number(n)), ...vars });
  };
  return t;
}

/**
 * Keys of the English UI strings that `lang`'s catalogue lacks (all of them when it is not
 * loaded); a plural form of a category the language does not have is not lacking.
 */
export function missingKeys(lang) {
  const english = STRINGS[DEFAULT_LANG];
  const table = STRINGS[lang] ?? {};
  const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
  return Object.keys(english).filter((key) => {
    if (Object.hasOwn(table, key)) return false;
    const form = /^(.*)\.(zero|one|two|few|many|other)$/.exec(key);
    return !(form && Object.hasOwn(english, `${form[1]}.other`) && !categories.includes(form[2]));
  });
}
