// Application state and its round trip through the URL hash (or an embed's query string, element
// attributes or figure config). One declarative table, PARAMS (in the manner of
// tensorflow/playground's state.ts), lists every address key once: where its value lives in the
// state, its type, its default (costs and the communication model: core's, from the catalogue),
// what it allows and the other spellings embeds accept. Parsing, serialising, the embed
// parameters and the default state are all generated from it. parseParams/serializeState are pure
// so Node tests can check the round trip; createStore is a tiny observable; bindHash (the only
// DOM-touching part) keeps location.hash in step.
// Values the simulator must judge (schedule names, ranks...) are passed through as written, so a
// bad URL parameter reaches pipesim.validate and its SimError names the field.
import CATALOGUE from '../generated/catalogue.js';
import { PLAN_URL_KEYS } from './lib/planner-presets.js';
import { atTick } from './lib/tick.js';
import { translator } from './lib/i18n.js';
import { VIEWS } from './lib/first-view.js';
import { SUPPORTED_LANGS } from './lib/lang-pref.js';
import { DEFAULT_LANG } from './lib/locales.js';
import { summary } from '../generated/pipesim.js';
import { parseStageCosts, formatStageCosts } from './lib/stage-costs-text.js';

export { VIEWS };
export const THEMES = ['auto', 'light', 'dark'];
export const LANGS = SUPPORTED_LANGS;
export const AXES = ['microbatches', 'ranks'];
export const SPEEDS = [0.25, 0.5, 1, 2, 4];

/** Core's cost defaults (DeepSeek's figure), from the catalogue. */
export const DEFAULT_COSTS = CATALOGUE.costs;

/**
 * Core's communication model defaults, used when the model is switched on. Off by default:
 * DEFAULT_COSTS has no comm.
 */
export const DEFAULT_COMM = CATALOGUE.comm;

/**
 * Longest hand-written schedule (its text) the address holds. A longer one stays on the page but
 * is left out of the address: browsers, mail and chat apps cut long links, and a cut link is
 * worse than none. DualPipe on 4 ranks with 8 micro-batches is about 700 characters, on 8 ranks
 * with 20 about 3,500.
 */
export const MAX_CUSTOM_URL_CHARS = 4000;

// Address keys of cost and comm fields whose name in the address differs from the field's (short
// keys keep shared links readable), and the other spellings embeds accept. A field core adds
// gets a key of its own name with no change here.
const COST_KEYS = { p2pLatency: { key: 'p2p', aliases: ['p2pLatency', 'p2p-latency', 'latency'] } };
const COMM_KEYS = {
  ratio: { key: 'commRatio', aliases: ['comm-ratio'] },
  attnShare: { aliases: ['attn-share'] },
  layers: { key: 'commLayers', aliases: ['comm-layers'] },
};

// The memory model's keys: the model first (it is what switches the memory lane to GB), then the
// accounting, layout and activations. Choices and defaults are core's (catalogue().memory).
const MEMORY = CATALOGUE.memory;
const MEMORY_KEYS = [
  { key: 'model', path: ['memoryModel', 'model'], type: 'choice', values: MEMORY.models.map((m) => m.name), default: MEMORY.models[0].name },
  { key: 'recipe', path: ['memoryModel', 'recipe'], type: 'choice', values: MEMORY.recipes.map((r) => r.id), default: MEMORY.defaults.recipe },
  { key: 'zero', path: ['memoryModel', 'zero'], type: 'choice', values: MEMORY.zeroStages, default: MEMORY.defaults.zero },
  { key: 'tp', path: ['memoryModel', 'layout', 'tp'], type: 'sim', default: MEMORY.defaults.tp },
  { key: 'dp', path: ['memoryModel', 'layout', 'dp'], type: 'sim', default: MEMORY.defaults.dp },
  { key: 'ep', path: ['memoryModel', 'layout', 'ep'], type: 'sim', default: MEMORY.defaults.ep },
  { key: 'sp', path: ['memoryModel', 'layout', 'sequenceParallel'], type: 'choice', values: [false, true], default: false },
  { key: 'seq', path: ['memoryModel', 'activations', 'seqLength'], type: 'sim', default: MEMORY.defaults.seqLength },
  { key: 'mbs', path: ['memoryModel', 'activations', 'microBatchSize'], type: 'sim', default: MEMORY.defaults.microBatchSize },
  { key: 'recompute', path: ['memoryModel', 'activations', 'recompute'], type: 'choice', values: MEMORY.recompute, default: MEMORY.defaults.recompute },
];

