// The hostile-input catalogue of issue 13 against the JS API and the raw module: every call fails
// with a SimError carrying a code and one short line, within a sanity bound of HOSTILE_SECONDS of
// CPU time (default 10, as for the CLI's catalogue: the calls take well under a second; the bound
// only catches a hang or a blow-up, and counts CPU, not wall time, so other builds on the machine
// do not fail it, though contention still inflates CPU time several-fold); the
// next call works; and the module's heap is back where it was after each failure.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import test from 'node:test';
import { METHODS, SimError, summary } from '../../wasm/pipesim.js';
import { MODULE_URL, pipesim } from './helpers.mjs';

const LIMIT_MS = 1000 * Number(process.env.HOSTILE_SECONDS ?? 10);
// How many hostile calls ran and the slowest refusal, printed at the end (not asserted).
const tally = { calls: 0, slowestMs: 0, slowest: '' };
test.after(() => console.log(`hostile JS API calls: ${tally.calls}; slowest refusal ${tally.slowestMs.toFixed(1)} ms of CPU: ${tally.slowest}`));
const base = { schedule: '1f1b', ranks: 4, microbatches: 8 };
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** An object nested `levels` deep, built without recursion: [[[...]]] or {"a":{"a":...}}. */
function nested(levels, kind = 'array') {
  let value = kind === 'array' ? [] : {};
  for (let i = 1; i < levels; i++) value = kind === 'array' ? [value] : { a: value };
  return value;
}

/**
 * Asserts fn() throws a SimError with `code` whose message is one clean line of at most 300
 * bytes (with the CLI's "pipesim: code: " in front), is its rule's template filled with its
 * params, and came within the time bound.
 */
function hostile(api, what, fn, code) {
  const started = process.cpuUsage();
  let caught;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  const { user, system } = process.cpuUsage(started);
  const ms = (user + system) / 1000;
  tally.calls++;
  if (ms > tally.slowestMs) Object.assign(tally, { slowestMs: ms, slowest: what });
  assert.ok(caught instanceof SimError, `${what}: expected a SimError, got ${String(caught).slice(0, 200)}`);
  assert.equal(caught.code, code, `${what}: ${caught.message}`);
  const line = `pipesim: ${caught.code}: ${caught.message}`;
  assert.ok(!CONTROL.test(line) && line.isWellFormed(), `${what}: not one clean line: ${JSON.stringify(line)}`);
  assert.ok(Buffer.byteLength(line) <= 300, `${what}: ${Buffer.byteLength(line)} bytes`);
  assert.ok(Buffer.byteLength(caught.path) <= api.catalogue().limits.maxPathBytes, `${what}: path of ${caught.path.length}`);
  const rule = api.catalogue().rules.find((r) => r.id === caught.rule);
  assert.ok(rule, `${what}: rule ${caught.rule}`);
  assert.equal(rule.message.replace(/\{(\w+)\}/g, (_, name) => String(caught.params[name])), caught.message, what);
  assert.ok(ms < LIMIT_MS, `${what}: took ${ms.toFixed(0)} ms of CPU`);
  return caught;
}

