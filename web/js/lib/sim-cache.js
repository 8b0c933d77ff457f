// Memoises a sim client's simulate() by config, so the several widgets that show the same
// config (the cost panel's formula check, a lesson number and its widget) share one run.
// Rejections are cached too: the same bad config gives the same SimError without re-running.
// DOM-free.

/** Wraps `client` (createSimClient() or a pipesim API); keeps the `limit` most recent results. */
export function withCache(client, limit = 32) {
  const cache = new Map(); // key -> Promise<result>
  const simulate = (config) => {
    const key = JSON.stringify(config);
    let promise = cache.get(key);
    if (promise) {
      cache.delete(key); // re-insert: Map order is our recency order
    } else {
      promise = Promise.resolve().then(() => client.simulate(config));
      promise.catch(() => {}); // a rejection is observed by whoever awaits it
    }
    cache.set(key, promise);
    while (cache.size > limit) cache.delete(cache.keys().next().value);
    return promise;
  };
  return {
    simulate,
    sweep: (request) => Promise.resolve().then(() => client.sweep(request)),
    validate: (config) => Promise.resolve().then(() => client.validate(config)),
    schedules: () => Promise.resolve().then(() => client.schedules()),
  };
}
