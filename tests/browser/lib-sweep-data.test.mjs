// web/js/lib/sweep-data.js under Node: the sweep request, series with gaps, and the CSV.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sweepRequest, seriesFrom, segments, rowsToCsv } from '../../web/js/lib/sweep-data.js';

const costs = { forward: 1, backward: 2, weight: 1, overlapped: 3, p2pLatency: 0 };

test('vs micro-batches at 8 ranks: 16 even counts in steps of 4, up to 8R = 64', () => {
  const r = sweepRequest({ axis: 'microbatches', ranks: 8, microbatches: 20, costs });
  assert.deepEqual(r.ranks, [8]);
  assert.deepEqual(r.microbatches, [4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64]);
  assert.equal(r.schedules.length, 5);
  // Odd R: the step is rounded up to an even count, so DualPipe's even-M rule can hold.
  assert.equal(sweepRequest({ axis: 'microbatches', ranks: 5, costs }).microbatches[0], 4);
});

test('vs ranks at fixed micro-batches: even ranks 2..24', () => {
  const r = sweepRequest({ axis: 'ranks', ranks: 8, microbatches: 16, costs });
  assert.deepEqual(r.ranks, [2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24]);
  assert.deepEqual(r.microbatches, [16]);
});

const rows = [
  { schedule: 'dualpipe', ranks: 8, microbatches: 8, ok: false, error: { code: 'invalid_config', message: 'microbatches must be >= 2 * ranks = 16 for dualpipe (got 8)', path: '/microbatches' } },
  { schedule: 'dualpipe', ranks: 8, microbatches: 16, ok: true, bubbleFraction: 0.111, maxPeakActivations: 9, stages: 8, makespan: 54, bubbleMax: 6, utilization: 0.889, paramCopies: 2 },
  { schedule: 'dualpipe', ranks: 8, microbatches: 12, ok: false, error: { code: 'invalid_config', message: 'x, "quoted"', path: '' } },
  { schedule: 'dualpipe', ranks: 8, microbatches: 20, ok: true, bubbleFraction: 0.09, maxPeakActivations: 9 },
];

test('series put invalid shapes in as gaps and sort by x; segments split at the gaps', () => {
  const [series] = seriesFrom(rows, 'microbatches', 'bubbleFraction');
  assert.deepEqual(series.points.map((p) => [p.x, p.y]), [[8, null], [12, null], [16, 0.111], [20, 0.09]]);
  assert.deepEqual(segments([{ y: 1 }, { y: null }, { y: 2 }, { y: 3 }]).map((s) => s.length), [1, 2]);
});

test('CSV: one header, one line per row, errors quoted per RFC 4180', () => {
  const lines = rowsToCsv(rows).split('\r\n');
  assert.equal(lines[0], 'schedule,ranks,microbatches,ok,stages,makespan,bubbleMax,bubbleFraction,utilization,maxPeakActivations,paramCopies,error');
  assert.equal(lines[2], 'dualpipe,8,16,true,8,54,6,0.111,0.889,9,2,');
  assert.equal(lines[3], 'dualpipe,8,12,false,,,,,,,,"x, ""quoted"""');
  assert.equal(lines.length, rows.length + 2); // trailing CRLF
});
