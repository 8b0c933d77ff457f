// web/js/lib/plan-text.js and the catalogues' planner phrases under Node: every phrase core can
// say (catalogue `planTexts`: the planner's and the trace reader's) has a template in every
// language's catalogue with exactly its placeholders and formats, a plural family in exactly the
// language's CLDR forms; no phrase is a clause glued into another; numbers come out as core
// writes them, so English rendered from id + params is core's own text; and for specs that
// between them make every planner phrase, through the real module, every language says it all
// (the trace reader's: lib-trace-costs.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planText, planNumber, planTemplate, isPluralFamily } from '../../web/js/lib/plan-text.js';
import { loadLanguage, translator } from '../../web/js/lib/i18n.js';
import { TRANSLATED, catalogue } from './catalogues.mjs';
import { presetSpec } from '../../web/js/lib/planner-presets.js';
import { pipesim } from './helpers.mjs';
import CATALOGUE from '../../web/generated/catalogue.js';

// A page loads a language's catalogue (with these templates) only in that language.
for (const code of TRANSLATED) await loadLanguage(code);
const hi = translator('hi');

/** {name: format} of a template's placeholders ("" when one names no format). */
const formats = (template) => Object.fromEntries([...template.matchAll(/\{(\w+)(?::(\w+))?\}/g)].map((m) => [m[1], m[2] ?? '']));
// Derivations that are only symbols and numbers in any language (a sum of measured parts).
const SYMBOLS_ONLY = new Set(['trace.derived.forward', 'trace.derived.backward', 'trace.derived.weight']);
const PLURAL = /\.(zero|one|two|few|many|other)$/;

const sortedFormats = (template) => Object.entries(formats(template)).sort();
const withoutN = (entries) => entries.filter(([name]) => name !== 'n');

for (const code of TRANSLATED) {
  test(`${code}: every phrase core can say has a template with the same placeholders and formats`, () => {
    assert.ok(CATALOGUE.planTexts.length > 60);
    const categories = new Intl.PluralRules(code).resolvedOptions().pluralCategories;
    for (const { id, message, params } of CATALOGUE.planTexts) {
      assert.deepEqual(Object.keys(formats(message)).sort(), [...params].sort(), `${id}: core's own template`);
      const family = id.replace(PLURAL, '');
      if (family !== id) {
        // A plural family: each of the language's forms says what English's does (the count may
        // be a word: Arabic's "two"), and a count is said in the form its rules pick.
        assert.ok(isPluralFamily(family), family);
        assert.ok(params.includes('n'), `${id}: its count is {n}`);
        for (const category of categories) {
          const template = catalogue(code)[`${family}.${category}`];
          assert.equal(typeof template, 'string', `no ${code} ${category} form of ${family}`);
          assert.deepEqual(withoutN(sortedFormats(template)), withoutN(sortedFormats(message)), `${family}.${category}: ${template}`);
        }
        for (const n of [0, 1, 2, 3, 5, 11, 21, 100]) {
          assert.equal(planTemplate(family, code, { n }), catalogue(code)[`${family}.${new Intl.PluralRules(code).select(n)}`], `${family} ${n}`);
        }
        continue;
      }
      const template = planTemplate(id, code);
      assert.equal(template, catalogue(code)[id], `no ${code} template for ${id}`);
      assert.deepEqual(sortedFormats(template), sortedFormats(message), `${id}: ${template}`);
      if (code === 'hi' && !SYMBOLS_ONLY.has(id)) assert.match(template, /[\u0900-\u097F]/, `${id} is in Hindi`);
    }
  });
}

test('no phrase is a clause glued into another: each is a whole message, variants are their own ids', () => {
  for (const { id, message } of CATALOGUE.planTexts) {
    assert.doesNotMatch(id, /^plan\.part\./, id);
    assert.doesNotMatch(message, /^\s/, `${id} starts a message`);
    // A param that holds another phrase is a whole sentence (a reject or refusal, said first) or
    // the recommendation after its label; nothing else nests.
    for (const name of Object.keys(formats(message))) {
      assert.ok(!/Clause|Reason|^list$|^own$|^measure$|^copies$|^exposed$|^withComm$|^caveat$|^unknownGpu$/.test(name), `${id}: {${name}} is a clause`);
    }
  }
  // English's plural forms are chosen in the page by CLDR rules, as in every other language.
  assert.match(planText({ id: 'plan.kernel.stock', params: { ep: 8, n: 1 } }), /^EP = 8 spans 1 node\. Without/);
  assert.match(planText({ id: 'plan.kernel.stock', params: { ep: 16, n: 2 } }), /^EP = 16 spans 2 nodes\. Without/);
});