test('every hostile call is a SimError with one short line, and the next call works', async () => {
  const api = await pipesim();
  const reference = api.simulateJson(base);
  const cyclic = { ...base };
  cyclic.self = cyclic;
  const big = 'x'.repeat(10_000_000);
  const cases = [
    ['100,000 nested arrays as text', () => api.simulateJson('['.repeat(100_000) + ']'.repeat(100_000)), 'parse_error'],
    ['100,000 nested arrays as ranks', () => api.simulate({ ...base, ranks: nested(100_000) }), 'parse_error'],
    ['4,000 nested arrays as ranks', () => api.simulate({ ...base, ranks: nested(4000) }), 'parse_error'],
    ['4,000 nested objects as costs', () => api.simulate({ ...base, costs: nested(4000, 'object') }), 'parse_error'],
    ['100 MB of text', () => api.simulateJson(`{"schedule":"1f1b","ranks":[${'0,'.repeat(50_000_000)}0]}`), 'too_large'],
    ['10 million ranks', () => api.simulate({ ...base, ranks: new Array(10_000_000).fill(0) }), 'too_large'],
    ['a 10 MB schedule name', () => api.simulate({ ...base, schedule: big }), 'unknown_schedule'],
    ['a 10 MB unknown key', () => api.simulate({ ...base, [big]: 1 }), 'invalid_config'],
    ['a 10 MB op label', () => api.simulate({ schedule: 'custom', stages: 1, microbatches: 1, rankOps: [[big]] }), 'invalid_schedule'],
    ['a newline in a schedule name', () => api.simulate({ ...base, schedule: '1f1b\nsecond line' }), 'unknown_schedule'],
    ['a newline in a key', () => api.simulate({ ...base, 'rank\ns': 4 }), 'invalid_config'],
    ['U+2028 in an op label', () => api.simulate({ schedule: 'custom', stages: 1, microbatches: 1, rankOps: [['F0.0@0\u2028']] }), 'invalid_schedule'],
    ['a lone surrogate', () => api.simulate({ ...base, schedule: '\ud800' }), 'parse_error'],
    ['a duplicate key', () => api.simulateJson('{"schedule":"1f1b","ranks":4,"ranks":8,"microbatches":8}'), 'parse_error'],
    ['NaN under a 1 MB key', () => api.simulate({ ...base, costs: { ['k'.repeat(1_000_000)]: NaN } }), 'invalid_config'],
    ['a symbol with a newline', () => api.simulate(Symbol('a\nb')), 'invalid_config'],
    ['a 100,000-digit BigInt', () => api.simulate(10n ** 100_000n), 'invalid_config'],
    ['a cycle', () => api.simulate(cyclic), 'invalid_config'],
    ['the largest 1f1b run plus one', () => api.simulate({ schedule: '1f1b', ranks: 1024, microbatches: 977 }), 'too_large'],
    ['2^20 micro-batches on 1024 ranks', () => api.simulateJson({ schedule: 'dualpipev', ranks: 1024, microbatches: 2 ** 20 }), 'too_large'],
    ['a sweep of 60 million ops', () => api.sweep({ schedules: ['1f1b'], ranks: [1024], microbatches: Array.from({ length: 40 }, (_, i) => 900 + i) }), 'too_large'],
    ['a 200,001-cell slot grid', () => api.traceGrid({ config: { schedule: 'gpipe', ranks: 1, microbatches: 100_001 } }), 'too_large'],
    ['4,000 nested arrays for the planner', () => api.plan({ cluster: nested(4000) }), 'parse_error'],
    ['a newline in a model type', () => api.planMarkdown({ cluster: { gpus: 8, gpuModel: 'H800', memoryPerGpuGb: 80, nodes: 1, gpusPerNode: 8, interconnectGbpsPerGpu: 400 }, model: { type: 'moe\n' } }), 'invalid_config'],
  ];
  for (const [name, method] of Object.entries(METHODS)) {
    if (method.arg !== null) cases.push([`${name} of 4,000 nested arrays`, () => api[name]({ x: nested(4000) }), 'parse_error']);
  }
  for (const [what, fn, code] of cases) {
    hostile(api, what, fn, code);
    assert.equal(api.simulateJson(base), reference, `after ${what}`);
  }
});

