// web/js/lib/plan-text.js and the catalogues' planner phrases under Node: every phrase core's
// planner can say (catalogue `planTexts`) has a template in every language's catalogue with
// exactly its placeholders and formats; numbers come out as core writes them, so English rendered
// from id + params is core's own text; and for specs that between them make every phrase, through
// the real module, every language says it all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planText, planNumber, planTemplate } from '../../web/js/lib/plan-text.js';
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
// Clauses that are only symbols in any language.
const SYMBOLS_ONLY = new Set(['plan.part.chunks']);

const sortedFormats = (template) => Object.entries(formats(template)).sort();

for (const code of TRANSLATED) {
  test(`${code}: every planner phrase in the catalogue has a template with the same placeholders and formats`, () => {
    assert.ok(CATALOGUE.planTexts.length > 40);
    for (const { id, message, params } of CATALOGUE.planTexts) {
      const template = planTemplate(id, code);
      assert.equal(template, catalogue(code)[id], `no ${code} template for ${id}`);
      assert.deepEqual(Object.keys(formats(message)).sort(), [...params].sort(), `${id}: core's own template`);
      assert.deepEqual(sortedFormats(template), sortedFormats(message), `${id}: ${template}`);
      if (code === 'hi' && !SYMBOLS_ONLY.has(id)) assert.match(template, /[\u0900-\u097F]/, `${id} is in Hindi`);
    }
  });
}

test('numbers are written in each placeholder format as core writes them (C printf)', () => {
  const cases = [
    [2.25, 'f1', '2.2'], [2.75, 'f1', '2.8'], [0.5, 'f0', '0'], [1.5, 'f0', '2'], [3.8125, 'f1', '3.8'], [10.765538657, 'f1', '10.8'],
    [400, 'f0', '400'], [1, 'f2', '1.00'], [0.035175879396984924, 'pct', '3.52%'], [0.05263, 'pct', '5.26%'],
    [14.8e12, 'si', '14.8T'], [671026419200, 'si', '671B'], [3416871616, 'si', '3.417B'], [1e9, 'si', '1B'], [5e5, 'si', '5e+05'],
    [7e6, 'si', '7M'], [2664000, 'k0', '2664K'], [207497.4874371858, 'k1', '207.5K'], [180e3, 'k0', '180K'], [8, '', '8'], [80, '', '80'],
  ];
  for (const [value, format, text] of cases) assert.equal(planNumber(value, format), text, `${value}:${format}`);
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
  const all = CATALOGUE.planTexts.map((p) => p.id);
  assert.deepEqual(all.filter((id) => !seen.has(id)), [], 'the specs make every phrase');
});

test('schedule names in Hindi phrases are the page\'s names for them', async () => {
  const api = await pipesim();
  const plan = api.plan(edit(DENSE, (s) => { s.requested = { schedule: 'interleaved-1f1b' }; }));
  const step = plan.reasoning.find((s) => s.id === 'plan.step.schedule_requested');
  assert.equal(planText(step, hi), `${hi('sched.interleaved-1f1b')}: स्पेक में माँगा गया; कड़े अस्वीकार-नियमों पर जाँचा गया।`);
  assert.match(step.text, /^Interleaved 1F1B: requested/);
});
