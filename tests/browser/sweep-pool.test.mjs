// A sweep split over a pool of module workers (web/js/lib/sweep-pool.js behind sim-client.js)
// returns exactly what one sweep returns: the same rows in the same order, the same n/a rows,
// and for a bad request the same SimError (code, message, path). Checked in Node (the planner and
// merge against the module, and the catalogue limits it relies on) and in Chromium (the
// pool against one worker, the main thread and Node; terminate; the fallbacks). Needs `make site`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, openPage } from './helpers.mjs';
import { planSweep as planWith, MIN_SPLIT_UNITS } from '../../web/js/lib/sweep-pool.js';
import CATALOGUE from '../../web/generated/catalogue.js';

// The planner as the client calls it: with core's catalogue.
const planSweep = (request, options) => planWith(request, { catalogue: CATALOGUE, ...options });

const SCHEDULES = ['gpipe', '1f1b', 'zb-h1', 'dualpipe', 'dualpipev'];
// Issue #3's benchmark: 5 schedules x even R 4..64 x M in {2R, 4R, 8R, 16R} = 620 cells.
const FULL = { schedules: SCHEDULES, ranks: Array.from({ length: 31 }, (_, i) => 4 + 2 * i), microbatches: ['2R', '4R', '8R', '16R'] };
const COSTS = { forward: 1, backward: 2, weight: 1, overlapped: 3, p2pLatency: 0 };
// 105 cells, just enough work to split; an odd ranks value makes n/a rows for DualPipe.
const SMALL = { schedules: SCHEDULES, ranks: [4, 5, 8, 16, 32, 48, 64], microbatches: ['2R', 20, '4R'], costs: COSTS };
// The sweep view's "vs micro-batches" request at 64 ranks: split along micro-batches.
const BY_MB = { schedules: SCHEDULES, ranks: [64], microbatches: Array.from({ length: 16 }, (_, i) => 32 * (i + 1)), costs: COSTS };
const TINY = { schedules: ['1f1b', 'dualpipe'], ranks: [4, 8], microbatches: ['2R'] };

const site = useSite();

const errorOf = (fn) => {
  try {
    fn();
  } catch (e) {
    return { name: e.name, code: e.code, message: e.message, path: e.path };
  }
  return null;
};

// ---- Node: the planner and its merge against the module ----

test('merged parts equal the whole sweep, row for row, for every pool size', () => {
  for (const [request, pools] of [[FULL, [2]], [SMALL, [2, 3, 4]], [BY_MB, [2, 3, 4]]]) {
    const whole = JSON.stringify(site.api.sweep(request));
    // One ranks (or micro-batch) value per part by default; a few values per part with maxParts.
    for (const workers of pools) {
      for (const maxParts of [workers, 32]) {
        const plan = planSweep(request, { workers, maxParts });
        assert.ok(plan, `${workers} workers: the request splits`);
        assert.equal(plan.parts.length, Math.min(maxParts, request.ranks.length > 1 ? request.ranks.length : request.microbatches.length));
        const results = plan.parts.map((part) => site.api.sweep(part.request));
        assert.equal(JSON.stringify(plan.merge(results)), whole, `${workers} workers, ${maxParts} parts at most`);
      }
    }
  }
  // The merge puts each part's rows back where its cells belong: one ranks value per part here,
  // so parts handed over in another order have the right shape but land in the wrong places.
  const plan = planSweep(SMALL, { workers: 2, maxParts: SMALL.ranks.length });
  const results = plan.parts.map((part) => site.api.sweep(part.request));
  assert.notEqual(JSON.stringify(plan.merge([...results].reverse())), JSON.stringify(site.api.sweep(SMALL)));
});

