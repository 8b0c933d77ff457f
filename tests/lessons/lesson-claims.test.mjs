// Lesson claims beyond single numbers (issue 14): a sentence that compares two schedules with
// numbers quotes a live number for each of them; the worked trace printed in the lesson is what
// core prints; every language's texts render each term of its glossary one way, the way its
// UI strings do (lessons/glossary.<code>.json against web/locales/<code>.json; for Hindi the lesson
// too). The
// simulator here is the native CLI built by `make native`, as in lesson-content.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { LESSON_LANGS } from '../../web/js/lib/locales.js';
import { loadLanguage, translator } from '../../web/js/lib/i18n.js';
import { localizeContent, exercisePrefix } from '../../web/js/lib/content-text.js';

const root = new URL('../../', import.meta.url);
const cli = new URL('build/native/pipesim', root).pathname;
const read = (path) => readFileSync(new URL(path, root), 'utf8');

// Schedule names as the lesson writes them; longer names first so DualPipeV is not read as DualPipe.
const NAMES = [['DualPipeV', 'dualpipev'], ['DualPipe', 'dualpipe'], ['ZB-H1', 'zb-h1'], ['ZB-H2', 'zb-h2'], ['ZB-V', 'zb-v'],
  ['Interleaved 1F1B', 'interleaved-1f1b'], ['interleaved 1F1B', 'interleaved-1f1b'], ['इंटरलीव्ड 1F1B', 'interleaved-1f1b'], ['1F1B', '1f1b'], ['GPipe', 'gpipe'], ['Chimera', 'chimera']];

function simBlocks(markdown) {
  const blocks = new Map();
  for (const m of markdown.matchAll(/^```sim ([\w-]+)( [^\n]*)?\n([\s\S]*?)^```$/gm)) blocks.set(m[1], JSON.parse(m[3]));
  return blocks;
}

/** The schedules a sentence names (each once), read left to right. */
function namedSchedules(sentence) {
  let rest = sentence.replace(/\{\{[^}]*\}\}/g, ' ').replace(/`[^`]*`/g, ' ');
  const found = new Set();
  for (const [name, id] of NAMES) {
    const re = new RegExp(`(?<![\\w-])${name.replace('-', '\\-')}(?![\\w-])`, 'g');
    if (re.test(rest)) found.add(id);
    rest = rest.replace(re, ' ');
  }
  return found;
}

/** Prose sentences: no fences, tables or headings; the corrections box counts as prose. */
function sentences(markdown) {
  const prose = markdown.replace(/^```[\s\S]*?^```$/gm, '\n').split('\n')
    .filter((line) => !line.startsWith('|') && !line.startsWith('#'))
    .map((line) => line.replace(/^>\s?/, ''))
    .join('\n');
  return prose.split(/\n\s*\n|\n(?=\s*[-*\d]+[.)]?\s)|(?<=[.।?!])\s+(?=\S)/u).map((s) => s.trim()).filter(Boolean);
}

// A number written by hand: digits left after removing live quotes, code, formulas in
// parentheses, settings (P = 8, F&B = 2.4), section, issue and table references, and schedule names.
function handNumbers(sentence) {
  const rest = sentence
    .replace(/\{\{[^}]*\}\}/g, ' ').replace(/`[^`]*`/g, ' ')
    .replace(/(DualPipeV?|ZB-H1|ZB-H2|ZB1P|ZB-1p|ZB-V|1F1B|GPipe|PP16|H800|DeepSeek-V3|Llama-3-70B|bf16|fp32|FP8)/g, ' ')
    .replace(/\([^()]*\)/g, ' ')
    .replace(/\b\d+\s*[×x]?\s*(P|R|M|W|PP)\b|\b\d+×/g, ' ')
    .replace(/\b(P|M|R|F|B|W|F&B|PP|EP|h)\s*[=≥<>]\s*[\d.]+/g, ' ')
    .replace(/[=≥<>−+×÷/]\s*\d+(\.\d+)?/g, ' ')
    .replace(/§[\d.–]+|#\d+|Table \d|Figure \d|तालिका \d|चित्र \d|issue #\d+/g, ' ');
  return rest.match(/\d+(\.\d+)?%?/g) || [];
}

