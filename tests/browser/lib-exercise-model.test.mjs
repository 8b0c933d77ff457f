// web/js/lib/exercise-model.js under Node: requests built from the real exercise definitions,
// quantity expressions read from results (the wasm build, so expected values are the simulator's).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  buildRequests, defaultInputs, runRequests, evaluateQuantity, quantitySources, expectedAnswer, answerKind,
  setPointer,
} from '../../web/js/lib/exercise-model.js';
import { loadPipesim } from '../../wasm/pipesim.js';

const definition = (id) => JSON.parse(readFileSync(new URL(`../../lessons/exercises/${id}.json`, import.meta.url), 'utf8'));
let apiPromise;
const api = () => (apiPromise ??= loadPipesim({ moduleUrl: new URL('../../build/wasm/wasm/pipesim.mjs', import.meta.url) }));

test('quantities read result paths and combine them with + - * / and parentheses', () => {
  const results = { dp8: { bubble: { max: 2 }, maxPeakActivations: 5 }, dp16: { bubble: { max: 2 } },
                    llama: { schedules: { '1f1b': { paramsPerGpu: 8819213312 } } } };
  assert.equal(evaluateQuantity('dp16.bubble.max - dp8.bubble.max', results), 0);
  assert.equal(evaluateQuantity('llama.schedules.1f1b.paramsPerGpu', results), 8819213312);
  assert.equal(evaluateQuantity('(dp8.maxPeakActivations + 1) * 2 / 4 - -1', results), 4);
  assert.deepEqual(quantitySources('dp16.bubble.max - dp8.bubble.max'), ['dp16', 'dp8']);
  assert.throws(() => evaluateQuantity('dp8.nothing', results), /dp8.nothing is not a number/);
  assert.throws(() => evaluateQuantity('dp8.bubble.max $', results), /cannot read/);
});

test('setPointer writes inside nested objects', () => {
  assert.deepEqual(setPointer({ a: { b: 1 } }, '/a/c', 2), { a: { b: 1, c: 2 } });
  assert.deepEqual(setPointer({}, '/gpuHoursPerMillionTokens', 0.36), { gpuHoursPerMillionTokens: 0.36 });
});

test('recover-gpu-hours: the editable baseline and costs reach the calculator', () => {
  const def = definition('recover-gpu-hours');
  assert.deepEqual(defaultInputs(def), { baselineGpuHoursPerMillionTokens: 0.18 });
  const { runs, calculators } = buildRequests(def, { baselineGpuHoursPerMillionTokens: 0.36 }, { costs: { backward: 3 } });
  assert.equal(calculators.rec.method, 'recover');
  assert.equal(calculators.rec.request.gpuHoursPerMillionTokens, 0.36);
  assert.equal(calculators.rec.request.costs.backward, 3);
  assert.equal(runs.f1b.costs.backward, 3);
  assert.equal(def.config.calculators.rec.input.gpuHoursPerMillionTokens, 0.18, 'the definition is not modified');
});

test('every answer of every definition has an expected value from the simulator', async () => {
  const sim = await api();
  for (const id of ['recover-gpu-hours', 'hand-trace', 'overlap-window', 'param-overhead', 'dualpipe-vs-chimera']) {
    const def = definition(id);
    const { results, errors } = await runRequests(sim, buildRequests(def, defaultInputs(def)));
    assert.deepEqual(Object.keys(errors), [], `${id}: ${Object.values(errors).map((e) => e.message)}`);
    for (const answer of def.answers) {
      const expected = expectedAnswer(answer, results);
      assert.notEqual(expected.kind, 'missing', `${id}/${answer.id}: ${expected.error?.message}`);
      if (expected.kind === 'number') assert.ok(Number.isFinite(expected.value), `${id}/${answer.id}`);
    }
  }
});