/** The memory model with every key at its default (the group's object once a model is named). */
export function defaultMemoryModel() {
  const model = { layout: {}, activations: {} };
  for (const entry of MEMORY_KEYS) assign(model, entry.path.slice(1), entry.default);
  return model;
}

/**
 * The address's keys, in the order they are written. Each entry:
 *   key      the parameter's name in the address
 *   path     where its value lives in the state
 *   type     how it is read and written (TYPES below)
 *   default  its value when absent (also left out of the address when equal)
 *   values   the allowed values (type 'choice')
 *   aliases  other names accepted on the way in (embeds: attributes, figure configs)
 *   group    'comm' or 'memory': the object holding it (costs.comm, memoryModel) exists only when
 *            one of its keys is given; the group's first key is always written, since it is what
 *            switches the model on
 *   embed    false: not a parameter of an embedded widget
 */
export const PARAMS = Object.freeze([
  { key: 'view', path: ['view'], type: 'choice', values: VIEWS, default: VIEWS[0], embed: false },
  { key: 'schedule', path: ['schedule'], type: 'text', default: 'dualpipe' },
  // Schedules drawn beside the first on the same time axis, comma-separated ("1f1b,zb-h1"), or ''.
  { key: 'compare', path: ['compare'], type: 'text', default: '' },
  { key: 'ranks', path: ['ranks'], type: 'sim', default: 8 },
  { key: 'microbatches', path: ['microbatches'], type: 'sim', default: 20, aliases: ['mb', 'micro_batches'] },
  // Model chunks per rank, for the schedules whose catalogue entry takes them; null: each such
  // schedule's own default (the catalogue's), so no default is restated here.
  { key: 'chunks', path: ['chunks'], type: 'sim', default: null },
  // When ops start (core's SimConfig timing; values and default from the catalogue): applied to
  // the schedules whose catalogue entry lists it in `timings` (DeepSeek's step()), kept for the
  // others so switching back restores it. Embeds take it too, as they take chunks.
  { key: 'timing', path: ['timing'], type: 'choice', values: CATALOGUE.timing.values, default: CATALOGUE.timing.default },
  // Megatron-Core's combined 1F1B and its delayed weight gradients (core's SimConfig a2aOverlap,
  // delayWgrad): applied to the schedules whose catalogue entry takes a2aOverlap, kept for the
  // others, as timing is.
  { key: 'a2aOverlap', path: ['a2aOverlap'], type: 'flag', default: false, aliases: ['a2a-overlap'] },
  { key: 'delayWgrad', path: ['delayWgrad'], type: 'flag', default: false, aliases: ['delay-wgrad'] },
  ...Object.entries(DEFAULT_COSTS).map(([field, value]) => ({
    key: field, aliases: [], ...COST_KEYS[field], path: ['costs', field], type: 'sim', default: value,
  })),
  ...Object.entries(DEFAULT_COMM).map(([field, value]) => ({
    key: field, aliases: [], ...COMM_KEYS[field], path: ['costs', 'comm', field], type: 'sim', default: value, group: 'comm',
  })),
  // Per-stage costs (core's stageCosts), in the CLI's --stage-costs form
  // (lib/stage-costs-text.js); null: every stage costs the costs above.
  { key: 'stageCosts', path: ['stageCosts'], type: 'stages', default: null, aliases: ['stage-costs'] },
  // The memory model (core's pipesim/memory.h), for the explorer's memory lane in GB: on once a
  // model is named; its other keys take core's defaults (catalogue().memory). Not for embeds.
  ...MEMORY_KEYS.map((entry) => ({ aliases: [], ...entry, group: 'memory', embed: false })),
  // The time cursor; null = the end of the schedule (everything drawn).
  { key: 't', path: ['t'], type: 'time', default: null },
  // The data-table view instead of the chart.
  { key: 'table', path: ['table'], type: 'flag', default: false },
  // Timeline: each rank split into compute and communication streams (needs costs.comm).
  { key: 'streams', path: ['streams'], type: 'flag', default: false },
  // Timeline: each rank's in-flight activations over time, under its ops.
  { key: 'memory', path: ['memory'], type: 'flag', default: false },
  { key: 'speed', path: ['speed'], type: 'choice', values: SPEEDS, default: 1 },
  // Sweep: vary micro-batches at fixed ranks, or ranks at fixed micro-batches.
  { key: 'axis', path: ['axis'], type: 'choice', values: AXES, default: 'microbatches' },
  { key: 'theme', path: ['theme'], type: 'choice', values: THEMES, default: 'auto' },
  { key: 'lang', path: ['lang'], type: 'choice', values: LANGS, default: DEFAULT_LANG },
  // A lesson exercise to scroll to (#exercise=hand-trace), or '' for none.
  { key: 'exercise', path: ['exercise'], type: 'text', default: '', embed: false },
  // Timeline: a hand-written schedule (op labels, a line per rank, or its JSON), or '' for none.
  { key: 'custom', path: ['custom'], type: 'longText', default: '', maxLength: MAX_CUSTOM_URL_CHARS, embed: false },
  // Planner: URL text of its preset (`plan`) and of the fields changed from it; the planner
  // judges them (it shows each message beside its field).
  ...PLAN_URL_KEYS.map((key) => ({ key, path: ['plan', key], type: 'plan', default: undefined, embed: false })),
]);

