// web/js/lib/timeline-runs.js under Node: any number of runs on one time axis, from simulator
// results (the JS API here, as the page's worker gives them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runSet } from '../../web/js/lib/timeline-runs.js';
import { pipesim } from './helpers.mjs';

const api = await pipesim();
const run = (schedule) => api.simulate({ schedule, ranks: 4, microbatches: 8 });

test('three schedules share the axis of the longest and every stop of each', () => {
  const results = ['gpipe', '1f1b', 'dualpipe'].map(run);
  // By hand at F = 1, B = 2 on 4 ranks with 8 micro-batches: GPipe and 1F1B take
  // 8 x 3 + 3 x 3 = 33 (work 24 plus the (P-1)(F+B) = 9 bubble); DualPipe 26 (work 24 + 2).
  assert.deepEqual(results.map((r) => r.makespan), [33, 33, 26]);
  const set = runSet(results, ['a', 'b', 'c']);
  assert.equal(set.makespan, 33);
  assert.deepEqual(set.lanes.map((l) => [l.title, l.result.schedule, l.tracks.length]), [['a', 'gpipe', 4], ['b', '1f1b', 4], ['c', 'dualpipe', 4]]);
  assert.deepEqual(set.lanes.map((l) => l.opCount), results.map((r) => r.timeline.count));
  // The stops: every start and end of every run, once each, in order, 0 first.
  const expected = [...new Set([0, ...results.flatMap((r) => [...r.timeline.start, ...r.timeline.end])])].sort((a, b) => a - b);
  assert.deepEqual([...set.events], expected);
  // Zoom bottoms out at the shortest op of any run: DualPipe's W and input-gradient B last 1.
  assert.equal(set.limits.makespan, 33);
  assert.ok(set.limits.minSpan > 0 && set.limits.minSpan <= 33);
  // One op read back from its lane: rank 0's first op of DualPipe is a forward from t = 0 to 1.
  assert.deepEqual([set.lanes[2].opAt(0, 0).kind, set.lanes[2].opAt(0, 0).start, set.lanes[2].opAt(0, 0).end], ['F', 0, 1]);
});

test('one run alone, and titles default to the schedule', () => {
  const set = runSet([run('zb-h1')]);
  assert.equal(set.lanes.length, 1);
  assert.equal(set.lanes[0].title, 'zb-h1');
  assert.equal(set.makespan, set.lanes[0].result.makespan);
});
