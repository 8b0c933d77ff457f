// web/js/lib/timeline-viewport.js under Node: the time window a timeline shows. Hand values:
// a 66-unit run (DualPipe 8x20 at DeepSeek's costs) whose shortest op lasts 1 may zoom in to a
// 4-unit window; zooming keeps the anchor's place on screen; no view leaves [0, makespan].
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  viewLimits, fitView, clampView, isFit, magnification, zoomView, panView, centerOn, revealSpan, followView,
  timeToX, xToTime, overviewWindow, wheelZoomFactor, viewKeyAction, applyViewAction, ZOOM_STEP, PAN_STEP,
} from '../../web/js/lib/timeline-viewport.js';

const limits = viewLimits(66, 1);

test('a run opens whole, and zoom stops when four of its shortest ops fill the view', () => {
  assert.deepEqual(limits, { makespan: 66, minSpan: 4 });
  assert.deepEqual(fitView(limits), { start: 0, end: 66 });
  assert.ok(isFit(fitView(limits), limits));
  // A run shorter than four shortest ops cannot be zoomed at all.
  assert.deepEqual(viewLimits(3, 1), { makespan: 3, minSpan: 3 });
  // Nonsense inputs still give a usable window.
  assert.deepEqual(viewLimits(0, Infinity), { makespan: 1, minSpan: 1 });
  let v = fitView(limits);
  for (let i = 0; i < 10; i++) v = zoomView(v, ZOOM_STEP, 30, limits);
  assert.ok(Math.abs(v.end - v.start - 4) < 1e-9, `span ${v.end - v.start}`);
  assert.ok(Math.abs(magnification(v, limits) - 16.5) < 1e-9);
});

test('zooming keeps the anchor time at the same place on screen', () => {
  const v = zoomView(fitView(limits), 2, 33, limits);
  assert.deepEqual(v, { start: 16.5, end: 49.5 });
  const before = timeToX(fitView(limits), 1000, 10);
  const zoomed = zoomView(fitView(limits), 3, 10, limits);
  assert.ok(Math.abs(timeToX(zoomed, 1000, 10) - before) < 1e-9);
  // Zooming out past the whole run fits it; an anchor outside the view is pulled into it.
  assert.deepEqual(zoomView(v, 1 / 8, 40, limits), { start: 0, end: 66 });
  assert.deepEqual(zoomView({ start: 10, end: 20 }, 2, 100, limits), { start: 15, end: 20 });
});

test('panning stops at the run\'s ends and keeps the span', () => {
  const v = { start: 10, end: 20 };
  assert.deepEqual(panView(v, 5, limits), { start: 15, end: 25 });
  assert.deepEqual(panView(v, -50, limits), { start: 0, end: 10 });
  assert.deepEqual(panView(v, 500, limits), { start: 56, end: 66 });
  assert.deepEqual(centerOn(v, 65, limits), { start: 56, end: 66 });
  assert.deepEqual(clampView({ start: -3, end: 1 }, limits), { start: 0, end: 4 });
});

test('revealing an op or the cursor pans as little as possible', () => {
  const v = { start: 10, end: 30 };
  assert.equal(revealSpan(v, 12, 14, limits), v, 'already in view: the same object');
  assert.deepEqual(revealSpan(v, 35, 36, limits), { start: 17, end: 37 }); // 5% margin of 20 = 1
  assert.deepEqual(revealSpan(v, 2, 3, limits), { start: 1, end: 21 });
  // Wider than the view: centred on it.
  assert.deepEqual(revealSpan(v, 0, 40, limits), { start: 10, end: 30 });
});

test('playback follows the cursor: smoothly past the middle, or a page at a time under reduced motion', () => {
  const v = { start: 0, end: 20 };
  assert.equal(followView(v, 8, limits), v);
  assert.deepEqual(followView(v, 14, limits), { start: 4, end: 24 });
  assert.equal(followView(v, 19, limits, { paged: true }), v);
  assert.deepEqual(followView(v, 21, limits, { paged: true }), { start: 21, end: 41 });
  assert.deepEqual(followView(v, 65, limits, { paged: true }), { start: 46, end: 66 });
  // Replaying from 0 brings a view that was further on back to the cursor.
  assert.deepEqual(followView({ start: 40, end: 60 }, 0, limits), { start: 0, end: 20 });
});

test('pixels and times map both ways; the overview window is where the view is, never too thin to grab', () => {
  const v = { start: 10, end: 30 };
  assert.equal(timeToX(v, 400, 20), 200);
  assert.equal(xToTime(v, 400, 100), 15);
  assert.deepEqual(overviewWindow(v, limits, 660), { x: 100, width: 200 });
  const thin = overviewWindow({ start: 33, end: 33.5 }, viewLimits(66, 0.1), 660);
  assert.equal(thin.width, 8);
  assert.equal(thin.x, 332.5 - 4); // centred on t = 33.25, x = 332.5
  assert.deepEqual(overviewWindow({ start: 60, end: 66 }, limits, 660, 100), { x: 560, width: 100 });
});

test('wheel zoom: down zooms out, up zooms in, lines count as 16 px, one event is bounded', () => {
  assert.ok(wheelZoomFactor(100) < 1);
  assert.ok(wheelZoomFactor(-100) > 1);
  assert.equal(wheelZoomFactor(3, 1), wheelZoomFactor(48, 0));
  assert.equal(wheelZoomFactor(100000), wheelZoomFactor(200));
  assert.ok(Math.abs(wheelZoomFactor(-100) * wheelZoomFactor(100) - 1) < 1e-12);
});

test('keys: + - 0 zoom everywhere; arrows, Page and Home/End pan only on the overview strip', () => {
  assert.deepEqual(viewKeyAction('+'), { zoom: ZOOM_STEP });
  assert.deepEqual(viewKeyAction('='), { zoom: ZOOM_STEP });
  assert.deepEqual(viewKeyAction('-'), { zoom: 1 / ZOOM_STEP });
  assert.deepEqual(viewKeyAction('0'), { fit: true });
  assert.equal(viewKeyAction('ArrowRight'), null, 'in the chart, arrows move the time cursor');
  assert.deepEqual(viewKeyAction('ArrowRight', { pan: true }), { pan: PAN_STEP });
  assert.deepEqual(viewKeyAction('PageUp', { pan: true }), { pan: -1 });
  assert.deepEqual(viewKeyAction('End', { pan: true }), { edge: 1 });
  assert.equal(viewKeyAction('x', { pan: true }), null);
  const v = { start: 10, end: 30 };
  assert.deepEqual(applyViewAction(v, { pan: PAN_STEP }, 0, limits), { start: 15, end: 35 });
  assert.deepEqual(applyViewAction(v, { pan: -1 }, 0, limits), { start: 0, end: 20 });
  assert.deepEqual(applyViewAction(v, { edge: 1 }, 0, limits), { start: 46, end: 66 });
  assert.deepEqual(applyViewAction(v, { fit: true }, 0, limits), { start: 0, end: 66 });
  assert.deepEqual(applyViewAction(v, { zoom: 2 }, 20, limits), { start: 15, end: 25 });
});
