// web/js/state.js under Node: the URL hash round trip (costs with their communication model, the
// stream view, a planner spec), its error reporting, and the parameter table it is generated from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LANGS } from '../../web/js/lib/locales.js';
import { parseFigureSpec } from '../../web/js/lib/figure-spec.js';
import { translator, loadLanguage } from '../../web/js/lib/i18n.js';
import { parseParams, serializeState, paramsFrom, configOf, createStore, defaultMemoryModel, DEFAULT_STATE, DEFAULT_COMM, PARAMS, EMBED_PARAMS, MAX_CUSTOM_URL_CHARS, problemText } from '../../web/js/state.js';
import CATALOGUE from '../../web/generated/catalogue.js';

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

test('page-level keys are checked here, with a message naming key, rule and value', async () => {
  const { state, errors } = parseParams('view=chart&theme=pink&speed=3&t=-2&lang=fr');
  assert.equal(state.view, 'lesson');
  assert.equal(state.theme, 'auto');
  // The allowed values are a list in a sentence, written as the language writes a choice
  // (Intl.ListFormat), not joined in code.
  const or = (values) => new Intl.ListFormat('en', { type: 'disjunction' }).format(values);
  assert.deepEqual(errors.map((e) => e.message), [
    `view must be one of ${or(['lesson', 'timeline', 'sweep', 'planner'])} (got "chart")`,
    't must be a time >= 0 (got "-2")',
    `speed must be one of ${or(['0.25', '0.5', '1', '2', '4'])} (got "3")`,
    `theme must be one of ${or(['auto', 'light', 'dark'])} (got "pink")`,
    `lang must be one of ${or(LANGS)} (got "fr")`,
  ]);
  // In another language, the same problem lists its values as that language does.
  await loadLanguage('ar');
  const t = translator('ar');
  const theme = errors.find((e) => e.key === 'theme');
  assert.equal(problemText(theme, t), t('url.oneOf', { key: 'theme', allowed: new Intl.ListFormat('ar', { type: 'disjunction' }).format(['auto', 'light', 'dark']), got: 'pink' }));
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

test('the communication model, the stream view and a plan survive serialize -> parse', () => {
  const state = {
    ...DEFAULT_STATE, view: 'timeline',
    costs: { ...DEFAULT_STATE.costs, comm: { ratio: 0.5, attnShare: 0.25, layers: 4 } },
    streams: true,
    plan: { plan: 'dense-70b-1024', 'cluster.gpus': '512', 'model.type': 'moe', customAllToAllKernel: 'true' },
  };
  const text = serializeState(state);
  assert.equal(text, 'view=timeline&commRatio=0.5&attnShare=0.25&commLayers=4&streams=1&plan=dense-70b-1024&cluster.gpus=512&model.type=moe&customAllToAllKernel=true');
  assert.deepEqual(parseParams(`#${text}`), { state, errors: [] });
  // Defaults are left out of the address, but commRatio is always written: it switches the model on.
  const plain = { ...DEFAULT_STATE, costs: { ...DEFAULT_STATE.costs, comm: { ...DEFAULT_COMM } } };
  assert.equal(serializeState(plain), 'commRatio=1');
  assert.deepEqual(parseParams('commRatio=1').state.costs, { ...DEFAULT_STATE.costs, comm: { ratio: 1, attnShare: 0.5, layers: 1 } });
  // Without any comm key there is no comm at all (the simulator then runs exactly as before).
  assert.equal('comm' in parseParams('forward=2').state.costs, false);
});

test('the memory model is off until a model is named; then its keys take core\'s defaults and reach the config', () => {
  assert.equal(DEFAULT_STATE.memoryModel, undefined);
  assert.equal('memoryModel' in configOf(DEFAULT_STATE), false);
  const { state, errors } = parseParams('model=deepseek-v3&ep=64&dp=128&zero=1&seq=4096');
  assert.deepEqual(errors, []);
  const defaults = CATALOGUE.memory.defaults;
  assert.deepEqual(state.memoryModel, {
    model: 'deepseek-v3', recipe: defaults.recipe, zero: 1,
    layout: { tp: 1, dp: 128, ep: 64, sequenceParallel: false },
    activations: { seqLength: 4096, microBatchSize: defaults.microBatchSize, recompute: defaults.recompute },
  });
  assert.deepEqual(configOf(state).memoryModel, state.memoryModel);
  // The model is always written (it switches the model on); defaults are left out.
  const text = serializeState(state);
  assert.equal(text, 'model=deepseek-v3&zero=1&dp=128&ep=64');
  assert.deepEqual(parseParams(text).state.memoryModel, state.memoryModel);
  // A value core must judge passes through; a choice outside the catalogue's is the address's error.
  assert.equal(parseParams('model=llama3-70b&tp=three').state.memoryModel.layout.tp, 'three');
  assert.equal(parseParams('model=gpt-5').errors[0].key, 'model');
});

test('comm and plan values pass through as written, so the simulator can name the field', () => {
  const { state, errors } = parseParams('attnShare=abc&commLayers=2.5&cluster.gpus=lots&plan=nope&streams=1');
  assert.deepEqual(state.costs.comm, { ratio: 1, attnShare: 'abc', layers: 2.5 });
  assert.deepEqual(state.plan, { plan: 'nope', 'cluster.gpus': 'lots' });
  assert.equal(state.streams, true);
  assert.deepEqual(errors, []);
});

test('the store sees a changed comm model inside costs, and not an equal one', () => {
  const store = createStore({ ...DEFAULT_STATE, costs: { ...DEFAULT_STATE.costs, comm: { ratio: 1, attnShare: 0.5, layers: 1 } } });
  const seen = [];
  store.subscribe((s, changed) => seen.push(changed));
  store.set({ costs: { ...DEFAULT_STATE.costs, comm: { ratio: 1, attnShare: 0.5, layers: 1 } } });
  store.set({ costs: { ...DEFAULT_STATE.costs, comm: { ratio: 2, attnShare: 0.5, layers: 1 } } });
  assert.deepEqual(seen, [['costs']]);
});

// ---- the parameter table (PARAMS) every parse, serialise and embed path is generated from ----

test('every address key and alias is written once in the table', () => {
  const names = PARAMS.flatMap((p) => [p.key, ...(p.aliases || [])]);
  assert.equal(new Set(names).size, names.length, 'no name names two entries');
  const paths = PARAMS.map((p) => p.path.join('/'));
  assert.equal(new Set(paths).size, paths.length, 'no two entries write the same state field');
  for (const entry of PARAMS) if (entry.type === 'choice') assert.ok(entry.values.includes(entry.default), entry.key);
});

test('cost and comm keys are core\'s fields, with core\'s defaults (the catalogue)', () => {
  const costs = PARAMS.filter((p) => p.path[0] === 'costs' && !p.group);
  assert.deepEqual(costs.map((p) => p.path[1]), Object.keys(CATALOGUE.costs));
  for (const p of costs) assert.equal(p.default, CATALOGUE.costs[p.path[1]], p.key);
  const comm = PARAMS.filter((p) => p.group === 'comm');
  assert.deepEqual(comm.map((p) => p.path.at(-1)), Object.keys(CATALOGUE.comm));
  for (const p of comm) assert.equal(p.default, CATALOGUE.comm[p.path.at(-1)], p.key);
  assert.deepEqual(DEFAULT_STATE.costs, CATALOGUE.costs);
  assert.equal('comm' in DEFAULT_STATE.costs, false);
});

test('each entry round-trips a value other than its default, alone in the address', () => {
  const sample = {
    choice: (p) => p.values.find((v) => v !== p.default), sim: () => 7, text: () => 'chimera', longText: () => 'F0.0@0 B0.0@0\n  F0.0@1 B0.0@1', flag: () => true, time: () => 2.5, plan: () => 'x',
    stages: () => [{ forward: 1, backward: 2 }, { forward: 0.5, weight: 0.25 }],
  };
  for (const entry of PARAMS) {
    const value = sample[entry.type](entry);
    const state = structuredClone({ ...DEFAULT_STATE, costs: { ...DEFAULT_STATE.costs }, plan: {} });
    if (entry.group === 'comm') state.costs.comm = { ...DEFAULT_COMM };
    if (entry.group === 'memory') state.memoryModel = defaultMemoryModel();
    let node = state;
    for (const name of entry.path.slice(0, -1)) node = node[name];
    node[entry.path.at(-1)] = value;
    const text = serializeState(state);
    assert.match(text, new RegExp(`(^|&)${entry.key.replace('.', '\\.')}=`), `${entry.key} is written`);
    assert.deepEqual(parseParams(text), { state, errors: [] }, entry.key);
  }
});

test('an alias reads like its key, in the address and in embed attributes', () => {
  for (const entry of PARAMS) {
    for (const alias of entry.aliases || []) {
      assert.deepEqual(parseParams(`${alias}=3`), parseParams(`${entry.key}=3`), `${alias} -> ${entry.key}`);
    }
  }
  assert.equal(parseParams('mb=12').state.microbatches, 12);
  assert.equal(parseParams('p2p-latency=0.5').state.costs.p2pLatency, 0.5);
  // Attribute names are lowercase: camelCase keys come in through their kebab-case aliases.
  for (const name of EMBED_PARAMS) assert.match(name, /^[a-z][a-z0-9-]*$/);
  for (const name of ['schedule', 'ranks', 'p2p', 'p2p-latency', 'comm-ratio', 'attn-share', 'comm-layers', 'streams', 'lang', 'chunks', 'timing']) {
    assert.ok(EMBED_PARAMS.includes(name), name);
  }
  for (const name of ['view', 'exercise', 'plan', 'commRatio']) assert.ok(!EMBED_PARAMS.includes(name), name);
});

test('a course figure spec\'s timing reaches the simulator config as the page\'s address does', () => {
  const { config } = parseFigureSpec('dualpipe-schedule schedule=dualpipev ranks=4 microbatches=10 timing=runtime');
  const { state, errors } = parseParams(paramsFrom(config));
  assert.deepEqual(errors, []);
  assert.equal(configOf(state).timing, 'runtime');
  assert.deepEqual(parseParams(paramsFrom({ timing: 'eager' })).errors.map((e) => e.key), ['timing']);
});

test('a figure config may nest costs and the comm model or give them flat: the same state', () => {
  const nested = paramsFrom({ ranks: 4, costs: { forward: 2, p2pLatency: 0.5, comm: { ratio: 1, layers: 4 } }, widget: 'sweep' });
  const flat = paramsFrom({ ranks: 4, forward: 2, p2pLatency: 0.5, comm: { ratio: 1 }, commLayers: 4, widget: 'sweep' });
  assert.equal(nested.toString(), 'ranks=4&forward=2&p2p=0.5&commRatio=1&commLayers=4&widget=sweep');
  assert.deepEqual(parseParams(flat), parseParams(nested));
  assert.equal(paramsFrom('?ranks=4&mb=8').toString(), 'ranks=4&mb=8');
  assert.equal(paramsFrom({ plan: { 'cluster.gpus': 16 } }).toString(), 'cluster.gpus=16');
});

test('a hand-written schedule keeps its line breaks in the address, and a long one is left out', () => {
  const text = 'F0.0@0 F0.1@0 B0.0@0 B0.1@0\n F0.0@1 B0.0@1 FB(F0.1@1,B0.1@1)\n';
  const hash = serializeState({ ...DEFAULT_STATE, view: 'timeline', custom: text });
  assert.equal(parseParams(hash).state.custom, text);
  const long = 'F0.0@0 '.repeat(Math.ceil(MAX_CUSTOM_URL_CHARS / 7) + 1);
  assert.ok(long.length > MAX_CUSTOM_URL_CHARS);
  assert.equal(serializeState({ ...DEFAULT_STATE, view: 'timeline', custom: long }), 'view=timeline');
});

test('a huge or multi-line value for a page-level key makes a one-line notice of bounded length', () => {
  for (const key of ['t', 'speed', 'axis', 'theme', 'lang', 'view']) {
    const { errors } = parseParams(`${key}=${encodeURIComponent('x\n'.repeat(1 << 19))}`);
    assert.equal(errors.length, 1, key);
    assert.ok(!errors[0].message.includes('\n'), key);
    assert.ok(errors[0].message.length < 300, `${key}: ${errors[0].message.length} characters`);
  }
});

test('chunks round-trip through the address and reach only the schedules whose catalogue entry takes them', () => {
  const chunked = CATALOGUE.schedules.find((s) => s.chunks);
  const fixed = CATALOGUE.schedules.find((s) => !s.chunks);
  assert.equal(DEFAULT_STATE.chunks, null, 'absent: each schedule keeps its catalogue default');
  assert.equal(configOf(DEFAULT_STATE, chunked.name).chunks, undefined);
  const state = { ...DEFAULT_STATE, view: 'timeline', schedule: chunked.name, compare: fixed.name, ranks: 4, microbatches: 8, chunks: 4 };
  const text = serializeState(state);
  assert.equal(text, `view=timeline&schedule=${chunked.name}&compare=${fixed.name}&ranks=4&microbatches=8&chunks=4`);
  assert.deepEqual(parseParams(`#${text}`), { state, errors: [] });
  assert.equal(configOf(state).chunks, 4);
  // Core rejects chunks for a fixed layout (chunks.unsupported): the compared schedule runs without.
  assert.equal('chunks' in configOf(state, fixed.name), false);
  assert.equal(parseParams('chunks=two').state.chunks, 'two', 'passed through for core to judge');
});

test('timing round-trips through the address and reaches only the schedules whose catalogue entry runs under it', () => {
  const timed = CATALOGUE.schedules.find((s) => s.timings.includes('runtime') && s.name !== DEFAULT_STATE.schedule);
  const untimed = CATALOGUE.schedules.find((s) => !s.timings.includes('runtime'));
  assert.equal(DEFAULT_STATE.timing, CATALOGUE.timing.default);
  assert.equal('timing' in configOf(DEFAULT_STATE, timed.name), false, 'the default is not sent');
  const state = { ...DEFAULT_STATE, view: 'timeline', schedule: timed.name, compare: untimed.name, timing: 'runtime' };
  const text = serializeState(state);
  assert.equal(text, `view=timeline&schedule=${timed.name}&compare=${untimed.name}&timing=runtime`);
  assert.deepEqual(parseParams(`#${text}`), { state, errors: [] });
  assert.equal(configOf(state).timing, 'runtime');
  // Core rejects it for any other schedule (timing.schedule): the compared one runs without.
  assert.equal('timing' in configOf(state, untimed.name), false);
  const { errors } = parseParams('timing=eager');
  assert.equal(errors[0].key, 'timing');
  assert.ok(errors[0].message.includes(new Intl.ListFormat('en', { type: 'disjunction' }).format(['dependency', 'runtime'])), errors[0].message);
});

test('a2aOverlap and delayWgrad round-trip and reach only the schedules whose catalogue entry takes them', () => {
  const takes = CATALOGUE.schedules.filter((s) => s.a2aOverlap).map((s) => s.name);
  assert.deepEqual(takes, ['1f1b', 'interleaved-1f1b'], 'core\'s catalogue: Megatron-Core\'s combined 1F1B');
  const state = { ...DEFAULT_STATE, view: 'timeline', schedule: 'interleaved-1f1b', compare: 'dualpipe', a2aOverlap: true, delayWgrad: true };
  const text = serializeState(state);
  assert.equal(text, 'view=timeline&schedule=interleaved-1f1b&compare=dualpipe&a2aOverlap=1&delayWgrad=1');
  assert.deepEqual(parseParams(`#${text}`), { state, errors: [] });
  assert.equal(configOf(state).a2aOverlap, true);
  assert.equal(configOf(state).delayWgrad, true);
  // DualPipe's pairs are its own: core rejects the option there, so the compared run goes without.
  assert.equal('a2aOverlap' in configOf(state, 'dualpipe'), false);
  assert.equal('delayWgrad' in configOf(state, 'dualpipe'), false);
  assert.equal('a2aOverlap' in configOf(DEFAULT_STATE, 'interleaved-1f1b'), false, 'off is not sent');
  // Embeds spell them in attribute form.
  assert.ok(EMBED_PARAMS.includes('a2a-overlap') && EMBED_PARAMS.includes('delay-wgrad'));
  assert.equal(parseParams('a2a-overlap=1&schedule=1f1b').state.a2aOverlap, true);
});
