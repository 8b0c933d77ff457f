// Every way a call can fail reaches JS as a thrown SimError with the exact code, message and path.
// Messages are core's (compare tests/core/*_test.cpp and tests/core/cli_test.sh); the two that
// JS must check itself (values JSON cannot carry) follow core's wording.
import assert from 'node:assert/strict';
import test from 'node:test';
import { SimError } from '../../wasm/pipesim.js';
import { pipesim } from './helpers.mjs';

const base = { schedule: '1f1b', ranks: 4, microbatches: 8 };
const RULES = new Map((await pipesim()).catalogue().rules.map((rule) => [rule.id, rule]));

/**
 * The message a client rebuilds from the error's rule and params with the catalogue's template;
 * numbers printed as core prints them (%.15g: 15 significant digits, exponent outside 1e-5..1e15).
 */
export function rebuild(error) {
  const rule = RULES.get(error.rule);
  assert.ok(rule, `rule "${error.rule}" is not in the catalogue`);
  assert.equal(rule.code, error.code);
  assert.deepEqual(Object.keys(error.params).sort(), [...rule.params].sort());
  return rule.message.replace(/\{(\w+)\}/g, (_, name) => {
    const value = error.params[name];
    if (typeof value !== 'number') return value;
    const exponent = value === 0 ? 0 : Math.floor(Math.log10(Math.abs(value)));
    if (exponent < -4 || exponent >= 15) return value.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
    return String(Number(value.toPrecision(15)));
  });
}

/**
 * Asserts that fn() throws a SimError with exactly {code, message, path}, whose rule is one of
 * the catalogue's and whose params fill that rule's template to exactly the message.
 */
function throwsSimError(fn, code, message, path = '') {
  let caught;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof SimError, `expected a SimError, got ${caught}`);
  assert.ok(caught instanceof Error);
  assert.equal(caught.name, 'SimError');
  assert.deepEqual({ code: caught.code, message: caught.message, path: caught.path }, { code, message, path });
  assert.equal(rebuild(caught), caught.message);
}

test('unknown schedule: unknown_schedule listing the built-in names', async () => {
  const api = await pipesim();
  const names = api.schedules().map((s) => s.name).join(', ');
  throwsSimError(() => api.simulate({ ...base, schedule: 'pipedream' }), 'unknown_schedule',
                 `schedule must be one of ${names} (got "pipedream")`, '/schedule');
});

test('odd ranks for DualPipe: invalid_config at /ranks', async () => {
  const api = await pipesim();
  throwsSimError(() => api.simulate({ schedule: 'dualpipe', ranks: 3, microbatches: 8 }), 'invalid_config',
                 'ranks must be an even integer >= 2 for dualpipe (got 3)', '/ranks');
});

test('too few micro-batches for DualPipe: invalid_config at /microbatches', async () => {
  const api = await pipesim();
  throwsSimError(() => api.simulate({ schedule: 'dualpipe', ranks: 8, microbatches: 10 }), 'invalid_config',
                 'microbatches must be >= 2 * ranks = 16 for dualpipe (got 10)', '/microbatches');
});

test('non-integer ranks: invalid_config (Embind would silently truncate 2.7; core does not)', async () => {
  const api = await pipesim();
  throwsSimError(() => api.simulate({ ...base, ranks: 2.7 }), 'invalid_config', 'ranks must be an integer (got 2.7)', '/ranks');
  throwsSimError(() => api.simulate({ ...base, ranks: '4' }), 'invalid_config', 'ranks must be an integer (got "4")', '/ranks');
});

test('negative cost: invalid_config at /costs/backward', async () => {
  const api = await pipesim();
  throwsSimError(() => api.simulate({ ...base, costs: { backward: -2 } }), 'invalid_config',
                 'costs.backward must be a finite number > 0 (got -2)', '/costs/backward');
});

test('W larger than B: invalid_config at /costs/weight', async () => {
  const api = await pipesim();
  throwsSimError(() => api.simulate({ ...base, costs: { backward: 2, weight: 3 } }), 'invalid_config',
                 'costs.weight must be <= costs.backward = 2 (got 3)', '/costs/weight');
});

test('non-finite numbers are rejected in JS, naming the field (JSON cannot carry them)', async () => {
  const api = await pipesim();
  throwsSimError(() => api.simulate({ ...base, costs: { forward: Infinity } }), 'invalid_config',
                 'costs.forward must be a finite number (got Infinity)', '/costs/forward');
  throwsSimError(() => api.simulate({ ...base, costs: { p2pLatency: -Infinity } }), 'invalid_config',
                 'costs.p2pLatency must be a finite number (got -Infinity)', '/costs/p2pLatency');
  throwsSimError(() => api.simulate({ ...base, microbatches: NaN }), 'invalid_config',
                 'microbatches must be a finite number (got NaN)', '/microbatches');
  throwsSimError(() => api.sweep({ schedules: ['gpipe'], ranks: [4, NaN], microbatches: [8] }), 'invalid_config',
                 'ranks.1 must be a finite number (got NaN)', '/ranks/1');
});

