#!/usr/bin/env node
// `make course-bundle`: writes dist/course/ (git-ignored), what a pull request to the course site
// copies into its site/ folder, beside its lesson.html:
//   figures-dualpipe.js   one classic script, as the course's own figures-*.js files are: it
//                         registers the figures with the course's LF.register and loads the rest
//                         when a figure comes near the viewport (web/js/embed/figure-widget.js,
//                         minified, with the layout below defined into it)
//   figures-dualpipe/     everything else, laid out like the lab's site (its bundles one folder
//                         down, in generated/, so every URL the modules build from their own
//                         import.meta.url means the same here as on the site: bundle-page.mjs):
//     generated/figure.js       the figure module (js/embed/figure-mount.js and all it imports,
//                               bundled by Rollup, minified by esbuild), no static import of another file
//     generated/strings/<lang>-<hash>.js  the strings of each language the lab speaks besides
//                               English, loaded only in that language
//     generated/*-<hash>.js     other modules loaded on first use (the sweep splitter)
//     generated/figure.css      the widget's styles (css/widgets.css + css/figure.css)
//     generated/sim-worker.js   the simulator's worker, with the JS API inside
//     generated/pipesim-figures.mjs, .wasm  the simulator: the figures' build of the module
//                               (wasm/pipesim.js's MODULE_BUILDS; the glue as build-site minified
//                               it), all the figures call, about half the lab page's full build
//     generated/fonts/          the web fonts, one stylesheet per script (scripts/font-sets.mjs)
// Needs `make site` first (the wasm module, the catalogue). Prints the sizes the budgets are
// about (tests/browser/course-bundle.test.mjs checks them).
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { rollup } from 'rollup';
import { TARGET, MODULE_CHARSET, minifyChunks } from './bundle-page.mjs';
import { writeFontSets, FontError } from './font-sets.mjs';
import { MODULE_BUILDS } from '../wasm/pipesim.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WEB = path.join(ROOT, 'web');
const SITE_BUILD = path.join(WEB, 'generated');
export const COURSE_OUT = path.join(ROOT, 'dist/course');
export const SCRIPT = 'figures-dualpipe.js';
export const FOLDER = 'figures-dualpipe';
const INNER = `${FOLDER}/generated`;

/** Where the classic script finds the rest, relative to itself (figure-widget.js's DPL_LAYOUT). */
export const COURSE_LAYOUT = { module: `${INNER}/figure.js`, styles: [`${INNER}/figure.css`], fonts: `${INNER}/fonts/` };

/** The module the figures' worker runs (js/embed/widget-kit.js asks for this build): glue and wasm. */
const SIMULATOR_FILES = [`${MODULE_BUILDS.figures}.mjs`, `${MODULE_BUILDS.figures}.wasm`];

/** The files the first English figure fetches, relative to COURSE_OUT: the size budget's set. */
export const FIRST_FIGURE_FILES = [SCRIPT, COURSE_LAYOUT.module, ...COURSE_LAYOUT.styles,
  `${INNER}/sim-worker.js`, ...SIMULATOR_FILES.map((name) => `${INNER}/${name}`)];

class BuildError extends Error {}

/**
 * The classic script: figure-widget.js with the bundle's layout defined in, minified. `version`:
 * a hash of the files it loads, which it asks for as ?v=version (a course bumps the ?v= of its own
 * script tag; the files beside it keep their names, but this one's query changes with them).
 */
async function buildScript(version) {
  const source = await readFile(path.join(WEB, 'js/embed/figure-widget.js'), 'utf8');
  const { code } = await esbuild.transform(source, {
    loader: 'js', target: TARGET, minify: true, sourcefile: 'figures-dualpipe.js',
    // A string literal, so the sources' layout folds away.
    define: { DPL_LAYOUT: JSON.stringify(JSON.stringify({ ...COURSE_LAYOUT, version })) },
    banner: '/* DualPipe Lab: the figures dualpipe-schedule and dualpipe-sweep for the course\'s figure system; ' +
            `the rest is in ${FOLDER}/ beside this file. Built by make course-bundle from web/js/embed/figure-widget.js. */`,
  });
  if (code.includes('figure-mount.js')) throw new BuildError('figures-dualpipe.js still names the sources\' layout: DPL_LAYOUT was not defined in');
  await writeFile(path.join(COURSE_OUT, SCRIPT), code);
  return [SCRIPT];
}

/** A language pack's chunk (lib/i18n-<lang>.js) goes to strings/<lang>-<hash>.js; others keep their name. */
function chunkName(chunk) {
  const pack = /[\\/]i18n-([a-z]+(?:-[A-Za-z]+)?)\.js$/.exec(chunk.facadeModuleId ?? '');
  return pack ? `strings/${pack[1]}-[hash].js` : '[name]-[hash].js';
}