test('a plural family is said in the form of its count in each language', async () => {
  const ru = translator('ru');
  const ar = translator('ar');
  const zh = translator('zh');
  const phrase = (n) => ({ id: 'plan.kernel.custom', params: { ep: 8 * n, n } });
  assert.match(planText(phrase(1), ru), /^EP = 8 охватывает 1 узел\./);
  assert.match(planText(phrase(2), ru), /^EP = 16 охватывает 2 узла\./);
  assert.match(planText(phrase(5), ru), /^EP = 40 охватывает 5 узлов\./);
  assert.match(planText(phrase(21), ru), /^EP = 168 охватывает 21 узел\./);
  assert.match(planText(phrase(1), ar), /عقدة واحدة/);
  assert.match(planText(phrase(2), ar), /عقدتين/);
  assert.match(planText(phrase(3), ar), /3 عقد\./);
  assert.match(planText(phrase(2), zh), /^EP = 16 跨越 2 个节点。/);
  assert.match(planText({ id: 'plan.step.no_alternative', params: { n: 1 } }), /at most 1 parameter copy does/);
  assert.match(planText({ id: 'plan.step.no_alternative', params: { n: 2 } }), /at most 2 parameter copies does/);
});

test('numbers are written in each placeholder format as core writes them (C printf)', () => {
  const cases = [
    [2.25, 'f1', '2.2'], [2.75, 'f1', '2.8'], [0.5, 'f0', '0'], [1.5, 'f0', '2'], [3.8125, 'f1', '3.8'], [10.765538657, 'f1', '10.8'],
    [400, 'f0', '400'], [1, 'f2', '1.00'], [0.035175879396984924, 'pct', '3.52%'], [0.05263, 'pct', '5.26%'],
    [14.8e12, 'si', '14.8T'], [671026419200, 'si', '671B'], [3416871616, 'si', '3.417B'], [1e9, 'si', '1B'], [5e5, 'si', '5e+05'],
    [7e6, 'si', '7M'], [2664000, 'k0', '2664K'], [207497.4874371858, 'k1', '207.5K'], [180e3, 'k0', '180K'], [8, '', '8'], [80, '', '80'],
  ];
  for (const [value, format, text] of cases) assert.equal(planNumber(value, format), text, `${value}:${format}`);
});

test('in another language the same digits, rounded as core rounds them, with its decimal sign and percent form', () => {
  const cases = [
    ['es', 2.25, 'f1', '2,2'], ['ru', 10.765538657, 'f1', '10,8'], ['tr', 1, 'f2', '1,00'], ['es', 3416871616, 'si', '3,417B'],
    ['ru', 207497.4874371858, 'k1', '207,5K'], ['es', 0.035175879396984924, 'pct', '3,52\u00a0%'], ['tr', 0.05263, 'pct', '%5,26'],
    ['zh', 2.75, 'f1', '2.8'], ['hi', 0.05263, 'pct', '5.26%'], ['ar', 3.8125, 'f1', '3.8'], ['es', 5e5, 'si', '5e+05'], ['ru', 8, '', '8'],
  ];
  for (const [lang, value, format, text] of cases) {
    assert.equal(planNumber(value, format, lang).replace(/[\u200e\u200f\u061c]/g, ''), text, `${lang} ${value}:${format}`);
  }
});

test('a phrase without a template on this page is null, so the page shows core\'s English', () => {
  assert.equal(planText({ id: 'plan.step.from_a_newer_core', params: {} }, hi), null);
  assert.equal(planText(null, hi), null);
  assert.equal(planTemplate('plan.no_plan', 'fr'), CATALOGUE.planTexts.find((p) => p.id === 'plan.no_plan').message);
});

