// The JavaScript API of pipesim: loads the Embind module (pipesim.mjs + pipesim.wasm) and wraps
// its envelope-returning exports in ordinary functions that return parsed values and throw
// SimError. The page, the worker, the embeds and the Node tests all use this file and never touch
// Embind. Types and docs: pipesim.d.ts (checked against this file by `tsc` in make test).
//
// METHODS below is the API's one manifest: the worker, the async client, its cache and the sweep
// pool build their method tables from it. What the simulator knows (schedules, limits, defaults,
// timeline columns, error rules) comes from core through catalogue(); nothing here restates it.
// The module comes in two builds (MODULE_BUILDS): the full one has every method, the figures'
// only those wasm/bindings.cpp exports; a method the loaded build lacks throws a SimError.

import { encodeRequest, utf8Length } from './encode-request.js';

// The JSDoc types below name the declarations in pipesim.d.ts (which TypeScript resolves for
// './pipesim.js'), so `tsc -p tests/types` checks this file against them.
/** @typedef {import('./pipesim.js').ErrorData} ErrorData */

/**
 * The API's methods. `arg`: how the argument is named in messages ('config', 'sweep', ...), or
 * null for none; `text`: the result is text, not JSON; `memo`: a pure function of its argument
 * that clients may cache (sim-cache.js); `timeline`: the result carries typed arrays that a
 * worker transfers instead of copying.
 * @type {typeof import('./pipesim.js').METHODS}
 */
export const METHODS = Object.freeze({
  simulate: Object.freeze({ arg: 'config', memo: true, timeline: true }),
  simulateJson: Object.freeze({ arg: 'config', text: true }),
  exportCsv: Object.freeze({ arg: 'config', text: true, memo: true }),
  validate: Object.freeze({ arg: 'config' }),
  sweep: Object.freeze({ arg: 'sweep' }),
  schedules: Object.freeze({ arg: null }),
  catalogue: Object.freeze({ arg: null, memo: true }),
  lessonReport: Object.freeze({ arg: 'costs' }),
  recover: Object.freeze({ arg: 'request', memo: true }),
  params: Object.freeze({ arg: 'request', memo: true }),
  memory: Object.freeze({ arg: 'request', memo: true }),
  traceGrid: Object.freeze({ arg: 'request', memo: true }),
  overlapPair: Object.freeze({ arg: 'costs', memo: true }),
  layerSplit: Object.freeze({ arg: 'request', memo: true }),
  plan: Object.freeze({ arg: 'spec' }),
  planMarkdown: Object.freeze({ arg: 'spec', text: true }),
  traceImport: Object.freeze({ arg: 'trace' }),
});

/**
 * The module's builds (wasm/CMakeLists.txt) by name: the name of each one's files, its glue
 * `<name>.mjs` and its wasm `<name>.wasm`, beside this file. `full` exports every method of
 * METHODS (the lab's page, the Node tests); `figures` only the entry points of wasm/bindings.cpp,
 * all that the embeds and the course's figures call, at about half the size.
 * @type {typeof import('./pipesim.js').MODULE_BUILDS}
 */
export const MODULE_BUILDS = Object.freeze({ full: 'pipesim', figures: 'pipesim-figures' });

/**
 * The method names, in manifest order.
 * @type {typeof import('./pipesim.js').METHOD_NAMES}
 */
export const METHOD_NAMES = Object.freeze(/** @type {(keyof import('./pipesim.js').Pipesim)[]} */ (Object.keys(METHODS)));

/**
 * The names of the timeline's typed arrays, in the catalogue's order.
 * @param {Pick<import('./pipesim.js').Catalogue, 'timeline'>} catalogue
 * @returns {string[]}
 */
export function timelineFields(catalogue) {
  return catalogue.timeline.map((column) => column.name);
}

/**
 * The buffers a worker can transfer with the result of `method`: the one buffer its timeline's
 * typed arrays share (listed once: postMessage rejects a buffer listed twice).
 * @param {string} method
 * @param {any} value
 * @returns {ArrayBuffer[]}
 */
export function transferables(method, value) {
  if (!(method in METHODS) || !METHODS[/** @type {keyof typeof METHODS} */ (method)].timeline) return [];
  const timeline = /** @type {{timeline?: Record<string, unknown>}} */ (value)?.timeline;
  if (!timeline) return [];
  // The activation steps' two buffers too (every rank's views share them).
  const steps = /** @type {{activationSteps?: {time: Float64Array, level: Float64Array}[]}} */ (value)?.activationSteps ?? [];
  return [...new Set([...Object.values(timeline), ...steps.flatMap((s) => [s.time, s.level])]
    .filter(ArrayBuffer.isView)
    .map((array) => /** @type {ArrayBuffer} */ (/** @type {ArrayBufferView} */ (array).buffer)))];
}