/** "8" -> 8, "8.0" -> 8, "abc" -> "abc" (left for the simulator to reject with its own message). */
function numberOrRaw(text) {
  const trimmed = text.trim();
  if (trimmed !== '' && /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(trimmed)) return Number(trimmed);
  return text;
}

/**
 * A value the user gave (an address parameter, an embed attribute, a pasted answer or label) as
 * every message on the page quotes it: as core quotes values (the JS API's summary(), the same
 * function, at the catalogue's summaryBytes), one line of at most 80 bytes, so a 1 MB or
 * multi-line value makes a short message.
 * @param {unknown} value
 */
export function quoteValue(value) {
  return summary(String(value), CATALOGUE.limits.summaryBytes);
}

const english = translator(DEFAULT_LANG);
/**
 * A problem with a page-level key: {key, rule, params, message}; rule is an i18n key. The value
 * received is quoted by quoteValue.
 */
function problem(key, rule, params) {
  const quoted = params.got === undefined ? params : { ...params, got: quoteValue(params.got) };
  return { key, rule, params: quoted, message: problemText({ rule, params: quoted }, english) };
}

/**
 * A problem's text in the language of translator `t`: a list among its params (the values a key
 * allows) said as that language says a choice, "a, b or c" (t.list), not joined in code.
 */
export function problemText({ rule, params }, t) {
  const said = Object.fromEntries(Object.entries(params).map(([name, value]) => [name, Array.isArray(value) ? t.list(value, 'disjunction') : value]));
  return t(rule, said);
}

/**
 * How each type is read from the address (`read(text, entry)` -> {value} or {error}) and written
 * (`write(value, entry)` -> text, or null to leave the key out).
 */
const TYPES = {
  choice: {
    read(text, { key, values }) {
      const value = values.find((v) => String(v) === text || (typeof v === 'number' && v === Number(text)));
      if (value !== undefined) return { value };
      return { error: problem(key, 'url.oneOf', { key, allowed: values.map(String), got: text }) };
    },
    write: String,
  },
  sim: { read: (text) => ({ value: numberOrRaw(text) }), write: String },
  text: { read: (text) => ({ value: text.trim() }), write: String },
  // Text kept as typed (line breaks and spaces matter), written only when short enough.
  longText: {
    read: (text) => ({ value: text }),
    write: (value, { maxLength }) => (value.length <= maxLength ? value : null),
  },
  flag: { read: (text) => ({ value: text === '1' || text === 'true' }), write: (value) => (value ? '1' : null) },
  time: {
    read(text, { key }) {
      const value = numberOrRaw(text);
      if (typeof value === 'number' && value >= 0) return { value };
      return { error: problem(key, 'url.time', { key, got: text }) };
    },
    write: (value) => String(atTick(value)),
  },
  plan: { read: (text) => ({ value: text.trim() }), write: (value) => (typeof value === 'string' ? value : null) },
  stages: {
    read: (text) => ({ value: text.trim() === '' ? null : parseStageCosts(text) }),
    write: (value) => (Array.isArray(value) && value.length ? formatStageCosts(value) : null),
  },
};