/** A value whose every read throws `thrown`, in each way a caller's argument can (issue 30). */
function throwing(thrown) {
  const raise = () => { throw thrown; };
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  return [
    ['a getter', { ...base, get ranks() { return raise(); } }, '/ranks'],
    ['a getter inside costs', { ...base, costs: { forward: 1, get backward() { return raise(); } } }, '/costs/backward'],
    ['a getter in an array', { schedules: ['1f1b'], ranks: Object.defineProperty([4, 8], '1', { get: raise, enumerable: true }), microbatches: [8] }, '/ranks/1'],
    ['a toJSON', { ...base, costs: { toJSON: raise } }, '/costs'],
    ['a Proxy get trap', new Proxy({ ...base }, { get: raise }), ''],
    ['a Proxy ownKeys trap', { ...base, costs: new Proxy({}, { ownKeys: raise }) }, '/costs'],
    ['a Proxy getOwnPropertyDescriptor trap', new Proxy({ ...base }, { getOwnPropertyDescriptor: raise }), ''],
    ['a Proxy of an array whose length throws', { schedules: ['1f1b'], ranks: new Proxy([4], { get: (t, k) => (k === 'length' ? raise() : t[k]) }), microbatches: [8] }, '/ranks'],
    ['a valueOf of a boxed number', { ...base, ranks: Object.assign(new Number(4), { valueOf: raise }) }, '/ranks'],
    ['a revoked Proxy', { ...base, costs: revoked.proxy }, '/costs'],
  ];
}

test('an argument that throws while it is read is a SimError of its own rule, at its path', async () => {
  const api = await pipesim();
  const reference = api.simulateJson(base);
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const angry = new Proxy({}, { get: () => { throw new Error('and again'); } });
  // What the caller's code throws: an Error, a string, a SimError of its own (still not ours to
  // pass on), a value whose message cannot be read, a revoked Proxy, a 1 MB multi-line message.
  const thrownValues = [['an Error', new Error('boom')], ['a string', 'a string'],
    ['a SimError of its own', new SimError('invalid_config', 'forged', '/x', 'ranks.even')],
    ['a Proxy whose every read throws', angry], ['a revoked Proxy', revoked.proxy], ['a symbol', Symbol('s')],
    ['a 1 MB two-line message', new Error(`line\n${'x'.repeat(1_000_000)}`)]];
  let count = 0;
  for (const [what, thrown] of thrownValues) {
    for (const [how, value, path] of throwing(thrown)) {
      for (const name of ['simulate', 'validate', 'sweep', 'exportCsv']) {
        const e = hostile(api, `${how} throwing ${what} in ${name}`, () => api[name](value), 'invalid_config');
        assert.equal(e.rule, 'input.unreadable', how);
        assert.equal(e.path, path, how);
        assert.ok(Buffer.byteLength(e.params.detail) <= api.catalogue().limits.summaryBytes, how);
        assert.equal(api.simulateJson(base), reference, `after ${how}`);
        count++;
      }
    }
  }
  let e = hostile(api, 'a getter', () => api.simulate({ ...base, get ranks() { throw new Error('boom'); } }), 'invalid_config');
  assert.deepEqual([e.rule, e.message, e.path, e.params], ['input.unreadable', 'ranks could not be read: boom', '/ranks', { field: 'ranks', detail: 'boom' }]);
  e = hostile(api, 'a revoked Proxy', () => api.simulate(revoked.proxy), 'invalid_config');
  assert.deepEqual([e.rule, e.path, e.params.field], ['input.unreadable', '', 'config']);
  e = hostile(api, 'a message that cannot be read', () => api.plan({ get cluster() { throw angry; } }), 'invalid_config');
  assert.equal(e.message, 'cluster could not be read: an exception that cannot be read either');
  // The rule is core's, so the catalogue and the page's error text know it.
  assert.ok(api.catalogue().rules.some((r) => r.id === 'input.unreadable' && r.code === 'invalid_config'));
  assert.ok(count >= 200, `${count} calls`);
});

