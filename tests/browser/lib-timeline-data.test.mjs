// web/js/lib/timeline-data.js under Node: the CLI's JSON timeline and the WASM module's typed
// arrays normalise to the same op records; stepping stops at op boundaries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeTimeline, opCount, eventTimes, nextEvent, prevEvent, opDataset, describeOp } from '../../web/js/lib/timeline-data.js';
import { translator } from '../../web/js/lib/i18n.js';

// Rank 0 of DualPipe 4x8 begins F(d0,mb0) ... and contains an FB pair (docs/schema.md shapes).
const jsonResult = {
  ranks: 2,
  timeline: [
    [
      { op: 'F', dir: 0, mb: 0, stage: 0, start: 0, end: 1 },
      { op: 'B', dir: 1, mb: 0, stage: 3, zb: true, start: 4, end: 5 },
      { op: 'FB', fdir: 0, fmb: 3, fstage: 0, bdir: 1, bmb: 1, bstage: 3, start: 7, end: 10 },
    ],
    [{ op: 'W', dir: 1, mb: 0, stage: 2, start: 2, end: 3 }],
  ],
};
const typedResult = {
  ranks: 2,
  timeline: {
    count: 4,
    rank: Int32Array.from([0, 0, 0, 1]),
    op: Uint8Array.from([0, 1, 3, 2]),
    zb: Uint8Array.from([0, 1, 0, 0]),
    dir: Int32Array.from([0, 1, 0, 1]),
    mb: Int32Array.from([0, 0, 3, 0]),
    stage: Int32Array.from([0, 3, 0, 2]),
    bdir: Int32Array.from([-1, -1, 1, -1]),
    bmb: Int32Array.from([-1, -1, 1, -1]),
    bstage: Int32Array.from([-1, -1, 3, -1]),
    start: Float64Array.from([0, 4, 7, 2]),
    end: Float64Array.from([1, 5, 10, 3]),
  },
};

test('both timeline shapes normalise to identical op records', () => {
  const a = normalizeTimeline(jsonResult);
  const b = normalizeTimeline(typedResult);
  assert.deepEqual(a, b);
  assert.equal(a[0][2].kind, 'FB');
  assert.deepEqual([a[0][2].fmb, a[0][2].bmb, a[0][2].bstage], [3, 1, 3]);
  assert.equal(a[0][1].zb, true);
  assert.equal(a[1][0].seq, 0);
  assert.equal(opCount(jsonResult), 4);
  assert.equal(opCount(typedResult), 4);
  assert.throws(() => normalizeTimeline({ ranks: 1, timeline: 'x' }), TypeError);
});

test('step-one-op stops at every distinct start and end time', () => {
  const events = eventTimes(normalizeTimeline(jsonResult));
  assert.deepEqual([...events], [0, 1, 2, 3, 4, 5, 7, 10]);
  assert.equal(nextEvent(events, 5), 7);
  assert.equal(nextEvent(events, 5.5), 7);
  assert.equal(nextEvent(events, 10), 10);
  assert.equal(prevEvent(events, 7), 5);
  assert.equal(prevEvent(events, 0), 0);
});

test('an FB op carries both halves in its data attributes', () => {
  const fb = normalizeTimeline(jsonResult)[0][2];
  assert.deepEqual(opDataset(fb), { rank: 0, op: 'FB', start: 7, end: 10, fdir: 0, fmb: 3, fstage: 0, bdir: 1, bmb: 1, bstage: 3 });
  assert.deepEqual(opDataset(normalizeTimeline(jsonResult)[0][1]).zb, 1);
});

test('describeOp names rank, kind, direction, micro-batch, stage and times', () => {
  const t = translator('en');
  const [f, b, fb] = normalizeTimeline(jsonResult)[0];
  assert.equal(describeOp(f, t), 'Rank 0: forward, direction 0, micro-batch 0, stage 0. Time 0 to 1.');
  assert.equal(describeOp(b, t), 'Rank 0: backward for input (zero-bubble), direction 1, micro-batch 0, stage 3. Time 4 to 5.');
  assert.match(describeOp(fb, t), /^Rank 0: overlapped forward and backward pair\. Forward: direction 0, micro-batch 3, stage 0; backward: direction 1, micro-batch 1, stage 3\. Time 7 to 10\.$/);
});
