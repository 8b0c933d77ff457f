// The exercise calculators, the overlap pair and the planner through the JS API: recover(),
// params(), traceGrid(), overlapPair(), plan() and planMarkdown() return hand-worked numbers
// (stated next to each assertion), equal what the native CLI prints for the same request, and
// fail as SimErrors with core's code, message and path.
import assert from 'node:assert/strict';
import test from 'node:test';
import { readFileSync } from 'node:fs';
import { SimError } from '../../wasm/pipesim.js';
import { nativeCli, pipesim, repoPath } from './helpers.mjs';

const close = (actual, expected, what) => assert.ok(Math.abs(actual - expected) < 1e-12, `${what}: ${actual} vs ${expected}`);

function throwsSimError(fn, code, message, path) {
  let caught;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof SimError, `expected a SimError, got ${caught}`);
  assert.deepEqual({ code: caught.code, message: caught.message, path: caught.path }, { code, message, path });
}

test('recover(): 1F1B -> DualPipe at P=8 M=16 recovers 0.18 x (69/54 - 1) = 0.05 GPU-hours per million tokens', async () => {
  const api = await pipesim();
  const r = api.recover({ ranks: 8, microbatches: 16, from: '1f1b', to: 'dualpipe' });
  // Each rank does M(F + B) = 16 x 3 = 48 of work. 1F1B: makespan (M + P - 1)(F + B) = 23 x 3 = 69,
  // bubble fraction 21/69. DualPipe: idle (P/2 - 1)(F&B + B - 3W) = 3 x 2 = 6, makespan 54, 6/54.
  assert.equal(r.makespanFrom, 69);
  assert.equal(r.makespanTo, 54);
  close(r.utilizationFrom, 48 / 69, 'u 1F1B = 1 - 21/69');
  close(r.utilizationTo, 48 / 54, 'u DualPipe = 1 - 6/54');
  close(r.utilizationGain, 40 / 207, 'gain = 8/9 - 16/23 = 40/207 = 0.1932');
  close(r.gpuHoursPerMillionTokensFrom, 0.18 * 69 / 54, 'C x uTo / uFrom = 0.23');
  close(r.recoveredGpuHoursPerMillionTokens, 0.05, 'recovered');
  assert.equal(r.gpuHoursPerMillionTokens, 0.18);
  assert.deepEqual(r, JSON.parse(nativeCli(['recover', '--ranks', '8', '--microbatches', '16', '--from', '1f1b',
                                            '--to', 'dualpipe', '--format', 'json'])));
  // The baseline is editable and scales the answer linearly: 0.36 -> 0.10.
  close(api.recover({ ranks: 8, microbatches: 16, from: '1f1b', to: 'dualpipe', gpuHoursPerMillionTokens: 0.36 })
    .recoveredGpuHoursPerMillionTokens, 0.1, 'recovered at 0.36');
});

test('params(): Llama-3-70B counts 70,553,706,496 weights; DualPipe holds 2/8 of them per GPU', async () => {
  const api = await pipesim();
  const r = api.params({ model: 'llama3-70b', pp: 8 });
  // embedding and head 128256 x 8192 = 1,050,673,152 each; attention 80 x (2 x 8192^2 + 2 x 8192 x 1024)
  // = 12,079,595,520; FFN 80 x 3 x 8192 x 28672 = 56,371,445,760; norms 80 x 2 x 8192 + 8192.
  assert.equal(r.totalParams, 2 * 1050673152 + 12079595520 + 56371445760 + 1310720 + 8192);
  assert.equal(r.totalParams, 70553706496);
  assert.equal(r.routedParams, 0);
  assert.equal(r.schedules['1f1b'].paramsPerGpu, 70553706496 / 8);
  assert.equal(r.schedules['1f1b'].weightBytesPerGpu, 2 * 70553706496 / 8); // 17.64 GB in bf16
  // Mixed-precision Adam, no ZeRO (the defaults): 2 + 2 + 12 = 16 bytes per parameter.
  assert.equal(r.schedules['1f1b'].bytesPerGpu, 16 * 70553706496 / 8);
  assert.equal(r.schedules.dualpipe.paramsPerGpu, 2 * 70553706496 / 8);
  assert.equal(r.schedules.dualpipev.paramsPerGpu, 70553706496 / 8); // 2 of 16 stages = 1/8
  assert.equal(r.dualpipeOverhead.bytesPerGpu, 16 * 70553706496 / 8);
  assert.equal(r.assumptions.recipe.id, 'mixed-adam');
  assert.deepEqual(r, JSON.parse(nativeCli(['params', '--model', 'llama3-70b', '--pp', '8', '--format', 'json'])));
});

