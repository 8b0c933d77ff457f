// web/js/lib/timeline-playback.js under Node: one frame of playback, gliding or, under reduced
// motion, in still frames that land where items start or end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { playStep, SECONDS_PER_RUN, REDUCED_STEP_MS } from '../../web/js/lib/timeline-playback.js';

const events = Float64Array.from([0, 1, 3, 6]);

test('gliding, the cursor crosses any run in SECONDS_PER_RUN seconds at 1x', () => {
  assert.equal(SECONDS_PER_RUN, 12);
  // A run of 24 at 1x moves 2 a second: half a second is 1; at 2x, 2. The unit does not matter.
  assert.deepEqual(playStep({ cursor: 3, makespan: 24, events, speed: 1, dt: 0.5, reduced: false }), { cursor: 4, waited: 0 });
  assert.deepEqual(playStep({ cursor: 3, makespan: 24, events, speed: 2, dt: 0.5, reduced: false }), { cursor: 5, waited: 0 });
  // It stops at the end.
  assert.deepEqual(playStep({ cursor: 23.5, makespan: 24, events, speed: 4, dt: 0.1, reduced: false }), { cursor: 24, waited: 0 });
});

test('under reduced motion it waits REDUCED_STEP_MS (at 1x) and jumps to the next event', () => {
  assert.equal(REDUCED_STEP_MS, 900);
  const first = playStep({ cursor: 1, makespan: 6, events, speed: 1, dt: 0.5, reduced: true });
  assert.deepEqual(first, { cursor: 1, waited: 500 });
  // 500 + 400 ms = 900: the next still frame, at the next item boundary after 1, which is 3.
  assert.deepEqual(playStep({ cursor: 1, makespan: 6, events, speed: 1, dt: 0.4, reduced: true, waited: first.waited }), { cursor: 3, waited: 0 });
  // At 2x it waits half as long.
  assert.deepEqual(playStep({ cursor: 3, makespan: 6, events, speed: 2, dt: 0.45, reduced: true }), { cursor: 6, waited: 0 });
});
