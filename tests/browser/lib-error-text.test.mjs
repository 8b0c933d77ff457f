// web/js/lib/error-text.js and the catalogues' rule templates under Node: every rule core can
// break has a template (`rule.<id>`) in every language's catalogue with exactly its params;
// numbers come out as core writes them (%.15g), so the English rendering of rule + params is
// core's own message; and for bad inputs of every kind, run through the real module, every
// language's text keeps every number and name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorText, localizedError, formatG15, placeholders, ruleTemplate } from '../../web/js/lib/error-text.js';
import { loadLanguage } from '../../web/js/lib/i18n.js';
import { TRANSLATED, catalogue } from './catalogues.mjs';
import { pipesim } from './helpers.mjs';
import { SimError } from '../../web/generated/pipesim.js';
import CATALOGUE from '../../web/generated/catalogue.js';

// A page loads a language's catalogue (with these templates) only in that language.
for (const code of TRANSLATED) await loadLanguage(code);
const sorted = (list) => [...list].sort();
const ruleKeys = (code) => Object.keys(catalogue(code)).filter((key) => key.startsWith('rule.'));

for (const code of TRANSLATED) {
  test(`${code}: every rule in the catalogue has a template with exactly the rule's params`, () => {
    assert.ok(CATALOGUE.rules.length > 50);
    for (const rule of CATALOGUE.rules) {
      const template = ruleTemplate(rule.id, code);
      assert.equal(template, catalogue(code)[`rule.${rule.id}`], `no ${code} template for ${rule.id}`);
      assert.deepEqual(sorted(placeholders(template)), sorted(rule.params), `${rule.id}: ${template}`);
      assert.deepEqual(sorted(placeholders(rule.message)), sorted(rule.params), `${rule.id}: core's own template`);
      if (code === 'hi') assert.match(template, /[\u0900-\u097F]/, `${rule.id} is in Hindi`);
    }
    const ids = new Set(CATALOGUE.rules.map((r) => `rule.${r.id}`));
    assert.deepEqual(ruleKeys(code).filter((key) => !ids.has(key)), [], 'no template for a rule core no longer has');
  });
}

test('numbers are written like C\'s %.15g', () => {
  // Expected strings worked out by hand from the C standard's %g rules.
  const cases = [[0, '0'], [20, '20'], [0.5, '0.5'], [-2.5, '-2.5'], [1e-6, '1e-06'], [1e-9, '1e-09'], [0.0001, '0.0001'],
    [0.00001, '1e-05'], [1 / 3, '0.333333333333333'], [2 / 3, '0.666666666666667'], [1e6, '1000000'], [2000000, '2000000'],
    [123456789012345, '123456789012345'], [1e15, '1e+15'], [1234567890123456789, '1.23456789012346e+18'], [1e21, '1e+21'],
    [9.999999999999999, '10'], [0.1 + 0.2, '0.3'], [NaN, 'nan']];
  for (const [x, text] of cases) assert.equal(formatG15(x), text, String(x));
});

test('an error without a rule keeps its message; a rule without a Hindi template falls back to English', () => {
  assert.equal(errorText(new Error('network down'), 'hi'), 'network down');
  assert.equal(errorText('plain', 'hi'), 'plain');
  assert.equal(errorText(null, 'hi'), '');
  const future = { code: 'invalid_config', rule: 'future.rule', params: {}, message: 'a rule from a newer core' };
  assert.equal(errorText(future, 'hi'), 'a rule from a newer core');
  assert.equal(ruleTemplate('ranks.even', 'fr'), CATALOGUE.rules.find((r) => r.id === 'ranks.even').message);
  const error = { code: 'invalid_config', path: '/ranks', rule: 'ranks.even', params: { min: 2, schedule: 'dualpipe', got: 7 }, message: 'x' };
  assert.deepEqual(localizedError(error, 'hi'), { code: 'invalid_config', path: '/ranks', rule: 'ranks.even', message: 'DualPipe के लिए रैंक 2 या उससे बड़ी सम संख्या होनी चाहिए (मिला 7)' });
});