test('params(): DeepSeek-V3 at P=16, EP=64: routed experts 58 x 256 x 3 x 7168 x 2048, DualPipe overhead 12.87 GB', async () => {
  const api = await pipesim();
  const r = api.params({ model: 'deepseek-v3', pp: 16, ep: 64, dp: 128, recipe: 'deepseek-v3', zero: 1 });
  const routed = 58 * 256 * 3 * 7168 * 2048; // 653,908,770,816
  assert.equal(r.routedParams, routed);
  const nonRouted = r.totalParams - routed;
  // 1F1B per GPU = nonRouted / 16 + routed / (16 x 64); DualPipe twice that.
  assert.equal(r.schedules['1f1b'].paramsPerGpu, nonRouted / 16 + routed / 1024);
  assert.equal(r.schedules.dualpipe.paramsPerGpu, 2 * (nonRouted / 16 + routed / 1024));
  // DeepSeek's recipe with ZeRO-1: bf16 weights and fp32 gradients (6 B) stay; fp32 master and
  // bf16 moments (8 B) are sharded over DP 128, the experts' over expert DP 128 / 64 = 2.
  close(r.dualpipeOverhead.bytesPerGpu, (nonRouted / 16) * (6 + 8 / 128) + (routed / 1024) * (6 + 8 / 2), 'second copy');
  assert.ok(Math.abs(r.dualpipeOverhead.bytesPerGpu / 1e9 - 12.872) < 1e-3);
  assert.deepEqual(r.excluded.map((p) => p.part), ['mtp']);
  assert.deepEqual(r, JSON.parse(nativeCli(['params', '--model', 'deepseek-v3', '--pp', '16', '--ep', '64', '--dp', '128',
                                            '--recipe', 'deepseek-v3', '--zero', '1', '--format', 'json'])));
});

test('memory(): the ZeRO paper example and a comparison under one accounting, as the CLI prints them', async () => {
  const api = await pipesim();
  // Rajbhandari et al. §5: 7.5B parameters, K = 12, 64 GPUs, ZeRO-1: 4 x 7.5e9 + 12 x 7.5e9 / 64.
  const r = api.memory({ params: 7.5e9, layout: { dp: 64 }, zero: 1 });
  assert.equal(r.perGpu.bytes.total, 31406250000);
  assert.equal(r.assumptions.recipe.id, 'mixed-adam');
  assert.deepEqual(r, JSON.parse(nativeCli(['memory', '--params', '7.5e9', '--dp', '64', '--zero', '1', '--format', 'json'])));
  const c = api.memory({ recipe: 'deepseek-v3', zero: 1, layout: { gpus: 2048 }, schedule: 'dualpipe',
    sides: [{ model: 'llama3-70b', layout: { tp: 8, pp: 8 } }, { model: 'deepseek-v3', layout: { pp: 16, ep: 64 } }] });
  assert.equal(c.accounting.same, true);
  // 1,102,401,664 x (6 + 8/32) and 1,069,853,024 x (6 + 8/128) + 638,582,784 x (6 + 8/2).
  close(c.sides[0].extraCopyBytes, 1102401664 * 6.25, 'Llama second copy');
  close(c.sides[1].extraCopyBytes, 1069853024 * 6.0625 + 638582784 * 10, 'DeepSeek second copy');
  throwsSimError(() => api.memory({ params: 7.5e9, zero: 4 }), 'invalid_config', 'zero must be an integer in [0, 3] (got 4)', '/zero');
  throwsSimError(() => api.memory({ sides: [{ params: 1e9 }, { params: 1e9, layout: { ep: 2 } }] }), 'invalid_config',
    'ep must be 1 for a model without routed experts (got 2)', '/sides/1/layout/ep');
});

test('traceGrid(): DualPipe 4x8 fills every rank by slot 1; 1F1B 4x8 only by slot 3', async () => {
  const api = await pipesim();
  const dp = api.traceGrid({ config: { schedule: 'dualpipe', ranks: 4, microbatches: 8 } });
  // 24 of work per rank + (4/2 - 1)(3 + 2 - 3) = 2 idle = 26 slots of length 1.
  assert.equal(dp.slots, 26);
  assert.equal(dp.bubbleMax, 2);
  assert.equal(dp.firstAllBusySlot, 1); // ranks 0 and 3 start at 0, ranks 1 and 2 one slot later
  assert.deepEqual(dp.grid.map((row) => row.length), [26, 26, 26, 26]);
  assert.equal(dp.grid[1][0], null);
  assert.deepEqual(dp.grid[0][0], { op: 'F', dir: 0, mb: 0, stage: 0, index: 0, offset: 0 });
  assert.deepEqual(dp.grid[3][0], { op: 'F', dir: 1, mb: 0, stage: 0, index: 0, offset: 0 });
  // An FB pair at F&B = 3 covers three consecutive cells with offsets 0, 1, 2.
  const pair = dp.grid[0].filter((c) => c && c.op === 'FB' && c.index === dp.grid[0].find((x) => x && x.op === 'FB').index);
  assert.deepEqual(pair.map((c) => c.offset), [0, 1, 2]);
  const f1b = api.traceGrid({ config: { schedule: '1f1b', ranks: 4, microbatches: 8 } });
  assert.equal(f1b.slots, 33);       // (M + P - 1)(F + B) = 11 x 3
  assert.equal(f1b.firstAllBusySlot, 3); // rank 3 gets its first forward at P - 1
  assert.equal(f1b.bubbleMax, 9);    // (P - 1)(F + B)
  assert.deepEqual(dp, JSON.parse(nativeCli(['trace', '--schedule', 'dualpipe', '--ranks', '4', '--microbatches', '8', '--format', 'json'])));
});

