// web/js/lib/sim-cache.js under Node: one run per distinct request (key order does not matter),
// rejections kept, the least recently used dropped past the limit, non-pure methods passed
// through, and seeds answered without asking the client.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withCache, cacheKey } from '../../web/js/lib/sim-cache.js';

/** A client whose simulate and validate count their calls. */
function countingClient() {
  const calls = { simulate: 0, validate: 0 };
  return {
    calls,
    simulate: async (request) => {
      calls.simulate++;
      if (request.ranks < 1) throw new Error('bad ranks');
      return { ranks: request.ranks };
    },
    validate: async (request) => { calls.validate++; return request; },
  };
}

test('the same request, with its keys in any order, runs once; results are shared', async () => {
  const client = countingClient();
  const sim = withCache(client);
  const a = await sim.simulate({ schedule: '1f1b', ranks: 4, costs: { forward: 1, backward: 2 } });
  const b = await sim.simulate({ costs: { backward: 2, forward: 1 }, ranks: 4, schedule: '1f1b' });
  assert.equal(a, b);
  assert.equal(client.calls.simulate, 1);
  assert.equal(cacheKey('simulate', { b: [2, { d: 1, c: 0 }], a: 1 }), 'simulate:{"a":1,"b":[2,{"c":0,"d":1}]}');
  // Array order is the request's meaning: kept.
  assert.notEqual(cacheKey('sweep', { ranks: [4, 8] }), cacheKey('sweep', { ranks: [8, 4] }));
});

test('a rejection is kept too; a method that is not pure is never cached', async () => {
  const client = countingClient();
  const sim = withCache(client);
  await assert.rejects(sim.simulate({ ranks: 0 }), /bad ranks/);
  await assert.rejects(sim.simulate({ ranks: 0 }), /bad ranks/);
  assert.equal(client.calls.simulate, 1);
  await sim.validate({ ranks: 2 });
  await sim.validate({ ranks: 2 });
  assert.equal(client.calls.validate, 2);
});

test('past the limit the least recently used result is dropped', async () => {
  const client = countingClient();
  const sim = withCache(client, { limit: 2 });
  await sim.simulate({ ranks: 1 });
  await sim.simulate({ ranks: 2 });
  await sim.simulate({ ranks: 1 }); // used again: now the most recent
  await sim.simulate({ ranks: 3 }); // drops ranks 2
  assert.equal(client.calls.simulate, 3);
  await sim.simulate({ ranks: 1 });
  assert.equal(client.calls.simulate, 3);
  await sim.simulate({ ranks: 2 });
  assert.equal(client.calls.simulate, 4);
});

test('seeds answer their requests without the client; other requests and methods still ask it', async () => {
  const client = countingClient();
  const seeded = { ranks: 8, from: 'the build' };
  const sim = withCache(client, { seeds: [
    { method: 'simulate', request: { schedule: 'dualpipe', ranks: 8 }, value: seeded },
    { method: 'validate', request: { ranks: 8 }, value: 'not a pure method: never handed out' },
  ] });
  assert.equal(await sim.simulate({ ranks: 8, schedule: 'dualpipe' }), seeded);
  assert.equal(client.calls.simulate, 0);
  assert.deepEqual(await sim.simulate({ schedule: 'dualpipe', ranks: 6 }), { ranks: 6 });
  assert.equal(client.calls.simulate, 1);
  assert.deepEqual(await sim.validate({ ranks: 8 }), { ranks: 8 });
  assert.equal(client.calls.validate, 1);
});
