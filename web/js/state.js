// Application state and its round trip through the URL hash (or an embed's query string).
// parseParams/serializeState are pure so Node tests can check the round trip; createStore is
// a tiny observable; bindHash (the only DOM-touching part) keeps location.hash in step.
// Values the simulator must judge (schedule names, ranks...) are passed through as written, so
// a bad URL parameter reaches pipesim.validate and its SimError message names the field.
import CATALOGUE from '../generated/catalogue.js';
import { PLAN_URL_KEYS } from './lib/planner-presets.js';

export const VIEWS = ['lesson', 'timeline', 'sweep', 'planner'];
export const THEMES = ['auto', 'light', 'dark'];
export const LANGS = ['en', 'hi'];
export const AXES = ['microbatches', 'ranks'];
export const SPEEDS = [0.25, 0.5, 1, 2, 4];

/** Core's cost defaults (DeepSeek's figure), from the catalogue. */
export const DEFAULT_COSTS = CATALOGUE.costs;

/**
 * Core's communication model defaults, used when the model is switched on. Off by default:
 * DEFAULT_COSTS has no comm.
 */
export const DEFAULT_COMM = CATALOGUE.comm;

export const DEFAULT_STATE = Object.freeze({
  view: 'lesson',
  schedule: 'dualpipe',
  compare: '', // a second schedule drawn on the same time axis, or '' for none
  ranks: 8,
  microbatches: 20,
  costs: DEFAULT_COSTS,
  t: null, // time cursor; null = the end of the schedule (everything drawn)
  table: false, // data-table view instead of the chart
  streams: false, // timeline: each rank split into compute and communication streams (needs costs.comm)
  speed: 1,
  axis: 'microbatches', // sweep: vary micro-batches at fixed ranks, or ranks at fixed micro-batches
  theme: 'auto',
  lang: 'en',
  exercise: '', // a lesson exercise to scroll to (#exercise=hand-trace), or '' for none
  plan: Object.freeze({}), // planner: URL text of its preset (`plan`) and of the fields changed from it
});

// URL key -> cost field. Short keys keep shared links readable.
const COST_KEYS = { forward: 'forward', backward: 'backward', weight: 'weight', overlapped: 'overlapped', p2p: 'p2pLatency' };
// URL key -> costs.comm field. Any of them switches the model on; the others take DEFAULT_COMM.
const COMM_KEYS = { commRatio: 'ratio', attnShare: 'attnShare', commLayers: 'layers' };

/** "8" -> 8, "8.0" -> 8, "abc" -> "abc" (left for the simulator to reject with its own message). */
function numberOrRaw(text) {
  const trimmed = text.trim();
  if (trimmed !== '' && /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(trimmed)) return Number(trimmed);
  return text;
}

function oneOf(key, value, allowed, errors, fallback) {
  if (allowed.includes(value)) return value;
  errors.push({ key, message: `${key} must be one of ${allowed.join(', ')} (got "${value}")` });
  return fallback;
}

/**
 * Reads state from URL parameters (hash or query string). Unknown keys are ignored so links from
 * newer versions still open. Returns the state and the problems found with page-level keys.
 * @returns {{state: object, errors: {key: string, message: string}[]}}
 */
export function parseParams(params, base = DEFAULT_STATE) {
  const p = params instanceof URLSearchParams ? params : new URLSearchParams(String(params).replace(/^[#?]/, ''));
  const errors = [];
  const state = { ...base, costs: { ...base.costs }, plan: { ...base.plan } };
  const get = (k) => (p.has(k) ? p.get(k) : null);

  if (get('view') !== null) state.view = oneOf('view', get('view'), VIEWS, errors, base.view);
  if (get('schedule') !== null) state.schedule = get('schedule').trim();
  if (get('compare') !== null) state.compare = get('compare').trim();
  if (get('ranks') !== null) state.ranks = numberOrRaw(get('ranks'));
  if (get('microbatches') !== null) state.microbatches = numberOrRaw(get('microbatches'));
  for (const [key, field] of Object.entries(COST_KEYS)) {
    if (get(key) !== null) state.costs[field] = numberOrRaw(get(key));
  }
  if (Object.keys(COMM_KEYS).some((key) => get(key) !== null)) {
    const comm = { ...DEFAULT_COMM, ...base.costs.comm };
    for (const [key, field] of Object.entries(COMM_KEYS)) if (get(key) !== null) comm[field] = numberOrRaw(get(key));
    state.costs.comm = comm;
  }
  if (get('t') !== null) {
    const t = numberOrRaw(get('t'));
    if (typeof t === 'number' && t >= 0) state.t = t;
    else errors.push({ key: 't', message: `t must be a time >= 0 (got "${get('t')}")` });
  }
  if (get('table') !== null) state.table = get('table') === '1' || get('table') === 'true';
  if (get('streams') !== null) state.streams = get('streams') === '1' || get('streams') === 'true';
  if (get('speed') !== null) {
    const speed = Number(get('speed'));
    if (SPEEDS.includes(speed)) state.speed = speed;
    else errors.push({ key: 'speed', message: `speed must be one of ${SPEEDS.join(', ')} (got "${get('speed')}")` });
  }
  if (get('axis') !== null) state.axis = oneOf('axis', get('axis'), AXES, errors, base.axis);
  if (get('theme') !== null) state.theme = oneOf('theme', get('theme'), THEMES, errors, base.theme);
  if (get('lang') !== null) state.lang = oneOf('lang', get('lang'), LANGS, errors, base.lang);
  if (get('exercise') !== null) state.exercise = get('exercise').trim();
  // A plan's values are the planner's to judge (it shows each message beside its field).
  for (const key of PLAN_URL_KEYS) if (get(key) !== null) state.plan[key] = get(key).trim();
  return { state, errors };
}

/** Writes the keys that differ from the defaults, in a fixed order, as "k=v&k=v". */
export function serializeState(state, base = DEFAULT_STATE) {
  const p = new URLSearchParams();
  const put = (key, value, def) => {
    if (value !== def && value !== null && value !== undefined) p.set(key, String(value));
  };
  put('view', state.view, base.view);
  put('schedule', state.schedule, base.schedule);
  put('compare', state.compare, base.compare);
  put('ranks', state.ranks, base.ranks);
  put('microbatches', state.microbatches, base.microbatches);
  for (const [key, field] of Object.entries(COST_KEYS)) put(key, state.costs[field], base.costs[field]);
  const comm = state.costs.comm;
  if (comm && comm.ratio !== undefined) {
    p.set('commRatio', String(comm.ratio)); // always written: it is what switches the model on
    put('attnShare', comm.attnShare, DEFAULT_COMM.attnShare);
    put('commLayers', comm.layers, DEFAULT_COMM.layers);
  }
  if (state.t !== null && state.t !== undefined) p.set('t', String(Number(state.t.toFixed(6))));
  if (state.table) p.set('table', '1');
  if (state.streams) p.set('streams', '1');
  put('speed', state.speed, base.speed);
  put('axis', state.axis, base.axis);
  put('theme', state.theme, base.theme);
  put('lang', state.lang, base.lang);
  put('exercise', state.exercise, base.exercise);
  for (const key of PLAN_URL_KEYS) if (state.plan && typeof state.plan[key] === 'string') p.set(key, state.plan[key]);
  return p.toString();
}

/** The simulator config for the main schedule (or the compared one). */
export function configOf(state, schedule = state.schedule) {
  return { schedule, ranks: state.ranks, microbatches: state.microbatches, costs: { ...state.costs } };
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
function sameValue(a, b) {
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