test('a huge or sparse array is refused before any of it is read', async () => {
  const api = await pipesim();
  const { maxInputBytes } = api.catalogue().limits;
  // Counts the reads of an array's elements: the size check runs on the way in, on its length.
  const counted = (array) => {
    const reads = { count: 0 };
    return [reads, new Proxy(array, { get: (t, k) => { if (typeof k === 'string' && /^\d+$/.test(k)) reads.count++; return t[k]; } })];
  };
  for (const length of [1e8, 2 ** 32 - 1, Math.ceil(maxInputBytes / 2)]) {
    const [reads, ranks] = counted(new Array(length));
    const e = hostile(api, `a sparse array of length ${length}`, () => api.simulate({ ...base, ranks }), 'too_large');
    assert.deepEqual([e.rule, e.path], ['input.too_large', ''], String(length));
    assert.equal(reads.count, 0, `${length}: ${reads.count} elements read`);
  }
  // Dense, under the length bound (2 bytes an element) but over the limit as text: refused once
  // the text passes the limit, not after writing all of it.
  const [reads, ranks] = counted(new Array(Math.floor(maxInputBytes / 4)).fill(1.25));
  hostile(api, 'a dense array of 4 million 1.25s', () => api.sweep({ schedules: ['1f1b'], ranks, microbatches: [8] }), 'too_large');
  assert.ok(reads.count < maxInputBytes / 4, `${reads.count} elements read`);
  const e = hostile(api, 'a 20 MB string', () => api.simulate({ ...base, schedule: 's'.repeat(20_000_000) }), 'too_large');
  assert.equal(e.rule, 'input.too_large');
});

test('nesting deeper than core reads is refused where core refuses it, without a stack overflow', async () => {
  const api = await pipesim();
  const fromText = (() => { try { api.simulateJson(JSON.stringify({ ...base, ranks: nested(65) })); } catch (error) { return error; } })();
  for (const levels of [65, 4000, 100_000]) {
    const e = hostile(api, `${levels} nested arrays`, () => api.simulate({ ...base, ranks: nested(levels) }), 'parse_error');
    assert.deepEqual([e.rule, e.message, e.path], [fromText.rule, fromText.message, fromText.path], String(levels));
  }
  assert.equal(api.simulate({ schedule: 'custom', stages: 1, microbatches: 1, rankOps: [['F0.0@0', 'B0.0@0']], costs: { forward: new Number(2) } }).makespan, 4);
  const e = hostile(api, 'a boxed NaN', () => api.simulate({ ...base, costs: { forward: new Number(NaN) } }), 'invalid_config');
  assert.deepEqual([e.rule, e.path], ['field.finite', '/costs/forward']);
});

test('values quoted in messages are summaries: escaped, cut to 80 bytes, with their length', async () => {
  const api = await pipesim();
  const { summaryBytes } = api.catalogue().limits;
  let e = hostile(api, 'long name', () => api.simulate({ ...base, schedule: 'p'.repeat(1_000_000) }), 'unknown_schedule');
  assert.equal(e.params.got, `${'p'.repeat(61)}... (1000000 bytes)`);  // 61 + 19 = 80
  e = hostile(api, 'newline', () => api.simulate({ ...base, 'rank\ns': 4 }), 'invalid_config');
  assert.equal(e.message, 'unknown field "rank\\ns"');
  assert.equal(e.path, '/rank\ns');
  e = hostile(api, 'huge key', () => api.simulate({ ...base, costs: { ['k'.repeat(1_000_000)]: NaN } }), 'invalid_config');
  assert.equal(e.path, '/costs');
  assert.equal(e.message, `${'costs.' + 'k'.repeat(55)}... (1000006 bytes) must be a finite number (got NaN)`);
  e = hostile(api, 'symbol', () => api.simulate(Symbol('a\nb')), 'invalid_config');
  assert.equal(e.message, 'config must be a JSON object (got Symbol(a\\nb))');
  e = hostile(api, 'bigint', () => api.simulate(10n ** 100n), 'invalid_config');
  assert.equal(e.params.got, `1${'0'.repeat(64)}... (102 bytes)`);  // 65 + 15 = 80
  const cyclic = { ...base, costs: {} };
  cyclic.costs.loop = cyclic;
  e = hostile(api, 'cycle', () => api.simulate(cyclic), 'invalid_config');
  assert.equal(e.rule, 'field.not_json');
  assert.ok(Buffer.byteLength(e.params.detail) <= summaryBytes);
  e = hostile(api, 'duplicate', () => api.simulateJson('{"schedule":"1f1b","ranks":4,"ranks":8,"microbatches":8}'), 'parse_error');
  assert.deepEqual([e.rule, e.message, e.path], ['json.duplicate_key', 'input has the key "ranks" twice in one object', '/ranks']);
  e = hostile(api, 'too large', () => api.simulateJson(' '.repeat(20_000_000)), 'too_large');
  assert.deepEqual([e.rule, e.message, e.params], ['input.too_large', 'input is larger than the limit of 16777216 bytes', { limit: 16777216 }]);
});

