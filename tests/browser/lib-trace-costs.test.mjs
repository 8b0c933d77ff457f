// web/js/lib/trace-costs.js and the trace reader's words under Node: on traces
// scripts/kineto-trace.py writes, the costs a trace gives the page are core's, each derivation
// said from its phrase (core's trace.derived.* ids) is core's English in English and is said in
// every language with every value filled in; why a trace gives no costs is a rule (profile.*)
// said the same way; and between them the traces make every trace.derived phrase. No derivation
// names a field of the JSON (modelPairMs) where words belong.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { measuredCosts, derivationText } from '../../web/js/lib/trace-costs.js';
import { planText } from '../../web/js/lib/plan-text.js';
import { errorText } from '../../web/js/lib/error-text.js';
import { loadLanguage, translator } from '../../web/js/lib/i18n.js';
import { TRANSLATED } from './catalogues.mjs';
import { REPO, pipesim } from './helpers.mjs';
import CATALOGUE from '../../web/generated/catalogue.js';

for (const code of TRANSLATED) await loadLanguage(code);
const work = mkdtempSync(path.join(tmpdir(), 'pipesim-trace-costs-'));

/** The trace kineto-trace.py writes for `args`, as bytes. */
function trace(name, ...args) {
  const file = path.join(work, `${name}.json`);
  execFileSync('python3', [path.join(REPO, 'scripts/kineto-trace.py'), '--out', file, ...args]);
  return readFileSync(file);
}

const UNFILLED = /\{\w+(:\w+)?\}|null|undefined|NaN/;
// Sums and ratios of measured parts, which a language may write exactly as English does.
const FORMULAS = new Set(['trace.derived.forward', 'trace.derived.backward', 'trace.derived.weight', 'trace.derived.attn_share']);

test('every derivation is said from its phrase: core\'s English in English, every value filled in each language', async () => {
  const api = await pipesim();
  const seen = new Set();
  for (const [name, args] of [['one', ['--devices', '1', '--layers', '1', '--steps', '1']], ['many', ['--devices', '2', '--layers', '3', '--steps', '2']]]) {
    const report = api.traceImport(trace(name, ...args));
    const { lines } = measuredCosts(report);
    assert.deepEqual(lines.map((l) => l.field), ['forward', 'backward', 'weight', 'overlapped', 'commRatio', 'attnShare', 'commLayers']);
    const derived = [...Object.values(report.derived).filter((d) => d && typeof d.derivation === 'string'),
      ...Object.values(report.derived.components).flatMap((parts) => Object.values(parts))];
    for (const d of derived) {
      seen.add(d.derivationPhrase.id);
      assert.equal(planText(d.derivationPhrase), d.derivation, `${d.derivationPhrase.id}: English from id + params`);
      assert.doesNotMatch(d.derivation, /[a-z][A-Z]\w*Ms\b|modelPairMs|pairMs/, `${d.derivationPhrase.id} names a JSON field`);
      for (const code of TRANSLATED) {
        const said = planText(d.derivationPhrase, translator(code));
        assert.doesNotMatch(said, UNFILLED, `${code} ${d.derivationPhrase.id}: ${said}`);
        if (!FORMULAS.has(d.derivationPhrase.id)) assert.notEqual(said, d.derivation, `${code} ${d.derivationPhrase.id} is in its own words`);
      }
    }
    for (const line of lines) assert.equal(derivationText(line, translator('en')), line.derivation);
    const ru = lines.find((l) => l.field === 'commLayers');
    assert.equal(derivationText(ru, translator('ru')), `каждая из десяти частей запускала работу на GPU ${name === 'one' ? '1 раз' : '3 раза'} за пару`);
  }
  const all = CATALOGUE.planTexts.map((p) => p.id.replace(/\.(one|other)$/, '')).filter((id) => id.startsWith('trace.derived.'));
  // The pair outside any ProfilerStep is said when the trace has none (kineto-trace.py always writes steps).
  assert.deepEqual([...new Set(all)].filter((id) => !seen.has(id) && id !== 'trace.derived.pairs_outside_steps'), [], 'the traces make every derivation');
});

test('a trace without costs says why as a rule, in every language', async () => {
  const api = await pipesim();
  const report = api.traceImport(JSON.stringify({ traceEvents: [] }));
  assert.equal(report.derived, null);
  assert.equal(report.derivedMissingReason.rule, 'profile.no_parts');
  assert.equal(errorText(report.derivedMissingReason, 'en'), report.derivedMissing);
  for (const code of TRANSLATED) {
    const said = errorText(report.derivedMissingReason, code);
    assert.doesNotMatch(said, UNFILLED, `${code}: ${said}`);
    assert.notEqual(said, report.derivedMissing, `${code} says it in its own words`);
  }
  // Every reason core can give has a template with its params in every language (lib-error-text
  // checks every rule; these are the trace's).
  const reasons = CATALOGUE.rules.filter((r) => /^profile\.(no_parts|part_|too_many_layers|pair_too_long|invalid_costs)/.test(r.id));
  assert.equal(reasons.length, 9);
});
