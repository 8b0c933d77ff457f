// The lesson page's scripts and styles as minified bundles in web/generated/, which index.html
// loads: 60-odd ES modules in eight levels of imports become one file per role, and the six
// stylesheets one file. Modules loaded on first use (the planner, the sweep, an exercise, the
// Hindi strings...) stay files of their own, loaded only when needed. The sources in web/js stay
// servable as they are: the embeds (js/embed/*) are loaded from there by other people's pages,
// and tests import them directly.
//
// Two bundlers, each for what it does best. Rollup bundles app.js: everything app.js imports
// stays in app.js, and a module loaded on first use imports what it shares with app.js from
// app.js. esbuild's splitting instead moves that shared code into chunks of its own, which app.js
// must fetch before it runs: 12 more requests on the first screen, measured ~120 ms later to the
// first drawn timeline (interleaved runs, lesson and explorer alike). esbuild minifies Rollup's
// output and bundles the worker, boot.js (one file each, nothing to split) and the stylesheets.
//
// import.meta.url: a bundle keeps it as it is, so in the bundle it is the bundle's own URL. The
// bundles sit in web/generated/, one folder below the site root like web/js/, so a URL built
// from import.meta.url in a file directly in web/js/ (or web/generated/) means the same thing in
// both forms; anywhere deeper it would not, and the build refuses it (web/js/script-base.js is
// the way for modules deeper down).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { rollup } from 'rollup';

export const TARGET = 'es2022';

// Non-ASCII text (the catalogues' Russian, Hindi, Arabic, Chinese) written as itself, not as \u
// escapes: a browser decodes every module script and module worker as UTF-8 whatever the server
// says, and the escapes made the Russian strings 24% bigger gzipped (40.0 against 32.3 KB). Only
// for ES modules: a classic script and a stylesheet take the encoding the server or page gives them.
export const MODULE_CHARSET = 'utf8';

/**
 * The builds, relative to web/, each independent of the others (nothing shared between them), so
 * none waits for another file before it can start:
 * - app.js, the page's script (Rollup), which finds boot.js beside it (the module index.html
 *   already ran): one file, plus one per module loaded on first use;
 * - the stylesheets, css/index.css with what it imports;
 * - sim-worker.js with the JS API inside, one file;
 * - boot.js, which index.html loads first: one file with the little it imports, so it runs as it
 *   arrives and asks at once for what the page will need: the lesson's text on the lesson, and
 *   on a Hindi page app.js's Hindi strings (their file's name is defined into it, LANG_PACKS)
 *   and the Devanagari font.
 */
const BOOT = 'js/boot.js';
const APP = { entry: 'js/app.js', shared: [BOOT] };
const BUILDS = ['css/index.css', 'js/sim-worker.js', BOOT];

/** Where a file may use import.meta.url: directly in these folders of web/ (see above). */
const BASE_FOLDERS = ['js', 'generated'];

async function checkImportMetaUrl(web, inputs) {
  const misplaced = [];
  for (const input of inputs) {
    if (!input.endsWith('.js')) continue;
    const folder = path.relative(web, path.dirname(input));
    if (BASE_FOLDERS.includes(folder)) continue;
    if ((await readFile(input, 'utf8')).includes('import.meta.url')) misplaced.push(path.relative(web, input));
  }
  if (misplaced.length > 0) {
    throw new Error(`${misplaced.join(', ')}: import.meta.url in a bundled module below web/js/ ` +
                    'means another place once bundled; build the URL from js/script-base.js instead');
  }
}

/** Whether `file` (a name in out) is the file of a module loaded on first use: planner-HASH.js for views/planner.js. */
export function isChunkFile(file, name) {
  return file.startsWith(`${name}-`) && /^[a-z0-9]+\.js$/.test(file.slice(name.length + 1));
}

/** A Rollup plugin: imports of these files stay imports of the same-named file beside the bundle ("./boot.js"). */
function keepBeside(files) {
  const beside = (file) => `./${path.basename(file)}`;
  return {
    name: 'keep-beside',
    resolveId(specifier, importer) {
      if (!importer || !specifier.startsWith('.')) return null;
      const file = path.resolve(path.dirname(importer), specifier);
      return files.includes(file) ? { id: beside(file), external: true } : null;
    },
  };
}

/** A Rollup output plugin: each file minified by esbuild, its source map carried through. */
export const minifyChunks = {
  name: 'minify',
  async renderChunk(code, chunk) {
    const { code: minified, map } = await esbuild.transform(code, {
      format: 'esm', target: TARGET, minify: true, sourcemap: 'external', sourcefile: chunk.fileName, charset: MODULE_CHARSET,
    });
    return { code: minified, map };
  },
};