for (const lang of LESSON_LANGS) {
  const markdown = read(`lessons/dualpipe.${lang}.md`);
  const blocks = simBlocks(markdown);

  test(`${lang}: a sentence that compares schedules with numbers quotes a live number for each schedule it names`, () => {
    let checked = 0;
    for (const sentence of sentences(markdown)) {
      const named = namedSchedules(sentence);
      const quoted = new Set([...sentence.matchAll(/\{\{([\w-]+)\./g)].map(([, id]) => blocks.get(id)?.schedule));
      if (named.size < 2 || quoted.size === 0) continue;
      checked += 1;
      for (const schedule of named) {
        assert.ok(quoted.has(schedule), `"${sentence.slice(0, 140)}…" names ${schedule} but quotes no live number of a ${schedule} run`);
      }
      assert.deepEqual(handNumbers(sentence), [], `"${sentence.slice(0, 140)}…" compares schedules with a number written by hand`);
    }
    assert.ok(checked >= 10, `only ${checked} comparison sentences found`);
  });

  test(`${lang}: a sentence that names two schedules and writes a number by hand has no live quote to carry it`, () => {
    for (const sentence of sentences(markdown)) {
      if (namedSchedules(sentence).size < 2 || sentence.includes('{{')) continue;
      const numbers = handNumbers(sentence);
      // A number no sim block can carry (e.g. `pipesim params`) must be printed by the command the sentence gives.
      const command = /`pipesim ((?:params|recover|overlap) [^`]*)`/.exec(sentence);
      if (command && numbers.length) {
        const printed = execFileSync(cli, command[1].split(/\s+/), { encoding: 'utf8' });
        for (const n of numbers) assert.ok(printed.includes(n), `"${sentence.slice(0, 100)}…": ${n} is not in the output of pipesim ${command[1]}`);
        continue;
      }
      assert.deepEqual(numbers, [], `"${sentence.slice(0, 140)}…": a comparison written by hand; quote the simulator instead`);
    }
  });

  test(`${lang}: the worked trace is what core prints for DualPipe at P = 4, M = 8`, () => {
    const block = /^```text dualpipe-4x8-trace\n([\s\S]*?)^```$/m.exec(markdown);
    assert.ok(block, 'the lesson has the worked trace');
    const shown = block[1].trimEnd().split('\n');
    const width = Math.max(...shown.map((line) => line.length));
    const printed = execFileSync(cli, ['trace', '--schedule', 'dualpipe', '--ranks', '4', '--microbatches', '8'], { encoding: 'utf8' })
      .split('\n').filter((line) => /^(slot|\s+\d+ )/.test(line)).map((line) => line.slice(0, width).trimEnd());
    assert.deepEqual(shown, printed);
    const trace = JSON.parse(execFileSync(cli, ['trace', '--schedule', 'dualpipe', '--ranks', '4', '--microbatches', '8', '--format', 'json'], { encoding: 'utf8' }));
    // Exercise 2 asks for cells past the printed slots only.
    const exercise = JSON.parse(read('lessons/exercises/hand-trace.json'));
    const lastShown = Number(shown[0].trim().split(/\s+/).pop());
    for (const answer of exercise.answers) {
      const [, rank, slot, key] = /^trace_dp\.grid\.(\d+)\.(\d+)\.(\w+)$/.exec(answer.quantity);
      assert.ok(Number(slot) > lastShown, `${answer.id} asks for slot ${slot}, which the lesson already shows`);
      assert.equal(typeof trace.grid[rank][slot][key], 'number', `${answer.id}: ${answer.quantity}`);
    }
  });
}

/** The languages with a glossary (lessons/glossary.<code>.json): each has its catalogue too. */
const GLOSSARIES = readdirSync(new URL('lessons/', root)).map((f) => /^glossary\.([\w-]+)\.json$/.exec(f)?.[1]).filter(Boolean).sort();

test('every language with a catalogue has a glossary, and every glossary a catalogue', () => {
  const catalogues = readdirSync(new URL('web/locales/', root)).map((f) => /^([\w-]+)\.json$/.exec(f)?.[1]).filter((c) => c && c !== 'en').sort();
  assert.deepEqual(GLOSSARIES, catalogues);
});

/**
 * Whether `text` uses a glossary rendering: as written, or capitalised ("Rank"), or with the
 * ending a sentence gives it in an inflecting language (Russian "остывания" for "остывание",
 * Turkish "gradyanlarını" for "gradyanı": a word of more than five letters may change its last
 * three). A rendering that lists alternatives ("открытый / скрытый", or names before a note in
 * parentheses, "GPipe, 1F1B, … (stay as written)") is used when one of them is.
 */
function usesRendering(text, rendering, code) {
  const lower = (s) => s.toLocaleLowerCase(code);
  const words = lower(text).split(/[\s,.;:!?()«»"“”'’]+/u);
  const uses = (alternative) => lower(text).includes(lower(alternative)) || lower(alternative).split(/\s+/).every((word) => {
    const stem = word.length > 5 ? word.slice(0, Math.max(4, word.length - 3)) : word;
    return words.some((w) => w.startsWith(stem));
  });
  return uses(rendering) || rendering.replace(/\s*\([^)]*\)\s*$/, '').split(/\s*\/\s*|,\s+/).some((alternative) => alternative && uses(alternative));
}

for (const code of GLOSSARIES) {
  test(`${code}: every glossary term is rendered the one way, as its UI string renders it${LESSON_LANGS.includes(code) ? ', and the lesson uses it' : ''}`, () => {
    const glossary = JSON.parse(read(`lessons/glossary.${code}.json`));
    const strings = JSON.parse(read(`web/locales/${code}.json`));
    // Every text a learner reads in the language: its catalogue (UI, messages, exercises, quiz)
    // and, where it is written in it, the lesson.
    const lesson = LESSON_LANGS.includes(code) ? read(`lessons/dualpipe.${code}.md`) : null;
    const texts = [...Object.entries(strings).map(([key, text]) => [`web/locales/${code}.json ${key}`, text]),
      ...(lesson === null ? [] : [[`lessons/dualpipe.${code}.md`, lesson]])];
    assert.ok(glossary.terms.length >= 10, `${code}: ${glossary.terms.length} terms`);
    for (const term of glossary.terms) {
      const rendering = term[code];
      assert.equal(typeof rendering, 'string', `${code}: ${term.en} has a rendering`);
      if (lesson !== null) assert.ok(lesson.includes(rendering), `the lesson uses "${rendering}" (${term.en})`);
      if (term.ui) assert.ok(usesRendering(strings[term.ui] ?? '', rendering, code), `UI string ${term.ui} renders ${term.en} as "${rendering}": ${strings[term.ui]}`);
      for (const [file, text] of texts) {
        for (const variant of term.avoid || []) assert.ok(!text.includes(variant), `${file}: "${variant}" where the glossary says "${rendering}" (${term.en})`);
        for (const pattern of term.avoidPatterns || []) {
          const m = new RegExp(pattern, 'u').exec(text);
          assert.equal(m, null, `${file}: "${m?.[0]}" (${term.en})`);
        }
      }
    }
  });
}

// Exercise 4 follows the lesson's memory model (issue 26): its two calculators count both models
// under one accounting (the same recipe and ZeRO stage, every layout on the same GPU count), the
// lesson's own, and every number its solution states is what those calculators compute.
test('exercise 4 counts both models as the lesson does, and its solution quotes the calculators', async () => {
  const exercise = JSON.parse(read('lessons/exercises/param-overhead.json'));
  const calculators = exercise.config.calculators;
  const results = {};
  for (const [id, c] of Object.entries(calculators)) {
    const args = c.cli.replace(/^pipesim /, '').split(/\s+/);
    results[id] = JSON.parse(execFileSync(cli, args, { encoding: 'utf8' }));
    assert.deepEqual({ ...results[id], breakdown: undefined }, { ...JSON.parse(execFileSync(cli, ['params', '--format', 'json', ...Object.entries(c.input).flatMap(([k, v]) => [`--${k.replace(/[A-Z]/g, (m) => `-${m.toLowerCase()}`)}`, String(v)])], { encoding: 'utf8' })), breakdown: undefined }, `${id}: cli and input agree`);
  }
  const accounting = (r) => ({ recipe: r.assumptions.recipe.id, zero: r.assumptions.sharding.zero, gpus: r.assumptions.layout.gpus });
  const [first, ...rest] = Object.values(results);
  for (const r of rest) assert.deepEqual(accounting(r), accounting(first));
  // The lesson's comparison counts the same way.
  const fence = /^```memory mem\n([\s\S]*?)^```$/m.exec(read('lessons/dualpipe.en.md'));
  const lesson = JSON.parse(execFileSync(cli, ['memory', '--input', '-', '--format', 'json'], { input: fence[1] }));
  assert.deepEqual(accounting(lesson.sides[0]), accounting(first));
  const { llama, dsv3 } = results;
  const expected = [
    `${(llama.schedules['1f1b'].paramsPerGpu / 1e9).toFixed(2)}B`, `${(llama.schedules.dualpipe.paramsPerGpu / 1e9).toFixed(2)}B`,
    `${(llama.dualpipeOverhead.bytesPerGpu / 1e9).toFixed(2)} GB`,
    `${(dsv3.schedules['1f1b'].paramsPerGpu / 1e9).toFixed(2)}B`, `${(dsv3.schedules.dualpipe.paramsPerGpu / 1e9).toFixed(2)}B`,
    `${(dsv3.dualpipeOverhead.bytesPerGpu / 1e9).toFixed(2)} GB`,
    `${(100 * dsv3.dualpipeOverhead.shareOfGpuMemory).toFixed(0)}%`, `${(100 * llama.dualpipeOverhead.shareOfGpuMemory).toFixed(1)}%`,
  ];
  // The solution as each lesson language's page shows it (its text from that language's catalogue).
  for (const lang of LESSON_LANGS) {
    await loadLanguage(lang);
    const solution = localizeContent(exercise, exercisePrefix(exercise), translator(lang)).solution;
    for (const text of expected) assert.ok(solution.includes(text), `${lang} solution states ${text}`);
  }
});
