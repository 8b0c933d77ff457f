// web/js/state.js under Node: the URL hash round trip and its error reporting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseParams, serializeState, configOf, createStore, DEFAULT_STATE } from '../../web/js/state.js';

test('every state field survives serialize -> parse', () => {
  const state = {
    ...DEFAULT_STATE, view: 'timeline', schedule: '1f1b', compare: 'zb-h1', ranks: 4, microbatches: 12,
    costs: { forward: 1.5, backward: 3, weight: 1, overlapped: 4, p2pLatency: 0.25 },
    t: 12.5, table: true, speed: 2, axis: 'ranks', theme: 'dark', lang: 'hi',
  };
  const text = serializeState(state);
  assert.equal(text, 'view=timeline&schedule=1f1b&compare=zb-h1&ranks=4&microbatches=12&forward=1.5&backward=3&overlapped=4&p2p=0.25&t=12.5&table=1&speed=2&axis=ranks&theme=dark&lang=hi');
  assert.deepEqual(parseParams(`#${text}`), { state, errors: [] });
});

test('the default state serialises to an empty hash', () => {
  assert.equal(serializeState(DEFAULT_STATE), '');
  assert.deepEqual(parseParams('').state, { ...DEFAULT_STATE, costs: { ...DEFAULT_STATE.costs } });
});

test('simulator fields pass through as written so pipesim.validate can name them', () => {
  const { state, errors } = parseParams('schedule=pipedream&ranks=abc&forward=-1&microbatches=8.0');
  assert.equal(state.schedule, 'pipedream');
  assert.equal(state.ranks, 'abc');
  assert.equal(state.costs.forward, -1);
  assert.equal(state.microbatches, 8);
  assert.deepEqual(errors, []);
});

test('page-level keys are checked here, with a message naming key, rule and value', () => {
  const { state, errors } = parseParams('view=chart&theme=pink&speed=3&t=-2&lang=fr');
  assert.equal(state.view, 'lesson');
  assert.equal(state.theme, 'auto');
  assert.deepEqual(errors.map((e) => e.message), [
    'view must be one of lesson, timeline, sweep, planner (got "chart")',
    't must be a time >= 0 (got "-2")',
    'speed must be one of 0.25, 0.5, 1, 2, 4 (got "3")',
    'theme must be one of auto, light, dark (got "pink")',
    'lang must be one of en, hi (got "fr")',
  ]);
});

test('configOf builds the simulator config; the store notifies changed keys only', () => {
  assert.deepEqual(configOf(DEFAULT_STATE, '1f1b'), { schedule: '1f1b', ranks: 8, microbatches: 20, costs: { ...DEFAULT_STATE.costs } });
  const store = createStore(DEFAULT_STATE);
  const seen = [];
  store.subscribe((s, changed) => seen.push(changed));
  store.set({ ranks: 8, costs: { ...DEFAULT_STATE.costs } });
  store.set({ ranks: 4, t: 3 });
  assert.deepEqual(seen, [['ranks', 't']]);
  assert.equal(store.get().ranks, 4);
});
