// The timeline's model under Node (web/js/lib/timeline-model.js and its two adapters): simulator
// results (lib/timeline-sim-lanes.js) and a profiler trace read by core (lib/timeline-trace-lanes.js,
// on a trace scripts/kineto-trace.py writes with the measurements it must give) become lanes of
// the same shape, which laneSet puts on one axis; the measured pair and the model's pair carry
// the same part names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { laneSet } from '../../web/js/lib/timeline-model.js';
import { simLanes } from '../../web/js/lib/timeline-sim-lanes.js';
import { traceLane, measuredPairLane, modelPairLane, partOfName } from '../../web/js/lib/timeline-trace-lanes.js';
import { partCategory, PART_BASE } from '../../web/js/lib/timeline-lod.js';
import { translator } from '../../web/js/lib/i18n.js';
import { formatNumber } from '../../web/js/lib/format.js';
import { pipesim, REPO } from './helpers.mjs';

const api = await pipesim();
const run = (schedule) => api.simulate({ schedule, ranks: 4, microbatches: 8 });
const t = translator('en');

/** A trace the generator writes for `args`, read by core, with the generator's expectations. */
function generated(...args) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dpl-model-'));
  const file = path.join(dir, 'trace.json');
  const expect = path.join(dir, 'expect.json');
  execFileSync('python3', [path.join(REPO, 'scripts/kineto-trace.py'), '--out', file, '--expect', expect, ...args]);
  return { report: api.traceImport(readFileSync(file)), expect: JSON.parse(readFileSync(expect, 'utf8')).report };
}

/** What every lane has, whatever its source, checked on `lane`; returns its keys. */
function checkShape(lane) {
  assert.ok(['op', 'part'].includes(lane.look));
  const records = lane.records();
  assert.equal(records.length, lane.tracks.length);
  assert.equal(lane.rowLabels.length, lane.tracks.length);
  assert.equal(lane.idle.length, lane.tracks.length);
  assert.equal(lane.itemCount, records.reduce((n, row) => n + row.length, 0));
  lane.tracks.forEach((track, r) => {
    assert.equal(track.start.length, records[r].length);
    for (let i = 0; i < track.start.length; i++) {
      // In time order, nothing overlapping on a row: the renderers binary-search start and end.
      if (i > 0) assert.ok(track.start[i] >= track.end[i - 1], `row ${r} item ${i} overlaps`);
      assert.equal(track.start[i], records[r][i].start);
      assert.equal(track.end[i], records[r][i].end);
      assert.deepEqual(lane.itemAt(r, i), records[r][i]);
    }
  });
  const first = records.find((row) => row.length)[0];
  assert.equal(typeof lane.describe(first, t, formatNumber), 'string');
  assert.equal(lane.table.cells(first, t, formatNumber).length, lane.table.head.length);
  assert.ok(lane.end >= Math.max(...lane.tracks.map((tr) => (tr.end.length ? tr.end[tr.end.length - 1] : 0))));
  return Object.keys(lane).sort();
}

