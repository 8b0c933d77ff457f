#!/usr/bin/env node
// Builds the generated part of the site into web/generated/ (git-ignored; the page itself is
// served straight from web/): the wasm module and its JS API, the lessons rendered to HTML
// fragments, quizzes and exercises as JSON, and manifest.json listing all of it. Run by
// `make site` after the wasm build. Output is deterministic: no timestamps.
//
// Lessons: scripts/render-lesson.mjs renders each (its header lists the Markdown extensions: live
// simulations, quotes of their numbers, optional deep dives, the stated time), and
// scripts/lesson-time.mjs counts the minutes the lesson states, from the English lesson, its
// exercises and its quiz.
import { copyFile, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { renderLesson, LessonError } from './render-lesson.mjs';
import { lessonFilesTime, statedMinutes } from './lesson-time.mjs';
import { bundlePage, minifyModule } from './bundle-page.mjs';
import { writeFirstRuns } from './first-runs.mjs';
import { writeFontSets, FontError } from './font-sets.mjs';
import { MODULE_BUILDS } from '../wasm/pipesim.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WASM_BUILD = path.join(ROOT, 'build/wasm/wasm');
const OUT = path.join(ROOT, 'web/generated');
const LESSONS = path.join(ROOT, 'lessons');

class BuildError extends Error {}

/**
 * The minutes the lesson states ({core, optional}), counted from the English lesson (the source
 * its translations follow), its exercises and its quiz: every language states the same.
 */
async function lessonMinutes() {
  try {
    const time = await lessonFilesTime(LESSONS);
    return { core: statedMinutes(time, 'core'), optional: statedMinutes(time, 'optional') };
  } catch (error) {
    throw new BuildError(`counting the lesson's time: ${error.message}`);
  }
}

async function writeLesson(file, time) {
  const [name, lang] = path.basename(file, '.md').split('.');
  let lesson;
  try {
    lesson = renderLesson(await readFile(file, 'utf8'), { name, lang: lang ?? 'en', source: path.relative(ROOT, file), time });
  } catch (error) {
    if (error instanceof LessonError) throw new BuildError(error.message);
    throw error;
  }
  const { html, ...rest } = lesson;
  const out = `lessons/${name}.${rest.lang}.html`;
  await writeFile(path.join(OUT, out), html);
  return { ...rest, html: out };
}

// Re-serialised after parsing, so a malformed file fails the build instead of the page.
async function copyJson(from, to) {
  let data;
  try {
    data = JSON.parse(await readFile(from, 'utf8'));
  } catch (error) {
    throw new BuildError(`${path.relative(ROOT, from)}: ${error.message}`);
  }
  await writeFile(path.join(OUT, to), JSON.stringify(data, null, 1) + '\n');
  return to;
}

const missingBuild = (file) => new BuildError(`missing ${path.relative(ROOT, file)}: run \`make wasm\` first`);

// Both builds of the module (MODULE_BUILDS: the page's full one, the embeds' figures one), each
// its glue and its wasm, and the JS API beside them.
async function copyModule() {
  const files = [
    ...Object.values(MODULE_BUILDS).map((name) => [path.join(WASM_BUILD, `${name}.wasm`), `${name}.wasm`]),
    [path.join(ROOT, 'wasm/pipesim.js'), 'pipesim.js'],
    [path.join(ROOT, 'wasm/encode-request.js'), 'encode-request.js'],
    [path.join(ROOT, 'wasm/pipesim.d.ts'), 'pipesim.d.ts'],
  ];
  for (const [from, to] of files) {
    try {
      await copyFile(from, path.join(OUT, to));
    } catch {
      throw missingBuild(from);
    }
  }
  // The glue as the page and the embeds load it, minified like the bundles; the Node tests of the
  // JS API (tests/wasm) load Emscripten's own from build/wasm, so both forms run in `make test`.
  const builds = {};
  for (const [build, name] of Object.entries(MODULE_BUILDS)) {
    const glue = path.join(WASM_BUILD, `${name}.mjs`);
    const glueText = await readFile(glue, 'utf8').catch(() => { throw missingBuild(glue); });
    await writeFile(path.join(OUT, `${name}.mjs`), await minifyModule(glueText));
    builds[build] = { module: `${name}.mjs`, wasm: `${name}.wasm` };
  }
  return { builds, api: 'pipesim.js', types: 'pipesim.d.ts' };
}

// The web fonts (web/js/lib/font-sets.js), from the npm packages of the committed lockfile, with
// their licences and one stylesheet per set, into generated/fonts/: the Hindi page's Devanagari
// files (web/css/fonts.css declares them) and every set the course figure loads from the sources
// (js/embed/figure-widget.js). Served from the page's own origin; never fetched from a CDN.
async function copyFonts() {
  try {
    return (await writeFontSets(path.join(OUT, 'fonts'))).map((f) => `fonts/${f}`);
  } catch (error) {
    if (error instanceof FontError) throw new BuildError(error.message);
    throw error;
  }
}

// The catalogue of the module just copied (schedules, limits, defaults, timeline columns, rules),
// as an ES module the page imports synchronously: the page learns what the simulator knows
// before the module has loaded, from the same core function as the JS API's catalogue().
async function writeCatalogue() {
  const { loadPipesim } = await import(pathToFileURL(path.join(OUT, 'pipesim.js')).href);
  const api = await loadPipesim();
  const text = JSON.stringify(api.catalogue(), null, 1);
  await writeFile(path.join(OUT, 'catalogue.js'),
    '// Generated by scripts/build-site.mjs from pipesim\'s catalogue() (`pipesim catalogue`): never edit.\n' +
    `const CATALOGUE = ${text};\n\n` +
    'function freeze(value) {\n' +
    '  if (value !== null && typeof value === \'object\') for (const child of Object.values(Object.freeze(value))) freeze(child);\n' +
    '  return value;\n' +
    '}\n\n' +
    'export default freeze(CATALOGUE);\n');
  return 'catalogue.js';
}

const WEB = path.join(ROOT, 'web');
const LOCALES_DIR = path.join(WEB, 'locales');

/**
 * The message catalogues (web/locales/<code>.json: flat key -> text, one per language; which
 * exist says which languages the lab speaks, lib/locales.js) as the modules the page imports,
 * into generated/strings/:
 *   i18n-<code>.js  one per catalogue, `export default {key: text}`: English imported with
 *                   lib/i18n.js, every other language a file of its own loaded only in that
 *                   language (the bundles keep the i18n-<code> name: bundle-page.mjs, build-course.mjs)
 *   packs.js        language -> () => import of its module (lib/i18n.js)
 *   langs.js        the languages that have a catalogue, and what each says when its own failed to
 *                   load (its page.langFailed and page.langRetry, copied: the catalogue stays their
 *                   one source), small enough for boot.js and the English page to carry
 */
async function writeStrings() {
  const dir = path.join(OUT, 'strings');
  await mkdir(dir, { recursive: true });
  const codes = (await readdir(LOCALES_DIR)).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
  const loadFailed = {};
  for (const code of codes) {
    const file = path.join(LOCALES_DIR, `${code}.json`);
    if (!/^[a-z]{2,3}(-[A-Za-z0-9]+)?$/.test(code)) throw new BuildError(`${path.relative(ROOT, file)}: not a language tag`);
    let table;
    try {
      table = JSON.parse(await readFile(file, 'utf8'));
    } catch (error) {
      throw new BuildError(`${path.relative(ROOT, file)}: ${error.message}`);
    }
    const bad = table && typeof table === 'object' && !Array.isArray(table)
      ? Object.entries(table).find(([, text]) => typeof text !== 'string') : ['(the file)'];
    if (bad) throw new BuildError(`${path.relative(ROOT, file)}: ${bad[0]} is not a string (a catalogue is a flat object of key -> text)`);
    await writeFile(path.join(dir, `i18n-${code}.js`),
      `// Generated by scripts/build-site.mjs from web/locales/${code}.json: never edit.\n` +
      `export default ${JSON.stringify(table, null, 1)};\n`);
    if (code !== 'en') loadFailed[code] = { text: table['page.langFailed'], retry: table['page.langRetry'] };
  }
  if (!codes.includes('en')) throw new BuildError('web/locales/en.json is missing: English is every other language\'s source');
  const others = codes.filter((code) => code !== 'en');
  await writeFile(path.join(dir, 'packs.js'),
    '// Generated by scripts/build-site.mjs from the files in web/locales/: never edit.\n' +
    `export const PACKS = {\n${others.map((code) => ` ${JSON.stringify(code)}: () => import('./i18n-${code}.js'),\n`).join('')}};\n`);
  await writeFile(path.join(dir, 'langs.js'),
    '// Generated by scripts/build-site.mjs from the files in web/locales/: never edit.\n' +
    `export const CATALOGUE_LANGS = ${JSON.stringify(codes)};\n` +
    `export const LOAD_FAILED = ${JSON.stringify(loadFailed, null, 1)};\n`);
  return [...codes.map((code) => `strings/i18n-${code}.js`), 'strings/packs.js', 'strings/langs.js'];
}

async function bundleSite() {
  try {
    return await bundlePage(WEB, OUT);
  } catch (error) {
    throw new BuildError(`bundling the page: ${error.message}`);
  }
}

async function main() {
  // Everything in OUT is written below: emptied first, so no file of an earlier build (a bundle
  // chunk under an old hash) lingers.
  await rm(OUT, { recursive: true, force: true });
  await mkdir(path.join(OUT, 'lessons/exercises'), { recursive: true });
  await mkdir(path.join(OUT, 'lessons/papers'), { recursive: true });

  const pipesim = await copyModule();
  pipesim.catalogue = await writeCatalogue();
  const strings = await writeStrings();
  const lessonFiles = (await readdir(LESSONS)).filter((f) => f.endsWith('.md')).sort();
  const time = await lessonMinutes();
  const lessons = [];
  for (const f of lessonFiles) lessons.push(await writeLesson(path.join(LESSONS, f), time));
  // Before the bundles, which hold it: the page's first runs, from the module and the lessons.
  pipesim.firstRuns = await writeFirstRuns(OUT, lessons);
  const bundles = await bundleSite();
  const fonts = await copyFonts();

  // The quiz and the exercises are written in English; every other language's texts of them are
  // in its catalogue (lib/content-text.js reads them there).
  const quiz = await copyJson(path.join(LESSONS, 'quiz.json'), 'lessons/quiz.json');
  const exercises = [];
  for (const f of (await readdir(path.join(LESSONS, 'exercises'))).filter((f) => f.endsWith('.json')).sort()) {
    exercises.push(await copyJson(path.join(LESSONS, 'exercises', f), `lessons/exercises/${f}`));
  }

  // Papers' published figures (lessons/papers/), which the page's papers panel sets beside the
  // simulator's own runs at the same times.
  const papers = [];
  for (const f of (await readdir(path.join(LESSONS, 'papers'))).filter((f) => f.endsWith('.json')).sort()) {
    papers.push(await copyJson(path.join(LESSONS, 'papers', f), `lessons/papers/${f}`));
  }

  const manifest = {
    pipesim,
    bundles,
    fonts,
    strings,
    lessons: lessons.map(({ name, lang, source, title, html, sections, deepDives, sims, compares, numbers, pairs }) =>
      ({ name, lang, source, title, html, sections, deepDives, sims, compares, numbers, pairs: pairs.map(({ id, sources }) => ({ id, sources })) })),
    time,
    quiz,
    exercises,
    papers,
  };
  await writeFile(path.join(OUT, 'manifest.json'), JSON.stringify(manifest, null, 1) + '\n');
  console.log(`build-site: web/generated/ has the wasm module, ${lessons.length} lessons, ` +
              `a quiz, ${exercises.length} exercises and ${strings.length - 2} message catalogues`);
}

main().catch((error) => {
  console.error(`build-site: ${error instanceof BuildError ? error.message : error.stack}`);
  process.exit(1);
});
