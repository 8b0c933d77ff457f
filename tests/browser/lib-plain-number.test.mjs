// web/js/lib/plain-number.js under Node: numbers as a learner reads them, never in e-notation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plainNumber, countWords } from '../../web/js/lib/plain-number.js';
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