test('parts cut one axis into disjoint pieces, the costliest first, and leave the rest alone', () => {
  const plan = planSweep(FULL, { workers: 2 });
  assert.equal(plan.axis, 'ranks');
  assert.deepEqual(plan.parts.flatMap((p) => p.request.ranks).sort((a, b) => a - b), FULL.ranks);
  for (const { request } of plan.parts) {
    assert.deepEqual(request.schedules, FULL.schedules);
    assert.deepEqual(request.microbatches, FULL.microbatches);
  }
  const costs = plan.parts.map((p) => p.cost);
  assert.deepEqual(costs, [...costs].sort((a, b) => b - a));
  assert.deepEqual(plan.parts[0].request.ranks, [64]);
  // With one ranks value the micro-batch list is cut, costs kept as given.
  const byMb = planSweep(BY_MB, { workers: 2, maxParts: 4 });
  assert.equal(byMb.axis, 'microbatches');
  assert.equal(byMb.parts.length, 4);
  assert.deepEqual(byMb.parts.flatMap((p) => p.request.microbatches).sort((a, b) => a - b), BY_MB.microbatches);
  assert.ok(byMb.parts.every((p) => p.request.costs === COSTS && p.request.ranks.length === 1));
});

test('a merge refuses results that are not the parts\' sweeps', () => {
  const plan = planSweep(SMALL, { workers: 2 });
  const results = plan.parts.map((part) => site.api.sweep(part.request));
  assert.throws(() => plan.merge(results.slice(1)));
  assert.throws(() => plan.merge([{ ...results[0], extra: 1 }, ...results.slice(1)]));
  assert.throws(() => plan.merge([{ rows: results[0].rows.slice(1) }, ...results.slice(1)]));
});

test('small, single-worker and unusual requests are not split', () => {
  assert.equal(planSweep(FULL, { workers: 1 }), null);
  assert.equal(planSweep(TINY, { workers: 4 }), null);
  assert.equal(planSweep({ ...FULL, ranks: [64], microbatches: ['16R'] }, { workers: 4 }), null);  // one cell per schedule
  const unusual = [
    null, [], 'sweep', { ...FULL, extra: 1 }, { ...FULL, ranks: [4, 6, 8, 3000] }, { ...FULL, ranks: [4, 6.5] },
    { ...FULL, ranks: [4, NaN] }, { ...FULL, ranks: [4, '6'] }, { ...FULL, ranks: [4, , 8] },  // eslint-disable-line no-sparse-arrays
    { ...FULL, microbatches: ['2R', '0R'] }, { ...FULL, microbatches: ['2R', -4] }, { ...FULL, microbatches: ['2R', '4X'] },
    { ...FULL, schedules: [] }, { ...FULL, schedules: ['gpipe', 7] }, { ...FULL, ranks: 8 },
    Object.assign(Object.create({ inherited: 1 }), FULL),
    // Up to 6 ops per rank per micro-batch could pass core's 60M-op limit (core does not count
    // the R=1000 cells, each over its own cap, so this one runs whole although it is valid).
    { ...FULL, ranks: [...FULL.ranks, 1000] },
    { schedules: ['gpipe'], ranks: [1000], microbatches: Array(31).fill(1000) },  // 62M ops: too_large
    { schedules: ['gpipe'], ranks: [1, 2], microbatches: Array(10001).fill(1) },  // 20,002 cells
  ];
  for (const request of unusual) assert.equal(planSweep(request, { workers: 4 }), null, JSON.stringify(request)?.slice(0, 80));
  assert.ok(planSweep(SMALL, { workers: 2, minUnits: MIN_SPLIT_UNITS }));
});

