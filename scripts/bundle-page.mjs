// The lesson page's scripts and styles as minified bundles in web/generated/, which index.html
// loads: with esbuild, 60-odd ES modules in eight levels of imports become one entry script per
// role plus a few shared chunks, and the six stylesheets one file. Modules loaded on first use
// (the planner, the sweep, an exercise, the Hindi strings...) stay separate chunks, still loaded
// only when needed. The sources in web/js stay servable as they are: the embeds (js/embed/*) are
// loaded from there by other people's pages, and tests import them directly.
//
// import.meta.url: a bundle keeps it as it is, so in the bundle it is the bundle's own URL. The
// bundles sit in web/generated/, one folder below the site root like web/js/, so a URL built
// from import.meta.url in a file directly in web/js/ (or web/generated/) means the same thing in
// both forms; anywhere deeper it would not, and the build refuses it (web/js/script-base.js is
// the way for modules deeper down).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as esbuild from 'esbuild';

/**
 * Three builds, relative to web/, each an independent bundle (no chunk shared between them), so
 * neither the worker nor boot.js waits for a chunk before it can start:
 * - the page: app.js (which finds boot.js beside it, the module index.html already ran) and the
 *   stylesheets (css/index.css), split so a view loaded on first use is a chunk of its own;
 * - sim-worker.js with the JS API inside, one file;
 * - boot.js, which index.html loads first: one file with the little it imports, so it runs as it
 *   arrives; it starts the worker and asks for app.js's own chunks at once (APP_CHUNKS, defined
 *   here from the page's build): the browser would otherwise ask for them only once it has
 *   app.js and has parsed it.
 */
const BUILDS = [
  { entries: ['js/app.js', 'css/index.css'], splitting: true, shared: ['js/boot.js'] },
  { entries: ['js/sim-worker.js'], splitting: false },
  { entries: ['js/boot.js'], splitting: false, preloads: 'js/app.js' },
];

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

/** Whether `file` (a name in out) is the chunk of the module named `name`: planner-HASH.js for views/planner.js. */
export function isChunkFile(file, name) {
  return file.startsWith(`${name}-`) && /^[A-Z0-9]+\.js$/.test(file.slice(name.length + 1));
}

/** An esbuild plugin: imports of these files stay imports of the same-named file beside the bundle. */
function keepBeside(files) {
  return {
    name: 'keep-beside',
    setup(build) {
      build.onResolve({ filter: /^\./ }, ({ path: specifier, resolveDir }) => {
        const file = path.resolve(resolveDir, specifier);
        return files.includes(file) ? { path: `./${path.basename(file)}`, external: true } : undefined;
      });
    },
  };
}

async function bundle(web, out, { entries, splitting, shared = [], define = {} }) {
  try {
    return await esbuild.build({
      define,
      entryPoints: entries.map((entry) => path.join(web, entry)),
      outdir: out,
      entryNames: '[name]',  // flat in out, one folder below the site root (see above)
      chunkNames: '[name]-[hash]',  // a lazy view's chunk keeps its module's name (isChunkFile)
      bundle: true,
      splitting,
      format: 'esm',
      target: 'es2022',
      minify: true,
      sourcemap: 'linked',  // fetched only by developer tools
      external: ['*.woff2'],  // the fonts stay files of their own, at the same relative URL
      plugins: [keepBeside(shared.map((file) => path.join(web, file)))],
      metafile: true,
      logLevel: 'silent',
    });
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
  return (await esbuild.transform(code, { format: 'esm', target: 'es2022', minify: true })).code;
}

/**
 * Bundles BUILDS from `web` into `out` (web/generated/); returns the files written, relative to
 * `out`. Throws with esbuild's messages when a module does not build.
 */
export async function bundlePage(web, out) {
  const root = process.cwd();
  const written = [];
  const staticChunks = {}; // entry -> the chunks its bundle imports statically (names in out)
  for (const build of BUILDS) {
    const define = build.preloads ? { APP_CHUNKS: JSON.stringify(staticChunks[build.preloads]) } : {};
    const { metafile } = await bundle(web, out, { ...build, define });
    await checkImportMetaUrl(web, Object.keys(metafile.inputs).map((input) => path.resolve(root, input)));
    for (const [output, { entryPoint, imports }] of Object.entries(metafile.outputs)) {
      written.push(path.relative(out, path.resolve(root, output)));
      if (!entryPoint) continue;
      staticChunks[path.relative(web, path.resolve(root, entryPoint))] = imports
        .filter((i) => i.kind === 'import-statement' && !i.external)
        .map((i) => path.relative(out, path.resolve(root, i.path)));
    }
  }
  return written;
}