const CONFIG = { schedule: '1f1b', ranks: 4, microbatches: 8 };
const COSTS = (costs) => ({ ...CONFIG, costs });
const CUSTOM = (rankOps, extra = {}) => ({ schedule: 'custom', stages: 2, directions: 1, microbatches: 2, rankOps, ...extra });
const GOOD_OPS = [['F0.0@0', 'F0.1@0', 'B0.0@0', 'B0.1@0'], ['F0.0@1', 'B0.0@1', 'F0.1@1', 'B0.1@1']];

// Inputs a learner can give through the page (form, costs, address, custom schedule, exercises,
// planner), as [method, argument].
const BAD = [
  ['simulate', { schedule: 'dualpipe', ranks: 7, microbatches: 20 }],
  ['simulate', { schedule: 'dualpipe', ranks: 8, microbatches: 21 }],
  ['simulate', { schedule: 'dualpipe', ranks: 8, microbatches: 10 }],
  ['simulate', { schedule: 'dualpipev', ranks: 8, microbatches: 10 }],
  ['simulate', { schedule: 'chimera', ranks: 4, microbatches: 10 }],
  ['simulate', { schedule: 'chimera', ranks: 3, microbatches: 9 }],
  ['simulate', { schedule: 'nope', ranks: 4, microbatches: 8 }],
  ['simulate', { ...CONFIG, ranks: 0 }],
  ['simulate', { ...CONFIG, microbatches: 0 }],
  ['simulate', { ...CONFIG, ranks: 'abc' }],
  ['simulate', { ...CONFIG, microbatches: 2.5 }],
  ['simulate', { ...CONFIG, ranks: 1000, microbatches: 100000 }],
  ['simulate', { ...CONFIG, extra: 1 }],
  ['simulate', COSTS({ forward: 0 })],
  ['simulate', COSTS({ weight: -1 })],
  ['simulate', COSTS({ weight: 3 })],
  ['simulate', COSTS({ forward: 1e7 })],
  ['simulate', COSTS({ forward: 1e-9 })],
  ['simulate', COSTS({ forward: 1 / 3 - 1 })],
  ['simulate', COSTS({ overlapped: 'x' })],
  ['simulate', COSTS({ comm: { ratio: -1 } })],
  ['simulate', COSTS({ comm: { ratio: 1, attnShare: 2 } })],
  ['simulate', COSTS({ comm: { ratio: 1, layers: 0 } })],
  ['simulate', COSTS({ comm: {} })],
  ['simulate', CUSTOM([['F0.0@0', 'Q'], ['F0.0@1']])],
  ['simulate', CUSTOM([['F0.0@0', 'F1.0@0', 'B0.0@0', 'B1.0@0'], GOOD_OPS[1]])],
  ['simulate', CUSTOM([['F0.0@0', 'F0.0@0', 'F0.1@0', 'B0.0@0', 'B0.1@0'], GOOD_OPS[1]])],
  ['simulate', CUSTOM([['F0.0@0', 'F0.1@0', 'B0.0@0'], GOOD_OPS[1]])],
  ['simulate', CUSTOM([['F0.0@0', 'B0.0@0', 'F0.1@0', 'B0.1@0'], ['B0.0@1', 'F0.0@1', 'F0.1@1', 'B0.1@1']])],
  ['simulate', CUSTOM([GOOD_OPS[0]])],
  ['simulate', CUSTOM(GOOD_OPS, { directions: 3 })],
  ['simulate', { schedule: 'custom', microbatches: 2, rankOps: GOOD_OPS }],
  ['simulate', CUSTOM([['F0.0@0', 7], GOOD_OPS[1]])],
  ['simulate', CUSTOM([['F0.0@0', { op: 'X' }], GOOD_OPS[1]])],
  ['sweep', { schedules: ['1f1b', 'nope'], ranks: [4], microbatches: [8] }],
  ['sweep', { schedules: ['1f1b'], ranks: [4, 3000], microbatches: [8] }],
  ['sweep', { schedules: ['1f1b'], ranks: [4], microbatches: ['4X'] }],
  ['sweep', { schedules: [], ranks: [4], microbatches: [8] }],
  ['params', { model: 'llama3-70b', pp: 8, ep: 3 }],
  ['params', { model: 'deepseek-v3', pp: 16, ep: 3 }],
  ['traceGrid', { config: { ...CONFIG, costs: { forward: 1.5 } }, slotLength: 1 }],
  ['plan', { cluster: { gpus: 8 } }],
];

