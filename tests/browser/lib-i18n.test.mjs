// web/js/lib/i18n.js under Node: every UI string exists in Hindi too, and placeholders fill.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { translator, missingKeys, scheduleConstraints, STRINGS } from '../../web/js/lib/i18n.js';

const NATIVE_CLI = fileURLToPath(new URL('../../build/native/pipesim', import.meta.url));

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

test('every schedule in the simulator catalogue has its shape rules in Hindi, with the same numbers', () => {
  const catalogue = JSON.parse(execFileSync(NATIVE_CLI, ['schedules', '--format', 'json'], { encoding: 'utf8' }));
  assert.ok(catalogue.length >= 6);
  const numbers = (s) => (s.match(/\d+/g) || []).sort();
  for (const info of catalogue) {
    assert.equal(scheduleConstraints('en', info), info.constraints, info.name);
    const hi = scheduleConstraints('hi', info);
    assert.notEqual(hi, info.constraints, `${info.name} has no Hindi shape rules`);
    assert.deepEqual(numbers(hi), numbers(info.constraints), info.name);
  }
  assert.equal(scheduleConstraints('hi', { name: 'future', constraints: 'ranks >= 3' }), 'ranks >= 3');
});