test('traceGrid(): a cost that is not a multiple of the slot length is an error under /config/costs', async () => {
  const api = await pipesim();
  let caught;
  try {
    api.traceGrid({ config: { schedule: 'dualpipe', ranks: 4, microbatches: 8, costs: { overlapped: 2.5 } } });
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof SimError);
  assert.equal(caught.code, 'invalid_config');
  assert.equal(caught.path, '/config/costs/overlapped');
});

test('overlapPair(): at ratio 1 the forward dispatch hides under MLP(B) and the combine under ATTN(B)', async () => {
  const api = await pipesim();
  const r = api.overlapPair({ comm: { ratio: 1 } });
  // F=1 B=2 W=1, attnShare 0.5: compute parts 0.5 each; all-to-alls ratio x F = 0.5 each, a
  // backward's as long as a forward's (it moves the same tokens). Each runs under one 0.5 part of
  // the other chunk, so the pair lasts its compute and hides all four.
  assert.equal(r.compute, 3);
  assert.equal(r.comm, 2);
  assert.equal(r.duration, 3);
  assert.equal(r.exposed, 0);
  assert.equal(r.hidden, 2);
  assert.equal(r.sequential, 5); // lone F 1 + 1, lone B 2 + 1
  const hiddenBy = Object.fromEntries(r.hiding.map((h) => [h.label, h.hiddenBy.map((b) => b.label)]));
  assert.deepEqual(hiddenBy, {
    'COMBINE(B)': ['ATTN(F)'], 'DISPATCH(F)': ['MLP(B)'], 'DISPATCH(B)': ['MLP(W)'], 'COMBINE(F)': ['ATTN(B)'],
  });
  assert.deepEqual(r.parts.filter((p) => p.stream === 'compute').map((p) => p.label),
                   ['ATTN(F)', 'MLP(B)', 'MLP(W)', 'MLP(F)', 'ATTN(B)', 'ATTN(W)']);
  assert.deepEqual(r, JSON.parse(nativeCli(['overlap', '--comm-ratio', '1', '--format', 'json'])));
});

test('overlapPair(): at ratio 2 the forward dispatch spans MLP(B) and MLP(W), as in Figure 4', async () => {
  const api = await pipesim();
  const r = api.overlapPair({ comm: { ratio: 2 } });
  const dispatch = r.hiding.find((h) => h.label === 'DISPATCH(F)');
  assert.deepEqual(dispatch.hiddenBy.map((b) => [b.label, b.overlap]), [['MLP(B)', 0.5], ['MLP(W)', 0.5]]);
  assert.equal(dispatch.exposed, 0);
  const combine = r.hiding.find((h) => h.label === 'COMBINE(F)');
  assert.deepEqual(combine.hiddenBy.map((b) => b.label), ['ATTN(B)', 'ATTN(W)']);
});

test('exercise calculators fail as SimErrors with core\'s code, message and path', async () => {
  const api = await pipesim();
  throwsSimError(() => api.recover({ ranks: 3, microbatches: 16, from: '1f1b', to: 'dualpipe' }), 'invalid_config',
                 'ranks must be an even integer >= 2 for dualpipe (got 3)', '/ranks');
  throwsSimError(() => api.overlapPair({}), 'invalid_config',
                 'costs.comm is required to analyse an overlapped pair (give ratio or components)', '/costs/comm');
  throwsSimError(() => api.params({ model: 'llama3-70b', pp: Infinity }), 'invalid_config',
                 'pp must be a finite number (got Infinity)', '/pp');
  assert.throws(() => api.traceGrid('not an object'), SimError);
});

test('plan() and planMarkdown(): DeepSeek-V3 on 2048 H800 plans DualPipe at P=16, as the CLI does', async () => {
  const api = await pipesim();
  const specPath = repoPath('lessons/planner-presets/deepseek-v3-2048-h800.json');
  const spec = JSON.parse(readFileSync(specPath, 'utf8'));
  const plan = api.plan(spec);
  assert.equal(plan.schedule, 'dualpipe');
  assert.equal(plan.ranks, 16); // DeepSeek-V3 report §3.2: 16-way pipeline parallelism
  assert.equal(plan.microbatches, 8 * 16);
  assert.deepEqual(plan, JSON.parse(nativeCli(['plan', '--input', specPath, '--format', 'json'])));
  const markdown = api.planMarkdown(spec);
  assert.equal(typeof markdown, 'string');
  assert.equal(markdown.trimEnd(), nativeCli(['plan', '--input', specPath, '--format', 'md']).trimEnd());
  assert.match(markdown, /^# Pipeline plan: DeepSeek-V3 on 2048 H800/);
});