/**
 * The typed-array class of a catalogue column type, by the schema's naming: "int16" -> Int16Array.
 * @param {string} type
 * @returns {new (buffer: ArrayBuffer, byteOffset: number, length: number) => ArrayBufferView}
 */
function typedArrayClass(type) {
  const ArrayClass = /** @type {any} */ (globalThis)[`${type[0].toUpperCase()}${type.slice(1)}Array`];
  if (typeof ArrayClass?.BYTES_PER_ELEMENT !== 'number') throw new Error(`no typed array for column type ${type}`);
  return ArrayClass;
}

/**
 * A user-facing failure from pipesim. `code` is a stable id, `path` a JSON pointer or "", `rule`
 * the id of the rule broken (catalogue().rules) and `params` the values its message quotes, so a
 * page can say the same thing in another language.
 * @implements {ErrorData}
 */
export class SimError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {string} [path]
   * @param {string} [rule]
   * @param {Record<string, string | number>} [params]
   * @param {{rule: string, params: Record<string, string | number>, path: string}} [cause]
   */
  constructor(code, message, path = '', rule = '', params = {}, cause = undefined) {
    super(message);
    this.name = 'SimError';
    this.code = code;
    this.path = path;
    this.rule = rule;
    this.params = params;
    if (cause) this.cause = cause;
    else delete this.cause; // absent, not undefined, for every rule that wraps nothing
  }

  /**
   * The wrapped error, in Error's own `cause` property but structured (its rule, params and
   * path), so a page says it from the inner rule's template.
   * @type {{rule: string, params: Record<string, string | number>, path: string} | undefined}
   */
  cause = undefined;

  /**
   * A SimError from the plain {code, message, path, rule, params, cause?} object core and the worker send.
   * @param {{code: string, message: string, path?: string, rule?: string, params?: Record<string, string | number>, cause?: {rule: string, params: Record<string, string | number>, path: string}}} error
   */
  static from(error) {
    return new SimError(error.code, error.message, error.path ?? '', error.rule ?? '', error.params ?? {}, error.cause);
  }
}

/**
 * `value` with every nested object frozen too (the catalogue is shared by every caller).
 * @template T
 * @param {T} value
 * @returns {T}
 */