/** The text each param must show up as in `code`: numbers like core, names as written or the page's own. */
function shownAs(name, value, code) {
  if (typeof value === 'number') return [formatG15(value)];
  const title = name === 'schedule' ? CATALOGUE.schedules.find((s) => s.name === value)?.title : null;
  return [String(value), catalogue(code)[`fieldName.${value}`], title].filter(Boolean);
}

test('bad inputs of every kind, through the real module: English is core\'s message, every language keeps every value', async () => {
  const api = await pipesim();
  const rules = new Set();
  for (const [method, arg] of BAD) {
    let error = null;
    try { api[method](arg); } catch (e) { error = e; }
    assert.ok(error?.rule, `${method} ${JSON.stringify(arg)} fails with a rule`);
    rules.add(error.rule);
    assert.equal(errorText(error, 'en'), error.message, `${error.rule}: English from rule + params`);
    assert.match(errorText(error, 'hi'), /[\u0900-\u097F]/, `${error.rule}: ${errorText(error, 'hi')}`);
    for (const code of TRANSLATED) {
      const said = errorText(error, code);
      assert.notEqual(said, error.message, `${code} ${error.rule}: said from the ${code} template`);
      assert.doesNotMatch(said, /\{\w+\}/, `${code} ${error.rule}: every placeholder filled`);
      for (const [name, value] of Object.entries(error.params)) {
        assert.ok(shownAs(name, value, code).some((text) => said.includes(text)), `${code} ${error.rule}: ${name} = ${value} in "${said}"`);
      }
    }
  }
  assert.ok(rules.size >= 30, `${rules.size} different rules exercised`);
});

test('csv.schedule wraps another rule\'s error as a structured cause: Hindi says it from the inner rule\'s template', async () => {
  await loadLanguage('hi');
  const api = await pipesim();
  let error = null;
  // Rank 1 runs micro-batch 0's forward twice: the custom-schedule check's schedule.op_twice.
  try { api.simulate({ schedule: 'custom', csv: '0F0,0F1,0B0,0B1\n1F0,1F0,1B0,1F1,1B1\n' }); } catch (e) { error = e; }
  assert.equal(error.rule, 'csv.schedule');
  assert.equal(error.path, '/csv/1/1');
  assert.deepEqual({ row: error.params.row, column: error.params.column }, { row: 2, column: 2 });
  assert.equal(errorText(error, 'en'), error.message);
  // The inner error as core made it: its rule, params and path in the schedule it checked.
  const { cause } = error;
  assert.equal(cause.rule, 'schedule.op_twice');
  assert.equal(cause.path, '/rankOps/1/1');
  assert.equal(errorText(cause, 'en'), error.params.detail, 'the cause renders to the English detail');
  const hindi = errorText(error, 'hi');
  assert.equal(hindi, `पंक्ति 2, कॉलम 2: ${errorText(cause, 'hi')}`);
  assert.doesNotMatch(hindi, /appears twice/);
  assert.match(hindi, /F0\.0@1/, 'the op as core names it');
  // The cause survives the worker's hop (a plain object and back).
  assert.deepEqual(SimError.from(JSON.parse(JSON.stringify({ ...error, message: error.message }))).cause, cause);
  // Without a cause the detail stays as written: no English text is read back.
  assert.equal(errorText({ rule: 'csv.schedule', params: { row: 1, column: 1, detail: 'free text' } }, 'hi'), 'पंक्ति 1, कॉलम 1: free text');
  assert.equal(errorText({ rule: 'csv.schedule', params: { row: 1, column: 1, detail: error.params.detail } }, 'hi'), `पंक्ति 1, कॉलम 1: ${error.params.detail}`);
  // Errors that wrap nothing carry no cause.
  try { api.simulate({ schedule: 'dualpipe', ranks: 3, microbatches: 8 }); } catch (e) { error = e; }
  assert.equal('cause' in error, false);
});
