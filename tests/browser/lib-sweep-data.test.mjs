// web/js/lib/sweep-data.js under Node: the sweep request, series with gaps, and the CSV.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sweepRequest, seriesFrom, segments, rowsToCsv } from '../../web/js/lib/sweep-data.js';
import CATALOGUE from '../../web/generated/catalogue.js';

const costs = { forward: 1, backward: 2, weight: 1, overlapped: 3, p2pLatency: 0 };

test('vs micro-batches at 8 ranks: every schedule of the catalogue, counts in steps of 8 up to 8R = 64', () => {
  const r = sweepRequest({ axis: 'microbatches', ranks: 8, microbatches: 20, costs });
  assert.deepEqual(r.ranks, [8]);
  // DualPipe asks for even counts and Chimera for multiples of R: lcm(2, 8) = 8.
  assert.deepEqual(r.microbatches, [8, 16, 24, 32, 40, 48, 56, 64]);
  assert.deepEqual(r.schedules, CATALOGUE.schedules.map((s) => s.name));
  assert.ok(r.schedules.includes('chimera'));
  // Odd R: lcm(2, 5) = 10, so both rules can hold; at least 8 points.
  assert.deepEqual(sweepRequest({ axis: 'microbatches', ranks: 5, costs }).microbatches, [10, 20, 30, 40, 50, 60, 70, 80]);
});

test('every micro-batch count of the grid meets each schedule\'s divisibility rules (catalogue shape)', () => {
  for (const ranks of [1, 2, 3, 4, 6, 7, 8, 12, 16, 64]) {
    const { microbatches } = sweepRequest({ axis: 'microbatches', ranks, costs });
    assert.ok(microbatches.length >= 8, `${ranks} ranks: ${microbatches.length} points`);
    assert.ok(microbatches.at(-1) >= 8 * ranks, `${ranks} ranks: the grid reaches 8R`);
    for (const { name, shape } of CATALOGUE.schedules) {
      for (const m of microbatches) {
        if (shape.evenMicrobatches) assert.equal(m % 2, 0, `${name}: ${m} is even`);
        if (shape.microbatchesMultipleOfRanks) assert.equal(m % ranks, 0, `${name}: ${m} is a multiple of ${ranks}`);
      }
    }
  }
  // A schedule list without such rules keeps the finer grid: steps of R/2.
  const plain = CATALOGUE.schedules.filter((s) => !s.shape.evenMicrobatches && !s.shape.microbatchesMultipleOfRanks).map((s) => s.name);
  assert.deepEqual(sweepRequest({ axis: 'microbatches', ranks: 8, costs }, plain).microbatches, [4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64]);
});

test('chunks pass through to the sweep when set (core applies them where the catalogue allows), else stay out', () => {
  for (const axis of ['microbatches', 'ranks']) {
    assert.equal(sweepRequest({ axis, ranks: 4, microbatches: 16, costs, chunks: 4 }).chunks, 4);
    assert.equal('chunks' in sweepRequest({ axis, ranks: 4, microbatches: 16, costs, chunks: null }), false);
  }
});

test('vs ranks at fixed micro-batches: even ranks 2..24 (some schedule needs an even count)', () => {
  const r = sweepRequest({ axis: 'ranks', ranks: 8, microbatches: 16, costs });
  assert.deepEqual(r.ranks, [2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24]);
  assert.deepEqual(r.microbatches, [16]);
  const odd = CATALOGUE.schedules.filter((s) => !s.shape.evenRanks).map((s) => s.name);
  assert.deepEqual(sweepRequest({ axis: 'ranks', microbatches: 16, costs }, odd).ranks, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
});

const rows = [
  { schedule: 'dualpipe', ranks: 8, microbatches: 8, ok: false, error: { code: 'invalid_config', message: 'microbatches must be >= 2 * ranks = 16 for dualpipe (got 8)', path: '/microbatches' } },
  { schedule: 'dualpipe', ranks: 8, microbatches: 16, ok: true, bubbleFraction: 0.111, maxPeakActivations: 9, maxPeakActivationMemory: 9, stages: 8, makespan: 54, bubbleMax: 6, utilization: 0.889, paramCopies: 2 },
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
  assert.equal(lines[0], 'schedule,ranks,microbatches,ok,stages,makespan,bubbleMax,bubbleFraction,utilization,maxPeakActivationMemory,maxPeakActivations,paramCopies,error');
  assert.equal(lines[2], 'dualpipe,8,16,true,8,54,6,0.111,0.889,9,9,2,');
  assert.equal(lines[3], 'dualpipe,8,12,false,,,,,,,,,"x, ""quoted"""');
  assert.equal(lines.length, rows.length + 2); // trailing CRLF
});

test('coinciding series are found, gaps included, and placed around their common line', async () => {
  const { coincidentSeries } = await import('../../web/js/lib/sweep-data.js');
  const line = (schedule, ys) => ({ schedule, points: ys.map((y, i) => ({ x: i + 1, y })) });
  const series = [line('gpipe', [0.5, 0.3, null]), line('1f1b', [0.5, 0.3000000001, null]), line('zb-h1', [0.2, 0.1, 0.05]), line('x', [0.5, 0.3, 0.1])];
  assert.deepEqual(coincidentSeries(series), {
    gpipe: { with: ['1f1b'], offset: -0.5 },
    '1f1b': { with: ['gpipe'], offset: 0.5 },
  });
  assert.deepEqual(coincidentSeries([line('a', [1]), line('b', [1]), line('c', [1])]).b, { with: ['a', 'c'], offset: 0 });
  assert.deepEqual(coincidentSeries([line('a', [1]), line('b', [2])]), {});
});
