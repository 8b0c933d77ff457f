// web/js/lib/stage-costs-text.js and the stageCosts address key under Node: the CLI's
// --stage-costs text reads into core's stageCosts and back, runs collapse to xN, values that are
// not numbers pass through for core to name, the stage count follows the catalogue's layouts, and
// the JS API runs what the address holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseStageCosts, formatStageCosts, stageCount } from '../../web/js/lib/stage-costs-text.js';
import { parseParams, serializeState, configOf, paramsFrom } from '../../web/js/state.js';
import { pipesim } from './helpers.mjs';
import CATALOGUE from '../../web/generated/catalogue.js';

test('the text form reads as the CLI reads it and writes runs once with xN', () => {
  assert.deepEqual(parseStageCosts('1/2,2/4'), [{ forward: 1, backward: 2 }, { forward: 2, backward: 4 }]);
  assert.deepEqual(parseStageCosts('0.5//0.25/1.5x2'), [
    { forward: 0.5, weight: 0.25, overlapped: 1.5 }, { forward: 0.5, weight: 0.25, overlapped: 1.5 }]);
  const stages = [{ forward: 1, backward: 2, weight: 1, overlapped: 3 }, { forward: 1, backward: 2, weight: 1, overlapped: 3 },
    { forward: 1.5, backward: 3, weight: 1.5, overlapped: 4.5 }];
  assert.equal(formatStageCosts(stages), '1/2/1/3x2,1.5/3/1.5/4.5');
  assert.deepEqual(parseStageCosts(formatStageCosts(stages)), stages);
  // Not a number: passed through, so core's message names stageCosts.0.forward.
  assert.deepEqual(parseStageCosts('abc/2'), [{ forward: 'abc', backward: 2 }]);
  // A huge repeat stops one past the limit: core refuses it without the page building it.
  assert.equal(parseStageCosts('1x99999999').length, CATALOGUE.limits.maxStages + 1);
});

test('the stage count is the catalogue layout\'s', () => {
  assert.equal(stageCount({ schedule: '1f1b', ranks: 4 }), 4);
  assert.equal(stageCount({ schedule: 'dualpipe', ranks: 4 }), 4);
  assert.equal(stageCount({ schedule: 'dualpipev', ranks: 4 }), 8);
  assert.equal(stageCount({ schedule: 'zb-v', ranks: 3 }), 6);
  assert.equal(stageCount({ schedule: 'interleaved-1f1b', ranks: 4 }), 4 * CATALOGUE.schedules.find((s) => s.name === 'interleaved-1f1b').chunks.default);
  assert.equal(stageCount({ schedule: 'interleaved-1f1b', ranks: 4, chunks: 3 }), 12);
  assert.equal(stageCount({ schedule: 'nope', ranks: 4 }), null);
});

test('the address holds stageCosts, the config carries them, and core runs them', async () => {
  const { state, errors } = parseParams('view=timeline&schedule=1f1b&ranks=2&microbatches=2&stageCosts=1/2,2/4');
  assert.deepEqual(errors, []);
  assert.deepEqual(state.stageCosts, [{ forward: 1, backward: 2 }, { forward: 2, backward: 4 }]);
  assert.match(serializeState(state), /stageCosts=1%2F2%2C2%2F4/);
  const config = configOf(state);
  assert.deepEqual(config.stageCosts, state.stageCosts);
  const sim = await pipesim();
  // 1F1B on 2 ranks, stage 1 twice stage 0: 15 (tests/core/stage_costs_test.cpp works it by hand).
  assert.equal(sim.simulate(config).makespan, 15);
  assert.equal(configOf(parseParams('schedule=1f1b').state).stageCosts, undefined);
  // A figure's config object with a stageCosts list reaches the address in the text form.
  assert.equal(paramsFrom({ schedule: '1f1b', stageCosts: [{ forward: 1 }, { forward: 2 }] }).get('stageCosts'), '1,2');
});

test('layerSplit gives DeepSeek-V3 on 16 stages NVIDIA\'s published layout joined', async () => {
  const sim = await pipesim();
  const split = sim.layerSplit({ model: 'deepseek-v3', stages: 16 });
  assert.equal(split.rule, 'published');
  assert.deepEqual(split.split.map((s) => s.layers), [3, ...Array(14).fill(4), 2]);
  assert.equal(split.stageCosts.length, 16);
  assert.equal(CATALOGUE.layerSplit.presets[0].name, 'deepseek-v3');
});
