#!/usr/bin/env node
// Builds the generated part of the site into web/generated/ (git-ignored; the page itself is
// served straight from web/): the wasm module and its JS API, the lessons rendered to HTML
// fragments, quizzes and exercises as JSON, and manifest.json listing all of it. Run by
// `make site` after the wasm build. Output is deterministic: no timestamps.
//
// Lesson Markdown extensions, kept as placeholders the page fills in with live simulations:
//   ```sim <id>\n{config}\n```  ->  <div class="sim-widget" data-sim-id="id" data-config="{..}"></div>
//     options after the id: compare=<schedule> (a second schedule on the same time axis, with the
//     bubble of each labelled), play (plays once when the lesson opens) and streams (opens with the
//     compute and communication streams drawn; for configs with costs.comm): data-compare,
//     data-autoplay, data-streams
//   ```pairs <id> <sim id>...\n```  ->  <div class="pair-table" data-pairs-id="id" data-sources="a b"></div>
//     a table of one overlapped pair of each named sim run (its costs, its part order): what
//     computation each all-to-all runs under, as core reports it (result comm.ops.FB.hiding);
//     every named sim fence must have costs.comm
//   ```memory <id>\n{request}\n``` -> <div class="memory-widget" data-memory-id="id" data-request="{..}"></div>
//     a memory-model request (pipesim memory's JSON, a comparison with "sides" too): the page
//     draws its table with every assumption and source, and quotes may name it like a sim
//   {{id.field|quoted}}         ->  <span class="sim-number" data-ref="id.field" data-quoted="..">quoted</span>
//   ## Heading <!-- anchor -->  ->  <h2 id="anchor">Heading</h2>
import { copyFile, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import MarkdownIt from 'markdown-it';
import { bundlePage, minifyModule } from './bundle-page.mjs';
import { writeFirstRuns } from './first-runs.mjs';
import { writeFontSets, FontError } from './font-sets.mjs';
import { MODULE_BUILDS } from '../wasm/pipesim.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WASM_BUILD = path.join(ROOT, 'build/wasm/wasm');
const OUT = path.join(ROOT, 'web/generated');
const LESSONS = path.join(ROOT, 'lessons');

// A path's steps are names or array indices (a memory comparison's `sides.0.extraCopyBytes`).
const SIM_NUMBER = /^\{\{([A-Za-z][\w-]*(?:\.(?:[A-Za-z]\w*|\d+))+)\|([^{}|]*)\}\}/;
const ANCHOR = /\s*<!--\s*([a-z0-9-]+)\s*-->\s*$/;

class BuildError extends Error {}

// The markdown-it instance with our three extensions. Raw HTML stays off: lessons are Markdown.
function lessonRenderer(lesson) {
  const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
  const escape = md.utils.escapeHtml;
  const escapeSingle = (text) => escape(text).replaceAll('&quot;', '"').replaceAll("'", '&#39;');

  md.core.ruler.before('inline', 'heading_anchor', (state) => {
    state.tokens.forEach((token, i) => {
      if (token.type !== 'heading_open') return;
      const inline = state.tokens[i + 1];
      const match = inline.content.match(ANCHOR);
      if (!match) return;
      inline.content = inline.content.slice(0, match.index);
      token.attrSet('id', match[1]);
      lesson.sections.push({ id: match[1], level: Number(token.tag.slice(1)), title: inline.content });
    });
  });

  md.inline.ruler.before('emphasis', 'sim_number', (state, silent) => {
    if (state.src.charCodeAt(state.pos) !== 0x7b /* { */) return false;
    const match = state.src.slice(state.pos).match(SIM_NUMBER);
    if (!match) return false;
    if (!silent) {
      const token = state.push('sim_number', 'span', 0);
      token.meta = { ref: match[1], quoted: match[2] };
      lesson.numbers.push({ ref: match[1], quoted: match[2] });
    }
    state.pos += match[0].length;
    return true;
  });
  md.renderer.rules.sim_number = (tokens, i) => {
    const { ref, quoted } = tokens[i].meta;
    return `<span class="sim-number" data-ref="${escape(ref)}" data-quoted="${escape(quoted)}">${escape(quoted)}</span>`;
  };

  const defaultFence = md.renderer.rules.fence;
  md.renderer.rules.fence = (tokens, i, options, env, self) => {
    const token = tokens[i];
    const [lang, id, ...rest] = token.info.trim().split(/\s+/);
    if (lang === 'memory') return memoryFence(token, id, rest);
    const where = `${lesson.source}:${token.map[0] + 1}`;
    if (lang === 'pairs') {
      if (!id || !/^[A-Za-z][\w-]*$/.test(id) || !rest.length || rest.some((s) => !/^[A-Za-z][\w-]*$/.test(s))) {
        throw new BuildError(`${where}: a pairs fence needs an id and the sim ids it draws, e.g. \`\`\`pairs fig4 cdp16`);
      }
      if (token.content.trim()) throw new BuildError(`${where}: a pairs fence has no body`);
      lesson.pairs.push({ id, sources: rest, where });
      return `<div class="pair-table" data-pairs-id="${escape(id)}" data-sources="${escape(rest.join(' '))}"></div>\n`;
    }
    if (lang !== 'sim') return defaultFence(tokens, i, options, env, self);
    if (!id || !/^[A-Za-z][\w-]*$/.test(id)) throw new BuildError(`${where}: a sim fence needs one id, e.g. \`\`\`sim dp8`);
    const extra = {};
    for (const option of rest) {
      const compare = /^compare=([\w-]+)$/.exec(option);
      if (compare) extra.compare = compare[1];
      else if (option === 'play') extra.autoplay = '1';
      else if (option === 'streams') extra.streams = '1';
      else throw new BuildError(`${where}: unknown sim option "${option}" (compare=<schedule>, play or streams)`);
    }
    if (Object.hasOwn(lesson.sims, id) || Object.hasOwn(lesson.memories, id)) throw new BuildError(`${where}: sim id "${id}" is used twice`);
    let config;
    try {
      config = JSON.parse(token.content);
    } catch (error) {
      throw new BuildError(`${where}: sim ${id} is not valid JSON: ${error.message}`);
    }
    lesson.sims[id] = config;
    if (extra.compare) lesson.compares[id] = extra.compare;
    const attrs = Object.entries(extra).map(([k, v]) => ` data-${k}="${escape(v)}"`).join('');
    // Single-quoted so the JSON stays readable in the HTML; escape() leaves no raw ' or &.
    return `<div class="sim-widget" data-sim-id="${escape(id)}"${attrs} data-config='${escapeSingle(JSON.stringify(config))}'></div>\n`;
  };
  // A memory-model request: its table is drawn by the page; its id shares the sims' namespace.
  function memoryFence(token, id, rest) {
    const where = `${lesson.source}:${token.map[0] + 1}`;
    if (!id || !/^[A-Za-z][\w-]*$/.test(id)) throw new BuildError(`${where}: a memory fence needs one id, e.g. \`\`\`memory mem`);
    if (rest.length) throw new BuildError(`${where}: a memory fence takes no options (got "${rest.join(' ')}")`);
    if (Object.hasOwn(lesson.sims, id) || Object.hasOwn(lesson.memories, id)) throw new BuildError(`${where}: id "${id}" is used twice`);
    let request;
    try {
      request = JSON.parse(token.content);
    } catch (error) {
      throw new BuildError(`${where}: memory ${id} is not valid JSON: ${error.message}`);
    }
    lesson.memories[id] = request;
    return `<div class="memory-widget" data-memory-id="${escape(id)}" data-request='${escapeSingle(JSON.stringify(request))}'></div>\n`;
  }
  return md;
}

async function renderLesson(file) {
  const [name, lang] = path.basename(file, '.md').split('.');
  const lesson = { name, lang: lang ?? 'en', source: path.relative(ROOT, file), title: '', sections: [], sims: {}, memories: {}, compares: {}, numbers: [], pairs: [] };
  const md = lessonRenderer(lesson);
  const tokens = md.parse(await readFile(file, 'utf8'), {});
  const h1 = tokens.findIndex((t) => t.type === 'heading_open' && t.tag === 'h1');
  if (h1 >= 0) lesson.title = tokens[h1 + 1].content;
  const html = md.renderer.render(tokens, md.options, {});
  // A quote the extension did not recognise would reach the learner as raw text.
  const stray = /\{\{[^}]*\}\}/.exec(html.replace(/<code>[\s\S]*?<\/code>/g, ''));
  if (stray) throw new BuildError(`${lesson.source}: "${stray[0]}" is not a quote of the form {{id.path|as quoted}}`);
  for (const { ref } of lesson.numbers) {
    const id = ref.split('.')[0];
    if (!Object.hasOwn(lesson.sims, id) && !Object.hasOwn(lesson.memories, id)) throw new BuildError(`${lesson.source}: {{${ref}|..}} names no sim or memory fence "${id}"`);
  }
  for (const { id, sources, where } of lesson.pairs) {
    for (const source of sources) {
      if (!Object.hasOwn(lesson.sims, source)) throw new BuildError(`${where}: pairs ${id} names no sim fence "${source}"`);
      if (!lesson.sims[source].costs?.comm) throw new BuildError(`${where}: pairs ${id}: sim ${source} has no costs.comm, so no pair to draw`);
    }
  }
  lesson.html = `lessons/${name}.${lesson.lang}.html`;
  await writeFile(path.join(OUT, lesson.html), html);
  return lesson;
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
  const lessonFiles = (await readdir(LESSONS)).filter((f) => f.endsWith('.md')).sort();
  const lessons = [];
  for (const f of lessonFiles) lessons.push(await renderLesson(path.join(LESSONS, f)));
  // Before the bundles, which hold it: the page's first runs, from the module and the lessons.
  pipesim.firstRuns = await writeFirstRuns(OUT, lessons);
  const bundles = await bundleSite();
  const fonts = await copyFonts();

  const quizzes = {};
  for (const f of (await readdir(LESSONS)).filter((f) => /^quiz(\.\w+)?\.json$/.test(f)).sort()) {
    const lang = f.split('.').length === 3 ? f.split('.')[1] : 'en';
    quizzes[lang] = await copyJson(path.join(LESSONS, f), `lessons/${f}`);
  }
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
    lessons: lessons.map(({ name, lang, source, title, html, sections, sims, compares, numbers, pairs }) =>
      ({ name, lang, source, title, html, sections, sims, compares, numbers, pairs: pairs.map(({ id, sources }) => ({ id, sources })) })),
    quizzes,
    exercises,
    papers,
  };
  await writeFile(path.join(OUT, 'manifest.json'), JSON.stringify(manifest, null, 1) + '\n');
  console.log(`build-site: web/generated/ has the wasm module, ${lessons.length} lessons, ` +
              `${Object.keys(quizzes).length} quizzes and ${exercises.length} exercises`);
}

main().catch((error) => {
  console.error(`build-site: ${error instanceof BuildError ? error.message : error.stack}`);
  process.exit(1);
});
