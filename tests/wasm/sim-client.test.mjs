// web/js/lib/sim-client.js under Node, where there is no Worker: it must fall back to running in
// this thread and give the same values and SimErrors as the direct API. (The worker path is
// exercised in Chromium by sim-client-browser.test.mjs.) Needs `make site` (web/generated/).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import test from 'node:test';
import { createSimClient, SimError } from '../../web/js/lib/sim-client.js';
import { pipesim, repoPath } from './helpers.mjs';

test('the site carries the current JS API (web/generated/pipesim.js is wasm/pipesim.js)', () => {
  assert.equal(readFileSync(repoPath('web/generated/pipesim.js'), 'utf8'), readFileSync(repoPath('wasm/pipesim.js'), 'utf8'));
});

test('without Worker the client runs in-thread and matches the direct API', async () => {
  const client = createSimClient();
  assert.equal(client.mode, 'in-thread');
  const api = await pipesim();
  const config = { schedule: 'dualpipe', ranks: 8, microbatches: 20 };
  assert.equal(await client.simulateJson(config), api.simulateJson(config));
  const viaClient = await client.simulate(config);
  const direct = api.simulate(config);
  assert.deepEqual(viaClient, direct);
  assert.deepEqual(await client.schedules(), api.schedules());
  const request = { schedules: ['1f1b', 'dualpipe'], ranks: [4, 8], microbatches: ['2R', '4R'] };
  assert.deepEqual(await client.sweep(request), api.sweep(request));
});

test('client calls reject with the same SimError as the direct API', async () => {
  const client = createSimClient();
  await assert.rejects(client.simulate({ schedule: 'dualpipe', ranks: 3, microbatches: 8 }), (e) =>
    e instanceof SimError && e.code === 'invalid_config' && e.path === '/ranks' &&
    e.message === 'ranks must be an even integer >= 2 for dualpipe (got 3)');
  await assert.rejects(client.validate(7), (e) => e instanceof SimError && e.message === 'config must be a JSON object (got 7)');
});

test('a client of the figures\' build runs simulate and sweep as the full build does; the rest reject', async () => {
  const client = createSimClient({ build: 'figures' });
  const api = await pipesim();
  const config = { schedule: 'dualpipe', ranks: 8, microbatches: 20 };
  assert.deepEqual(await client.simulate(config), api.simulate(config));
  const request = { schedules: ['1f1b', 'dualpipe'], ranks: [4, 8], microbatches: ['2R', '4R'] };
  assert.deepEqual(await client.sweep(request), api.sweep(request));
  await assert.rejects(client.plan({}), (e) => e instanceof SimError && e.code === 'internal' &&
    e.message === 'plan() is not in pipesim-figures.mjs, the build of the simulator loaded here; the full build, pipesim.mjs, has it');
  assert.throws(() => createSimClient({ build: 'small' }), (e) => e instanceof SimError && e.code === 'internal' &&
    e.message === 'createSimClient\'s build must be one of full, figures');
});