test('malformed JSON text: parse_error with nlohmann\'s position', async () => {
  const api = await pipesim();
  throwsSimError(() => api.simulateJson('{"schedule":}'), 'parse_error',
                 "input is not valid JSON: parse error at line 1, column 13: syntax error while parsing value - unexpected '}'; expected '[', '{', or a literal");
});

test('too large: too_large before anything is allocated', async () => {
  const api = await pipesim();
  throwsSimError(() => api.simulate({ schedule: '1f1b', ranks: 1024, microbatches: 1536 }), 'too_large',
                 'ranks x microbatches is too large: about 3145728 ops for 1f1b, above the limit of 2000000');
});

test('non-object configs: invalid_config with the value named', async () => {
  const api = await pipesim();
  throwsSimError(() => api.simulate(42), 'invalid_config', 'config must be a JSON object (got 42)');
  throwsSimError(() => api.simulate(null), 'invalid_config', 'config must be a JSON object (got null)');
  throwsSimError(() => api.simulate([1, 2]), 'invalid_config', 'config must be a JSON object (got [1,2])');
  throwsSimError(() => api.simulate('dualpipe'), 'invalid_config', 'config must be a JSON object (got "dualpipe")');
  throwsSimError(() => api.simulate(), 'invalid_config', 'config must be a JSON object (got undefined)');
  throwsSimError(() => api.validate(() => 1), 'invalid_config', 'config must be a JSON object (got a function)');
  throwsSimError(() => api.simulate(NaN), 'invalid_config', 'config must be a JSON object (got NaN)');
  throwsSimError(() => api.simulateJson('42'), 'invalid_config', 'config must be a JSON object (got 42)');
});

test('a config JSON cannot represent: invalid_config', async () => {
  const api = await pipesim();
  const cyclic = { ...base };
  cyclic.self = cyclic;
  // Named at the value that cannot be written, in our words (before issue 30: V8's message, at "").
  throwsSimError(() => api.simulate(cyclic), 'invalid_config', 'self cannot be written as JSON: it contains itself (a cycle)', '/self');
  throwsSimError(() => api.simulate({ ...base, ranks: 4n }), 'invalid_config',
                 'ranks cannot be written as JSON: a BigInt has no JSON form', '/ranks');
});

test('unknown and missing fields: invalid_config naming them', async () => {
  const api = await pipesim();
  throwsSimError(() => api.simulate({ ...base, rank: 4 }), 'invalid_config', 'unknown field "rank"', '/rank');
  throwsSimError(() => api.simulate({ ...base, costs: { fwd: 1 } }), 'invalid_config', 'unknown field "fwd" in costs', '/costs/fwd');
  throwsSimError(() => api.simulate({ schedule: '1f1b', ranks: 4 }), 'invalid_config', 'missing field microbatches', '/microbatches');
});

test('validate() reports the same errors as simulate()', async () => {
  const api = await pipesim();
  throwsSimError(() => api.validate({ schedule: 'dualpipe', ranks: 3, microbatches: 8 }), 'invalid_config',
                 'ranks must be an even integer >= 2 for dualpipe (got 3)', '/ranks');
});

test('sweep errors: bad grid fails the call, a shape a schedule cannot run is a row', async () => {
  const api = await pipesim();
  throwsSimError(() => api.sweep(42), 'invalid_config', 'sweep must be a JSON object');
  throwsSimError(() => api.sweep({ schedules: ['gpipe', 'pipedream'], ranks: [4], microbatches: [8] }),
                 'unknown_schedule', 'unknown schedule "pipedream"', '/schedules/1');
  throwsSimError(() => api.sweep({ schedules: ['gpipe'], ranks: [4], microbatches: ['x'] }), 'invalid_config',
                 'microbatches entries must be positive integers or multiples of ranks like "4R" (got "x")', '/microbatches/0');
  const ranks = Array.from({ length: 1000 }, (_, i) => i + 1);
  throwsSimError(() => api.sweep({ schedules: ['gpipe', '1f1b', 'zb-h1'], ranks, microbatches: [1, 2, 3, 4, 5, 6, 7] }),
                 'too_large', 'a sweep may have at most 20000 cells (got 21000)');
  const { rows } = api.sweep({ schedules: ['dualpipe'], ranks: [3], microbatches: [8] });
  assert.deepEqual(rows, [{ schedule: 'dualpipe', ranks: 3, microbatches: 8, ok: false,
    error: { code: 'invalid_config', message: 'ranks must be an even integer >= 2 for dualpipe (got 3)', path: '/ranks',
             rule: 'ranks.even', params: { min: 2, schedule: 'dualpipe', got: 3 } } }]);
});

test('lessonReport errors carry /costs paths', async () => {
  const api = await pipesim();
  throwsSimError(() => api.lessonReport({ forward: 0 }), 'invalid_config',
                 'costs.forward must be a finite number > 0 (got 0)', '/costs/forward');
  throwsSimError(() => api.lessonReport({ fwd: 1 }), 'invalid_config', 'unknown field "fwd" in costs', '/costs/fwd');
  throwsSimError(() => api.lessonReport([]), 'invalid_config', 'costs must be an object (got [])', '/costs');
});
