// The rest of the JS API: validate, sweep, schedules and lessonReport return what the native CLI
// prints for the same request, plus hand-checked values.
import assert from 'node:assert/strict';
import test from 'node:test';
import { readFileSync } from 'node:fs';
import { METHOD_NAMES } from '../../wasm/pipesim.js';
import { nativeCli, pipesim, repoPath } from './helpers.mjs';

test('schedules() lists what `pipesim schedules` lists, starting with the five of the core issue', async () => {
  const api = await pipesim();
  const list = api.schedules();
  assert.deepEqual(list, JSON.parse(nativeCli(['schedules', '--format', 'json'])));
  assert.deepEqual(list.slice(0, 5).map((s) => s.name), ['gpipe', '1f1b', 'zb-h1', 'dualpipe', 'dualpipev']);
  for (const s of list) assert.deepEqual(Object.keys(s), ['name', 'title', 'constraints', 'source']);
});

test('validate() fills in the default costs (DeepSeek\'s F=1 B=2 W=1 F&B=3, p2p 0)', async () => {
  const api = await pipesim();
  assert.deepEqual(api.validate({ schedule: 'dualpipe', ranks: 8, microbatches: 20.0 }), {
    schedule: 'dualpipe', ranks: 8, microbatches: 20,
    costs: { forward: 1, backward: 2, weight: 1, overlapped: 3, p2pLatency: 0 },
  });
});

test('sweep() equals `pipesim sweep --format json`, in schedule, ranks, micro-batch order', async () => {
  const api = await pipesim();
  const request = { schedules: ['gpipe', '1f1b', 'zb-h1', 'dualpipe', 'dualpipev'], ranks: [4, 6, 8],
                    microbatches: [8, '2R', '4R'], costs: { overlapped: 2.5 } };
  const result = api.sweep(request);
  const native = nativeCli(['sweep', '--schedules', 'gpipe,1f1b,zb-h1,dualpipe,dualpipev', '--ranks', '4:8:2',
                            '--microbatches', '8,2R,4R', '--overlapped', '2.5', '--format', 'json']);
  assert.deepEqual(result, JSON.parse(native));
  assert.equal(result.rows.length, 5 * 3 * 3);
  assert.deepEqual(result.rows.slice(0, 3).map((r) => [r.schedule, r.ranks, r.microbatches]),
                   [['gpipe', 4, 8], ['gpipe', 4, 8], ['gpipe', 4, 16]]);
});

test('sweep() GPipe bubble fraction is (p-1)/(m+p-1)', async () => {
  const api = await pipesim();
  const { rows } = api.sweep({ schedules: ['gpipe'], ranks: [4, 8], microbatches: [4, 16] });
  for (const row of rows) {
    const p = row.ranks;
    const m = row.microbatches;
    assert.ok(Math.abs(row.bubbleFraction - (p - 1) / (m + p - 1)) < 1e-12, `p=${p} m=${m}: ${row.bubbleFraction}`);
  }
});

test('lessonReport() equals `pipesim lesson --format json`, by default and under other costs', async () => {
  const api = await pipesim();
  assert.deepEqual(api.lessonReport(), JSON.parse(nativeCli(['lesson', '--format', 'json'])));
  assert.deepEqual(api.lessonReport({ overlapped: 2.4, weight: 0.5 }),
                   JSON.parse(nativeCli(['lesson', '--overlapped', '2.4', '--weight', '0.5', '--format', 'json'])));
});

test('simulate() on DeepSeek\'s figure: DualPipe 8x20 idles 6 per rank (F&B+B-3W with PP/2-1 = 3)', async () => {
  const api = await pipesim();
  const result = api.simulate({ schedule: 'dualpipe', ranks: 8, microbatches: 20 });
  assert.equal(result.bubble.max, 6);   // (8/2 - 1) * (3 + 2 - 3 * 1)
  assert.equal(result.paramCopies, 2);
  assert.equal(result.reference.bubbleMax, 6);
});

test('the API object is frozen and stateless: repeated calls give identical bytes', async () => {
  const api = await pipesim();
  assert.ok(Object.isFrozen(api));
  const config = { schedule: 'dualpipev', ranks: 4, microbatches: 10 };
  assert.equal(api.simulateJson(config), api.simulateJson(config));
});

test('a hand-written schedule runs through simulate and simulateJson exactly as `pipesim simulate --input`', async () => {
  const api = await pipesim();
  // 1F1B on 2 ranks and 2 micro-batches, written by hand, with a zero-bubble B and its later W.
  const custom = {
    schedule: 'custom', stages: 2, microbatches: 2,
    rankOps: [['F0.0@0', 'F0.1@0', 'Bz0.0@0', 'B0.1@0', 'W0.0@0'], ['F0.0@1', 'B0.0@1', 'F0.1@1', 'B0.1@1']],
    costs: { overlapped: 2.5 },
  };
  const native = nativeCli(['simulate', '--input', '-', '--format', 'json'], JSON.stringify(custom));
  assert.equal(api.simulateJson(custom), native);
  const result = api.simulate(custom);
  const json = JSON.parse(native);
  assert.equal(result.makespan, json.makespan);
  assert.equal(result.timeline.count, json.timeline.flat().length);
  assert.deepEqual(Array.from(result.timeline.end), json.timeline.flat().map((op) => op.end));
});

test('catalogue() is `pipesim catalogue`, and the page\'s generated copy is the same object', async () => {
  const api = await pipesim();
  assert.deepEqual(api.catalogue(), JSON.parse(nativeCli(['catalogue'])));
  const { default: generated } = await import('../../web/generated/catalogue.js');
  assert.deepEqual(generated, api.catalogue());
  assert.ok(Object.isFrozen(api.catalogue().schedules[0].shape));
});

test('the page\'s first runs (generated/first-runs.js, drawn before its worker loads) are what simulate() returns', async () => {
  const api = await pipesim();
  const { default: seeds } = await import('../../web/generated/first-runs.js');
  assert.ok(seeds.length >= 3, 'the lesson\'s first widget (two schedules) and the explorer\'s default');
  for (const { method, request, value } of seeds) {
    assert.equal(method, 'simulate');
    assert.deepEqual(value, api.simulate(request), JSON.stringify(request));
  }
});

test('the API has exactly the manifest\'s methods, each an export of the module', async () => {
  const api = await pipesim();
  assert.deepEqual(Object.keys(api), [...METHOD_NAMES]);
  for (const name of METHOD_NAMES) assert.equal(typeof api[name], 'function', name);
});

test('pipesim.d.ts declares each timeline column with the catalogue\'s type', async () => {
  const api = await pipesim();
  const dts = readFileSync(repoPath('wasm/pipesim.d.ts'), 'utf8');
  const timeline = dts.slice(dts.indexOf('export interface Timeline {'));
  const body = timeline.slice(0, timeline.indexOf('\n}'));
  for (const { name, type } of api.catalogue().timeline) {
    const arrayClass = `${type[0].toUpperCase()}${type.slice(1)}Array`;
    assert.match(body, new RegExp(`\\n  ${name}: ${arrayClass};`), `${name}: ${arrayClass}`);
  }
});
