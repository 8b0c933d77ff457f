// web/js restates nothing core publishes in its catalogue (issue #10): no list of schedule names
// (3 or more in one array, or as keys of one object), no op cap, no time tick, no cost or comm
// default. Display strings (the catalogues, web/locales/, are data outside web/js; lib/i18n.js)
// are exempt, and so are comments. Lists of one or two names are content (the lesson's comparisons, presets such as
// "DualPipe vs 1F1B", exercise 5 on DualPipe vs Chimera) and stay.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO } from './helpers.mjs';
import CATALOGUE from '../../web/generated/catalogue.js';

const EXEMPT = new Set(['lib/i18n.js']);
const NAMES = CATALOGUE.schedules.map((s) => s.name);
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Code without its comments (a `//` after "http:" is not one). */
function code(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:\\'"`])\/\/.*$/gm, '$1');
}

/** The problems in one file's code, as strings naming what was restated. */
export function restatedFacts(source) {
  const text = code(source);
  const problems = [];
  const nameLiteral = new RegExp(`(['"\`])(${NAMES.map(escape).join('|')})\\1`, 'g');
  const nameKey = new RegExp(`(?:^|[{,\\s])(?:(['"])(${NAMES.map(escape).join('|')})\\1|(${NAMES.filter((n) => /^[a-z_$][\w$]*$/i.test(n)).join('|')}))\\s*:`, 'g');
  for (const [list] of text.matchAll(/\[[^[\]]*\]/g)) {
    // The array's own elements: objects inside it (presets, each naming its schedules) are content.
    const names = new Set([...list.replace(/\{[^{}]*\}/g, '').matchAll(nameLiteral)].map((m) => m[2]));
    if (names.size >= 3) problems.push(`a list of schedule names: ${list.slice(0, 80)}`);
  }
  for (const [object] of text.matchAll(/\{[^{}]*\}/g)) {
    const names = new Set([...object.matchAll(nameKey)].map((m) => m[2] || m[3]));
    if (names.size >= 3) problems.push(`an object keyed by schedule names: ${object.slice(0, 80)}`);
  }
  // Cost and comm defaults written as a value or a fallback: `forward: 1`, `c.backward ?? 2`.
  for (const [field, value] of [...Object.entries(CATALOGUE.costs), ...Object.entries(CATALOGUE.comm)]) {
    const pattern = new RegExp(`\\b${field}\\s*(?::|\\?\\?|\\|\\|)\\s*${escape(String(value))}(?![\\w.])`);
    const hit = pattern.exec(text);
    if (hit) problems.push(`the ${field} default: ${hit[0]}`);
  }
  // The tick (1e-6) and the rounding onto it.
  const tick = CATALOGUE.limits.tick;
  const perUnit = Math.round(1 / tick);
  for (const form of [tick.toExponential().replace('e-', 'e-'), '1e-06', tick.toFixed(6), `toFixed(${Math.round(-Math.log10(tick))})`]) {
    if (text.includes(form)) problems.push(`the tick: ${form}`);
  }
  if (new RegExp(`[*/]\\s*(1e${Math.log10(perUnit)}|${perUnit})\\b`).test(text)) problems.push(`the tick: x ${perUnit}`);
  // The op cap, however it is spelled.
  const cap = CATALOGUE.limits.maxOps;
  const capForms = [String(cap), cap.toLocaleString('en-US').replaceAll(',', '_'), cap.toExponential().replace('e+', 'e'), cap.toExponential()];
  for (const form of capForms) if (new RegExp(`(?<![\\w.])${escape(form)}(?![\\w.])`).test(text)) problems.push(`the op cap: ${form}`);
  return problems;
}

async function jsFiles(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...await jsFiles(full));
    else if (entry.name.endsWith('.js')) out.push(full);
  }
  return out;
}

test('the detector catches each fact as it used to be written in web/js', () => {
  const before = {
    'state.js': "export const SCHEDULES = ['gpipe', '1f1b', 'zb-h1', 'dualpipe', 'dualpipev'];",
    'state.js costs': 'export const DEFAULT_COSTS = Object.freeze({ forward: 1, backward: 2, weight: 1, overlapped: 3, p2pLatency: 0 });',
    'state.js comm': 'export const DEFAULT_COMM = Object.freeze({ ratio: 1, attnShare: 0.5, layers: 1 });',
    'sweep-chart.js': "const MARKERS = { gpipe: 'circle', '1f1b': 'square', 'zb-h1': 'triangle', dualpipe: 'diamond', dualpipev: 'cross' };",
    'stream-parts.js': 'export const atTick = (v) => Math.round(v * 1e6) / 1e6;',
    'exercise.js': 'unit: t(key, { f: c.forward ?? 1, b: c.backward ?? 2 })',
    'state.js t': "p.set('t', String(Number(state.t.toFixed(6))));",
    'a limit': 'const MAX_OPS = 2_000_000;',
  };
  for (const [where, line] of Object.entries(before)) assert.notDeepEqual(restatedFacts(line), [], where);
  // Content stays: a comparison of two schedules, a preset, prose in a comment.
  for (const line of ["schedules = ['dualpipe', 'chimera']", "{ id: 'x', schedule: 'dualpipe', compare: '1f1b', costs: DEFAULT_COSTS }",
    '// DeepSeek\'s figure: F=1 B=2 W=1 F&B=3, on a 1e-6 tick', "const SVG_NS = 'http://www.w3.org/2000/svg';"]) {
    assert.deepEqual(restatedFacts(line), [], line);
  }
});

test('web/js restates no schedule list, op cap, tick or cost default (display strings aside)', async () => {
  const root = path.join(REPO, 'web/js');
  const found = [];
  for (const file of await jsFiles(root)) {
    const name = path.relative(root, file);
    if (EXEMPT.has(name)) continue;
    for (const problem of restatedFacts(await readFile(file, 'utf8'))) found.push(`${name}: ${problem}`);
  }
  assert.deepEqual(found, []);
});