test('the catalogue limits and layouts the planner relies on are the ones core enforces', () => {
  const { maxSweepCells: maxCells, maxSweepOps: maxOps, maxRanks, maxOps: maxSimOps } = CATALOGUE.limits;
  const cells = { schedules: ['gpipe'], ranks: [1], microbatches: Array(maxCells + 1).fill(1) };
  assert.equal(errorOf(() => site.api.sweep(cells)).message, `a sweep may have at most ${maxCells} cells (got ${maxCells + 1})`);
  const ops = { schedules: ['gpipe'], ranks: [1000], microbatches: Array(31).fill(1000) };  // 31 x 2M ops
  assert.match(errorOf(() => site.api.sweep(ops)).message, new RegExp(`above the limit of ${maxOps}$`));
  assert.equal(errorOf(() => site.api.sweep({ ...TINY, ranks: [maxRanks + 1] })).message, `ranks must be integers in [1, ${maxRanks}] (got ${maxRanks + 1})`);
  assert.equal(site.api.sweep({ ...TINY, ranks: [maxRanks], microbatches: [1] }).rows.length, 2);
  // Core's op estimate is microbatches x stages x opsPerChunk from each schedule's layout: it
  // names the estimate when it is over its per-simulation cap, which these shapes all are.
  for (const { name, layout } of CATALOGUE.schedules) {
    for (const [ranks, microbatches] of [[2, 2 ** 20], [64, 2 ** 15], [1024, 2 ** 11]]) {
      const error = errorOf(() => site.api.validate({ schedule: name, ranks, microbatches }));
      assert.equal(error?.code, 'too_large', `${name} ${ranks}x${microbatches}`);
      const estimate = Number(/about (\d+) ops/.exec(error.message)[1]);
      const stages = (ranks * layout.stagesPerRank) / layout.directions;
      assert.equal(estimate, microbatches * stages * layout.opsPerChunk, `${name}: ${estimate} ops`);
      assert.ok(estimate > maxSimOps);
    }
  }
});

test('chunks travel with every part, and the size estimate counts them as core does', () => {
  const chunked = CATALOGUE.schedules.find((s) => s.chunks);
  const request = { ...SMALL, schedules: [...SMALL.schedules, chunked.name], ranks: [4, 8, 16, 32], microbatches: ['2R', '4R'], chunks: 3 };
  const plan = planSweep(request, { workers: 2, minUnits: 0 });
  assert.ok(plan, 'a request with chunks splits');
  assert.ok(plan.parts.every((part) => part.request.chunks === 3));
  const whole = site.api.sweep(request);
  assert.notDeepEqual(whole, site.api.sweep({ ...request, chunks: 0 }), 'chunks change the chunked schedule\'s rows');
  assert.equal(JSON.stringify(plan.merge(plan.parts.map((part) => site.api.sweep(part.request)))), JSON.stringify(whole));
  // 31 cells of 960 micro-batches on 64 ranks: about 7.6M ops at the default chunks, 61M at the
  // most (64 x 16 stages x 2 ops x 960 each): over core's sweep limit, so that one runs whole.
  const big = { schedules: [chunked.name], ranks: [64], microbatches: Array(31).fill(960) };
  assert.ok(planSweep(big, { workers: 2 }));
  const most = { ...big, chunks: CATALOGUE.limits.maxChunks };
  assert.equal(errorOf(() => site.api.sweep(most))?.code, 'too_large');
  assert.equal(planSweep(most, { workers: 2 }), null);
  for (const chunks of [-1, 2.5, '3', CATALOGUE.limits.maxChunks + 1]) assert.equal(planSweep({ ...request, chunks }, { workers: 2, minUnits: 0 }), null, String(chunks));
});

test('a request naming a schedule outside the catalogue runs whole, so core names it', () => {
  assert.equal(planSweep({ ...FULL, schedules: [...SCHEDULES, 'pipedream'] }, { workers: 2 }), null);
  assert.equal(planWith(FULL, { workers: 2 }), null, 'no catalogue: no split');
});

// ---- Chromium: the client's pool against one worker, the main thread and Node ----

/** Runs `fn(request, ...)` in a fresh page that has the client module; returns its value. */
async function inPage(fn, arg, setup) {
  const { context, page, log } = await openPage(site.browser);
  const failed = [];
  page.on('response', (r) => { if (r.status() >= 400 && new URL(r.url()).pathname !== '/favicon.ico') failed.push(`${r.status()} ${r.url()}`); });
  try {
    if (setup) await page.addInitScript(setup);
    await page.goto(`${site.server.url}generated/manifest.json`);
    const value = await page.evaluate(fn, arg);
    const offOrigin = log.requests.filter((url) => !url.startsWith(site.server.url));
    return { value, failed, offOrigin, log };
  } finally {
    await context.close();
  }
}

