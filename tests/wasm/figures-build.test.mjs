// The figures' build of the module (pipesim-figures.mjs: wasm/bindings.cpp alone, what the embeds
// and the course's figures load): the same API object as the full build, whose methods outside
// bindings.cpp throw a SimError naming the full build, and whose simulate, sweep and catalogue give
// exactly what the full build and the native CLI give, for every kind of request simulate reads.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import test from 'node:test';
import { loadPipesim, METHOD_NAMES, MODULE_BUILDS, SimError } from '../../wasm/pipesim.js';
import { FIGURES_MODULE_URL, nativeCli, pipesim, repoPath } from './helpers.mjs';

let figuresPromise = null;
const figures = () => (figuresPromise ??= loadPipesim({ moduleUrl: FIGURES_MODULE_URL }));

// What bindings.cpp registers, stated here by hand: the test fails if the list changes unseen.
const FIGURE_METHODS = ['simulate', 'sweep', 'catalogue'];

const goldenConfigs = readdirSync(repoPath('tests/golden')).filter((f) => f.endsWith('.json')).sort()
  .map((f) => JSON.parse(readFileSync(repoPath(`tests/golden/${f}`), 'utf8')).config);

// Every kind of request simulate reads, beyond the golden configs: the comm model with combined
// 1F1B, DeepSeek's runtime timing, per-stage costs, a memory model, a hand-written schedule and a
// PyTorch CSV.
const MORE_CONFIGS = [
  { schedule: 'interleaved-1f1b', ranks: 4, microbatches: 8, chunks: 2, a2aOverlap: true, delayWgrad: true,
    costs: { forward: 0.5, backward: 1, weight: 0.5, overlapped: 1.5, comm: { ratio: 1 } } },
  { schedule: 'dualpipe', ranks: 8, microbatches: 20, timing: 'runtime', costs: { backward: 1.5, weight: 0.9, overlapped: 2 } },
  { schedule: '1f1b', ranks: 2, microbatches: 2, stageCosts: [{ forward: 1, backward: 2 }, { forward: 2, backward: 4 }] },
  { schedule: 'dualpipe', ranks: 4, microbatches: 8, memoryModel: { model: 'deepseek-v3' } },
  { schedule: 'custom', stages: 2, microbatches: 2,
    rankOps: [['F0.0@0', 'F0.1@0', 'Bz0.0@0', 'B0.1@0', 'W0.0@0'], ['F0.0@1', 'B0.0@1', 'F0.1@1', 'B0.1@1']] },
  { schedule: 'custom', csv: '0F0,0F1,,0B0,,0B1\n,1F0,1B0,1F1,1B1,\n', costs: { forward: 1, backward: 1 } },
];

test('the figures\' build has bindings.cpp\'s entry points and only those', async () => {
  const { default: createPipesimModule } = await import(FIGURES_MODULE_URL.href);
  const module = await createPipesimModule({ wasmBinary: readFileSync(new URL(`${MODULE_BUILDS.figures}.wasm`, FIGURES_MODULE_URL)) });
  assert.deepEqual(METHOD_NAMES.filter((name) => typeof module[name] === 'function'), FIGURE_METHODS);
  assert.equal(typeof module.heapInUse, 'undefined');
});

test('its API has every method; one it lacks throws a SimError naming the full build', async () => {
  const api = await figures();
  assert.deepEqual(Object.keys(api), [...METHOD_NAMES]);
  assert.ok(Object.isFrozen(api));
  for (const name of METHOD_NAMES.filter((m) => !FIGURE_METHODS.includes(m))) {
    assert.throws(() => api[name]({}), (e) => e instanceof SimError && e.code === 'internal' && e.rule === 'internal' &&
      e.path === '' && e.message === `${name}() is not in pipesim-figures.mjs, the build of the simulator loaded here; ` +
        'the full build, pipesim.mjs, has it' && e.params.detail === e.message, name);
  }
});

test('simulate() gives what the full build gives, for every golden config and every kind of request', async () => {
  const [small, full] = [await figures(), await pipesim()];
  assert.ok(goldenConfigs.length >= 6);
  for (const config of [...goldenConfigs, ...MORE_CONFIGS]) {
    assert.deepEqual(small.simulate(config), full.simulate(config), JSON.stringify(config));
  }
});

test('simulate() equals the native CLI, timeline included (DualPipe 16x64 under uneven costs)', async () => {
  const config = { schedule: 'dualpipe', ranks: 16, microbatches: 64,
                   costs: { forward: 1.1, backward: 2.3, weight: 0.7, overlapped: 2.4, p2pLatency: 0.1 } };
  const { timeline, activationSteps, ...result } = (await figures()).simulate(config);
  const native = JSON.parse(nativeCli(['simulate', '--input', '-', '--format', 'json'], JSON.stringify(config)));
  const ops = native.timeline.flat();
  const ranks = native.timeline.flatMap((rankOps, rank) => rankOps.map(() => rank)); // the CLI lists ops per rank
  delete native.timeline;
  assert.deepEqual(result, native);
  assert.equal(timeline.count, ops.length);
  assert.equal(activationSteps.length, 16);
  // The columns hold every op, rank by rank in the order the CLI lists them.
  assert.deepEqual(Array.from(timeline.start), ops.map((op) => op.start));
  assert.deepEqual(Array.from(timeline.end), ops.map((op) => op.end));
  assert.deepEqual(Array.from(timeline.rank), ranks);
});

test('sweep() equals `pipesim sweep --format json`; catalogue() is the full build\'s', async () => {
  const api = await figures();
  const result = api.sweep({ schedules: ['gpipe', '1f1b', 'zb-h1', 'dualpipe', 'dualpipev'], ranks: [4, 6, 8],
                             microbatches: [8, '2R', '4R'], costs: { overlapped: 2.5 } });
  assert.deepEqual(result, JSON.parse(nativeCli(['sweep', '--schedules', 'gpipe,1f1b,zb-h1,dualpipe,dualpipev',
    '--ranks', '4:8:2', '--microbatches', '8,2R,4R', '--overlapped', '2.5', '--format', 'json'])));
  assert.equal(result.rows.length, 5 * 3 * 3);
  assert.deepEqual(api.catalogue(), (await pipesim()).catalogue());
});

test('bad requests give the full build\'s SimErrors', async () => {
  const [small, full] = [await figures(), await pipesim()];
  const caught = (f) => { try { f(); } catch (e) { return { ...e, message: e.message, name: e.name }; } return null; };
  for (const [method, arg] of [['simulate', { schedule: 'dualpipe', ranks: 3, microbatches: 8 }],
                               ['simulate', { schedule: 'dualpipe', ranks: 4, microbatches: 8, memoryModel: { model: 'nope' } }],
                               ['simulate', { schedule: 'custom', stages: 2, microbatches: 1, rankOps: [['F0.0@0'], ['B0.0@1']] }],
                               ['sweep', { schedules: ['gpipe'], ranks: [0], microbatches: [4] }],
                               ['simulate', '{']]) {
    const error = caught(() => small[method](arg));
    assert.ok(error && error.name === 'SimError' && error.code !== 'internal', `${method} ${JSON.stringify(arg)}: ${JSON.stringify(error)}`);
    assert.deepEqual(error, caught(() => full[method](arg)));
  }
});

test('loadPipesim refuses a build it does not know', async () => {
  await assert.rejects(loadPipesim({ build: 'tiny' }), (e) => e instanceof SimError && e.code === 'internal' &&
    e.message === 'loadPipesim\'s build must be one of full, figures');
});
