// Memoises a sim client's pure methods by argument, so the several widgets that show the same
// config (the cost panel's formula check, a lesson number and its widget) share one run. Which
// methods are pure is pipesim.js's manifest (METHODS[name].memo: simulate and the exercise
// calculators); the rest pass through. Rejections are cached too: the same bad config gives the
// same SimError without re-running. Results are shared by everyone who asks: nobody may change
// one. DOM-free.
//
// Seeds are answers known before the client has loaded: the runs the page shows first, computed
// by the same module at build time (scripts/first-runs.mjs writes generated/first-runs.js), so
// the first timeline is drawn without waiting for the worker to fetch and compile the wasm.
import { METHODS } from '../../generated/pipesim.js';

/** JSON with every object's keys sorted: two requests that differ only in key order are one. */
function canonicalJson(value) {
  return JSON.stringify(value, (_key, v) => (v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]]))
    : v));
}

/** The cache's key of one call: method and request (key order does not matter). */
export const cacheKey = (method, request) => `${method}:${canonicalJson(request)}`;

/**
 * Wraps `client` (createSimClient() or a pipesim API); keeps the `limit` most recent results.
 * `seeds`: [{method, request, value}], answers to hand out without calling the client.
 */
export function withCache(client, { limit = 32, seeds = [] } = {}) {
  const cache = new Map(); // key -> Promise<result>, least recently used first
  for (const { method, request, value } of seeds) {
    if (METHODS[method]?.memo) cache.set(cacheKey(method, request), Promise.resolve(value));
  }
  const memoised = (method) => (request) => {
    const key = cacheKey(method, request);
    let promise = cache.get(key);
    if (promise) {
      cache.delete(key); // re-insert: Map order is our recency order
    } else {
      promise = Promise.resolve().then(() => client[method](request));
      promise.catch(() => {}); // a rejection is observed by whoever awaits it
    }
    cache.set(key, promise);
    while (cache.size > limit) cache.delete(cache.keys().next().value);
    return promise;
  };
  const wrapped = {};
  for (const [method, { memo }] of Object.entries(METHODS)) {
    if (typeof client[method] !== 'function') continue;
    wrapped[method] = memo ? memoised(method) : (...args) => Promise.resolve().then(() => client[method](...args));
  }
  return wrapped;
}