test('three schedules share the axis of the longest and every stop of each', () => {
  const results = ['gpipe', '1f1b', 'dualpipe'].map(run);
  // By hand at F = 1, B = 2 on 4 ranks with 8 micro-batches: GPipe and 1F1B take
  // 8 x 3 + 3 x 3 = 33 (work 24 plus the (P-1)(F+B) = 9 bubble); DualPipe 26 (work 24 + 2).
  assert.deepEqual(results.map((r) => r.makespan), [33, 33, 26]);
  const set = laneSet(simLanes(results, ['a', 'b', 'c']));
  assert.equal(set.makespan, 33);
  assert.equal(set.unit, '');
  assert.deepEqual(set.lanes.map((l) => [l.title, l.result.schedule, l.tracks.length]), [['a', 'gpipe', 4], ['b', '1f1b', 4], ['c', 'dualpipe', 4]]);
  assert.deepEqual(set.lanes.map((l) => l.itemCount), results.map((r) => r.timeline.count));
  // The stops: every start and end of every run, once each, in order, 0 first.
  const expected = [...new Set([0, ...results.flatMap((r) => [...r.timeline.start, ...r.timeline.end])])].sort((a, b) => a - b);
  assert.deepEqual([...set.events], expected);
  // Zoom bottoms out at 4 of the shortest op of any run: DualPipe's W and input-gradient B last 1.
  assert.deepEqual(set.limits, { makespan: 33, minSpan: 4 });
  // One op read back from its lane: rank 0's first op of DualPipe is a forward from t = 0 to 1.
  assert.deepEqual([set.lanes[2].itemAt(0, 0).kind, set.lanes[2].itemAt(0, 0).start, set.lanes[2].itemAt(0, 0).end], ['F', 0, 1]);
  // The heading's numbers are the result's: GPipe's max idle per rank (P-1)(F+B) = 9.
  assert.deepEqual(set.lanes[0].stats[1], { key: 'stat.bubbleMax', vars: { v: '9' } });
  // In another language, as it writes numbers: GPipe's bubble 9 / 33 = 27.3% is "27,3 %" in Spanish.
  const spanish = simLanes(results, ['a'], 'es')[0].stats.find((stat) => stat.key === 'stat.bubbleFraction');
  assert.equal(spanish.vars.v, new Intl.NumberFormat('es', { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(9 / 33));
  assert.equal(set.lanes[0].stats.find((stat) => stat.key === 'stat.bubbleFraction').vars.v, '27.3%');
  assert.deepEqual(set.lanes[0].rowLabels[3], { key: 'axis.rank', vars: { rank: 3 } });
});

test('a run with more stages than ranks says so beside its step time; one stage per rank says nothing', () => {
  // DualPipeV at 4 ranks: 8 full-size stages, 2 on each rank (the reason its step is longer than 1F1B's).
  const [v, one, dual] = simLanes([run('dualpipev'), run('1f1b'), run('dualpipe')]);
  assert.deepEqual(v.stats[1], { key: 'stat.modelStages', vars: { stages: '8', k: '2' } });
  for (const lane of [one, dual]) assert.ok(!lane.stats.some((stat) => stat.key === 'stat.modelStages'), lane.title);
});

test('one run alone, and titles default to the schedule', () => {
  const set = laneSet(simLanes([run('zb-h1')]));
  assert.equal(set.lanes.length, 1);
  assert.equal(set.lanes[0].title, 'zb-h1');
  assert.equal(set.makespan, set.lanes[0].result.makespan);
});

test('a simulated run and a profiler trace become lanes of the same shape', () => {
  const sim = simLanes([api.simulate({ schedule: 'dualpipe', ranks: 4, microbatches: 8, costs: { forward: 1, backward: 2, weight: 1, overlapped: 3, comm: { ratio: 1, attnShare: 0.5, layers: 1 } } })])[0];
  const { report, expect } = generated();
  const trace = traceLane(report, 'trace.json');
  assert.deepEqual(checkShape(trace), checkShape(sim));
  assert.equal(sim.look, 'op');
  assert.equal(trace.look, 'part');
  // A row per GPU stream, as the generator placed them: 2 devices x streams 7, 23 and 27.
  assert.deepEqual(trace.rowLabels.map((l) => [l.vars.device, l.vars.stream]), expect.streams.map((s) => [s.device, s.stream]));
  // Every span the generator expects is an item on its stream's row, with its exact times.
  const drawn = trace.records().flat().map((r) => ({ name: r.name, device: r.device, stream: r.stream, startMs: r.start, endMs: r.end, busyMs: r.busy }));
  const order = (a, b) => a.device - b.device || a.stream - b.stream || a.startMs - b.startMs;
  assert.deepEqual(drawn.sort(order), expect.spans.slice().sort(order));
  // Parts take their pass's colour; all-to-alls are communication: dispatch(F) on stream 27.
  const dispatch = trace.records().flat().find((r) => r.name === 'dispatch(F)');
  assert.deepEqual([dispatch.label, dispatch.pass, dispatch.comm, dispatch.stream], ['DISPATCH(F)', 'F', true, 27]);
  assert.equal(trace.tracks[trace.records().findIndex((row) => row.includes(dispatch))].cat[dispatch.seq], partCategory('F', true));
  // The heading: HTA's busy times summed over devices, and the overlap.
  const sum = (key) => expect.devices.reduce((n, d) => n + d[key], 0);
  assert.deepEqual(trace.stats[0].vars, { compute: formatNumber(sum('computeMs')), comm: formatNumber(sum('commMs')) });
  assert.deepEqual(trace.stats[1].vars, { v: `${(expect.overlap * 100).toFixed(1)}%` });
  // On one axis in ms, up to the last span's end.
  const set = laneSet([trace], { unit: 'ms' });
  assert.equal(set.unit, 'ms');
  assert.equal(set.makespan, Math.max(...expect.spans.map((s) => s.endMs)));
});

test('the measured pair and the model’s pair: one axis, the same part names', () => {
  const { report, expect } = generated('--steps', '2');
  const pair = expect.derived.firstPair; // device 0, ProfilerStep#1, where the generator put it
  const measured = measuredPairLane(report, 'measured');
  checkShape(measured);
  // The pair's spans on its device, moved to start at 0: the first pair only (not step 2's).
  const want = expect.spans.filter((s) => s.device === pair.device && s.startMs >= pair.startMs && s.endMs <= pair.endMs);
  assert.equal(measured.itemCount, want.length);
  assert.ok(measured.itemCount < expect.spans.filter((s) => s.device === pair.device).length, 'step 2 is left out');
  assert.equal(measured.end, Math.round((pair.endMs - pair.startMs) * 1e6) / 1e6);
  const model = modelPairLane(api.overlapPair(report.derived.costs), 'model');
  checkShape(model);
  assert.deepEqual(model.rowLabels.map((l) => l.key), ['stream.compute.short', 'stream.comm.short']);
  assert.equal(model.end, report.derived.modelPairMs.value);
  const labels = (lane) => [...new Set(lane.records().flat().map((r) => r.label))].sort();
  assert.deepEqual(labels(measured), labels(model));
  assert.equal(labels(model).length, 10);
  assert.deepEqual(laneSet([measured, model], { unit: 'ms' }).makespan, Math.max(measured.end, model.end));
});

test('ranges that overlap on one stream get rows of their own; other names are drawn grey', () => {
  const span = (name, startMs, endMs) => ({ name, device: 0, stream: 7, startMs, endMs, busyMs: endMs - startMs });
  const report = {
    streams: [{ device: 0, stream: 7, kind: 'compute', busyMs: 4 }],
    devices: [{ device: 0, computeMs: 4, commMs: 0, overlapMs: 0, overlap: null }],
    overlap: null,
    spans: [span('forward', 0, 3), span('optimizer', 1, 2), span('loss', 3, 4)],
  };
  const lane = traceLane(report, 'mine');
  checkShape(lane);
  assert.deepEqual(lane.rowLabels.map((l) => l.vars.stream), [7, '7+1']);
  assert.deepEqual(lane.records().map((row) => row.map((r) => r.name)), [['forward', 'loss'], ['optimizer']]);
  assert.deepEqual(partOfName('optimizer'), { part: null, pass: 'X', label: 'optimizer' });
  assert.equal(lane.tracks[0].cat[0], PART_BASE + 6); // pass X, computation
  assert.equal(lane.stats.length, 1); // no overlap without communication
});