/** Bundles APP with Rollup; returns the files written (names in out) and the modules read. */
async function bundleApp(web, out) {
  let build;
  try {
    build = await rollup({
      input: path.join(web, APP.entry),
      plugins: [keepBeside(APP.shared.map((file) => path.join(web, file)))],
      onwarn(warning) { throw new Error(warning.message); },  // a circular import, an unknown export...
    });
    const { output } = await build.write({
      dir: out,
      format: 'es',
      entryFileNames: '[name].js',  // flat in out, one folder below the site root (see above)
      chunkFileNames: '[name]-[hash].js',  // a module loaded on first use keeps its name (isChunkFile)
      hashCharacters: 'base36',
      sourcemap: true,  // linked: fetched only by developer tools
      plugins: [minifyChunks],
    });
    const entry = output.find((file) => file.type === 'chunk' && file.isEntry);
    const ownFiles = new Set(output.map((file) => file.fileName));  // imports of boot.js are not among them
    const fetchedFirst = entry.imports.filter((file) => ownFiles.has(file));
    if (fetchedFirst.length > 0) {
      throw new Error(`${entry.fileName} imports ${fetchedFirst.join(', ')}: files the page would fetch only once ` +
                      `${entry.fileName} has arrived; keep what it imports inside it`);
    }
    // The files of app.js's language packs (lib/i18n-<lang>.js), by language: boot.js asks for
    // the page's own at once (LANG_PACKS), not once app.js has run and imported it.
    const langPacks = {};
    for (const file of output) {
      const pack = file.type === 'chunk' && /^i18n-([a-z]+)\.js$/.exec(path.basename(file.facadeModuleId ?? ''));
      if (pack) langPacks[pack[1]] = file.fileName;
    }
    return {
      written: output.flatMap((file) => (file.map ? [file.fileName, `${file.fileName}.map`] : [file.fileName])),
      inputs: output.flatMap((file) => file.moduleIds ?? []).filter((id) => path.isAbsolute(id)),
      langPacks,
    };
  } finally {
    await build?.close();
  }
}

/**
 * Bundles one entry with esbuild, as one file; returns the files written (names in out) and the
 * modules read. `define`: global names replaced by these values (JSON) in the bundle.
 */
async function bundleOne(web, out, entry, define = {}) {
  const root = process.cwd();
  try {
    const { metafile } = await esbuild.build({
      define,
      entryPoints: [path.join(web, entry)],
      outdir: out,
      entryNames: '[name]',  // flat in out, one folder below the site root (see above)
      bundle: true,
      format: 'esm',
      charset: MODULE_CHARSET,
      target: TARGET,
      minify: true,
      sourcemap: 'linked',  // fetched only by developer tools
      external: ['*.woff2'],  // the fonts stay files of their own, at the same relative URL
      metafile: true,
      logLevel: 'silent',
    });
    return {
      written: Object.keys(metafile.outputs).map((output) => path.relative(out, path.resolve(root, output))),
      inputs: Object.keys(metafile.inputs).map((input) => path.resolve(root, input)),
    };
  } catch (error) {
    const messages = (error.errors ?? []).map((e) => `${e.location ? `${e.location.file}:${e.location.line}: ` : ''}${e.text}`);
    throw new Error(messages.length > 0 ? messages.join('\n') : error.message);
  }
}

/**
 * `code`, an ES module, minified as the bundles are (locals renamed, whitespace gone; names of
 * globals and properties kept). For the Emscripten glue, which Emscripten only strips of
 * whitespace: 9.8 -> 7.4 KB gzipped. Its embind code is built without eval or new Function, so
 * renaming its locals is safe.
 */
export async function minifyModule(code) {
  return (await esbuild.transform(code, { format: 'esm', target: TARGET, minify: true, charset: MODULE_CHARSET })).code;
}

/**
 * Bundles APP and BUILDS from `web` into `out` (web/generated/); returns the files written,
 * relative to `out`. Throws with the bundler's messages when a module does not build.
 */
export async function bundlePage(web, out) {
  const written = [];
  const app = await bundleApp(web, out);
  const define = (entry) => (entry === BOOT ? { LANG_PACKS: JSON.stringify(app.langPacks) } : {});
  for (const bundled of [app, ...await Promise.all(BUILDS.map((entry) => bundleOne(web, out, entry, define(entry))))]) {
    await checkImportMetaUrl(web, bundled.inputs);
    written.push(...bundled.written);
  }
  return written;
}
