// lib/error-fix.js under Node: a rejected setting becomes a plain sentence and a one-click fix
// derived from the error's rule and params, and every fix passes the schedule's shape rules.
// Expected values are worked out by hand from the rules in docs/schema.md (Config).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixFor, explainError, shapeBreak } from '../../web/js/lib/error-fix.js';
import { translator, loadLanguage } from '../../web/js/lib/i18n.js';
import { scheduleInfo } from '../../web/js/lib/schedules.js';
import { pipesim } from './helpers.mjs';

await loadLanguage('hi');
const api = await pipesim();
const costs = api.catalogue().costs;
/** The SimError core gives for `config` (the real rule and params, not a hand-written copy). */
function errorOf(config) {
  try {
    api.simulate(config);
  } catch (error) {
    return error;
  }
  assert.fail(`${JSON.stringify(config)} was expected to be rejected`);
}
const runs = (config) => {
  api.simulate(config);
  return true;
};

test('DualPipe with 7 ranks: "DualPipe needs an even number of ranks" — use 8 (20 micro-batches >= 2 x 8)', () => {
  const config = { schedule: 'dualpipe', ranks: 7, microbatches: 20, costs };
  const error = errorOf(config);
  assert.equal(error.rule, 'ranks.even');
  const fix = fixFor(error, config);
  assert.deepEqual(fix, { field: 'ranks', value: 8, patch: { ranks: 8 } });
  assert.ok(runs({ ...config, ...fix.patch }));
  const en = explainError(error, config, translator('en'));
  assert.equal(en.text, 'DualPipe needs an even number of ranks, at least 2');
  assert.equal(en.fixLabel, 'use 8');
  const hi = explainError(error, config, translator('hi'));
  assert.equal(hi.text, 'DualPipe को सम संख्या में रैंक चाहिए, कम से कम 2');
  assert.equal(hi.fixLabel, '8 लें');
});

test('a ranks fix keeps the micro-batches runnable: DualPipe 9 ranks with 16 micro-batches takes 8, not 10 (16 < 2 x 10)', () => {
  const config = { schedule: 'dualpipe', ranks: 9, microbatches: 16, costs };
  const fix = fixFor(errorOf(config), config);
  assert.equal(fix.value, 8);
  assert.ok(runs({ ...config, ...fix.patch }));
});

test('too few micro-batches: DualPipe on 8 ranks needs 2 x 8 = 16; DualPipeV 4 ranks needs 8', () => {
  for (const [config, want] of [[{ schedule: 'dualpipe', ranks: 8, microbatches: 10, costs }, 16], [{ schedule: 'dualpipev', ranks: 4, microbatches: 3, costs }, 8]]) {
    const error = errorOf(config);
    assert.equal(error.rule, 'microbatches.min_multiple_of_ranks');
    const fix = fixFor(error, config);
    assert.deepEqual(fix.patch, { microbatches: want });
    assert.ok(runs({ ...config, ...fix.patch }));
  }
  const t = translator('en');
  assert.equal(explainError(errorOf({ schedule: 'dualpipe', ranks: 8, microbatches: 10, costs }), null, t).text,
    'DualPipe needs at least 2 micro-batches per rank: 16 for 8 ranks');
});

test('odd micro-batches for DualPipe: the nearest even count (17 -> 18: 16 and 18 are as near, ties go up)', () => {
  const config = { schedule: 'dualpipe', ranks: 8, microbatches: 17, costs };
  const error = errorOf(config);
  assert.equal(error.rule, 'microbatches.even');
  assert.deepEqual(fixFor(error, config).patch, { microbatches: 18 });
});

test('Chimera needs a multiple of the ranks: 8 ranks, 20 micro-batches -> 16 or 24, equally near: 24', () => {
  const config = { schedule: 'chimera', ranks: 8, microbatches: 20, costs };
  const error = errorOf(config);
  assert.equal(error.rule, 'microbatches.multiple_of_ranks');
  assert.deepEqual(fixFor(error, config).patch, { microbatches: 24 });
  assert.equal(explainError(error, config, translator('en')).text, 'Chimera needs a multiple of 8 micro-batches (the number of ranks)');
});