const deepCopy = (value) => JSON.parse(JSON.stringify(value));

const read = (object, path) => path.reduce((node, name) => (node == null ? undefined : node[name]), object);

function assign(object, path, value) {
  let node = object;
  for (const name of path.slice(0, -1)) node = node[name];
  node[path[path.length - 1]] = value;
}

/** The state every key at its default: the defaults of PARAMS, with costs.comm absent (off). */
function defaultState() {
  const state = { costs: {}, plan: {} };
  for (const entry of PARAMS) if (!entry.group && entry.default !== undefined) assign(state, entry.path, entry.default);
  Object.freeze(state.costs);
  Object.freeze(state.plan);
  return Object.freeze(state);
}

export const DEFAULT_STATE = defaultState();

/** The value given for `entry` under its key or one of its aliases, or null. */
function given(p, entry) {
  for (const name of [entry.key, ...(entry.aliases || [])]) if (p.has(name)) return p.get(name);
  return null;
}

/**
 * Reads state from URL parameters (hash or query string). Unknown keys are ignored so links from
 * newer versions still open. Returns the state and the problems found with page-level keys.
 * @returns {{state: object, errors: {key: string, rule: string, params: object, message: string}[]}}
 */
export function parseParams(params, base = DEFAULT_STATE) {
  const p = params instanceof URLSearchParams ? params : new URLSearchParams(String(params).replace(/^[#?]/, ''));
  const errors = [];
  const state = { ...base, costs: { ...base.costs }, plan: { ...base.plan } };
  // A group's object is made once one of its keys is given: the others take their defaults.
  const groupGiven = (group) => PARAMS.some((entry) => entry.group === group && given(p, entry) !== null);
  if (groupGiven('comm')) state.costs.comm = { ...DEFAULT_COMM, ...base.costs.comm };
  if (groupGiven('memory')) state.memoryModel = deepCopy(base.memoryModel ?? defaultMemoryModel());
  for (const entry of PARAMS) {
    const text = given(p, entry);
    if (text === null) continue;
    const { value, error } = TYPES[entry.type].read(text, entry);
    if (error) errors.push(error);
    else assign(state, entry.path, value);
  }
  return { state, errors };
}

/** Writes the keys that differ from the defaults, in the table's order, as "k=v&k=v". */
export function serializeState(state, base = DEFAULT_STATE) {
  const p = new URLSearchParams();
  const seenGroups = new Set();
  for (const entry of PARAMS) {
    const value = read(state, entry.path);
    if (value === null || value === undefined) continue;
    let written = true;
    if (entry.group) {
      // The group's first key is always written: it is what switches the model on.
      written = !seenGroups.has(entry.group) || value !== entry.default;
      seenGroups.add(entry.group);
    } else {
      written = value !== read(base, entry.path);
    }
    if (!written) continue;
    const text = TYPES[entry.type].write(value, entry);
    if (text !== null) p.set(entry.key, text);
  }
  return p.toString();
}

/** The names a value may be given under in an embed, for attributes: lowercase keys and aliases. */
export const EMBED_PARAMS = Object.freeze(PARAMS.filter((entry) => entry.embed !== false)
  .flatMap((entry) => [entry.key, ...(entry.aliases || [])])
  .filter((name) => /^[a-z][a-z0-9-]*$/.test(name)));

const byPath = (path) => PARAMS.find((entry) => entry.path.length === path.length && entry.path.every((name, i) => name === path[i]));

/**
 * URL-style parameters from a query string, URLSearchParams, or a plain object such as a figure
 * fence's {"ranks":8,"microbatches":20,"costs":{"forward":1}}: nested objects are read by their
 * path in the state, so costs may be nested or flat, and so may the communication model
 * ("costs":{"comm":{"ratio":1}}, "comm":{"ratio":1} or "commRatio":1). Other names pass through.
 */
export function paramsFrom(input) {
  if (input instanceof URLSearchParams) return new URLSearchParams(input);
  if (typeof input === 'string') return new URLSearchParams(input.replace(/^[?#]/, ''));
  const params = new URLSearchParams();
  const visit = (object, prefix) => {
    for (const [name, value] of Object.entries(object || {})) {
      if (value === undefined || value === null) continue;
      const path = [...prefix, name];
      if (typeof value === 'object' && !Array.isArray(value)) {
        visit(value, path);
        continue;
      }
      const entry = byPath(path) || byPath(['costs', ...path]);
      // A list (a figure's stageCosts) is written as its address form.
      const text = entry && Array.isArray(value) ? TYPES[entry.type].write(value, entry) : String(value);
      if (text !== null) params.set(entry ? entry.key : path.join('.'), text);
    }
  };
  visit(input, []);
  return params;
}

/**
 * The simulator config for the main schedule (or the compared one). `chunks` goes only to a
 * schedule whose catalogue entry takes it: core rejects it for any other (chunks.unsupported),
 * and the compared schedule may be one of those; `timing` likewise (the entry's `timings`), and
 * `a2aOverlap` with `delayWgrad` (the entry's `a2aOverlap`).
 */
export function configOf(state, schedule = state.schedule) {
  const config = { schedule, ranks: state.ranks, microbatches: state.microbatches, costs: { ...state.costs } };
  // The memory model, when a model is named: the result then counts memory in bytes.
  if (state.memoryModel) config.memoryModel = deepCopy(state.memoryModel);
  const info = CATALOGUE.schedules.find((s) => s.name === schedule);
  if (info?.chunks && state.chunks !== null && state.chunks !== undefined) config.chunks = state.chunks;
  // A timing other than the default goes only to a schedule that runs under it (timing.schedule
  // otherwise); the compared schedule may not.
  if (state.timing && state.timing !== CATALOGUE.timing.default && info?.timings.includes(state.timing)) config.timing = state.timing;
  // As set: delayWgrad without a2aOverlap reaches core, whose message says it needs it.
  if (info?.a2aOverlap) {
    if (state.a2aOverlap) config.a2aOverlap = true;
    if (state.delayWgrad) config.delayWgrad = true;
  }
  // Per-stage costs go to both runs of a comparison: one assumption on both sides (a schedule
  // with another number of stages is refused with core's stage_costs.count, and says so).
  if (Array.isArray(state.stageCosts) && state.stageCosts.length) config.stageCosts = state.stageCosts;
  return config;
}

/** The schedules compared with the first (the address's `compare`: any number, comma-separated), in order, once each. */
export function comparedSchedules(state) {
  return [...new Set(String(state.compare ?? '').split(',').map((name) => name.trim()).filter(Boolean))];
}

/** The runs the timeline explorer draws for `state`: its schedule, then each compared one, on one axis. */
export function explorerRuns(state) {
  return [configOf(state), ...comparedSchedules(state).map((name) => configOf(state, name))];
}

/** A minimal observable store: set() merges a patch and notifies with (state, changedKeys). */
export function createStore(initial) {
  let state = initial;
  const listeners = new Set();
  return {
    get: () => state,
    set(patch) {
      const changed = Object.keys(patch).filter((k) => !sameValue(state[k], patch[k]));
      if (!changed.length) return;
      state = { ...state, ...patch };
      for (const fn of listeners) fn(state, changed);
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}

/** Equal values; plain objects (costs and their comm, a plan) compare field by field. */
export function sameValue(a, b) {
  if (a === b) return true;
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => sameValue(a[k], b[k]));
  }
  return false;
}

/**
 * Keeps location.hash and the store in step. Uses replaceState so scrubbing and typing do not
 * flood the back button; the time cursor is written only when `isSettled()` (not while playing).
 */
export function bindHash(store, win, { isSettled = () => true, onErrors = () => {} } = {}) {
  let lastWritten = win.location.hash.replace(/^#/, '');
  store.subscribe((state, changed) => {
    if (changed.length === 1 && changed[0] === 't' && !isSettled()) return;
    const text = serializeState(state);
    if (text === lastWritten) return;
    lastWritten = text;
    win.history.replaceState(null, '', text ? `#${text}` : win.location.pathname + win.location.search);
  });
  win.addEventListener('hashchange', () => {
    const text = win.location.hash.replace(/^#/, '');
    if (text === lastWritten) return;
    lastWritten = text;
    const { state, errors } = parseParams(text);
    onErrors(errors);
    store.set(state);
  });
}
