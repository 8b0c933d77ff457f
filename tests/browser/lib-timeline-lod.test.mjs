// The DOM-free model under the timeline renderers, under Node: lib/timeline-lod.js (op tracks,
// level-of-detail runs, the SVG/canvas choice), lib/timeline-memory.js (core's in-flight
// activations over time, in per-GPU units) and lib/timeline-layout.js (lane geometry). Expected
// runs are worked out by hand below; the memory lane's steps are core's, checked against a recount
// from the op tracks here.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { opTracks, lodRuns, createRuns, rendererFor, opAtTime, firstAfter, isForward, isBackward, SVG_MAX_OPS, SVG_MAX_PARTS } from '../../web/js/lib/timeline-lod.js';
import { memorySteps, memoryEnvelope, createSteps } from '../../web/js/lib/timeline-memory.js';
import { laneLayout, rankAtY } from '../../web/js/lib/timeline-layout.js';
import { pipesim } from './helpers.mjs';

let api;
before(async () => { api = await pipesim(); });

/** A track from [start, end, category] triples (categories: F d0 = 0, Bi d0 = 2, B d0 = 4, W d0 = 6, FB = 8+). */
function track(ops) {
  return {
    start: Float64Array.from(ops, (o) => o[0]),
    end: Float64Array.from(ops, (o) => o[1]),
    cat: Uint8Array.from(ops, (o) => o[2]),
    index: Int32Array.from(ops, (_, i) => i),
  };
}

/** The first `n` runs as [x0, x1, cat, alpha, op] rows. */
function rows(runs, n) {
  return Array.from({ length: n }, (_, j) => [runs.x0[j], runs.x1[j], runs.cat[j], runs.alpha[j], runs.op[j]]);
}

test('ops at least 3 px wide are drawn one by one, at their exact pixels', () => {
  const tr = track([[0, 2, 0], [2, 5, 4], [6, 10, 6]]);
  const runs = createRuns(2);
  // 10 px per time unit.
  assert.equal(lodRuns(tr, { start: 0, end: 10 }, 100, runs), 3);
  assert.deepEqual(rows(runs, 3), [[0, 20, 0, 1, 0], [20, 50, 4, 1, 1], [60, 100, 6, 1, 2]]);
  // A view from t = 1 to 7 starts inside op 0 and ends inside op 2: both are still drawn.
  assert.equal(lodRuns(tr, { start: 1, end: 7 }, 60, runs), 3);
  assert.deepEqual(rows(runs, 3), [[-10, 10, 0, 1, 0], [10, 40, 4, 1, 1], [50, 90, 6, 1, 2]]);
  // A view between ops draws nothing.
  assert.equal(lodRuns(tr, { start: 5.2, end: 5.8 }, 60, runs), 0);
});

test('narrower ops are grouped per pixel column: the commonest colour, as opaque as the column is busy', () => {
  // 1 px per time unit, so each unit is one pixel column.
  const tr = track([
    [0, 0.25, 0], [0.25, 0.5, 0], [0.5, 0.75, 2], // column 0: 3/4 busy, F covers most
    [1, 1.5, 0], [1.5, 2, 0], [2, 2.5, 0], [2.5, 3, 0], // columns 1 and 2: full F, merged
    [3.5, 4.5, 2], // half of column 3 and half of column 4: merged at half opacity
    [5, 9, 6], // 4 px: drawn alone
  ]);
  const runs = createRuns(1);
  assert.equal(lodRuns(tr, { start: 0, end: 10 }, 10, runs), 4);
  assert.deepEqual(rows(runs, 4), [[0, 1, 0, 0.75, -1], [1, 3, 0, 1, -1], [3, 5, 2, 0.5, -1], [5, 9, 6, 1, 8]]);
});

test('however many ops, grouped runs never outnumber the pixel columns', () => {
  // 100,000 ops of 0.01 (alternating F and B) in a 100 px plot: at most one run per column.
  const ops = Array.from({ length: 100000 }, (_, i) => [i * 0.01, (i + 1) * 0.01, i % 2 ? 4 : 0]);
  const tr = track(ops);
  const runs = createRuns();
  const n = lodRuns(tr, { start: 0, end: 1000 }, 100, runs);
  assert.ok(n <= 100, `${n} runs`);
  // Zoomed in to ten ops, every op is drawn alone.
  assert.equal(lodRuns(tr, { start: 500, end: 500.1 }, 100, runs), 10);
  assert.deepEqual([...runs.op.slice(0, 10)], Array.from({ length: 10 }, (_, i) => 50000 + i));
});

