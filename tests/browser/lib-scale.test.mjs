// web/js/lib/scale.js under Node: the time axis maths of the timeline and sweep charts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linearScale, niceStep, ticks, clamp } from '../../web/js/lib/scale.js';

test('linearScale maps and inverts', () => {
  const x = linearScale([0, 66], [64, 64 + 660]);
  assert.equal(x(0), 64);
  assert.equal(x(33), 394);
  assert.equal(x.invert(394), 33);
  assert.equal(linearScale([5, 5], [0, 100])(5), 0); // a zero-width domain does not divide by 0
});

test('niceStep picks 1, 2 or 5 times a power of ten', () => {
  assert.equal(niceStep(66, 8), 10); // 66/8 = 8.25 -> 10
  assert.equal(niceStep(26, 13), 2);
  assert.equal(niceStep(0.9, 9), 0.1);
  assert.equal(niceStep(0, 8), 1);
});

test('ticks cover the range on the nice step, integers when asked', () => {
  assert.deepEqual(ticks(0, 66, 8), [0, 10, 20, 30, 40, 50, 60]);
  assert.deepEqual(ticks(0, 1.2, 6), [0, 0.2, 0.4, 0.6, 0.8, 1, 1.2]);
  assert.deepEqual(ticks(0, 3, 10, { integer: true }), [0, 1, 2, 3]);
});

test('clamp keeps a value inside its bounds', () => {
  assert.equal(clamp(5, 0, 3), 3);
  assert.equal(clamp(-1, 0, 3), 0);
  assert.equal(clamp(2, 0, 3), 2);
});