// In the page: records every sweep request posted to each worker, so a test can tell that the
// pool really split the sweep.
const RECORD_POSTS = () => {
  const post = Worker.prototype.postMessage;
  const ids = new WeakMap();
  let workers = 0;
  globalThis.sweepPosts = [];
  Worker.prototype.postMessage = function record(message, ...rest) {
    if (!ids.has(this)) ids.set(this, workers++);
    if (message?.method === 'sweep') globalThis.sweepPosts.push({ worker: ids.get(this), request: message.args[0] });
    return post.call(this, message, ...rest);
  };
};

test('in Chromium the pooled sweep equals one worker, the main thread and Node', async () => {
  const requests = { FULL, SMALL, BY_MB, TINY };
  const { value, failed, offOrigin } = await inPage(async (reqs) => {
    const { createSimClient, defaultPoolSize } = await import('/js/lib/sim-client.js');
    const { loadPipesim } = await import('/generated/pipesim.js');
    const main = await loadPipesim();
    const single = createSimClient({ poolSize: 1 });
    const out = { defaultPoolSize: defaultPoolSize(), cores: navigator.hardwareConcurrency, single: {}, main: {}, pooled: {} };
    for (const [name, request] of Object.entries(reqs)) {
      out.single[name] = JSON.stringify(await single.sweep(request));
      out.main[name] = JSON.stringify(main.sweep(request));
    }
    single.terminate();
    for (const poolSize of [2, 4]) {
      const pool = createSimClient({ poolSize });
      for (const [name, request] of Object.entries(reqs)) {
        globalThis.sweepPosts.length = 0;
        const rows = JSON.stringify(await pool.sweep(request));
        const posts = globalThis.sweepPosts.map((p) => ({ worker: p.worker, cells: p.request.schedules.length * p.request.ranks.length * p.request.microbatches.length }));
        out.pooled[`${name}/${poolSize}`] = { rows, posts, workers: pool.workers };
      }
      pool.terminate();
    }
    return out;
  }, requests, RECORD_POSTS);
  assert.deepEqual(failed, []);
  assert.deepEqual(offOrigin, []);
  assert.equal(value.defaultPoolSize, Math.max(1, Math.min(value.cores, 4)));
  const node = Object.fromEntries(Object.entries(requests).map(([name, request]) => [name, JSON.stringify(site.api.sweep(request))]));
  for (const name of Object.keys(requests)) {
    assert.equal(value.single[name], node[name], `${name}: one worker = Node`);
    assert.equal(value.main[name], node[name], `${name}: main thread = Node`);
  }
  for (const [key, r] of Object.entries(value.pooled)) {
    const [name, poolSize] = key.split('/');
    const request = requests[name];
    assert.equal(r.rows, node[name], `${key}: pooled = Node`);
    const cells = request.schedules.length * request.ranks.length * request.microbatches.length;
    assert.equal(r.posts.reduce((sum, p) => sum + p.cells, 0), cells, `${key}: every cell ran once`);
    if (name === 'TINY') {
      assert.equal(r.posts.length, 1, 'a tiny sweep is one message to one worker');
    } else {
      assert.equal(r.workers, Number(poolSize), `${key}: the pool started`);
      assert.ok(new Set(r.posts.map((p) => p.worker)).size > 1, `${key}: parts ran on several workers`);
    }
  }
  assert.equal(JSON.parse(value.pooled['FULL/2'].rows).rows.length, 620);
});

