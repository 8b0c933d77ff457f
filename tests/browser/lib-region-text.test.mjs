// web/js/lib/region-text.js under Node: where a published formula holds, said in the page's
// language from the catalogue's clauses (core's reference.region), not from core's English text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import CATALOGUE from '../../web/generated/catalogue.js';
import { regionText } from '../../web/js/lib/region-text.js';
import { translator, loadLanguage } from '../../web/js/lib/i18n.js';
import { LANGS } from '../../web/js/lib/locales.js';

await loadLanguage('hi');
const region = (name) => CATALOGUE.schedules.find((s) => s.name === name).reference.region;

test('DualPipe\'s region in English and in Hindi, from the catalogue\'s clauses', () => {
  // formulas.cpp: PP = 2, or B-W = F, W <= F, max(F,B) <= F&B <= F+B; p2p latency 0 and equal stages.
  assert.deepEqual(region('dualpipe').all, [{ left: 'p2pLatency', op: '=', right: '0' }, { left: 'stageCosts', op: '=', right: 'equal' }]);
  assert.equal(regionText(region('dualpipe'), translator('en')),
    'PP = 2; or B − W = F, W ≤ F, max(F, B) ≤ F&B, and F&B ≤ F + B; and the link latency is 0 and every stage costs the same');
  // Clauses that all hold are a list as the language writes one (Intl.ListFormat); the
  // alternatives and what always holds are whole messages (ref.any2, ref.whenAll).
  const hindi = regionText(region('dualpipe'), translator('hi'));
  const list = (items) => new Intl.ListFormat('hi', { type: 'conjunction' }).format(items);
  assert.equal(hindi, `PP = 2; या ${list(['B − W = F', 'W ≤ F', 'max(F, B) ≤ F&B', 'F&B ≤ F + B'])}; और ${list(['लिंक की देरी 0 हो', 'हर स्टेज की लागत बराबर हो'])}`);
  assert.doesNotMatch(hindi, /p2pLatency|stageCosts|<=|latency/);
});

test('every schedule with a formula has a region said without field names; notes in the page\'s language', () => {
  for (const schedule of CATALOGUE.schedules.filter((s) => s.reference.formula)) {
    for (const lang of LANGS) {
      const text = regionText(schedule.reference.region, translator(lang));
      assert.ok(text.length > 0, `${schedule.name} ${lang}`);
      assert.doesNotMatch(text, /p2pLatency|stageCosts|bubble\.max|<=|>=/, `${schedule.name} ${lang}: ${text}`);
    }
  }
  // ZB-V's note: core's English on an English page, the Hindi pack's words on a Hindi one.
  assert.match(regionText(region('zb-v'), translator('en')), /^the number of ranks is 1; and the link latency is 0 and every stage costs the same \(the paper's 0/);
  assert.match(regionText(region('zb-v'), translator('hi')), /^रैंकों की संख्या 1 हो; और लिंक की देरी 0 हो और हर स्टेज की लागत बराबर हो \(पेपर का 0/);
  assert.equal(regionText(region('1f1b'), translator('en')), 'the link latency is 0 and every stage costs the same');
  assert.equal(regionText(null, translator('en')), '');
});

test('three alternatives read "a; b; or c", each in its own language\'s separators; a note follows in brackets', async () => {
  await loadLanguage('ar');
  await loadLanguage('zh');
  // formulas.cpp, ZB-H2: PP = 1, or W = 0, or M >= 2PP-1, W <= F, B >= 3W.
  assert.match(regionText(region('zb-h2'), translator('en')), /^PP = 1; W = 0; or M ≥ 2PP − 1, W ≤ F, and B ≥ 3W; and the link latency is 0 and every stage costs the same$/);
  const arabic = regionText(region('zb-h2'), translator('ar'));
  assert.match(arabic, /^PP = 1؛ W = 0؛ أو M ≥ 2PP − 1/);
  assert.doesNotMatch(arabic, /; | and |, or /);
  assert.match(regionText(region('zb-v'), translator('zh')), /（.+）$/);
});
