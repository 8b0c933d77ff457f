// web/js/lib/i18n.js and the message catalogues (web/locales/<code>.json) under Node: every
// catalogue has every source key (tests/browser/catalogues.mjs: the UI strings, core's rule
// templates and planner phrases, field names, the exercises' and quiz's texts) with the English
// placeholders, exactly its language's plural categories and nothing else; a language's catalogue
// loads only when asked for; placeholders and plurals fill.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { translator, missingKeys, STRINGS, loadLanguage, isLoaded, catalogueText, LOAD_FAILED, withoutIsolates, FSI, RLI, PDI } from '../../web/js/lib/i18n.js';
import { LOCALES, LANGS } from '../../web/js/lib/locales.js';
import { TRANSLATED, catalogue, expectedKeys, optionalKeys, placeholderSet, pluralFamilies } from './catalogues.mjs';

test('the languages the lab speaks are English and exactly those with a catalogue, each listed in lib/locales.js', () => {
  const files = readdirSync(new URL('../../web/locales/', import.meta.url)).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5));
  for (const code of files) assert.ok(LOCALES.some((l) => l.code === code), `web/locales/${code}.json has no entry in lib/locales.js`);
  assert.deepEqual([...LANGS].sort(), [...files].sort());
  assert.ok(TRANSLATED.includes('hi') && TRANSLATED.length >= 3, `catalogues: ${TRANSLATED}`);
});

test('a language\'s catalogue is not loaded until asked for, and translates once it is', async () => {
  // An English page never fetches another language's catalogue: until loaded, it falls back.
  const code = TRANSLATED.find((c) => !isLoaded(c));
  assert.ok(code);
  assert.equal(translator(code).lang, 'en');
  assert.equal(translator(code)('nav.lesson'), 'Lesson');
  await loadLanguage(code);
  assert.equal(isLoaded(code), true);
  assert.equal(translator(code).lang, code);
  assert.equal(translator(code)('nav.lesson'), catalogue(code)['nav.lesson']);
  assert.notEqual(translator(code)('nav.lesson'), 'Lesson');
});

for (const code of TRANSLATED) {
  test(`${code}: the catalogue has every source key, with the English placeholders, and no other key`, () => {
    const table = catalogue(code);
    const expected = expectedKeys(code);
    const optional = optionalKeys();
    assert.deepEqual([...expected.keys()].filter((key) => !Object.hasOwn(table, key)), [], 'missing');
    assert.deepEqual(Object.keys(table).filter((key) => !expected.has(key) && !optional.has(key)), [], 'extra');
    const families = pluralFamilies();
    for (const [key, text] of Object.entries(table)) {
      assert.equal(typeof text, 'string', key);
      if (!expected.has(key)) continue;
      const want = placeholderSet(expected.get(key));
      const got = placeholderSet(text);
      if (families.has(key.replace(/\.\w+$/, ''))) {
        // A plural form may leave the count out ("one rank"), and must say everything else.
        assert.deepEqual(got.filter((p) => !want.includes(p)), [], `${key}: ${text}`);
        assert.deepEqual(want.filter((p) => p !== 'n' && !got.includes(p)), [], `${key}: ${text}`);
      } else assert.deepEqual(got, want, `${key}: ${text}`);
    }
  });

  test(`${code}: the plural families have exactly the language's plural categories, and t.plural picks them`, async () => {
    await loadLanguage(code);
    const categories = new Intl.PluralRules(code).resolvedOptions().pluralCategories;
    const table = catalogue(code);
    const t = translator(code);
    for (const family of pluralFamilies()) {
      const forms = Object.keys(table).filter((k) => k.startsWith(`${family}.`) && /^\w+$/.test(k.slice(family.length + 1))).map((k) => k.slice(family.length + 1));
      assert.deepEqual(forms.sort(), [...categories].sort(), family);
      // Every count a category covers is said in that category's form, the count as the language writes it.
      for (const n of [0, 1, 2, 3, 5, 11, 21, 1000000]) {
        const category = new Intl.PluralRules(code).select(n);
        const number = new Intl.NumberFormat(code).format(n);
        assert.equal(withoutIsolates(t.plural(family, n)), table[`${family}.${category}`].replaceAll('{n}', number), `${family} ${n}`);
      }
    }
  });

  test(`${code}: what it says when its catalogue fails to load is its own catalogue's`, () => {
    assert.deepEqual(LOAD_FAILED[code], { text: catalogue(code)['page.langFailed'], retry: catalogue(code)['page.langRetry'] });
  });
}

test('every UI string is loaded in every language (missingKeys), and catalogueText has no English fallback', async () => {
  for (const code of TRANSLATED) {
    await loadLanguage(code);
    assert.deepEqual(missingKeys(code), [], code);
    assert.equal(catalogueText(code, 'no.such.key'), undefined);
  }
  assert.equal(catalogueText('en', 'nav.lesson'), undefined, 'English texts outside the UI come from their sources');
  assert.equal(catalogueText('hi', 'nav.lesson'), STRINGS.hi['nav.lesson']);
});

