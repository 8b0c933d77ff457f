// web/js/lib/plain-number.js under Node: numbers as a learner reads them, never in e-notation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plainNumber, countWords, scaleWords } from '../../web/js/lib/plain-number.js';
import { parseAnswer, usesDecimalComma } from '../../web/js/lib/answer-parse.js';
import { LANGS } from '../../web/js/lib/locales.js';
import { translator, loadLanguage } from '../../web/js/lib/i18n.js';

test('significant digits without an exponent, however small or large', () => {
  assert.equal(plainNumber(0.19323), '0.1932');
  assert.equal(plainNumber(0.000012345), '0.00001235');
  assert.equal(plainNumber(3e9), '3000000000');
  assert.equal(plainNumber(2.5), '2.5');
  assert.equal(plainNumber(-0.05), '-0.05');
});

test('counts in words: DeepSeek-V3\'s 671,026,... parameters, 14.8T tokens, in English and Hindi', async () => {
  const en = translator('en');
  assert.equal(countWords(671026000000, en), '671.026 billion');
  assert.equal(countWords(14.8e12, en), '14.8 trillion');
  assert.equal(countWords(8819213312, en, 4), '8.819 billion');
  assert.equal(countWords(2048, en), '2048');
  await loadLanguage('hi');
  assert.equal(countWords(671026000000, translator('hi')), '671.026 बिलियन');
  assert.equal(countWords(14.8e12, translator('hi')), '14.8 ट्रिलियन');
});

test('in every language the lab speaks, a count in its words reads back as the same number (the planner\'s fields)', async () => {
  for (const lang of LANGS) {
    await loadLanguage(lang);
    const t = translator(lang);
    assert.equal(t.lang, lang);
    for (const value of [671026000000, 14.8e12, 8819213312, 37e9, 2.5e6, 2048]) {
      const text = countWords(value, t, 15);
      const parsed = parseAnswer(text, 'params', { scales: scaleWords(t), decimalComma: usesDecimalComma(lang) });
      assert.ok(parsed.ok, `${lang}: "${text}" ${JSON.stringify(parsed)}`);
      assert.equal(Number(parsed.value.toPrecision(15)), value, `${lang}: "${text}"`);
    }
  }
  // A page's own words only: Spanish "billones" (10^12) is not read on an English page.
  assert.equal(parseAnswer('14.8 billones', 'params').ok, false);
});
