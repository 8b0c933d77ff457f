// The JavaScript API of pipesim: loads the Embind module (pipesim.mjs + pipesim.wasm) and wraps
// its envelope-returning exports in ordinary functions that return parsed values and throw
// SimError. The page, the worker, the embeds and the Node tests all use this file and never touch
// Embind. Types and docs: pipesim.d.ts. Runs unchanged in browsers, workers and Node.

/** Op kinds in the order of the `op` typed array: 0=F, 1=B, 2=W, 3=FB. */
export const OP_NAMES = Object.freeze(['F', 'B', 'W', 'FB']);

/** A user-facing failure from pipesim: `code` is a stable id, `path` a JSON pointer or "". */
export class SimError extends Error {
  constructor(code, message, path = '') {
    super(message);
    this.name = 'SimError';
    this.code = code;
    this.path = path;
  }
}

const IS_NODE = typeof process === 'object' && typeof process.versions?.node === 'string';

function describe(value) {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'function') return 'a function';
  return String(value);
}

// JSON cannot carry NaN or Infinity (JSON.stringify writes null, and core would then blame a
// null), so such values are rejected here, naming the field as core does ("costs.forward").
function findNonFinite(value, pointer, seen) {
  if (typeof value === 'number') return Number.isFinite(value) ? null : { pointer, value };
  if (value === null || typeof value !== 'object' || seen.has(value)) return null;
  seen.add(value);
  for (const [key, child] of Object.entries(value)) {
    const token = key.replaceAll('~', '~0').replaceAll('/', '~1');  // RFC 6901 escaping
    const hit = findNonFinite(child, `${pointer}/${token}`, seen);
    if (hit) return hit;
  }
  return null;
}

/** Encodes `value` as the JSON text core reads; `what` names it in messages ("config"). */
function encode(value, what) {
  const kind = typeof value;
  const notJson = kind === 'undefined' || kind === 'function' || kind === 'symbol' || kind === 'bigint';
  if (notJson || (kind === 'number' && !Number.isFinite(value))) {
    throw new SimError('invalid_config', `${what} must be a JSON object (got ${describe(value)})`, '');
  }
  const bad = findNonFinite(value, '', new Set());
  if (bad) {
    const name = bad.pointer.slice(1).split('/').join('.');
    throw new SimError('invalid_config', `${name} must be a finite number (got ${bad.value})`,
                       bad.pointer);
  }
  try {
    return JSON.stringify(value);
  } catch (error) {  // a cycle or a BigInt inside
    throw new SimError('invalid_config', `${what} cannot be written as JSON: ${error.message}`, '');
  }
}

function unwrap(envelope) {
  if (!envelope.ok) {
    const { code, message, path } = envelope.error;
    throw new SimError(code, message, path);
  }
  return envelope;
}

async function readNodeFile(url) {
  const { readFile } = await import('node:fs/promises');
  return readFile(url);
}

/**
 * Loads the module and returns the pipesim API. `moduleUrl` (default: pipesim.mjs beside this
 * file; relative URLs resolve against this file) locates the generated module, and pipesim.wasm
 * is looked up beside it unless `wasmBinary` is given.
 */
export async function loadPipesim({ wasmBinary, moduleUrl } = {}) {
  const url = new URL(moduleUrl ?? './pipesim.mjs', import.meta.url);
  const { default: createPipesimModule } = await import(url.href);
  const options = { locateFile: (file) => new URL(file, url).href };
  // Node's fetch() cannot load file: URLs, so Node reads the bytes itself (TOOLCHAIN.md).
  if (wasmBinary) options.wasmBinary = wasmBinary;
  else if (IS_NODE && url.protocol === 'file:') options.wasmBinary = await readNodeFile(new URL('pipesim.wasm', url));
  const module = await createPipesimModule(options);

  return Object.freeze({
    simulate(config) {
      const envelope = unwrap(module.simulate(encode(config, 'config')));
      const result = JSON.parse(envelope.result);
      result.timeline = envelope.timeline;
      return result;
    },
    simulateJson(configOrString) {
      const text = typeof configOrString === 'string' ? configOrString : encode(configOrString, 'config');
      return unwrap(module.simulateJson(text)).result;
    },
    validate(config) {
      return JSON.parse(unwrap(module.validate(encode(config, 'config'))).result);
    },
    sweep(request) {
      return JSON.parse(unwrap(module.sweep(encode(request, 'sweep'))).result);
    },
    schedules() {
      return JSON.parse(unwrap(module.schedules()).result);
    },
    lessonReport(costs = {}) {
      return JSON.parse(unwrap(module.lessonReport(encode(costs, 'costs'))).result);
    },
    recover(request) {
      return JSON.parse(unwrap(module.recover(encode(request, 'request'))).result);
    },
    params(request) {
      return JSON.parse(unwrap(module.params(encode(request, 'request'))).result);
    },
    traceGrid(request) {
      return JSON.parse(unwrap(module.traceGrid(encode(request, 'request'))).result);
    },
    overlapPair(costs) {
      return JSON.parse(unwrap(module.overlapPair(encode(costs, 'costs'))).result);
    },
    plan(spec) {
      return JSON.parse(unwrap(module.plan(encode(spec, 'spec'))).result);
    },
    planMarkdown(spec) {
      return unwrap(module.planMarkdown(encode(spec, 'spec'))).result;
    },
  });
}