test('placeholders are filled, unknown keys come back as themselves, a language without a catalogue is English', async () => {
  await loadLanguage('hi');
  const t = translator('en');
  assert.equal(t('tl.readout', { t: 5, end: 66 }), 't = 5 of 66');
  assert.equal(translator('hi')('tl.readout', { t: 5, end: 66 }), 't = 5 / 66');
  assert.equal(t('no.such.key'), 'no.such.key');
  assert.equal(translator('fr')('nav.lesson'), 'Lesson');
  assert.equal(translator('fr').lang, 'en');
  // English plurals: one and other; the count as English writes it.
  assert.equal(t.plural('lane.ranks', 1), '1 rank');
  assert.equal(t.plural('lane.ranks', 1200), '1,200 ranks');
});

// A message glued to others in code (" and ", "; or ", "." after a clause) cannot be translated:
// word order, punctuation and script differ (Arabic's "؛", Chinese's "。" with no space after).
// Every message is a whole sentence, a label, or a template of placeholders.
/** Labels that are a sign by design, not a piece of a sentence. */
const SIGN_LABELS = new Set(['col.seq']);
const isFragment = (text) => /^\s|\s$/.test(text) || /^[;:,.،؛。，；、।]/.test(text)
  || (!/\{\w+\}/.test(text) && /^[\s\p{P}]*$/u.test(text));

test('no message is a fragment for code to glue: none starts or ends with a space or a separator, none is punctuation alone', () => {
  // Every message of every catalogue: the page's own, core's rule and planner phrases, the
  // exercises' and the quiz's.
  for (const code of ['en', ...TRANSLATED]) {
    const table = catalogue(code);
    const fragments = Object.keys(table).filter((key) => !SIGN_LABELS.has(key) && isFragment(table[key])).map((key) => [key, table[key]]);
    assert.deepEqual(fragments, [], code);
  }
  // What the rule catches: the old pieces of the memory and region texts.
  for (const piece of [' and ', '; or ', '.', ' (DP = GPUs / (TP × PP))', '; sequence parallelism', '، ', '。']) assert.ok(isFragment(piece), piece);
  for (const whole of ['{a}; or {b}', '{first} {next}', 'Needs: {rules}', '←', 'Source: {source}.']) assert.equal(isFragment(whole), false, whole);
  assert.ok(isFragment('#'), 'a sign alone counts, so a sign label is listed by name');
});

test('t.sentences runs whole sentences on as the language does; t.list joins list items', async () => {
  await loadLanguage('zh');
  await loadLanguage('ar');
  const en = translator('en');
  assert.equal(en.sentences('One.', '', 'Two.', 'Three.'), 'One. Two. Three.');
  assert.equal(en.sentences('', ''), '');
  assert.equal(translator('zh').sentences('一。', '二。'), '一。二。');
  assert.equal(translator('ar').sentences('أ.', 'ب.'), 'أ. ب.');
  assert.equal(en.list(['a', 'b', 'c']), 'a, b, and c');
  assert.equal(en.list(['a', 'b'], 'disjunction'), 'a or b');
  // Items holding commas of their own, with the language's own semicolon between them.
  assert.equal(en.series(['m = 8: a, b', '', 'm = 16: c, d']), 'm = 8: a, b; m = 16: c, d');
  assert.equal(translator('ar').series(['أ، ب', 'ج']), 'أ، ب؛ ج');
  assert.equal(translator('zh').series(['一，二', '三']), '一，二；三');
  assert.equal(en.series([]), '');
});

test('in a right-to-left language a placeholder value with Latin is isolated (FSI ... PDI), so Latin and maths keep their order', async () => {
  await loadLanguage('ar');
  const ar = translator('ar');
  const en = translator('en');
  // "W <= F" inside an Arabic sentence: isolated, it is laid out left to right as one unit.
  assert.ok(ar('url.oneOf', { key: 'theme', allowed: 'W <= F', got: '"x"' }).includes(`${FSI}W <= F${PDI}`));
  assert.equal(withoutIsolates(ar('url.oneOf', { key: 'theme', allowed: 'W <= F', got: '"x"' })),
    catalogue('ar')['url.oneOf'].replace('{key}', 'theme').replace('{allowed}', 'W <= F').replace('{got}', '"x"'));
  // A left-to-right language's text has none; an empty value is left empty; sentences and series
  // are the language's own pieces and are not isolated.
  assert.equal(en('url.oneOf', { key: 'theme', allowed: 'a', got: 'b' }), 'theme must be one of a (got "b")');
  // Arabic inside Arabic is isolated right to left (RLI), even when it starts with a Latin word.
  assert.equal(ar('text.sentences', { first: 'DualPipe: أ.', next: 'ب.' }), catalogue('ar')['text.sentences'].replace('{first}', `${RLI}DualPipe: أ.${PDI}`).replace('{next}', `${RLI}ب.${PDI}`));
  assert.equal(ar.sentences('أ.', 'ب.'), 'أ. ب.');
  // A bare number is not isolated: beside Latin in a template ("ZeRO-{zero}") it stays with it.
  assert.equal(ar.plural('lane.mb', 3), catalogue('ar')[`lane.mb.${new Intl.PluralRules('ar').select(3)}`].replace('{n}', '3'));
  // The template's own Latin and maths are isolated too, with the values they hold.
  assert.ok(ar('mem.a.sharding', { zero: 1, what: 'x', dp: 8 }).startsWith(`${FSI}ZeRO-1${PDI}:`));
  assert.ok(ar('mem.a.layout', { tp: 2, pp: 4, dp: 8, gpus: 64 }).startsWith(`${FSI}TP 2 × PP 4 × DP 8 = 64 GPU${PDI}`));
  assert.equal(ar('no.such.key'), 'no.such.key');
});
