// Shared by the tests/wasm tier: repository paths, the pipesim API loaded from the wasm build,
// and the native CLI to compare against. Not a test file itself (no .test. in its name).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadPipesim, MODULE_BUILDS } from '../../wasm/pipesim.js';

export const repoPath = (relative) => fileURLToPath(new URL(`../../${relative}`, import.meta.url));
/** The full build's glue, and the figures' build's (wasm/CMakeLists.txt), as the wasm build writes them. */
export const MODULE_URL = new URL(`../../build/wasm/wasm/${MODULE_BUILDS.full}.mjs`, import.meta.url);
export const FIGURES_MODULE_URL = new URL(`../../build/wasm/wasm/${MODULE_BUILDS.figures}.mjs`, import.meta.url);
export const NATIVE_CLI = repoPath('build/native/pipesim');

let apiPromise = null;
/** One module instance per test file (each file runs in its own process). */
export function pipesim() {
  apiPromise ??= loadPipesim({ moduleUrl: MODULE_URL });
  return apiPromise;
}

/** stdout of the native CLI, without its trailing newline. */
export function nativeCli(args, input = undefined) {
  return execFileSync(NATIVE_CLI, args, { input, encoding: 'utf8', maxBuffer: 1 << 28 }).replace(/\n$/, '');
}