test('out of range and non-integer counts: 0 ranks of 1F1B -> 1; 2.5 micro-batches -> 3 (Math.round, ties up)', () => {
  const zero = { schedule: '1f1b', ranks: 0, microbatches: 8, costs };
  assert.deepEqual(fixFor(errorOf(zero), zero).patch, { ranks: 1 });
  const half = { schedule: '1f1b', ranks: 4, microbatches: 2.5, costs };
  assert.deepEqual(fixFor(errorOf(half), half).patch, { microbatches: 3 });
  assert.equal(explainError(errorOf(half), half, translator('en')).text, 'Set the number of micro-batches to a whole number');
});

test('a cost out of range gets core\'s default back (F = -1 -> the catalogue\'s F); W > B gets B', () => {
  const negative = { schedule: '1f1b', ranks: 4, microbatches: 8, costs: { ...costs, forward: -1 } };
  const error = errorOf(negative);
  assert.equal(error.rule, 'range.positive');
  const fix = fixFor(error, negative);
  assert.deepEqual(fix.patch, { costs: { ...costs, forward: costs.forward } });
  assert.equal(explainError(error, negative, translator('en')).text, 'F (forward) must be more than 0');
  const heavy = { schedule: '1f1b', ranks: 4, microbatches: 8, costs: { ...costs, weight: 3 } };
  const w = fixFor(errorOf(heavy), heavy);
  assert.deepEqual(w, { field: 'costs.weight', value: costs.backward, patch: { costs: { ...costs, weight: costs.backward } } });
  assert.ok(runs({ ...heavy, ...w.patch }));
});

test('a run over the op cap gets the largest micro-batch count under it, which runs', () => {
  const config = { schedule: 'dualpipe', ranks: 512, microbatches: 4096, costs };
  const error = errorOf(config);
  assert.equal(error.code, 'too_large');
  const fix = fixFor(error, config);
  assert.equal(fix.field, 'microbatches');
  assert.ok(runs({ ...config, ...fix.patch }));
  assert.equal(shapeBreak(scheduleInfo('dualpipe'), 512, fix.value), null);
  // One more step up the grid of even counts would be over the cap again.
  assert.equal(errorOf({ ...config, microbatches: fix.value + 2 }).code, 'too_large');
});

test('no fix without a safe value: an unknown schedule names the list instead; an error without rule keeps its words', () => {
  const unknown = { schedule: 'zigzag', ranks: 4, microbatches: 8, costs };
  const error = errorOf(unknown);
  assert.equal(fixFor(error, unknown), null);
  assert.equal(explainError(error, unknown, translator('en')).text, 'There is no schedule called “zigzag”. Pick one from the list');
  const plain = explainError(new Error('The module failed'), unknown, translator('en'));
  assert.deepEqual(plain, { text: 'The module failed', fix: null, fixLabel: '' });
});

test('the all-to-all overlap on one chunk per rank: interleaved 1F1B gets 2 chunks, which runs; 1F1B gets words and no fix', () => {
  const config = { schedule: 'interleaved-1f1b', ranks: 8, microbatches: 16, chunks: 1, a2aOverlap: true, costs };
  const error = errorOf(config);
  assert.equal(error.rule, 'a2a_overlap.chunks');
  const fix = fixFor(error, config);
  assert.deepEqual(fix, { field: 'chunks', value: 2, patch: { chunks: 2 } });
  assert.ok(runs({ ...config, ...fix.patch }));
  const plain = { schedule: '1f1b', ranks: 8, microbatches: 16, a2aOverlap: true, costs };
  const plainError = errorOf(plain);
  assert.equal(plainError.path, '/a2aOverlap');
  assert.equal(fixFor(plainError, plain), null);
  const { text } = explainError(plainError, plain, translator('en'));
  assert.match(text, /2 or more chunks per rank/);
  assert.match(explainError(plainError, plain, translator('hi')).text, /चंक/);
});
