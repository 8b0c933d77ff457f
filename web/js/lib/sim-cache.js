// Memoises a sim client's pure methods by argument, so the several widgets that show the same
// config (the cost panel's formula check, a lesson number and its widget) share one run. Which
// methods are pure is pipesim.js's manifest (METHODS[name].memo: simulate and the exercise
// calculators); the rest pass through. Rejections are cached too: the same bad config gives the
// same SimError without re-running. DOM-free.
import { METHODS } from '../../generated/pipesim.js';

/** Wraps `client` (createSimClient() or a pipesim API); keeps the `limit` most recent results. */
export function withCache(client, limit = 32) {
  const cache = new Map(); // key -> Promise<result>
  const memoised = (method) => (request) => {
    const key = `${method}:${JSON.stringify(request)}`;
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