/** What `runs` paint in pixel column c: [cat, alpha] of a grouped run, or ['op', index, x0, x1]. */
function paintAt(runs, n, c) {
  const found = [];
  for (let j = 0; j < n; j++) {
    if (runs.op[j] >= 0 ? runs.x1[j] > c && runs.x0[j] < c + 1 : runs.x0[j] <= c && runs.x1[j] > c) {
      found.push(runs.op[j] >= 0 ? ['op', runs.op[j], runs.x0[j], runs.x1[j]] : [runs.cat[j], runs.alpha[j]]);
    }
  }
  return found;
}

test('runs for a range of pixel columns paint those columns exactly as the whole plot\'s runs do', () => {
  // Ops of varied widths (0.05 to 6 units, some idle between) in a 200 px plot: grouped columns
  // and single ops both, and ops that straddle the range's edges.
  const ops = [];
  let t = 0;
  for (let i = 0; i < 400; i++) {
    const len = [0.05, 0.3, 1, 2.5, 6][(i * 7) % 5] * (1 + (i % 3) / 10);
    ops.push([t, t + len, (i * 5) % 12]);
    t += len + ((i % 11) === 0 ? 0.4 : 0);
  }
  const tr = track(ops);
  const view = { start: 37.3, end: 37.3 + 211.7 };
  const whole = createRuns();
  const part = createRuns();
  const n = lodRuns(tr, view, 200, whole);
  for (const [from, to] of [[0, 60], [140, 200], [57, 61], [199, 200], [0, 200]]) {
    const m = lodRuns(tr, view, 200, part, undefined, from, to);
    for (let c = from; c < to; c++) assert.deepEqual(paintAt(part, m, c), paintAt(whole, n, c), `column ${c} of [${from}, ${to})`);
  }
});

test('the op under a time is found by binary search over a rank\'s ops', () => {
  const tr = track([[0, 2, 0], [2, 5, 4], [6, 10, 6]]);
  assert.equal(opAtTime(tr, 0), 0);
  assert.equal(opAtTime(tr, 2), 1, 'an op covers [start, end)');
  assert.equal(opAtTime(tr, 5.5), -1, 'idle');
  assert.equal(opAtTime(tr, 10), -1, 'after the run');
  assert.equal(firstAfter(tr.end, 5), 2);
});

test('small runs are SVG, anything larger (ops or stream parts) a canvas', () => {
  assert.equal(rendererFor({ ops: SVG_MAX_OPS }), 'svg');
  assert.equal(rendererFor({ ops: SVG_MAX_OPS + 1 }), 'canvas');
  assert.equal(rendererFor({ ops: 10, parts: SVG_MAX_PARTS }), 'svg');
  assert.equal(rendererFor({ ops: 10, parts: SVG_MAX_PARTS + 1 }), 'canvas');
});

/** A rank's steps recounted from its op track in stage-micro-batches: +1 at an F's end, -1 at a B's. */
function recount(tr) {
  const time = [0];
  const count = [0];
  for (let i = 0; i < tr.start.length; i++) {
    const delta = isForward(tr.cat[i]) ? 1 : isBackward(tr.cat[i]) ? -1 : 0;
    if (!delta) continue;
    time.push(tr.end[i]);
    count.push(count[count.length - 1] + delta);
  }
  return { time, count };
}

test('the memory lane shows core\'s steps: up when an F ends, down when a B or Bi ends, in per-GPU units', () => {
  const configs = [
    { schedule: 'gpipe', ranks: 4, microbatches: 8 },
    { schedule: 'zb-h1', ranks: 4, microbatches: 8 },
    { schedule: 'dualpipe', ranks: 8, microbatches: 20 },
    { schedule: 'chimera', ranks: 4, microbatches: 8 },
    { schedule: 'interleaved-1f1b', ranks: 3, microbatches: 6, chunks: 3 },
  ];
  for (const config of configs) {
    const result = api.simulate(config);
    const { tracks } = opTracks(result);
    // One stage-micro-batch in per-GPU units: ranks / stages (1/3 with three chunks per rank).
    const unit = result.ranks / result.stages;
    memorySteps(result).forEach((steps, r) => {
      const { time, count } = recount(tracks[r]);
      assert.deepEqual([...steps.time], time, `${config.schedule} rank ${r}`);
      assert.deepEqual([...steps.level], count.map((c) => c * unit), `${config.schedule} rank ${r}`);
      assert.equal(steps.peak, Math.max(...steps.level));
      assert.equal(steps.peakCount, Math.max(...count));
    });
  }
});

