// Every message on the page quotes a value the user gave by one rule (issue 30): state.js's
// quoteValue, which is the JS API's summary() (core's) at the catalogue's summaryBytes. Here the
// exercise fields' messages about an answer they cannot read, which quoted the answer whole.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { quoteValue } from '../../web/js/state.js';
import { parseMessage } from '../../web/js/ui/exercise-fields.js';
import { parseAnswer } from '../../web/js/lib/answer-parse.js';
import { translator } from '../../web/js/lib/i18n.js';
import { summary } from '../../wasm/pipesim.js';
import CATALOGUE from '../../web/generated/catalogue.js';

test('quoteValue is summary() at the catalogue\'s 80 bytes: one line, cut, with the length', () => {
  assert.equal(CATALOGUE.limits.summaryBytes, 80);
  for (const value of ['dualpipe', 'a\nb', 'p'.repeat(100_000), '😀'.repeat(30), 12, null]) {
    assert.equal(quoteValue(value), summary(String(value), 80));
  }
  assert.equal(quoteValue('p'.repeat(100_000)), `${'p'.repeat(62)}... (100000 bytes)`);
});

test('an answer that cannot be read is quoted as a summary in its message', () => {
  const t = translator('en');
  const unitText = `0.5 ${'x'.repeat(50_000)}`;
  const syntaxText = `a\n${'b'.repeat(50_000)}`;
  const unit = parseMessage(parseAnswer(unitText, 'fraction'), unitText, 'fraction', t);
  const syntax = parseMessage(parseAnswer(syntaxText, 'fraction'), syntaxText, 'fraction', t);
  assert.equal(unit, `Unknown unit “${quoteValue('x'.repeat(50_000))}” here. Accepted units: ${new Intl.ListFormat('en').format(['%', 'pp', 'percent', 'प्रतिशत'])}.`);
  assert.ok(syntax.startsWith(`Cannot read “${quoteValue(syntaxText)}” as a number.`), syntax);
  assert.ok(!syntax.includes('\n') && syntax.length < 300, syntax);
});
