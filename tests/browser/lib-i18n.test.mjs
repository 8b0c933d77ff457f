// web/js/lib/i18n.js under Node: every UI string exists in Hindi too, and placeholders fill.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { translator, missingKeys, STRINGS, loadLanguage, isLoaded } from '../../web/js/lib/i18n.js';

test('Hindi is not loaded until asked for, and translates once it is', async () => {
  // An English page never fetches the Hindi pack (lib/i18n-hi.js): until loaded, Hindi falls back.
  assert.equal(isLoaded('hi'), false);
  assert.equal(translator('hi').lang, 'en');
  assert.equal(translator('hi')('nav.lesson'), 'Lesson');
  await loadLanguage('hi');
  assert.equal(isLoaded('hi'), true);
  assert.equal(translator('hi').lang, 'hi');
  assert.equal(translator('hi')('nav.lesson'), 'पाठ');
});

test('Hindi has every UI string that English has', async () => {
  await loadLanguage('hi');
  assert.deepEqual(missingKeys('hi'), []);
});

test('placeholders are filled, unknown keys come back as themselves', async () => {
  await loadLanguage('hi');
  const t = translator('en');
  assert.equal(t('tl.readout', { t: 5, end: 66 }), 't = 5 of 66');
  assert.equal(translator('hi')('tl.readout', { t: 5, end: 66 }), 't = 5 / 66');
  assert.equal(t('no.such.key'), 'no.such.key');
  assert.equal(translator('fr')('nav.lesson'), 'Lesson');
});

test('every placeholder used in English also appears in the Hindi string', async () => {
  await loadLanguage('hi');
  for (const [key, en] of Object.entries(STRINGS.en)) {
    const hi = STRINGS.hi[key];
    if (!hi) continue;
    const names = (s) => (s.match(/\{\w+\}/g) || []).sort();
    assert.deepEqual(names(hi), names(en), key);
  }
});