test('a DualPipeV stage is half a rank\'s layers: its memory steps are halves, the counts whole', () => {
  const result = api.simulate({ schedule: 'dualpipev', ranks: 4, microbatches: 10 });
  for (const [r, steps] of memorySteps(result).entries()) {
    assert.ok(steps.level.every((level) => Number.isInteger(level * 2)));
    assert.equal(steps.peak, result.perRank[r].peakActivationMemory);
    assert.equal(steps.peak * 2, steps.peakCount);
  }
});

test('with a memory model the steps are GB: model states plus the units at core\'s bytes per unit', () => {
  // Llama-3-70B on DualPipeV, 4 ranks: 70,553,706,496 / 4 parameters per GPU (one copy), 16 bytes
  // each under mixed-precision Adam without ZeRO; activations at the selective row of
  // Korthikanti's Table 2, sbh (10 + 24/t) = 4096 x 8192 x 34 bytes per layer, 80 / 4 layers a unit.
  const result = api.simulate({ schedule: 'dualpipev', ranks: 4, microbatches: 10,
    memoryModel: { model: 'llama3-70b', activations: { seqLength: 4096 } } });
  const states = 16 * 70553706496 / 4 / 1e9;
  const perUnit = 4096 * 8192 * 34 * 20 / 1e9;
  assert.ok(Math.abs(result.memory.perGpu.bytes.total / 1e9 - states) < 1e-9);
  assert.ok(Math.abs(result.memory.activations.bytesPerUnit / 1e9 - perUnit) < 1e-9);
  const plain = memorySteps(api.simulate({ schedule: 'dualpipev', ranks: 4, microbatches: 10 }));
  memorySteps(result).forEach((steps, r) => {
    assert.equal(steps.unit, 'GB');
    plain[r].level.forEach((units, i) => assert.ok(Math.abs(steps.level[i] - (states + units * perUnit)) < 1e-9));
    assert.ok(Math.abs(steps.peak - (states + result.perRank[r].peakActivationMemory * perUnit)) < 1e-9);
    assert.equal(steps.label, steps.peak.toFixed(1));
    assert.equal(plain[r].unit, 'units');
  });
});

test('the memory envelope keeps every peak when changes are closer than a pixel', () => {
  const steps = { time: Float64Array.from([0, 1, 1.2, 1.4, 5]), level: Float64Array.from([0, 1, 2, 1, 0]) };
  const out = createSteps(1);
  // 1 px per unit: the changes at 1, 1.2 and 1.4 share column 1, which shows their highest level (2).
  assert.equal(memoryEnvelope(steps, { start: 0, end: 10 }, 10, out), 4);
  assert.deepEqual([...out.x.slice(0, 4)], [0, 1, 2, 5]);
  assert.deepEqual([...out.y.slice(0, 4)], [0, 2, 1, 0]);
  // A view starting at t = 3 opens at the level in force then (1).
  assert.equal(memoryEnvelope(steps, { start: 3, end: 7 }, 40, out), 2);
  assert.deepEqual([...out.x.slice(0, 2)], [0, 20]);
  assert.deepEqual([...out.y.slice(0, 2)], [1, 0]);
});

test('a lane fits its width; many ranks get compact rows; y maps back to its rank', () => {
  // 8 ranks at 800 px: gutter 64, idle column 60, rows 26 + 6 gap under a 26 px axis, 8 below.
  const eight = laneLayout({ ranks: 8, width: 800 });
  assert.equal(eight.plotWidth, 800 - 64 - 60);
  assert.equal(eight.height, 26 + 8 * (26 + 6) - 6 + 8);
  // 320 px (the narrowest phone): the idle column narrows to 44 so the plot keeps 212 px.
  assert.equal(laneLayout({ ranks: 8, width: 320 }).plotWidth, 320 - 64 - 44);
  // 64 ranks: rows of floor(900 / 64) - 2 = 12 px with 2 px gaps, so the lane stays near 900 px.
  const many = laneLayout({ ranks: 64, width: 1200 });
  assert.equal(many.rowHeight, 12);
  assert.equal(many.height, 26 + 64 * 14 - 2 + 8);
  // The memory sub-row adds its own height under each op row.
  const mem = laneLayout({ ranks: 8, width: 800, memory: true });
  assert.equal(mem.memoryY, 26 + 2);
  assert.ok(mem.height > eight.height);
  for (const layout of [eight, many, mem]) {
    for (const r of [0, 3, 7]) assert.equal(rankAtY(layout, layout.rowY(r) + 1, 64), r);
    assert.equal(rankAtY(layout, layout.rowY(1) - 1, 64), -1, 'the gap between rows is no rank');
  }
  assert.equal(rankAtY(eight, 5, 8), -1, 'the axis band is no rank');
});
