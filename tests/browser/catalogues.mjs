// What every message catalogue (web/locales/<code>.json) must hold, read from the sources each
// kind of text comes from, for the tests that check the catalogues (lib-i18n, lib-error-text,
// lib-plan-text, tests/lessons/lesson-claims): the languages are the catalogue files themselves,
// so a catalogue that lands is checked with no list to edit. Node only.
import { readFileSync, readdirSync } from 'node:fs';
import CATALOGUE from '../../web/generated/catalogue.js';
import { NAMED_FIELDS } from '../../web/js/lib/error-text.js';
import { contentTexts, exercisePrefix, QUIZ_PREFIX } from '../../web/js/lib/content-text.js';

const root = new URL('../../', import.meta.url);
const readJson = (file) => JSON.parse(readFileSync(new URL(file, root), 'utf8'));

/** The languages with a catalogue besides English, by their files. */
export const TRANSLATED = readdirSync(new URL('web/locales/', root))
  .filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).filter((code) => code !== 'en').sort();

/** `code`'s catalogue as written (English's holds the UI strings only). */
export const catalogue = (code) => readJson(`web/locales/${code}.json`);

/** `{name}` and `{name:format}` placeholders of a text, as a sorted list without repeats. */
export const placeholderSet = (text) => [...new Set([...text.matchAll(/\{(\w+(?::\w+)?)\}/g)].map((m) => m[1]))].sort();

const PLURAL = /\.(zero|one|two|few|many|other)$/;

/**
 * Every source text, key -> English: the UI strings (en.json), core's rule templates (`rule.<id>`)
 * and its phrases, the planner's and the trace reader's (their ids; a plural family as its forms), the field names messages name (`fieldName.<name>`: English
 * writes the name as core does), and the exercises' and the quiz's texts.
 */
export function sourceTexts() {
  const texts = new Map(Object.entries(catalogue('en')));
  for (const rule of CATALOGUE.rules) texts.set(`rule.${rule.id}`, rule.message);
  for (const phrase of CATALOGUE.planTexts) texts.set(phrase.id, phrase.message);
  for (const name of NAMED_FIELDS) texts.set(`fieldName.${name}`, name);
  const dir = new URL('lessons/exercises/', root);
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const definition = JSON.parse(readFileSync(new URL(file, dir), 'utf8'));
    for (const [key, text] of contentTexts(definition, exercisePrefix(definition))) texts.set(key, text);
  }
  for (const [key, text] of contentTexts(readJson('lessons/quiz.json'), QUIZ_PREFIX)) texts.set(key, text);
  return texts;
}

/** The plural families of the source: keys with `.one` and `.other` forms, without the form. */
export function pluralFamilies(texts = sourceTexts()) {
  return new Set([...texts.keys()].filter((k) => k.endsWith('.one') && texts.has(k.replace(/one$/, 'other'))).map((k) => k.replace(/\.one$/, '')));
}

/** Keys a catalogue may have beyond the source: its own words for core's region notes (`ref.note.<id>`), else core's English. */
export function optionalKeys() {
  const ids = new Set();
  const walk = (node) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      if (node.note && typeof node.note.id === 'string') ids.add(node.note.id);
      Object.values(node).forEach(walk);
    }
  };
  walk(CATALOGUE);
  return new Set([...ids].map((id) => `ref.note.${id}`));
}

/**
 * The keys `code`'s catalogue must have, key -> English: every source key, a plural family in
 * exactly the CLDR categories of the language (Intl.PluralRules), each form against `.other`'s English.
 */
export function expectedKeys(code) {
  const texts = sourceTexts();
  const families = pluralFamilies(texts);
  const categories = new Intl.PluralRules(code).resolvedOptions().pluralCategories;
  const expected = new Map();
  for (const [key, text] of texts) {
    const family = key.replace(PLURAL, '');
    if (PLURAL.test(key) && families.has(family)) {
      if (key.endsWith('.other')) for (const category of categories) expected.set(`${family}.${category}`, text);
    } else expected.set(key, text);
  }
  return expected;
}