const edit = (id, change) => {
  const spec = structuredClone(presetSpec(id));
  change(spec);
  return spec;
};
const DEEPSEEK = 'deepseek-v3-2048-h800';
const DENSE = 'dense-70b-1024';
// Specs that between them make every phrase of the catalogue (the last test checks that they do).
const SPECS = [
  presetSpec(DEEPSEEK), presetSpec(DENSE), presetSpec('dense-7b-8gpu'),
  edit(DENSE, (s) => { s.trainingTokens = 5e8; }),
  edit(DENSE, (s) => { s.requested = { ranks: 128 }; }),
  edit(DENSE, (s) => { s.requested = { ranks: 2 }; }),
  edit(DENSE, (s) => { s.requested = { schedule: 'dualpipe' }; }),
  edit(DENSE, (s) => { s.requested = { schedule: 'interleaved-1f1b', chunks: 2, microbatches: 96, ranks: 8 }; }),
  edit(DENSE, (s) => { s.requested = { schedule: 'interleaved-1f1b' }; }),
  edit(DENSE, (s) => { s.requested = { schedule: '1f1b' }; }),
  edit(DENSE, (s) => { s.cluster.memoryPerGpuGb = 1; }),
  edit(DENSE, (s) => { s.cluster.gpuModel = 'MI300X'; s.cluster.gpus = 256; s.cluster.nodes = 32; }),
  edit(DENSE, (s) => { s.cluster.gpus = 64; s.cluster.nodes = 8; }),
  edit(DEEPSEEK, (s) => { s.requested = { microbatches: 129 }; }),
  edit(DEEPSEEK, (s) => { s.customAllToAllKernel = false; }),
  edit(DEEPSEEK, (s) => { s.cluster.interconnectGbpsPerGpu = 200; }),
  edit(DEEPSEEK, (s) => { delete s.model.routedParams; s.model.expertParallel = 8; }),
  edit(DEEPSEEK, (s) => { s.requested = { schedule: 'zb-h1' }; }),
  // The depth's guides with and without expert parallelism; memory that does not fit at a
  // requested P, with one parameter copy and with two; an EP group inside one node; a requested
  // schedule with no better alternative.
  edit(DEEPSEEK, (s) => { s.cluster.gpus = 64; s.cluster.nodes = 8; Object.assign(s.model, { totalParams: 16e9, activeParams: 3e9, routedParams: 14e9, experts: 64, expertParallel: 8, layers: 28 }); }),
  edit(DEEPSEEK, (s) => { Object.assign(s.model, { totalParams: 50e9, activeParams: 8e9, routedParams: 45e9, experts: 64, expertParallel: 8, layers: 48 }); }),
  edit(DEEPSEEK, (s) => { Object.assign(s.model, { totalParams: 120e9, activeParams: 20e9, routedParams: 100e9, expertParallel: 1, layers: 64 }); }),
  edit(DEEPSEEK, (s) => { s.requested = { ranks: 2 }; }),
  edit(DEEPSEEK, (s) => { s.model.expertParallel = 8; }),
  edit(DENSE, (s) => { s.requested = { schedule: 'zb-v' }; }),
];

/** Every phrase in a plan: reasoning steps, reject and refusal, kernel advice, rollback trigger. */
function phrases(plan) {
  return [
    ...plan.reasoning.map((step) => [step, step.text]),
    plan.reject && [plan.reject.messagePhrase, plan.reject.message],
    plan.reject && [plan.reject.recommendPhrase, plan.reject.recommend],
    plan.refusal && [plan.refusal.messagePhrase, plan.refusal.message],
    [plan.allToAllPhrase, plan.allToAll],
    [plan.rollback.textPhrase, plan.rollback.text],
  ].filter(Boolean);
}

/** The ids of `phrase` and of every clause said inside it. */
function idsIn(phrase, into) {
  into.add(phrase.id);
  for (const value of Object.values(phrase.params)) if (Array.isArray(value)) for (const inner of value) idsIn(inner, into);
  return into;
}

test('through the real module: English from id + params is core\'s text, and every language says every phrase', async () => {
  const api = await pipesim();
  const seen = new Set();
  for (const spec of SPECS) {
    const plan = api.plan(spec);
    for (const [phrase, english] of phrases(plan)) {
      idsIn(phrase, seen);
      assert.equal(planText(phrase), english, `${phrase.id}: English from id + params`);
      assert.match(planText(phrase, hi), /[\u0900-\u097F]/, `${phrase.id}: ${planText(phrase, hi)}`);
      for (const code of TRANSLATED) {
        const said = planText(phrase, translator(code));
        assert.doesNotMatch(said, /\{\w+(:\w+)?\}|null|undefined/, `${code} ${phrase.id}: every placeholder filled: ${said}`);
      }
    }
  }
  const all = new Set(CATALOGUE.planTexts.map((p) => p.id.replace(PLURAL, '')).filter((id) => id.startsWith('plan.')));
  assert.deepEqual([...all].filter((id) => !seen.has(id)), [], 'the specs make every planner phrase');
});

test('schedule names in Hindi phrases are the page\'s names for them', async () => {
  const api = await pipesim();
  const plan = api.plan(edit(DENSE, (s) => { s.requested = { schedule: 'interleaved-1f1b' }; }));
  const step = plan.reasoning.find((s) => s.id === 'plan.step.schedule_requested');
  assert.equal(planText(step, hi), `${hi('sched.interleaved-1f1b')}: स्पेक में माँगा गया; कड़े अस्वीकार-नियमों पर जाँचा गया।`);
  assert.match(step.text, /^Interleaved 1F1B: requested/);
});
