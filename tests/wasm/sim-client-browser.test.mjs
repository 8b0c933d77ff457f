// The page's path to the simulator, in Debian's Chromium under the real server and CSP: the
// module loads on the main thread and in a module Web Worker (script-src 'wasm-unsafe-eval',
// worker-src 'self', no 'unsafe-eval' since the module is built with DYNAMIC_EXECUTION=0), the
// worker transfers the timeline typed arrays and its errors arrive as SimErrors, and the results
// equal Node's byte for byte. Needs `make site`.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import test from 'node:test';
import { launchChromium } from '../../scripts/chromium.mjs';
import { pipesim, repoPath } from './helpers.mjs';

let server;
let browser;
let page;
let origin;
const problems = [];  // console errors, page errors and requests leaving the origin

test.before(async () => {
  server = spawn(process.execPath, [repoPath('scripts/serve.mjs'), '--port', '0', '--root', repoPath('web')],
                 { stdio: ['ignore', 'pipe', 'inherit'] });
  origin = (await new Promise((resolve) => createInterface({ input: server.stdout }).once('line', resolve))).replace(/\/$/, '');
  browser = await launchChromium();
  page = await browser.newPage();
  // The stand-in document below has no <link rel="icon">, so Chromium's favicon request 404s:
  // failed responses are recorded by URL instead of as console text, and that one is ignored.
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(`console: ${m.text()}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400 && new URL(r.url()).pathname !== '/favicon.ico') problems.push(`${r.status()}: ${r.url()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('request', (r) => { if (!r.url().startsWith(origin)) problems.push(`request: ${r.url()}`); });
  // Any same-origin document will do: it gets the server's CSP, and the modules under test load from it.
  await page.goto(`${origin}/generated/manifest.json`);
});

test.after(async () => {
  await browser?.close();
  server?.kill();
});

const CONFIG = { schedule: 'dualpipe', ranks: 8, microbatches: 20 };

test('the worker client simulates in a module worker with transferred typed arrays', async () => {
  const api = await pipesim();
  const got = await page.evaluate(async (config) => {
    const { createSimClient } = await import('/js/lib/sim-client.js');
    const client = createSimClient();
    const result = await client.simulate(config);
    const json = await client.simulateJson(config);
    const out = { mode: client.mode, json, count: result.timeline.count, makespan: result.makespan,
                  types: Object.values(result.timeline).slice(1).map((a) => a.constructor.name),
                  op: Array.from(result.timeline.op), start: Array.from(result.timeline.start) };
    client.terminate();
    return out;
  }, CONFIG);
  const direct = api.simulate(CONFIG);
  assert.equal(got.mode, 'worker');
  assert.equal(got.json, api.simulateJson(CONFIG));
  assert.equal(got.count, direct.timeline.count);
  assert.equal(got.makespan, direct.makespan);
  assert.deepEqual(got.types, Object.values(direct.timeline).slice(1).map((a) => a.constructor.name));
  assert.deepEqual(got.op, Array.from(direct.timeline.op));
  assert.deepEqual(got.start, Array.from(direct.timeline.start));
});

test('worker errors arrive as SimErrors with code, message and path', async () => {
  const got = await page.evaluate(async () => {
    const { createSimClient, SimError } = await import('/js/lib/sim-client.js');
    const client = createSimClient();
    try {
      await client.simulate({ schedule: 'dualpipe', ranks: 3, microbatches: 8 });
      return null;
    } catch (e) {
      return { isSimError: e instanceof SimError, code: e.code, message: e.message, path: e.path };
    } finally {
      client.terminate();
    }
  });
  assert.deepEqual(got, { isSimError: true, code: 'invalid_config', path: '/ranks',
                          message: 'ranks must be an even integer >= 2 for dualpipe (got 3)' });
});

test('a sweep in the worker equals the sweep in Node', async () => {
  const api = await pipesim();
  const request = { schedules: ['gpipe', '1f1b', 'zb-h1', 'dualpipe', 'dualpipev'], ranks: [4, 8, 16], microbatches: ['2R', '4R', '8R'] };
  const got = await page.evaluate(async (req) => {
    const { createSimClient } = await import('/js/lib/sim-client.js');
    const client = createSimClient();
    try {
      return await client.sweep(req);
    } finally {
      client.terminate();
    }
  }, request);
  assert.deepEqual(got, api.sweep(request));
});

test('a client of the figures\' build runs its worker on pipesim-figures.wasm alone, with the full build\'s results', async () => {
  const api = await pipesim();
  const wasm = [];
  const onRequest = (r) => { if (r.url().endsWith('.wasm')) wasm.push(new URL(r.url()).pathname); };
  page.context().on('request', onRequest);
  const request = { schedules: ['1f1b', 'dualpipe'], ranks: [4, 8], microbatches: ['2R', '4R'] };
  try {
    const got = await page.evaluate(async ({ config, request }) => {
      const { createSimClient } = await import('/js/lib/sim-client.js');
      const client = createSimClient({ build: 'figures', poolSize: 1 });
      try {
        const result = await client.simulate(config);
        const plan = await client.plan({}).then(() => null, (e) => ({ name: e.name, code: e.code, message: e.message }));
        return { mode: client.mode, makespan: result.makespan, end: Array.from(result.timeline.end), sweep: await client.sweep(request), plan };
      } finally {
        client.terminate();
      }
    }, { config: CONFIG, request });
    const direct = api.simulate(CONFIG);
    assert.equal(got.mode, 'worker');
    assert.equal(got.makespan, direct.makespan);
    assert.deepEqual(got.end, Array.from(direct.timeline.end));
    assert.deepEqual(got.sweep, api.sweep(request));
    assert.deepEqual(got.plan, { name: 'SimError', code: 'internal',
      message: 'plan() is not in pipesim-figures.mjs, the build of the simulator loaded here; the full build, pipesim.mjs, has it' });
    assert.deepEqual(wasm, ['/generated/pipesim-figures.wasm']);
  } finally {
    page.context().off('request', onRequest);
  }
});

test('the module also loads on the main thread under the page CSP', async () => {
  const api = await pipesim();
  const json = await page.evaluate(async (config) => {
    const { loadPipesim } = await import('/generated/pipesim.js');
    return (await loadPipesim()).simulateJson(config);
  }, CONFIG);
  assert.equal(json, api.simulateJson(CONFIG));
});

test('nothing logged an error or left the origin', () => {
  assert.deepEqual(problems, []);
});