/** The figure module and the modules it loads on first use, with Rollup (as the page's app.js). */
async function buildModule() {
  let build;
  try {
    build = await rollup({
      input: path.join(WEB, 'js/embed/figure-mount.js'),
      // The modules loaded on first use import what they share with the figure from figure.js
      // itself (it exports those bindings too), not from a chunk figure.js would wait for.
      preserveEntrySignatures: 'allow-extension',
      onwarn(warning) { throw new BuildError(warning.message); },
    });
    const { output } = await build.write({
      dir: path.join(COURSE_OUT, INNER),
      format: 'es',
      entryFileNames: 'figure.js',
      chunkFileNames: chunkName,
      hashCharacters: 'base36',
      plugins: [minifyChunks],
    });
    const entry = output.find((file) => file.type === 'chunk' && file.isEntry);
    if (entry.imports.length > 0) {
      throw new BuildError(`figure.js imports ${entry.imports.join(', ')}: files fetched only once it has arrived; keep them inside it`);
    }
    return output.map((file) => `${INNER}/${file.fileName}`);
  } finally {
    await build?.close();
  }
}

/** The widget's stylesheets as one minified file. */
async function buildStyles() {
  const file = COURSE_LAYOUT.styles[0];
  await esbuild.build({
    stdin: { contents: '@import "widgets.css";\n@import "figure.css";\n', resolveDir: path.join(WEB, 'css'), loader: 'css', sourcefile: 'course-figure-entry.css' },
    bundle: true, minify: true, target: TARGET, outfile: path.join(COURSE_OUT, file), logLevel: 'silent',
  });
  return [file];
}

/** The worker with the JS API inside (one file, as the page's), and the figures' build of the simulator beside it. */
async function buildWorker() {
  await esbuild.build({
    entryPoints: [path.join(WEB, 'js/sim-worker.js')], outdir: path.join(COURSE_OUT, INNER), entryNames: '[name]',
    bundle: true, format: 'esm', charset: MODULE_CHARSET, target: TARGET, minify: true, logLevel: 'silent',
  });
  const files = [`${INNER}/sim-worker.js`];
  for (const name of SIMULATOR_FILES) {
    try {
      await copyFile(path.join(SITE_BUILD, name), path.join(COURSE_OUT, INNER, name));
    } catch {
      throw new BuildError(`missing web/generated/${name}: run \`make site\` first`);
    }
    files.push(`${INNER}/${name}`);
  }
  return files;
}

async function buildFonts() {
  try {
    return (await writeFontSets(path.join(COURSE_OUT, COURSE_LAYOUT.fonts))).map((f) => `${COURSE_LAYOUT.fonts}${f}`);
  } catch (error) {
    if (error instanceof FontError) throw new BuildError(error.message);
    throw error;
  }
}

/** Bytes of `file` (relative to `out`) once gzipped, as a server would send it. */
export async function gzippedSize(file, out = COURSE_OUT) {
  return gzipSync(await readFile(path.join(out, file)), { level: 9 }).length;
}

/** Every file under `dir`, relative to it. */
async function listFiles(dir, prefix = '') {
  const out = [];
  for (const entry of await readdir(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = path.posix.join(prefix, entry.name);
    if (entry.isDirectory()) out.push(...await listFiles(dir, rel));
    else out.push(rel);
  }
  return out;
}

async function main() {
  try {
    await stat(path.join(SITE_BUILD, 'catalogue.js'));
  } catch {
    throw new BuildError('web/generated/ is missing: run `make site` first');
  }
  // Emptied first, so no file of an earlier build (a chunk under an old hash) lingers.
  await rm(COURSE_OUT, { recursive: true, force: true });
  await mkdir(path.join(COURSE_OUT, INNER), { recursive: true });
  await buildModule();
  await buildStyles();
  await buildWorker();
  await buildFonts();
  const hash = createHash('sha256');
  for (const file of (await listFiles(COURSE_OUT)).sort()) hash.update(file).update(await readFile(path.join(COURSE_OUT, file)));
  await buildScript(hash.digest('hex').slice(0, 12));
  const files = await listFiles(COURSE_OUT);
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
  const script = await gzippedSize(SCRIPT);
  let first = 0;
  for (const file of FIRST_FIGURE_FILES) first += await gzippedSize(file);
  console.log(`build-course: dist/course/ has ${SCRIPT} (${kb(script)} gzipped) and ${FOLDER}/ (${files.length - 1} files); ` +
              `the first English figure fetches ${FIRST_FIGURE_FILES.length} files, ${kb(first)} gzipped`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`build-course: ${error instanceof BuildError ? error.message : error.stack}`);
    process.exit(1);
  });
}