test('JS summary() is core\'s: the same quote for the same value, cut or not', async () => {
  const api = await pipesim();
  const { summaryBytes } = api.catalogue().limits;
  const names = ['dualpipe2', 'a\nb\tc', 'x\u0001\u007f\u0085\u2028\u2029y', 'é'.repeat(50), '😀'.repeat(30),
                 'p'.repeat(81), 'p'.repeat(80), 'हिन्दी'.repeat(20), '\n'.repeat(60)];
  for (const name of names) {
    let caught;
    try {
      api.simulate({ ...base, schedule: name });
    } catch (error) {
      caught = error;
    }
    // core quotes the schedule name it got with summary(); JS must say the same of the same text.
    assert.equal(caught.params.got, summary(name, summaryBytes), JSON.stringify(name));
  }
  assert.equal(summary('\ud800x', 80), '\\ud800x');  // JS only: a lone surrogate
});

test('after any failure the module\'s heap is back to where it was', async () => {
  const { default: createPipesimModule } = await import(MODULE_URL.href);
  const module = await createPipesimModule({ wasmBinary: await readFile(new URL('pipesim.wasm', MODULE_URL)) });
  const texts = [
    '['.repeat(100_000) + ']'.repeat(100_000),
    `{"schedule":"1f1b","ranks":[${'0,'.repeat(2_000_000)}0]}`,  // 4 MB: parsed, then refused
    ' '.repeat(17_000_000),
    `{"schedule":"${'x'.repeat(10_000_000)}","ranks":4,"microbatches":8}`,
    '{"schedule":"1f1b","ranks":4,"ranks":8}',
    JSON.stringify({ schedule: 'custom', stages: 64, microbatches: 64, rankOps: [Array(4096).fill('F0.0@0')] }),
    JSON.stringify({ schedule: 'custom', stages: 2, microbatches: 1, rankOps: [['F0.0@0', 'B0.0@0'], ['B0.0@1', 'F0.0@1']] }),
    JSON.stringify({ schedule: 'dualpipev', ranks: 1024, microbatches: 2 ** 20 }),
    JSON.stringify({ schedule: '1f1b', ranks: 64, microbatches: 1024 }),  // succeeds: 131,072 ops
  ];
  const calls = ['simulate', 'simulateJson', 'validate', 'sweep', 'plan', 'recover', 'traceGrid', 'lessonReport'];
  const round = () => {
    for (const text of texts) for (const name of calls) module[name](text);
  };
  round();  // first calls fill static tables (rules, schedules) and grow memory once
  const before = module.heapInUse();
  const memory = module.HEAPU8.buffer.byteLength;
  // One checked round is enough: each call is checked on its own, so a leak shows at its first repeat.
  for (const text of texts) {
    for (const name of calls) {
      const envelope = module[name](text);
      assert.equal(module.heapInUse(), before, `${name}(${text.slice(0, 40)}) kept ${module.heapInUse() - before} bytes`);
      if (!envelope.ok) assert.match(JSON.parse(envelope.error).code, /^[a-z_]+$/);
    }
  }
  assert.equal(module.HEAPU8.buffer.byteLength, memory, 'memory grew while repeating the same calls');
  const ok = module.simulateJson(JSON.stringify(base));
  assert.ok(ok.ok);
});
