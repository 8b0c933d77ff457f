// web/js/lib/i18n.js under Node: every UI string exists in Hindi too, and placeholders fill.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { translator, missingKeys, STRINGS } from '../../web/js/lib/i18n.js';

test('Hindi has every UI string that English has', () => {
  assert.deepEqual(missingKeys('hi'), []);
});

test('placeholders are filled, unknown keys come back as themselves', () => {
  const t = translator('en');
  assert.equal(t('tl.readout', { t: 5, end: 66 }), 't = 5 of 66');
  assert.equal(translator('hi')('tl.readout', { t: 5, end: 66 }), 't = 5 / 66');
  assert.equal(t('no.such.key'), 'no.such.key');
  assert.equal(translator('fr')('nav.lesson'), 'Lesson');
});

test('every placeholder used in English also appears in the Hindi string', () => {
  for (const [key, en] of Object.entries(STRINGS.en)) {
    const hi = STRINGS.hi[key];
    if (!hi) continue;
    const names = (s) => (s.match(/\{\w+\}/g) || []).sort();
    assert.deepEqual(names(hi), names(en), key);
  }
});
