// simulate() hands the timeline over as typed arrays (one per field). They must describe exactly
// the ops of the JSON timeline, in the same order (rank, then execution order), and the rest of
// the result must equal the JSON result without its timeline.
import assert from 'node:assert/strict';
import test from 'node:test';
import { nativeCli, pipesim } from './helpers.mjs';

const CONFIGS = [
  { schedule: 'dualpipe', ranks: 8, microbatches: 20 },  // F, B, W and FB pairs
  { schedule: 'dualpipe', ranks: 8, microbatches: 20, costs: { overlapped: 2.4 } },
  { schedule: 'dualpipev', ranks: 4, microbatches: 10 },
  { schedule: 'zb-h1', ranks: 4, microbatches: 8 },      // zero-bubble B with later W
  { schedule: '1f1b', ranks: 4, microbatches: 8 },
  { schedule: 'gpipe', ranks: 4, microbatches: 4, costs: { p2pLatency: 0.5 } },
  { schedule: 'dualpipe', ranks: 16, microbatches: 128 },
];

// The JSON op as the typed-array row it must equal.
function expectedRow(rank, op, kinds) {
  const pair = op.op === 'FB';
  return {
    rank, op: kinds.indexOf(op.op), zb: op.zb ? 1 : 0,
    dir: pair ? op.fdir : op.dir, mb: pair ? op.fmb : op.mb, stage: pair ? op.fstage : op.stage,
    bdir: pair ? op.bdir : -1, bmb: pair ? op.bmb : -1, bstage: pair ? op.bstage : -1,
    start: op.start, end: op.end,
  };
}

function row(t, i) {
  return { rank: t.rank[i], op: t.op[i], zb: t.zb[i], dir: t.dir[i], mb: t.mb[i], stage: t.stage[i],
           bdir: t.bdir[i], bmb: t.bmb[i], bstage: t.bstage[i], start: t.start[i], end: t.end[i] };
}

test('op kinds come from the catalogue', async () => {
  assert.deepEqual((await pipesim()).catalogue().opKinds, ['F', 'B', 'W', 'FB']);
});

for (const config of CONFIGS) {
  const name = `${config.schedule} ${config.ranks}x${config.microbatches}${config.costs ? ' ' + JSON.stringify(config.costs) : ''}`;

  test(`${name}: typed-array timeline matches the JSON timeline op for op`, async () => {
    const api = await pipesim();
    const json = JSON.parse(api.simulateJson(config));
    const { timeline } = api.simulate(config);
    const expected = json.timeline.flatMap((ops, rank) => ops.map((op) => expectedRow(rank, op, api.catalogue().opKinds)));
    assert.equal(timeline.count, expected.length);
    for (const field of ['rank', 'op', 'zb', 'dir', 'mb', 'stage', 'bdir', 'bmb', 'bstage', 'start', 'end']) {
      assert.equal(timeline[field].length, expected.length, `${field} length`);
    }
    expected.forEach((want, i) => assert.deepEqual(row(timeline, i), want, `op ${i}`));
  });

  test(`${name}: simulate() returns the JSON result's fields beside the timeline`, async () => {
    const api = await pipesim();
    const { timeline: _json, ...jsonRest } = JSON.parse(api.simulateJson(config));
    const { timeline: _arrays, activationSteps: _steps, ...rest } = api.simulate(config);
    assert.deepEqual(rest, jsonRest);
  });

  test(`${name}: simulate()'s activation steps are the native CLI's --memory steps`, async () => {
    const api = await pipesim();
    const native = JSON.parse(nativeCli(['simulate', '--input', '-', '--format', 'json', '--memory', 'steps'], JSON.stringify(config)));
    const { activationSteps } = api.simulate(config);
    assert.equal(activationSteps.length, config.ranks);
    activationSteps.forEach((steps, r) => {
      assert.ok(steps.time instanceof Float64Array && steps.level instanceof Float64Array);
      assert.deepEqual(Array.from(steps.time), native.activationSteps[r].time, `rank ${r} times`);
      assert.deepEqual(Array.from(steps.level), native.activationSteps[r].level, `rank ${r} levels`);
    });
  });
}

// The catalogue's column types, as JS typed-array class names ("int16" -> "Int16Array").
export function arrayClassOf(type) {
  return `${type[0].toUpperCase()}${type.slice(1)}Array`;
}

test('timeline fields have the catalogue\'s typed-array types, as narrow as core\'s limits allow', async () => {
  const api = await pipesim();
  const { timeline } = api.simulate({ schedule: 'dualpipe', ranks: 4, microbatches: 8 });
  const types = Object.fromEntries(Object.entries(timeline).map(([k, v]) => [k, v.constructor.name]));
  const expected = { count: 'Number' };
  for (const { name, type } of api.catalogue().timeline) expected[name] = arrayClassOf(type);
  assert.deepEqual(types, expected);
  // Written out once here, so a change to the column types is a deliberate one.
  assert.deepEqual(expected, {
    count: 'Number', rank: 'Int16Array', op: 'Uint8Array', zb: 'Uint8Array', dir: 'Uint8Array',
    mb: 'Int32Array', stage: 'Int16Array', bdir: 'Int8Array', bmb: 'Int32Array',
    bstage: 'Int16Array', start: 'Float64Array', end: 'Float64Array',
  });
});

test('the largest legal ranks and stages fit their int16 columns', async () => {
  const api = await pipesim();
  const { limits } = api.catalogue();
  const ranks = api.simulate({ schedule: 'gpipe', ranks: limits.maxRanks, microbatches: 1 }).timeline;
  assert.equal(Math.max(...ranks.rank), limits.maxRanks - 1);
  // A hand-written schedule may hold the most stages on one rank: F through them all, B back.
  const stages = Array.from({ length: limits.maxStages }, (_, s) => s);
  const custom = { schedule: 'custom', stages: limits.maxStages, microbatches: 1,
    rankOps: [[...stages.map((s) => `F0.0@${s}`), ...stages.reverse().map((s) => `B0.0@${s}`)]] };
  const { timeline } = api.simulate(custom);
  assert.equal(Math.max(...timeline.stage), limits.maxStages - 1);
  assert.equal(timeline.stage[limits.maxStages], limits.maxStages - 1);
});

test('DualPipe 8x20 timeline holds both directions and overlapped pairs', async () => {
  const api = await pipesim();
  const { timeline } = api.simulate({ schedule: 'dualpipe', ranks: 8, microbatches: 20 });
  assert.ok(timeline.op.includes(3), 'no FB pair');
  assert.ok(timeline.dir.includes(0) && timeline.dir.includes(1), 'one direction only');
  // Each rank ends at most at the makespan, ops never run backwards in time.
  for (let i = 0; i < timeline.count; i++) assert.ok(timeline.end[i] > timeline.start[i]);
});

test('typed arrays are copies: they survive the wasm memory growing afterwards', async () => {
  const api = await pipesim();
  const small = api.simulate({ schedule: '1f1b', ranks: 4, microbatches: 8 }).timeline;
  const before = Array.from(small.start);
  api.simulate({ schedule: 'dualpipe', ranks: 64, microbatches: 2048 });  // about 400k ops: grows the heap
  assert.equal(small.start.length, small.count);
  assert.deepEqual(Array.from(small.start), before);
});