function deepFreeze(value) {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

const IS_NODE = typeof (/** @type {any} */ (globalThis).process?.versions?.node) === 'string';

/**
 * `text` as core's messages quote a value the user gave (summary() in core's pipesim/rules.h, the
 * same function): on one line, at most `maxBytes` UTF-8 bytes. Control characters (U+0000-U+001F,
 * U+007F-U+009F, U+2028, U+2029) and lone surrogates are escaped (\n, \u0085); a longer text is
 * cut to its first characters and "... (N bytes)", N its length in UTF-8.
 * @param {string} text
 * @param {number} maxBytes
 * @returns {string}
 */
export function summary(text, maxBytes) {
  const note = `... (${utf8Length(text)} bytes)`;
  const fitLimit = Math.max(0, maxBytes - note.length);
  const SHORT = { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r' };
  let out = '';
  let bytes = 0;
  let fit = 0;  // length of `out` at the last character ending within fitLimit bytes
  for (let i = 0; i < text.length && bytes <= maxBytes;) {
    const code = /** @type {number} */ (text.codePointAt(i));
    const units = code > 0xffff ? 2 : 1;
    let piece;
    let size;
    if (code in SHORT) {
      piece = SHORT[/** @type {keyof typeof SHORT} */ (code)];
      size = 2;
    } else if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029 ||
               (code >= 0xd800 && code <= 0xdfff)) {
      piece = `\\u${code.toString(16).padStart(4, '0')}`;
      size = 6;
    } else {
      piece = text.slice(i, i + units);
      size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    }
    out += piece;
    bytes += size;
    if (bytes <= fitLimit) fit = out.length;
    i += units;
  }
  return bytes <= maxBytes ? out : out.slice(0, fit) + note;
}

/**
 * A value JSON cannot carry, as a message quotes it (strings as core's describe() quotes them).
 * @param {unknown} value
 * @param {number} maxBytes
 */
function describe(value, maxBytes) {
  if (typeof value === 'string') return `"${summary(value, maxBytes - 2)}"`;
  if (typeof value === 'bigint') return summary(`${value}n`, maxBytes);
  if (typeof value === 'function') return 'a function';
  return summary(String(value), maxBytes);
}

/** @param {any} envelope */
function unwrap(envelope) {
  if (!envelope.ok) throw SimError.from(JSON.parse(envelope.error));
  return envelope;
}

/** @param {URL} url */
async function readNodeFile(url) {
  // A specifier in a variable: browsers and bundlers never see it, and it needs no Node typings.
  const fs = 'node:fs/promises';
  const { readFile } = await import(fs);
  return readFile(url);
}

/**
 * A SimError of core's `internal` rule (template "{detail}"), for failures made before the
 * catalogue, and with it the rule table, is at hand.
 * @param {string} detail
 */
const internalError = (detail) => new SimError('internal', detail, '', 'internal', { detail });

/**
 * Loads the module and returns the pipesim API. `build` (MODULE_BUILDS, default "full") picks the
 * glue beside this file; `moduleUrl` (relative URLs resolve against this file) names another, and
 * its wasm is looked up beside it, under the same name ending in .wasm, unless `wasmBinary` or
 * `wasmModule` is given. A method the module does not export throws a SimError (rule `internal`)
 * naming the build that has it.
 * @param {import('./pipesim.js').LoadOptions} [options]
 * @returns {Promise<import('./pipesim.js').Pipesim>}
 */
export async function loadPipesim({ build = 'full', wasmBinary, wasmModule, moduleUrl } = {}) {
  if (!Object.hasOwn(MODULE_BUILDS, build)) {
    throw internalError(`loadPipesim's build must be one of ${Object.keys(MODULE_BUILDS).join(', ')}`);
  }
  const url = new URL(moduleUrl ?? `./${MODULE_BUILDS[/** @type {keyof typeof MODULE_BUILDS} */ (build)]}.mjs`, import.meta.url);
  const glueFile = url.pathname.slice(url.pathname.lastIndexOf('/') + 1);
  // The glue and a module compiled elsewhere (a worker that started compiling before this file
  // had loaded) arrive side by side; a compile that failed rejects here, as a failed fetch would.
  const [{ default: createPipesimModule }, compiled] = await Promise.all([import(url.href), wasmModule]);
  /** @type {Record<string, any>} */
  const options = { locateFile: (/** @type {string} */ file) => new URL(file, url).href };
  // Node's fetch() cannot load file: URLs, so Node reads the bytes itself.
  if (wasmBinary) options.wasmBinary = wasmBinary;
  else if (IS_NODE && url.protocol === 'file:' && !compiled) options.wasmBinary = await readNodeFile(new URL(`${glueFile.replace(/\.mjs$/, '')}.wasm`, url));
  /** @type {(reason: unknown) => void} */
  let failed = () => {};
  const instantiated = new Promise((_, reject) => { failed = reject; });
  if (compiled) {
    // Emscripten's hook: it hands over the imports and waits for receive(instance).
    options.instantiateWasm = (/** @type {WebAssembly.Imports} */ imports, /** @type {(instance: WebAssembly.Instance) => void} */ receive) => {
      WebAssembly.instantiate(compiled, imports).then(receive, failed);
      return {};
    };
  }
  const module = await Promise.race([createPipesimModule(options), instantiated]);

  if (typeof module.catalogue !== 'function') throw internalError(`${glueFile} is not a build of the simulator: it exports no catalogue()`);
  const catalogue = deepFreeze(JSON.parse(unwrap(module.catalogue()).result));
  /** @type {Map<string, {code: string, message: string}>} */
  const rules = new Map(catalogue.rules.map((/** @type {any} */ rule) => [rule.id, rule]));
  const { maxInputBytes, maxTraceBytes, maxPathBytes, maxDepth, summaryBytes, maxParamBytes } = catalogue.limits;
  /** @type {[string, ReturnType<typeof typedArrayClass>][]} */
  const columns = catalogue.timeline.map((/** @type {any} */ column) => [column.name, typedArrayClass(column.type)]);

  /**
   * The module's timeline block ({count, bytes, offsets}: every column in one copied buffer) as
   * the API's timeline: a view of each column, all over that one buffer, which a worker then
   * transfers whole.
   * @param {{count: number, bytes: Uint8Array<ArrayBuffer>, offsets: number[]}} block
   */
  const timelineViews = ({ count, bytes, offsets }) => {
    /** @type {Record<string, number | ArrayBufferView>} */
    const timeline = { count };
    columns.forEach(([name, ArrayClass], i) => { timeline[name] = new ArrayClass(bytes.buffer, offsets[i], count); });
    return timeline;
  };

  /**
   * The module's activation steps ({offsets, time, level}: all ranks' points in two copied
   * Float64Arrays) as one {time, level} pair of views per rank.
   * @param {{offsets: number[], time: Float64Array<ArrayBuffer>, level: Float64Array<ArrayBuffer>}} block
   */
  const stepsViews = ({ offsets, time, level }) => offsets.slice(1).map((end, r) => ({
    time: time.subarray(offsets[r], end),
    level: level.subarray(offsets[r], end),
  }));

  /**
   * A SimError of one of core's rules, its message filled in from the rule's template, for the
   * checks made here: values JSON cannot carry, and text too long to hand to the module. String
   * params are held to maxParamBytes as core holds them (values the user gave are summaries).
   * @param {string} id
   * @param {string} path
   * @param {Record<string, string | number>} params
   */
  const ruleError = (id, path, params) => {
    const rule = /** @type {{code: string, message: string}} */ (rules.get(id));
    /** @type {Record<string, string | number>} */
    const held = {};
    for (const [name, value] of Object.entries(params)) {
      held[name] = typeof value === 'string' ? summary(value, maxParamBytes) : value;
    }
    const message = rule.message.replace(/\{(\w+)\}/g, (_, name) => String(held[name]));
    return new SimError(rule.code, message, path, id, held);
  };

  /**
   * Encodes `value` as the JSON text core reads; `what` names it in messages ("config"). Values
   * JSON cannot be (undefined, a function, a symbol, a BigInt, NaN) are refused here as a whole;
   * everything inside is read once by encodeRequest (encode-request.js), whose every failure,
   * the caller's own exceptions included, is a SimError.
   * @param {unknown} value
   * @param {string} what
   */
  const encode = (value, what) => {
    const kind = typeof value;
    const notJson = kind === 'undefined' || kind === 'function' || kind === 'symbol' || kind === 'bigint';
    if (notJson || (kind === 'number' && !Number.isFinite(value))) {
      throw ruleError('field.json_object', '', { field: what, got: describe(value, summaryBytes) });
    }
    return encodeRequest(value, what, { maxInputBytes, maxPathBytes, maxDepth, summaryBytes }, ruleError, summary);
  };

  /**
   * A trace as the module reads it: bytes. Text is encoded as UTF-8, a parsed trace (or anything
   * else JSON can carry) written as JSON text first; core says what is wrong with it.
   * @param {unknown} trace
   * @returns {Uint8Array}
   */
  const traceBytes = (trace) => {
    if (trace instanceof Uint8Array) return trace;
    if (trace instanceof ArrayBuffer) return new Uint8Array(trace);
    if (ArrayBuffer.isView(trace)) return new Uint8Array(trace.buffer, trace.byteOffset, trace.byteLength);
    const text = typeof trace === 'string' ? trace : encode(trace, 'trace');
    // A string has at least as many UTF-8 bytes as UTF-16 units: refused before it is encoded.
    if (text.length > maxTraceBytes) throw ruleError('input.too_large', '', { limit: maxTraceBytes });
    return new TextEncoder().encode(text);
  };

  /**
   * What a method the loaded build does not export throws: a bug of the caller's wiring (a page
   * that loaded the figures' build and then asked for more), said with the build that has it.
   * @param {string} name
   */
  const missingMethod = (name) => ruleError('internal', '', {
    detail: `${name}() is not in ${glueFile}, the build of the simulator loaded here; the full build, ${MODULE_BUILDS.full}.mjs, has it`,
  });

  /** @type {Record<string, (...args: any[]) => any>} */
  const api = {};
  for (const [name, method] of Object.entries(METHODS)) {
    if (typeof module[name] !== 'function') {
      api[name] = () => { throw missingMethod(name); };
      continue;
    }
    if (name === 'traceImport') {
      api[name] = (/** @type {unknown} */ trace, /** @type {unknown} */ options = {}) => {
        const bytes = traceBytes(trace);
        if (bytes.length > maxTraceBytes) throw ruleError('input.too_large', '', { limit: maxTraceBytes });
        return JSON.parse(unwrap(module.traceImport(bytes, encode(options, 'options'))).result);
      };
      continue;
    }
    api[name] = (/** @type {unknown} */ arg) => {
      let text = '';
      if (method.arg !== null) {
        if (name === 'lessonReport' && arg === undefined) arg = {};  // DeepSeek's costs
        text = name === 'simulateJson' && typeof arg === 'string' ? arg : encode(arg, method.arg);
        // Core refuses it too, but only after the module has copied it into its heap. A string
        // has at least as many UTF-8 bytes as UTF-16 units; between the two, core decides.
        if (text.length > maxInputBytes) throw ruleError('input.too_large', '', { limit: maxInputBytes });
      }
      const envelope = unwrap(method.arg === null ? module[name]() : module[name](text));
      if (method.text) return envelope.result;
      const result = JSON.parse(envelope.result);
      if (method.timeline) {
        result.timeline = timelineViews(envelope.timeline);
        result.activationSteps = stepsViews(envelope.activationSteps);
      }
      return result;
    };
  }
  // The catalogue was read once above; every call returns that same frozen object.
  api.catalogue = () => catalogue;
  // Built from the manifest, so its methods are METHODS' keys (tests/wasm check that at run
  // time; tests/types/consumer.ts checks that METHODS' keys are Pipesim's).
  return /** @type {import('./pipesim.js').Pipesim} */ (/** @type {unknown} */ (Object.freeze(api)));
}