test('a bad sweep gives the same SimError through the pool as through one worker', async () => {
  const bad = [
    { ...FULL, ranks: [4, 6, 8, 3000] },                      // /ranks/3: an index of the caller's list
    { ...FULL, schedules: ['gpipe', '1f1b', 'nope'] },        // every part fails alike
    { ...FULL, costs: { ...COSTS, forward: -1 } },
    { ...FULL, microbatches: ['2R', '4X'] },
    { ...FULL, extra: true },
    { schedules: ['gpipe'], ranks: [1000], microbatches: Array(31).fill(1000) },  // too_large: 62M ops in all
    { schedules: ['gpipe'], ranks: [1, 2], microbatches: Array(10001).fill(1) },  // too_large: cells
    { ...FULL, ranks: [] },
    'not a sweep',
  ];
  const { value } = await inPage(async (requests) => {
    const { createSimClient } = await import('/js/lib/sim-client.js');
    const describe = async (promise) => promise.then(
      (v) => ({ resolved: v }),
      (e) => ({ name: e.name, code: e.code, message: e.message, path: e.path }));
    const pool = createSimClient({ poolSize: 4 });
    const single = createSimClient({ poolSize: 1 });
    const out = [];
    for (const request of requests) out.push({ pooled: await describe(pool.sweep(request)), single: await describe(single.sweep(request)) });
    pool.terminate();
    single.terminate();
    return out;
  }, bad);
  bad.forEach((request, i) => {
    const expected = errorOf(() => site.api.sweep(request));
    assert.ok(expected, `case ${i} is an error in Node`);
    assert.deepEqual(value[i].pooled, expected, `case ${i}: pooled`);
    assert.deepEqual(value[i].single, expected, `case ${i}: one worker`);
  });
  assert.equal(errorOf(() => site.api.sweep(bad[1])).path, '/schedules/2');
  assert.equal(errorOf(() => site.api.sweep(bad[0])).path, '/ranks/3');
});

// NaN does not survive page.evaluate's arguments, so this request is built in the page.
test('a NaN cost gives the same SimError through the pool as through one worker', async () => {
  const expected = errorOf(() => site.api.sweep({ ...FULL, costs: { ...COSTS, forward: Number.NaN } }));
  assert.deepEqual(expected, { name: 'SimError', code: 'invalid_config', message: 'costs.forward must be a finite number (got NaN)', path: '/costs/forward' });
  const { value } = await inPage(async ({ full, costs }) => {
    const { createSimClient } = await import('/js/lib/sim-client.js');
    const request = { ...full, costs: { ...costs, forward: Number.NaN } };
    const describe = async (promise) => promise.then(() => null, (e) => ({ name: e.name, code: e.code, message: e.message, path: e.path }));
    const pool = createSimClient({ poolSize: 2 });
    const single = createSimClient({ poolSize: 1 });
    const out = { pooled: await describe(pool.sweep(request)), single: await describe(single.sweep(request)) };
    pool.terminate();
    single.terminate();
    return out;
  }, { full: FULL, costs: COSTS });
  assert.deepEqual(value.pooled, expected);
  assert.deepEqual(value.single, expected);
});

test('terminate() stops every worker and rejects the running sweep; the next sweep starts afresh', async () => {
  const { context, page } = await openPage(site.browser);
  try {
    await page.goto(`${site.server.url}generated/manifest.json`);
    const warmed = await page.evaluate(async () => {
      const { createSimClient } = await import('/js/lib/sim-client.js');
      globalThis.pool = createSimClient({ poolSize: 3 });
      return globalThis.pool.prewarm();
    });
    assert.equal(warmed, 3);
    assert.equal(page.workers().length, 3, 'three module workers run in the page');
    const closed = Promise.all(page.workers().map((w) => new Promise((resolve) => w.once('close', resolve))));
    const after = await page.evaluate(async (full) => {
      const running = globalThis.pool.sweep(full).then(() => null, (e) => ({ name: e.name, code: e.code, message: e.message }));
      await new Promise((resolve) => setTimeout(resolve, 20));
      globalThis.pool.terminate();
      return { workers: globalThis.pool.workers, error: await running };
    }, FULL);
    assert.deepEqual(after, { workers: 0, error: { name: 'SimError', code: 'internal', message: 'the simulation client was terminated' } });
    // Waits for the close events; a worker left running fails the assertion below instead of hanging.
    await Promise.race([closed, new Promise((resolve) => { setTimeout(resolve, 10000).unref(); })]);
    assert.equal(page.workers().length, 0, 'every worker was stopped');
    const again = await page.evaluate(async (full) => {
      const rows = JSON.stringify(await globalThis.pool.sweep(full));
      return { rows, workers: globalThis.pool.workers };
    }, FULL);
    assert.equal(again.rows, JSON.stringify(site.api.sweep(FULL)));
    assert.equal(again.workers, 3);
  } finally {
    await context.close();
  }
});

