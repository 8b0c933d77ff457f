// web/js/lib/shape-hint.js under Node: the hint beside the ranks and micro-batch fields is built
// from the catalogue's shape data, in English and Hindi, says exactly what core enforces, and
// needs no string of its own for a schedule core adds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shapeRules, shapeHint } from '../../web/js/lib/shape-hint.js';
import { translator, loadLanguage } from '../../web/js/lib/i18n.js';
import { pipesim } from './helpers.mjs';
import CATALOGUE from '../../web/generated/catalogue.js';

await loadLanguage('hi');
const en = translator('en');
const hi = translator('hi');

test('DualPipe, DualPipeV and Chimera read as the papers state their shapes', () => {
  const rules = (name, t = en) => shapeRules(CATALOGUE.schedules.find((s) => s.name === name), t);
  assert.deepEqual(rules('dualpipe'), { ranks: 'even, ≥ 2', microbatches: 'even and ≥ 2 × ranks' });
  assert.deepEqual(rules('dualpipev'), { ranks: '≥ 1 and 2 stages per rank', microbatches: '≥ 2 × ranks' });
  assert.deepEqual(rules('chimera'), { ranks: 'even, ≥ 2', microbatches: '≥ 1 and a multiple of ranks' });
  assert.deepEqual(rules('1f1b'), { ranks: '≥ 1', microbatches: '≥ 1' });
  assert.deepEqual(rules('dualpipe', hi), { ranks: 'सम, ≥ 2', microbatches: 'सम और ≥ 2 × रैंक' });
  assert.deepEqual(rules('chimera', hi), { ranks: 'सम, ≥ 2', microbatches: '≥ 1 और रैंक का गुणज' });
});

test('a schedule with chunks counts its stages from the config\'s chunks (ranks x chunks), else its default', () => {
  const info = CATALOGUE.schedules.find((s) => s.chunks);
  const stages = (chunks) => shapeRules(info, en, chunks).ranks;
  assert.equal(stages(4), '≥ 1 and 4 stages per rank');
  assert.equal(stages(info.chunks.max), `≥ 1 and ${info.chunks.max} stages per rank`);
  assert.equal(stages(1), '≥ 1', 'one chunk: one stage per rank, as for plain 1F1B');
  for (const unusable of [null, 0, info.chunks.max + 1, 2.5, 'abc']) assert.equal(stages(unusable), `≥ 1 and ${info.chunks.default} stages per rank`);
  assert.equal(shapeHint([info.name, ''], 'ranks', en, 3), 'Needs: ≥ 1 and 3 stages per rank');
  assert.equal(shapeHint([info.name, '1f1b'], 'ranks', hi, 3), `${hi(`sched.${info.name}`)}: ≥ 1 और हर रैंक पर 3 स्टेज\n1F1B: ≥ 1`);
});

test('one schedule gives one "Needs" line; two with different rules give a line each, by title', () => {
  assert.equal(shapeHint(['dualpipe', ''], 'ranks', en), 'Needs: even, ≥ 2');
  assert.equal(shapeHint(['dualpipe', 'chimera'], 'ranks', en), 'Needs: even, ≥ 2');
  assert.equal(shapeHint(['dualpipe', '1f1b'], 'microbatches', en), 'DualPipe: even and ≥ 2 × ranks\n1F1B: ≥ 1');
  assert.equal(shapeHint(['dualpipe', '1f1b'], 'microbatches', hi), 'DualPipe: सम और ≥ 2 × रैंक\n1F1B: ≥ 1');
  assert.equal(shapeHint(['pipedream'], 'ranks', en), '', 'a name core does not know has no hint');
});

test('every catalogue schedule has a hint in both languages, with no key left unfilled', () => {
  for (const info of CATALOGUE.schedules) {
    for (const t of [en, hi]) {
      const { ranks, microbatches } = shapeRules(info, t);
      for (const text of [ranks, microbatches]) assert.doesNotMatch(text, /shape\.|\{\w+\}/, `${info.name} ${t.lang}: ${text}`);
      assert.ok(ranks.includes(String(info.shape.minRanks)), `${info.name}: ${ranks}`);
      if (info.shape.minMicrobatchesPerRank) assert.ok(microbatches.includes(String(info.shape.minMicrobatchesPerRank)));
    }
  }
  // A schedule core might add, with every rule switched on: words for it without a new string.
  const future = { name: 'future', shape: { minRanks: 4, evenRanks: true, evenMicrobatches: true, minMicrobatchesPerRank: 3, microbatchesMultipleOfRanks: true }, layout: { directions: 1, stagesPerRank: 3 } };
  assert.deepEqual(shapeRules(future, en), { ranks: 'even, ≥ 4 and 3 stages per rank', microbatches: 'even, ≥ 3 × ranks, and a multiple of ranks' });
});

/** What the hint's words claim, as a predicate on (ranks, micro-batches). */
function hintAllows(shape, ranks, microbatches) {
  if (ranks < shape.minRanks || (shape.evenRanks && ranks % 2)) return false;
  if (shape.evenMicrobatches && microbatches % 2) return false;
  if (microbatches < Math.max(1, shape.minMicrobatchesPerRank * ranks)) return false;
  return !(shape.microbatchesMultipleOfRanks && microbatches % ranks);
}

test('the hint says exactly what core enforces: every shape it allows runs, every other is rejected', async () => {
  const api = await pipesim();
  for (const { name, shape } of CATALOGUE.schedules) {
    for (let ranks = 1; ranks <= 9; ranks++) {
      for (let microbatches = 1; microbatches <= 24; microbatches++) {
        let error = null;
        try { api.validate({ schedule: name, ranks, microbatches }); } catch (e) { error = e; }
        assert.equal(error === null, hintAllows(shape, ranks, microbatches), `${name} ${ranks}x${microbatches}: ${error?.message}`);
      }
    }
  }
});