test('hand-picked expected values: recover 40/207 and 0.05, the ZB-H1 and DualPipe steps, trace cells 2, 0, 2, DualPipe growth 0', async () => {
  const sim = await api();
  const read = async (id) => {
    const def = definition(id);
    const { results } = await runRequests(sim, buildRequests(def, defaultInputs(def)));
    return Object.fromEntries(def.answers.map((a) => [a.id, expectedAnswer(a, results)]));
  };
  const rec = await read('recover-gpu-hours');
  assert.ok(Math.abs(rec['utilization-gap'].value - 40 / 207) < 1e-12); // 48/54 - 48/69
  assert.ok(Math.abs(rec['recovered-gpu-hours'].value - 0.05) < 1e-12); // 0.18 x (69/54 - 1)
  // 1F1B -> ZB-H1 -> DualPipe: the same work, 48 per rank, over makespans 69, 55 and 54.
  assert.ok(Math.abs(rec['step-zb-h1'].value - (48 / 55 - 48 / 69)) < 1e-12);
  assert.ok(Math.abs(rec['step-dualpipe'].value - (48 / 54 - 48 / 55)) < 1e-12);
  // Three cells past the lesson's trace (slots 0-10): rank 0 pairs F of direction-1 micro-batch 2
  // with B of direction-0 micro-batch 0 in slot 11; rank 3 runs B of direction-0 micro-batch 2 in slot 14.
  const trace = await read('hand-trace');
  assert.equal(trace['pair-forward'].value, 2);
  assert.equal(trace['pair-backward'].value, 0);
  assert.equal(trace['rank3-backward'].value, 2);
  const ch = await read('dualpipe-vs-chimera');
  assert.equal(ch['bubble-growth'].value, 0);
  assert.equal(ch['activation-growth'].value, 0);
  assert.equal(answerKind(definition('dualpipe-vs-chimera').answers[0]), 'choice');
});


test('an exercise links back to the lesson widgets that draw one of its runs, whatever the key order', async () => {
  const { lessonFiguresOf } = await import('../../web/js/lib/exercise-model.js');
  const costs = { forward: 1, backward: 2, weight: 1, overlapped: 3, p2pLatency: 0 };
  const configs = new Map([
    ['lead', { schedule: 'dualpipe', ranks: 4, microbatches: 8, costs }],
    ['p8', { schedule: '1f1b', ranks: 8, microbatches: 16, costs }],
    ['dp8', { costs: { p2pLatency: 0, overlapped: 3, weight: 1, backward: 2, forward: 1 }, microbatches: 16, ranks: 8, schedule: 'dualpipe' }],
  ]);
  const definition = { config: { runs: { dp: { schedule: 'dualpipe', ranks: 8, microbatches: 16, costs }, f1b: { schedule: '1f1b', ranks: 8, microbatches: 16, costs }, other: { schedule: 'zb-h1', ranks: 8, microbatches: 16, costs } } } };
  assert.deepEqual(lessonFiguresOf(definition, configs), ['p8', 'dp8']);
  assert.deepEqual(lessonFiguresOf({ config: {} }, configs), []);
  // One cost apart is another run.
  assert.deepEqual(lessonFiguresOf({ config: { runs: { x: { schedule: 'dualpipe', ranks: 4, microbatches: 8, costs: { ...costs, overlapped: 2.4 } } } } }, configs), []);
});

test('exercise 4 links back to the lesson\'s memory table that counts its models, and to no other', async () => {
  const { lessonTablesOf } = await import('../../web/js/lib/exercise-model.js');
  // The lesson's "What the second copy costs" table compares Llama-3-70B with DeepSeek-V3.
  const memories = new Map([
    ['other', { model: 'llama3-8b', schedule: 'dualpipe' }],
    ['mem', { recipe: 'deepseek-v3', sides: [{ model: 'llama3-70b' }, { model: 'deepseek-v3' }] }],
  ]);
  assert.deepEqual(lessonTablesOf(definition('param-overhead'), memories), ['mem']);
  // An exercise with runs but no parameter calculator has no table to link back to.
  assert.deepEqual(lessonTablesOf(definition('recover-gpu-hours'), memories), []);
});