test('without Worker the client sweeps in this thread, with the same rows and SimErrors', async () => {
  const { value } = await inPage(async ({ small, bad }) => {
    const { createSimClient } = await import('/js/lib/sim-client.js');
    const client = createSimClient({ poolSize: 4 });
    const rows = JSON.stringify(await client.sweep(small));
    const error = await client.sweep(bad).then(() => null, (e) => ({ name: e.name, code: e.code, message: e.message, path: e.path }));
    return { mode: client.mode, workers: client.workers, prewarmed: await client.prewarm(), rows, error };
  }, { small: SMALL, bad: { ...SMALL, ranks: [4, 0] } }, () => { delete globalThis.Worker; });
  assert.equal(value.mode, 'in-thread');
  assert.equal(value.workers, 0);
  assert.equal(value.prewarmed, 0);
  assert.equal(value.rows, JSON.stringify(site.api.sweep(SMALL)));
  assert.deepEqual(value.error, errorOf(() => site.api.sweep({ ...SMALL, ranks: [4, 0] })));
  assert.equal(value.error.path, '/ranks/1');
});

test('a pool worker that fails to start hands every part to this thread, same rows', async () => {
  // The second worker the page creates gets a script that does not exist: its error event must
  // make the client finish the sweep in this thread, with the rows one worker gives.
  const { value, failed } = await inPage(async (full) => {
    const { createSimClient } = await import('/js/lib/sim-client.js');
    const pool = createSimClient({ poolSize: 2 });
    await pool.schedules();
    const rows = JSON.stringify(await pool.sweep(full));
    return { rows, mode: pool.mode, workers: pool.workers };
  }, FULL, () => {
    const Real = Worker;
    let made = 0;
    globalThis.Worker = class extends Real {
      constructor(url, options) {
        made += 1;
        super(made === 2 ? new URL('/js/no-such-worker.js', location.href) : url, options);
      }
    };
  });
  assert.equal(value.rows, JSON.stringify(site.api.sweep(FULL)));
  assert.equal(value.mode, 'in-thread');
  assert.equal(value.workers, 0);
  assert.ok(failed.some((f) => f.includes('/js/no-such-worker.js')), 'the broken worker was really requested');
});

test('when a part fails the whole request runs once more, and its outcome is what the caller gets', async () => {
  // Every sweep part the second worker receives is spoiled (an extra rank of 5000, so it fails
  // with a path that names the part's list). The client must not report that error: it reruns
  // the whole, valid request on the first worker and returns its rows.
  const { value } = await inPage(async (full) => {
    const { createSimClient } = await import('/js/lib/sim-client.js');
    const pool = createSimClient({ poolSize: 2 });
    await pool.prewarm();
    const rows = await pool.sweep(full).then((r) => JSON.stringify(r), (e) => `${e.code} ${e.path}: ${e.message}`);
    return { rows, spoiled: globalThis.spoiled };
  }, FULL, () => {
    const post = Worker.prototype.postMessage;
    const order = new WeakMap();
    let made = 0;
    globalThis.spoiled = 0;
    Worker.prototype.postMessage = function spoil(message, ...rest) {
      if (!order.has(this)) order.set(this, made++);
      if (message?.method === 'sweep' && order.get(this) === 1) {
        globalThis.spoiled += 1;
        const part = message.args[0];
        return post.call(this, { ...message, args: [{ ...part, ranks: [...part.ranks, 5000] }] }, ...rest);
      }
      return post.call(this, message, ...rest);
    };
  });
  assert.ok(value.spoiled > 0, 'the second worker received parts');
  assert.equal(value.rows, JSON.stringify(site.api.sweep(FULL)));
});
